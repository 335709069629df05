import Foundation
import Testing

@testable import KioskConfiguration

/// `[speech]` and `[display]`: values read, defaults kept, bad values refused naming the key.
@Suite struct SpeechSettingsTests {
    @Test func valuesAreRead() throws {
        let config = try KioskConfigFile.parse(
            """
            [speech]
            enabled = true
            auto_speak = true
            volume = 140
            volume_step = 10
            rate = 190
            quiet_hours = "22:30-06:00"
            quiet_volume = 40
            speak_key = "F9"
            more_key = "F10"
            volume_down_key = "F11"
            volume_up_key = "F12"
            output = "log"
            log_file = "/tmp/speech.log"
            [display]
            theme = "high-contrast"
            layout = "large"
            """, file: "k.toml")
        let speech = config.speech
        #expect(speech.autoSpeak && speech.volume == 140 && speech.volumeStep == 10 && speech.rate == 190)
        #expect(speech.quietHours?.start == 22 * 60 + 30 && speech.quietHours?.end == 360 && speech.quietVolume == 40)
        let keys: [Int] = [speech.speakKey, speech.moreKey, speech.volumeDownKey, speech.volumeUpKey]
        #expect(keys == [9, 10, 11, 12])
        #expect(speech.output == .log(path: "/tmp/speech.log"))
        #expect(config.display.theme == .highContrast && config.display.layout == .large)
        #expect(speech.isQuiet(minuteOfDay: 23 * 60) && speech.isQuiet(minuteOfDay: 5 * 60))
        #expect(!speech.isQuiet(minuteOfDay: 12 * 60) && !speech.isQuiet(minuteOfDay: 6 * 60))
        #expect(KioskConfig().speech.output == .player(nil) && !KioskConfig().speech.autoSpeak)
    }

    @Test(arguments: [
        ("[speech]\nvolume = 300", "k.toml: speech.volume: must be between 0 and 200, not 300"),
        ("[speech]\nrate = 20", "k.toml: speech.rate: must be between 80 and 450, not 20"),
        ("[speech]\nauto_speak = \"yes\"", "k.toml: speech.auto_speak: must be true or false, not a string"),
        (
            "[speech]\nquiet_hours = \"10pm-6am\"",
            "k.toml: speech.quiet_hours: must be \"HH:MM-HH:MM\" (e.g. \"22:00-06:00\") or \"\", not \"10pm-6am\""
        ),
        (
            "[speech]\nspeak_key = \"space\"",
            "k.toml: speech.speak_key: must be a function key \"F1\" … \"F12\", not \"space\""
        ),
        (
            "[speech]\nspeak_key = \"F2\"",
            "k.toml: speech.speak_key: F2 switches the language; choose another function key"
        ),
        (
            "[speech]\nmore_key = \"F5\"",
            "k.toml: speech.more_key: the speak, more, volume down and volume up keys must be four different keys (F5, F5, F7, F8)"
        ),
        (
            "[speech]\noutput = \"log\"",
            "k.toml: speech.log_file: output = \"log\" needs log_file = \"/path/to/speech.log\""
        ),
        ("[speech]\noutput = \"speakers\"", "k.toml: speech.output: must be \"player\" or \"log\", not \"speakers\""),
        (
            "[speech]\nvoice = \"es\"",
            "k.toml: speech.voice: unknown key (known in [speech]: enabled, auto_speak, volume, rate, volume_step, quiet_hours, quiet_volume, speak_key, more_key, volume_down_key, volume_up_key, output, player, log_file)"
        ),
        (
            "[display]\ntheme = \"dark\"",
            "k.toml: display.theme: must be \"default\" or \"high-contrast\", not \"dark\""
        ),
        ("[display]\nlayout = \"huge\"", "k.toml: display.layout: must be \"standard\" or \"large\", not \"huge\""),
    ])
    func badValuesAreRefused(text: String, message: String) {
        #expect(throws: KioskConfigError.self) { try KioskConfigFile.parse(text, file: "k.toml") }
        do {
            _ = try KioskConfigFile.parse(text, file: "k.toml")
        } catch {
            #expect(error.description == message)
        }
    }
}
