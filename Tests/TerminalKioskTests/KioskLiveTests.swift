import Foundation
import KioskTesting
import Testing

/// The kiosk screen with live data (`[realtime]`, here the demo's live scenario in assets/realtime): marks,
/// delays, a struck-through cancelled trip, an alert; and a feed that is down leaves the kiosk on the timetable.
@Suite(.serialized) struct KioskLiveTests {
    static let tmuxMissing: Comment = "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"

    static func demo(_ arguments: String) -> String {
        "env XDG_CACHE_HOME='\(Programs.sampleCache.path)' TERM=xterm-256color '\(Programs.kiosk.path)' demo --idle-timeout 6 \(arguments); echo KIOSK-EXITED $?; sleep 600"
    }

    /// The idle board of El Ejido at 08:00 with the live scenario: the delayed trolleybus with "+4 min", the
    /// cancelled one struck through and marked in words, the extra one, departures without a prediction marked
    /// as the timetable's, and the route's alert above the departures.
    @Test(.enabled(if: TmuxScreen.executable != nil, Self.tmuxMissing))
    func idleBoardShowsLiveDepartures() throws {
        let screen = try TmuxScreen(
            tmux: TmuxScreen.executable!, width: 110, height: 50, command: Self.demo("--lang en"))
        let board = try screen.wait(for: "the live idle board") {
            $0.contains("El Ejido") && $0.contains("● +4 min") && $0.contains("✕ cancelled")
        }
        #expect(board.contains("⚠ Trolleybus: delays due to roadworks on Av. 10 de Agosto"), "\(board)")
        #expect(
            board.range(of: #"08:07 +TB +La Y .*\d+ min ● \+4 min"#, options: .regularExpression) != nil, "\(board)")
        #expect(board.range(of: #"08:16 +TB +La Y .*\d+ min ● live"#, options: .regularExpression) != nil, "\(board)")
        #expect(board.contains("○ timetable"))
        #expect(!board.contains("08:11  TB"), "the skipped stop is left out:\n\(board)")
        // The cancelled departure is struck through (SGR 9) as well as marked in words.
        let styled = try Programs.run(
            screen.tmux, ["-L", screen.socket, "capture-pane", "-p", "-e", "-t", screen.session]
        ).stdout
        let canceledLine = try #require(styled.split(separator: "\n").first { $0.contains("cancelled") })
        #expect(canceledLine.contains(";9m") || canceledLine.contains("[9m"), "\(canceledLine.debugDescription)")
        try screen.send("C-c")
        let after = try screen.wait(for: "the kiosk to exit", timeout: 30) { $0.contains("KIOSK-EXITED") }
        #expect(after.contains("KIOSK-EXITED 0"))
    }

    /// A feed server that is down: the kiosk runs on the timetable, says live information is unavailable, and
    /// still reacts to the recorded passenger's scans.
    @Test(.enabled(if: TmuxScreen.executable != nil, Self.tmuxMissing))
    func aDeadFeedLeavesTheKioskOnTheTimetable() throws {
        let port = try LocalPorts.unused()
        let screen = try TmuxScreen(
            tmux: TmuxScreen.executable!, width: 100, height: 30,
            command: Self.demo("--at 2026-11-25T08:00 --realtime http://127.0.0.1:\(port)/trip-updates"))
        let idle = try screen.wait(for: "the idle board on the timetable") {
            $0.contains("El Ejido") && $0.contains("Información en vivo no disponible")
        }
        #expect(idle.contains("○ horario"), "\(idle)")
        #expect(!idle.contains("● "))
        try screen.wait(for: "the scanned stop") { $0.contains("Colón  [2010]") && $0.contains("Información en vivo") }
        try screen.send("C-c")
        let after = try screen.wait(for: "the kiosk to exit", timeout: 30) { $0.contains("KIOSK-EXITED") }
        #expect(after.contains("KIOSK-EXITED 0"))
    }

    /// Plain output (no terminal): one pass of the demo with live data shows the marks on every board.
    @Test func demoOncePrintsLiveMarks() throws {
        let result = try Programs.runKiosk(["demo", "--once", "--idle-timeout", "8", "--lang", "en"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("● +4 min"))
        #expect(result.stdout.contains("✕ cancelled"))
        #expect(result.stdout.contains("⚠ Trolleybus: delays"))
        #expect(!result.stdout.contains("\u{1B}"), "escape sequences in plain output")
    }
}
