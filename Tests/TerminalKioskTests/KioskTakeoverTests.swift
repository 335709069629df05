import Foundation
import KioskTesting
import Realtime
import Testing
import TransitModel

@testable import KioskCore
@testable import TerminalKiosk

/// Severe staff messages on the terminal kiosk (issue 26): the idle screen taken over, a band on stop screens,
/// said once with `auto_speak`, in the screen's language, and ended at `until` by the screen's own clock.
@Suite struct KioskTakeoverStateTests {
    static let morning = KioskFixtures.morning
    static let until = morning.addingTimeInterval(3_600)

    static func alert(_ id: String, _ header: String, language: String, scope: String = "agency") -> StopAlert {
        StopAlert(
            id: id, header: header, description: nil, url: nil, language: language, cause: "other_cause",
            effect: "other_effect", severity: "severe", scope: scope, activeFrom: nil, activeUntil: until)
    }

    static let strike = KioskTakeover(
        spanish: [alert("strike", "Huelga: no hay servicio de trolebús", language: "es")],
        english: [alert("strike", "Strike: no trolleybus service", language: "en")])

    static func screen(_ state: KioskState) -> String {
        KioskScreenBuilder.build(state, width: 80, height: 24).text
    }

    @Test func severeMessageTakesOverTheIdleScreenInItsLanguageUntilItEnds() {
        var state = KioskFixtures.idleState()
        #expect(state.handle(.takeoverLoaded(Self.strike), now: Self.morning).isEmpty, "speech is off")
        var text = Self.screen(state)
        #expect(text.contains("AVISO IMPORTANTE") && text.contains("Huelga: no hay servicio de trolebús"), "\(text)")
        #expect(text.contains("Hasta las 09:00") && text.contains("Strike: no trolleybus service"), "\(text)")
        #expect(!text.contains("Próximas salidas"), "the home board gives way:\n\(text)")

        _ = state.handle(.key(.tab), now: Self.morning)
        text = Self.screen(state)
        #expect(text.contains("IMPORTANT NOTICE") && text.contains("Until 09:00"), "\(text)")

        // At `until` the screen is the ordinary idle screen again, at its next tick, before any new read.
        _ = state.handle(.tick, now: Self.until)
        text = Self.screen(state)
        #expect(!text.contains("IMPORTANT NOTICE") && !text.contains("Strike"), "\(text)")
        #expect(text.contains("Next departures from here"), "the home board is back:\n\(text)")
    }

    @Test func stopScreensStartWithTheBand() {
        var state = KioskFixtures.stopState("2010")
        _ = state.handle(.takeoverLoaded(Self.strike), now: Self.morning)
        let text = Self.screen(state)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].contains("⚠ Huelga: no hay servicio de trolebús · Hasta las 09:00"), "\(text)")
        #expect(text.contains("Colón"), "the stop's board is still there:\n\(text)")
        // A severe message selected for the board itself (the stop on screen) heads it too, once.
        var board = KioskFixtures.board("2010")
        board.view.alerts = [
            Self.alert("colon", "Parada Colón cerrada", language: "es", scope: "stop"),
            Self.alert("strike", "Huelga: no hay servicio de trolebús", language: "es"),
        ]
        _ = state.handle(.stopLoaded(.success(board)), now: Self.morning)
        #expect(state.screenMessages.map(\.id) == ["strike", "colon"])
    }

    @Test func autoSpeakSaysEachMessageOnceWhenIdle() {
        var state = KioskFixtures.idleState()
        state.speech = KioskSpeechControls(autoSpeak: true)
        let effects = state.handle(.takeoverLoaded(Self.strike), now: Self.morning)
        #expect(
            effects == [
                .speak(
                    KioskUtterance(
                        text: "Huelga: no hay servicio de trolebús.", language: .es, volume: 100, automatic: true))
            ])
        _ = state.handle(.speechEnded, now: Self.morning)
        #expect(state.handle(.takeoverLoaded(Self.strike), now: Self.morning).isEmpty, "said once")
        // A changed text is a new message: said again.
        var changed = Self.strike
        changed.spanish[0].header = "Huelga: servicio reducido"
        #expect(state.handle(.takeoverLoaded(changed), now: Self.morning).count == 1)
        // A passenger using the kiosk is never interrupted.
        var busy = KioskFixtures.stopState("2010")
        busy.speech = KioskSpeechControls(autoSpeak: true)
        #expect(busy.handle(.takeoverLoaded(Self.strike), now: Self.morning).isEmpty)
    }
}

/// The real kiosk (`kiosk run --no-camera`) in tmux with two alerts sources — an agency feed that does not exist
/// and the staff messages file: the severe message takes over the idle screen and is said once; removed with
/// `kiosk message remove`, the screen goes back to the home board at the next poll, without a restart.
@Suite(.serialized) struct KioskTakeoverEndToEndTests {
    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"))
    func staffMessageTakesOverTheKioskAndLeavesWhenRemoved() throws {
        let folder = TemporaryFolder.make("kiosk-takeover")
        let log = folder.appendingPathComponent("audio.log").path
        let config = folder.appendingPathComponent("kiosk.toml").path
        let messages = folder.appendingPathComponent("messages.pb").path
        let database = try SampleNetwork.databasePath()
        let added = try Programs.runKiosk([
            "message", "add", "--text-es", "Huelga: no hay servicio hoy", "--text-en", "Strike: no service today",
            "--all", "--severity", "severe", "--until", "2099-01-01", "--out", messages, "--db", database,
        ])
        try #require(added.status == 0, "\(added)")
        try """
        home_stop = "1091"
        idle_timeout_seconds = 600
        [database]
        path = "\(database)"
        [realtime]
        alerts = ["\(folder.path)/agency-feed-missing.pb", "\(messages)"]
        poll_seconds = 5
        [speech]
        auto_speak = true
        output = "log"
        log_file = "\(log)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let command =
            "env TERM=xterm-256color '\(Programs.kiosk.path)' run --no-camera --config '\(config)' --log '\(folder.path)/kiosk.log'; echo KIOSK-EXITED $?; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: 80, height: 24, command: command)
        let taken = try screen.wait(for: "the takeover") { $0.contains("Huelga: no hay servicio hoy") }
        #expect(taken.contains("AVISO IMPORTANTE") && taken.contains("Strike: no service today"), "\(taken)")
        #expect(taken.contains("Hasta 2099-01-01 las 23:59"), "\(taken)")
        let said = try KioskSpeechEndToEndTests.waitForLog(log, "the message said") {
            $0.contains { $0.hasPrefix("end") }
        }
        #expect(said[0].hasSuffix("text=Huelga: no hay servicio hoy."), "\(said)")

        let removed = try Programs.runKiosk(["message", "remove", "msg-1", "--file", messages])
        try #require(removed.status == 0, "\(removed)")
        let back = try screen.wait(for: "the home board again") {
            $0.contains("El Ejido") && !$0.contains("Huelga")
        }
        #expect(back.contains("Acerque el código"), "\(back)")
        #expect(
            KioskSpeechEndToEndTests.lines(log).filter { $0.hasPrefix("begin") }.count == 1, "said once")
        let kioskLog = (try? String(contentsOfFile: "\(folder.path)/kiosk.log", encoding: .utf8)) ?? ""
        #expect(kioskLog.contains("agency-feed-missing.pb"), "the dead source reports itself:\n\(kioskLog)")

        try screen.send("C-c")
        let after = try screen.wait(for: "the kiosk to exit") { $0.contains("KIOSK-EXITED") }
        #expect(after.contains("KIOSK-EXITED 0"))
    }
}
