import Foundation
import KioskConfiguration
import Speech
import TransitModel

extension KioskDoctor {
    /// Speech: both voices synthesise, and the configured output can play (a tenth of a second of silence is sent
    /// to the player, which opens the sound device as a real utterance would).
    public static func checkSpeech(_ config: KioskConfig) -> [DoctorCheck] {
        let speech = config.speech
        guard speech.enabled else {
            return [DoctorCheck(area: "speech", status: .ok, detail: "off ([speech] enabled = false)")]
        }
        var checks: [DoctorCheck] = []
        for language in Language.allCases {
            let settings = VoiceSettings(language: language, rate: speech.rate, volume: speech.volume)
            do {
                let audio = try EspeakSynthesizer.shared.pcm(for: "1 2 3", settings: settings)
                checks.append(
                    DoctorCheck(
                        area: "speech", status: .ok,
                        detail: String(
                            format: "espeak-ng voice %@: %.1f s of audio at %d Hz", settings.voiceName,
                            audio.durationSeconds, audio.sampleRate)))
            } catch {
                checks.append(
                    DoctorCheck(
                        area: "speech", status: .problem, detail: "\(error)",
                        fix: "install espeak-ng-data (bash kiosk/setup.sh)"))
            }
        }
        switch speech.output {
        case let .log(path):
            checks.append(
                DoctorCheck(
                    area: "speech", status: .warning,
                    detail: "output = \"log\": speech goes to \(path), not to speakers",
                    fix: "set [speech] output = \"player\" on a kiosk with speakers"))
        case let .player(program):
            do {
                let sink = try PlayerAudioSink(program: program)
                let playback = try sink.open(
                    sampleRate: 22_050, text: "", settings: VoiceSettings(language: config.language))
                let silence = [Int16](repeating: 0, count: 2_205)
                try silence.withUnsafeBufferPointer { try playback.write($0) }
                try playback.finish()
                checks.append(
                    DoctorCheck(area: "speech", status: .ok, detail: "\(sink.programPath) plays on the sound device"))
            } catch {
                checks.append(
                    DoctorCheck(
                        area: "speech", status: .warning, detail: "\(error)",
                        fix:
                            "connect speakers and check 'aplay -l' (alsa-utils), or set [speech] enabled = false; the kiosk runs silent until then"
                    ))
            }
        }
        return checks
    }
}
