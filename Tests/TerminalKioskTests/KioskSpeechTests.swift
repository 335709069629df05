import Foundation
import KioskTesting
import Speech
import StopPresentation
import Testing
import TransitModel

@testable import TerminalKiosk

/// Speech on the kiosk: the state machine's keys (speak, repeat, interrupt, volume, auto-speak), then the real
/// kiosk in tmux with a log sink standing in for the loudspeaker.
@Suite struct KioskSpeechStateTests {
    static func speaking(_ state: KioskState) -> KioskState {
        var state = state
        state.speech = KioskSpeechControls(autoSpeak: true)
        return state
    }

    @Test func speakKeySaysTheScreenAndAgainRepeatsIt() {
        var state = Self.speaking(KioskFixtures.stopState("1091"))
        let view = KioskFixtures.board("1091").view
        let expected = KioskEffect.speak(
            KioskUtterance(
                text: StopViewSpeech.text(view, language: .es), language: .es, volume: 100, automatic: false))
        #expect(state.handle(.key(.function(5)), now: KioskFixtures.morning) == [expected])
        #expect(state.speaking)
        #expect(state.handle(.key(.function(5)), now: KioskFixtures.morning) == [expected])
        // The full form on the "more" key.
        guard case let .speak(full)? = state.handle(.key(.function(6)), now: KioskFixtures.morning).first else {
            Issue.record("no utterance for the more key")
            return
        }
        #expect(full.text == StopViewSpeech.text(view, language: .es, detail: .full))
        #expect(full.text.count > expected.utteranceText.count)
    }

    @Test func anyOtherKeyInterruptsAndStillDoesItsJob() {
        var state = Self.speaking(KioskFixtures.stopState("1091"))
        _ = state.handle(.key(.function(5)), now: KioskFixtures.morning)
        let effects = state.handle(.key(.character("c")), now: KioskFixtures.morning)
        #expect(effects == [.stopSpeaking, .search("c")])
        #expect(!state.speaking)
        // Silent: a key is just a key.
        #expect(state.handle(.key(.character("u")), now: KioskFixtures.morning) == [.search("cu")])
        // The language key interrupts too, and the next speak key speaks English.
        _ = state.handle(.key(.function(5)), now: KioskFixtures.morning)
        #expect(state.handle(.key(.tab), now: KioskFixtures.morning) == [.stopSpeaking])
        guard case let .speak(english)? = state.handle(.key(.function(5)), now: KioskFixtures.morning).first else {
            Issue.record("no utterance")
            return
        }
        #expect(english.language == .en && english.text.hasPrefix("Where are you going?"))
    }

    @Test func volumeKeysSayTheNewVolumeAndIdleResetsIt() {
        var state = Self.speaking(KioskFixtures.stopState("1091"))
        #expect(
            state.handle(.key(.function(8)), now: KioskFixtures.morning) == [
                .speak(KioskUtterance(text: "Volumen 60 por ciento.", language: .es, volume: 120, automatic: false))
            ])
        for _ in 0..<20 { _ = state.handle(.key(.function(7)), now: KioskFixtures.morning) }
        #expect(state.speechVolume == 0)
        _ = state.handle(.tick, now: KioskFixtures.morning.addingTimeInterval(120))
        #expect(state.screen == .idle && state.speechVolume == 100)
    }

    @Test func autoSpeakSaysAScannedStopOnce() {
        var state = Self.speaking(KioskFixtures.idleState())
        #expect(state.handle(.scan(KioskFixtures.scan("2010")), now: KioskFixtures.morning).count == 1)
        let effects = state.handle(.stopLoaded(.success(KioskFixtures.board("2010"))), now: KioskFixtures.morning)
        guard case let .speak(utterance)? = effects.first else {
            Issue.record("a scanned stop was not said: \(effects)")
            return
        }
        #expect(utterance.automatic && utterance.text.hasPrefix("Parada Colón."))
        // The minute's refresh of the same board is not said again.
        #expect(state.handle(.stopLoaded(.success(KioskFixtures.board("2010"))), now: KioskFixtures.morning) == [])
        // Without speech controls the kiosk behaves as before.
        var silent = KioskFixtures.idleState()
        _ = silent.handle(.scan(KioskFixtures.scan("2010")), now: KioskFixtures.morning)
        #expect(silent.handle(.stopLoaded(.success(KioskFixtures.board("2010"))), now: KioskFixtures.morning) == [])
        #expect(silent.handle(.key(.function(5)), now: KioskFixtures.morning) == [])
    }
}

