import Foundation
import KioskTesting
import Testing

/// The progress line of long commands: redrawn in place on a terminal (tmux), absent in a pipe, and
/// machine-readable on request. The summary on standard output is the same in every case.
@Suite(.serialized) struct ProgressLineTests {
    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"))
    func importDrawsAProgressLineOnATerminalAndErasesIt() throws {
        let folder = TemporaryFolder.make("progress")
        let log = folder.appendingPathComponent("pane.log").path
        let go = folder.appendingPathComponent("go").path
        let db = folder.appendingPathComponent("routes.sqlite").path
        // The command waits until the pane's output is being recorded, so no byte is missed.
        let command =
            "while [ ! -e '\(go)' ]; do sleep 0.1; done; TERM=xterm-256color '\(Programs.kiosk.path)' import '\(SampleNetwork.feed.path)' --db '\(db)'; echo IMPORT-EXITED $?; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: 120, height: 40, command: command)
        let piped = try Programs.run(
            screen.tmux, ["-L", screen.socket, "pipe-pane", "-o", "-t", screen.session, "cat >> '\(log)'"])
        try #require(piped.status == 0, "\(piped)")
        try #require(FileManager.default.createFile(atPath: go, contents: nil))
        let after = try screen.wait(for: "the import to finish") { $0.contains("IMPORT-EXITED") }
        #expect(after.contains("IMPORT-EXITED 0"), "\(after)")
        #expect(after.contains("Imported "), "\(after)")
        let bytes = try String(contentsOfFile: log, encoding: .utf8)
        // Each stage is drawn at least once, over the same line (carriage return, erase line), then erased.
        #expect(bytes.contains("\r\u{1B}[2Kstops.txt: "), "\(bytes.debugDescription)")
        #expect(bytes.contains("\r\u{1B}[2Kstop_times.txt: "), "\(bytes.debugDescription)")
        #expect(bytes.contains(" rows"))
        #expect(bytes.contains("\r\u{1B}[2Kindexes"))
        #expect(bytes.range(of: "\r\u{1B}\\[2K[\r\n]*Imported ", options: .regularExpression) != nil)
        // Nothing of the progress line is left on the screen.
        #expect(!after.contains("stop_times.txt:"), "\(after)")
    }

    @Test func nothingIsPrintedWhenStandardErrorIsNotATerminal() throws {
        let db = TemporaryFolder.make("progress-pipe").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", db])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stdout.hasPrefix("Imported "))
    }

    @Test func machineReadableLinesOnRequest() throws {
        let db = TemporaryFolder.make("progress-lines").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", db, "--progress", "lines"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("progress stage=") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("progress stage=stops.txt done=") && $0.contains(" unit=rows") })
        #expect(lines.last?.hasPrefix("progress stage=done done=") == true, "\(lines)")
        #expect(lines.last?.contains("percent=100.0") == true)
        let plain = try Programs.runKiosk([
            "import", SampleNetwork.feed.path, "--db", db + ".2", "--progress", "off",
        ])
        #expect(plain.stderr.isEmpty)
        // The summary is the same whichever progress is shown, bar the seconds it took and the planning
        // timetable's file, which is named after the database.
        func summary(_ text: String, database: String) -> [String] {
            text.split(separator: "\n").dropFirst().map { line in
                guard line.hasPrefix("Planning timetable ") else { return String(line) }
                return line.replacingOccurrences(of: database, with: "DATABASE").replacing(#/in [0-9.]+ s$/#, with: "in … s")
            }
        }
        #expect(summary(result.stdout, database: db) == summary(plain.stdout, database: db + ".2"))
        #expect(summary(plain.stdout, database: db + ".2").contains { $0.hasPrefix("Planning timetable DATABASE.timetable: ") })
    }

    @Test func labelsReportProgressToo() throws {
        let out = TemporaryFolder.make("progress-labels").appendingPathComponent("labels.pdf").path
        let result = try Programs.runKiosk([
            "labels", "--stops", "2010", "2001", "--proof", "--out", out, "--progress", "lines",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("progress stage=labels_read_back done=2 unit=labels percent=100.0"), "\(result)")
    }
}
