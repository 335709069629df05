import Foundation
import KioskTesting
import ScanService
import Testing

/// Runs the built `kiosk` as a person would: the demo in a real terminal (tmux), the demo with its output in a
/// pipe, and the config and doctor commands.

/// A tmux server of the test's own (its own socket), a session in it running one command, and its screen.
final class TmuxScreen {
    /// tmux, which kiosk/setup.sh installs.
    static var executable: URL? { Programs.which("tmux") }

    let tmux: URL
    let socket: String
    let session = "kiosk"

    init(tmux: URL, width: Int, height: Int, command: String) throws {
        self.tmux = tmux
        socket = "stopkiosk-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        let result = try Programs.run(
            tmux,
            [
                "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                "-x", String(width), "-y", String(height), command,
            ])
        guard result.status == 0 else { throw TmuxError.failed("new-session: \(result.stderr)") }
    }

    deinit {
        _ = try? Programs.run(tmux, ["-L", socket, "kill-server"])
    }

    func capture() -> String {
        (try? Programs.run(tmux, ["-L", socket, "capture-pane", "-p", "-t", session]).stdout) ?? ""
    }

    func send(_ keys: String...) throws {
        _ = try Programs.run(tmux, ["-L", socket, "send-keys", "-t", session] + keys)
    }

    /// Polls the screen until `condition` holds; the last screen either way. A generous limit against hangs.
    @discardableResult
    func wait(for what: String, timeout: TimeInterval = 120, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = capture()
        while !condition(screen) {
            guard Date() < deadline else { throw TmuxError.timedOut(what: what, screen: screen) }
            Thread.sleep(forTimeInterval: 0.1)
            screen = capture()
        }
        return screen
    }

    enum TmuxError: Error, CustomStringConvertible {
        case failed(String)
        case timedOut(what: String, screen: String)
        var description: String {
            switch self {
            case let .failed(message): return message
            case let .timedOut(what, screen): return "timed out waiting for \(what); the screen was:\n\(screen)"
            }
        }
    }
}

@Suite(.serialized) struct KioskEndToEndTests {
    /// `kiosk demo` (timetable only) in a 100×30 tmux terminal: the recorded passenger scans Colón; the test reads the stop and its
    /// departures off the screen, types a destination, reads the plan, waits for the idle timeout, then presses
    /// Ctrl-C and checks that the terminal was given back.
    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"))
    func demoInTmux() throws {
        // Nothing here may depend on how fast the machine is: the recorded passenger stops after Colón (it would
        // scan Río Coca 9 s later), and the idle timeout, which every step below must beat, is 20 s.
        let session = try Self.sessionEndingAfterColon()
        let command =
            "env XDG_CACHE_HOME='\(Programs.sampleCache.path)' TERM=xterm-256color '\(Programs.kiosk.path)' demo --idle-timeout 20 --session '\(session)' --at 2026-11-25T08:00 --no-realtime; echo KIOSK-EXITED $?; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: 100, height: 30, command: command)

        // Idle first: the home stop's board and the prompt.
        try screen.wait(for: "the idle screen") {
            $0.contains("Acerque el código de su parada a la cámara") && $0.contains("El Ejido")
        }
        // The recorded passenger's first label: Colón, with its Trolebús departures (sample README: 08:02, 08:07).
        let stop = try screen.wait(for: "the scanned stop") {
            // Everything the checks below read, so a capture taken mid-redraw is not mistaken for the screen.
            $0.contains("Colón  [2010]") && $0.contains("Salidas en los próximos 60 min")
                && $0.contains("Primera y última salida")
                && $0.contains("Tab: English")
        }
        #expect(stop.contains("08:02") && stop.contains("08:07"))
        #expect(
            stop.range(of: #"08:07 +TB +La Y +[67] · \d+ · \d+ min"#, options: .regularExpression) != nil,
            "departure line not found in:\n\(stop)")
        #expect(stop.contains("Primera y última salida"))
        #expect(stop.contains("Tab: English"))

        // Type a destination: live matches, accent-insensitive.
        try screen.send("c", "u", "m", "b", "a", "y", "a")
        let entry = try screen.wait(for: "the destination matches") { $0.contains("► Cumbayá  [5007]") }
        #expect(entry.contains("¿A dónde va?"))
        try screen.send("Enter")
        let plan = try screen.wait(for: "the plan") { $0.contains("De Colón a Cumbayá") && $0.contains("Opción 1") }
        #expect(plan.contains("08:02 → 09:29"))
        #expect(plan.contains("baje en Cumbayá  [5007]"))

        // Tab switches the language.
        try screen.send("Tab")
        try screen.wait(for: "the plan in English") { $0.contains("From Colón to Cumbayá") && $0.contains("Option 1") }

        // No input for the idle timeout: back to the idle screen, in Spanish again.
        try screen.wait(for: "the idle timeout", timeout: 120) {
            $0.contains("Acerque el código de su parada a la cámara") && !$0.contains("Cumbayá")
        }

        // Ctrl-C: the kiosk restores the terminal and exits 0.
        try screen.send("C-c")
        let after = try screen.wait(for: "the kiosk to exit", timeout: 30) { $0.contains("KIOSK-EXITED") }
        #expect(after.contains("KIOSK-EXITED 0"))
        #expect(!after.contains("Acerque el código"), "the alternate screen was not left:\n\(after)")
    }