extension KioskEffect {
    var utteranceText: String {
        if case let .speak(utterance) = self { return utterance.text }
        return ""
    }
}

/// The real kiosk (`kiosk run --no-camera`) in tmux, speaking into a log sink paced like a loudspeaker. While the
/// test's hold file exists (`KIOSK_AUDIO_LOG_HOLD`), every utterance keeps playing until it is cut, so the keys
/// that interrupt it find it playing however slow the machine is; the file is removed before the utterance that
/// must play to its end.
@Suite(.serialized) struct KioskSpeechEndToEndTests {
    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func waitForLog(_ path: String, _ what: String, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(120)
        var lines = Self.lines(path)
        while !condition(lines) {
            guard Date() < deadline else {
                throw FixtureFailure(
                    "timed out waiting for \(what); the audio log was:\n\(lines.joined(separator: "\n"))")
            }
            Thread.sleep(forTimeInterval: 0.05)
            lines = Self.lines(path)
        }
        return lines
    }

    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"))
    func speakRepeatInterruptAndVolumeInTmux() throws {
        let folder = TemporaryFolder.make("kiosk-speech")
        let log = folder.appendingPathComponent("audio.log").path
        let config = folder.appendingPathComponent("kiosk.toml").path
        let hold = folder.appendingPathComponent("audio.hold").path
        try #require(FileManager.default.createFile(atPath: hold, contents: nil), "cannot create \(hold)")
        try """
        home_stop = "1091"
        idle_timeout_seconds = 600
        [database]
        path = "\(try SampleNetwork.databasePath())"
        [speech]
        output = "log"
        log_file = "\(log)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let command =
            "env TERM=xterm-256color \(LogAudioSink.holdVariable)='\(hold)' '\(Programs.kiosk.path)' run --no-camera --config '\(config)' --log '\(folder.path)/kiosk.log'; echo KIOSK-EXITED $?; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: 80, height: 24, command: command)
        try screen.wait(for: "the idle screen") { $0.contains("El Ejido") && $0.contains("Acerque el código") }

        // F5 speaks the idle screen: the home stop, then the prompt.
        try screen.send("F5")
        var lines = try Self.waitForLog(log, "the first utterance") { $0.contains { $0.hasPrefix("begin es") } }
        #expect(lines[0].contains("text=Parada El Ejido."), "\(lines)")
        #expect(lines[0].hasSuffix("Acerque el código de su parada a la cámara."), "\(lines)")
        let firstText = lines[0].components(separatedBy: "text=").last ?? ""

        // F5 again while it plays (held, it plays until cut): the first is cut, the same text starts again from the
        // beginning.
        try screen.send("F5")
        lines = try Self.waitForLog(log, "the repeat") { $0.filter { $0.hasPrefix("begin es") }.count == 2 }
        #expect(lines[1].hasPrefix("cancelled samples="), "\(lines)")
        #expect(lines[2].components(separatedBy: "text=").last == firstText)

        // Any other key interrupts, and does its own job at once: the screen shows the typed letter while the
        // audio is cut (speech never holds the screen).
        try screen.send("c")
        try screen.wait(for: "the destination entry") { $0.contains("¿A dónde va?") }
        lines = try Self.waitForLog(log, "the interruption") { $0.count == 4 }
        #expect(lines[3].hasPrefix("cancelled samples="), "\(lines)")
        try screen.send("Escape")

        // Volume up: said at the new volume, and played to the end (released: utterances end when played).
        try FileManager.default.removeItem(atPath: hold)
        try screen.send("F8")
        lines = try Self.waitForLog(log, "the volume") { $0.count >= 6 }
        #expect(lines[4] == "begin es rate=160 volume=120 chars=22 text=Volumen 60 por ciento.", "\(lines)")
        #expect(lines[5].hasPrefix("end samples="), "\(lines)")

        try screen.send("C-c")
        let after = try screen.wait(for: "the kiosk to exit") { $0.contains("KIOSK-EXITED") }
        #expect(after.contains("KIOSK-EXITED 0"))
    }
}