    /// The shipped recorded session (assets/demo) up to Colón's label, then the empty street for an hour.
    static func sessionEndingAfterColon() throws -> String {
        let shipped = Repository.root.appendingPathComponent("assets/demo")
        var session = try DemoSession.load(shipped.appendingPathComponent("session.json").path)
        let colon = try #require(session.labels.first { $0.expect == "Colón" }, "no Colón in \(session.labels)")
        // Colón's label is readable from its step on; the passenger holds it for the steps up to the next
        // empty-street frame (frame 0).
        let held = try #require(session.steps.indices.first { $0 > colon.step && session.steps[$0].frame == 0 })
        session.steps = Array(session.steps[..<held]) + [.init(frame: 0, ticks: Int(session.framesPerSecond) * 3600)]
        session.labels = [colon]
        let folder = TemporaryFolder.make("demo-session")
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(session.video),
            withDestinationURL: shipped.appendingPathComponent(session.video))
        let path = folder.appendingPathComponent("session.json").path
        try session.write(to: path)
        return path
    }

    /// With output in a pipe, the demo prints its screens as text: one pass of the recorded session goes through
    /// every stop, the notice for a code that is not a stop's, and the plan to the scanned destination.
    @Test func demoOnceWithoutATerminal() throws {
        let result = try Programs.runKiosk(["demo", "--once", "--idle-timeout", "8", "--at", "2026-11-25T08:00"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("not a terminal"))
        let out = result.stdout
        for expected in [
            "Colón  [2010]", "Río Coca  [3001]", "Este código no es de una parada", "La Carolina  [1121]",
            "De La Carolina a Cumbayá", "Opción 1", "Acerque el código de su parada a la cámara",
        ] {
            #expect(out.contains(expected), "missing \(expected)")
        }
        #expect(!out.contains("\u{1B}"), "escape sequences in plain output")
        #expect(out.contains("kiosk demo: one pass of"))
        #expect(out.contains("5 scans, 1 plan"))
    }

    @Test func runRefusesABadConfig() throws {
        let dir = TemporaryFolder.make("config")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("kiosk.toml").path
        try "language = \"es\"\n[camera]\nwidht = 640\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Programs.runKiosk(["run", "--config", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path): camera.widht: unknown key"))
        let missing = try Programs.runKiosk(["run", "--config", dir.appendingPathComponent("nope.toml").path])
        #expect(missing.status == 2 && missing.stderr.contains("nope.toml: no such file"))
    }

    @Test func doctorSaysWhatToFix() throws {
        let dir = TemporaryFolder.make("doctor")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("kiosk.toml").path
        try """
        home_stop = "1091"
        [camera]
        device = "\(dir.path)/video9"
        [database]
        path = "\(dir.path)/routes.sqlite"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Programs.runKiosk(["doctor", "--config", path, "--camera-timeout", "1"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("[ok] config: \(path)"))
        #expect(result.stdout.contains("[FAIL] database"))
        #expect(
            result.stdout.contains(
                "fix: import the agency's GTFS feed: kiosk import FEED.zip --db \(dir.path)/routes.sqlite"))
        #expect(result.stdout.contains("[FAIL] camera: \(dir.path)/video9: no such camera device"))
        #expect(result.stdout.contains("problems to fix") || result.stdout.contains("problem to fix"))
    }
}
