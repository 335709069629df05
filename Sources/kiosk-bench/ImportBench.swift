import ArgumentParser
import Foundation
import Logging
import TransitStore
import ZIPFoundation

/// Our whole-feed import against the sqlite3 shell's `.import` of the same `stop_times.txt` into a table with
/// the same two indexes (by stop and time; by trip and sequence): the cheapest way SQLite itself offers to
/// load those rows. The ratio is the figure the issue sets a target for (≤ 2.0, goal 1.5).
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import speed and memory against sqlite3 .import.")

    @Argument(help: "A GTFS feed (.zip or folder), e.g. vilnius.zip scaled ×3 with scale-gtfs.")
    var feed: String

    @Option(help: "Measured runs of each side (after one warm-up of each).")
    var runs = 3

    @Flag(help: "Also time the import's stages (its debug log) and the reading passes, min and median of --runs.")
    var stages = false

    func run() throws {
        guard let sqlite3 = Measure.which("sqlite3") else {
            throw ValidationError("sqlite3 is not installed (run kiosk/setup.sh)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-import-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let csv = work.appendingPathComponent("stop_times.csv").path
        let columns = try extractStopTimes(to: csv)
        let peerScript = """
            CREATE TABLE stop_times(\(columns.map { "\"\($0)\"" }.joined(separator: ", ")));
            .import --csv --skip 1 \(csv) stop_times
            CREATE INDEX st_stop_time ON stop_times(stop_id, departure_time);
            CREATE INDEX st_trip_seq ON stop_times(trip_id, stop_sequence);
            """

        var ours: [Double] = [], peer: [Double] = [], ratios: [Double] = []
        var rows = 0
        let stageLog = StageLog()
        for run in 0...runs {
            let ourDB = work.appendingPathComponent("ours.sqlite").path
            let peerDB = work.appendingPathComponent("peer.sqlite").path
            try? FileManager.default.removeItem(atPath: peerDB)
            stageLog.startRun()
            let logger = stages ? Logger(label: "kiosk-bench", factory: { _ in stageLog.handler }) : Measure.quietLogger
            let (summary, ourTime) = try Measure.seconds {
                try GTFSImporter(feedPath: feed, databasePath: ourDB, logger: logger).run()
            }
            let peerTime = try Measure.runProcess(sqlite3, [peerDB], stdin: peerScript).seconds
            rows = summary.count("stop_times")
            if run == 0 {  // warm-up: page cache, first-touch allocation
                stageLog.discardRun()
                continue
            }
            stageLog.record("whole import", ourTime)
            ours.append(ourTime); peer.append(peerTime); ratios.append(ourTime / peerTime)
            print(
                "run \(run): ours \(Measure.format(ourTime))  sqlite3 .import \(Measure.format(peerTime))  ratio \(String(format: "%.2f", ourTime / peerTime))"
            )
        }
        // The memory figure that matters is the real command's, alone in its process.
        let kiosk = Measure.siblingKiosk()
        let command =
            FileManager.default.isExecutableFile(atPath: kiosk)
            ? try Measure.runProcess(kiosk, ["import", feed, "--db", work.appendingPathComponent("cli.sqlite").path])
            : nil
        print(
            """
            feed: \(feed) (\(rows) stop_times)
            our whole-feed import:        min \(Measure.format(ours.min()!))  median \(Measure.format(Measure.median(ours)))
            sqlite3 .import stop_times:   min \(Measure.format(peer.min()!))  median \(Measure.format(Measure.median(peer)))
            ratio ours/sqlite3:           min \(String(format: "%.2f", ratios.min()!))  median \(String(format: "%.2f", Measure.median(ratios)))  (target ≤ 1.2, goal 1.0)
            peak resident memory of this benchmark process (our imports): \(String(format: "%.0f", Measure.peakResidentMB())) MB
            peak resident memory of a 'kiosk import' process: \(command.map { String(format: "%.0f MB", $0.peakResidentMB) } ?? "not measured (build kiosk)") (limit 150 MB)
            """)
        guard stages else { return }
        print(
            "stages of our import (seconds, min / median of \(runs) runs; the files' times include their rows' inserts):"
        )
        for (stage, times) in stageLog.stages {
            print("  \(stage.padding(toLength: 34, withPad: " ", startingAt: 0)) \(Self.minMedian(times))")
        }
        var passes: [String: [Double]] = [:], order: [String] = []
        for _ in 0..<runs {
            for pass in try ImportReadingProfile.measure(feedPath: feed) {
                if passes[pass.stage] == nil { order.append(pass.stage) }
                passes[pass.stage, default: []].append(pass.seconds)
            }
        }
        print("reading passes without the database (each adds one stage to the previous):")
        for stage in order {
            print("  \(stage.padding(toLength: 46, withPad: " ", startingAt: 0)) \(Self.minMedian(passes[stage]!))")
        }
    }

    static func minMedian(_ times: [Double]) -> String {
        String(format: "%7.3f / %7.3f", times.min() ?? .nan, Measure.median(times))
    }

    /// Writes the feed's stop_times.txt to a plain file, streaming (so this process's peak memory stays that of
    /// our import), and returns its header's column names.
    private func extractStopTimes(to path: String) throws -> [String] {
        if feed.hasSuffix(".zip") {
            let archive = try Archive(url: URL(fileURLWithPath: feed), accessMode: .read)
            guard let entry = archive.first(where: { ($0.path as NSString).lastPathComponent == "stop_times.txt" })
            else {
                throw ValidationError("\(feed) has no stop_times.txt")
            }
            _ = try archive.extract(entry, to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.copyItem(
                atPath: URL(fileURLWithPath: feed).appendingPathComponent("stop_times.txt").path, toPath: path)
        }
        guard let handle = FileHandle(forReadingAtPath: path), let head = try handle.read(upToCount: 4096) else {
            throw ValidationError("cannot read \(path)")
        }
        let headerLine = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        return headerLine.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\u{FEFF}")))
        }
    }
}

/// Collects the importer's debug lines `STAGE: [N rows in ]X s` per run (a stage met twice in one run, such as a
/// file read twice, is summed), in the order first met.
final class StageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: [String: Double] = [:]
    private(set) var order: [String] = []
    private var times: [String: [Double]] = [:]

    var stages: [(String, [Double])] { lock.withLock { order.map { ($0, times[$0] ?? []) } } }

    func startRun() { lock.withLock { current = [:] } }
    func discardRun() { lock.withLock { current = [:] } }

    func record(_ stage: String, _ seconds: Double) {
        lock.withLock {
            current[stage, default: 0] += seconds
            for (name, value) in current {
                if !order.contains(name) { order.append(name) }
                times[name, default: []].append(value)
            }
            current = [:]
        }
    }

    fileprivate func line(_ message: String) {
        guard let colon = message.range(of: ": ", options: .backwards), message.hasSuffix(" s"),
            let seconds = Double(message[colon.upperBound...].split(separator: " ").dropLast().last ?? "")
        else { return }
        let stage = String(message[..<colon.lowerBound])
        lock.withLock {
            if current[stage] == nil, !order.contains(stage) { order.append(stage) }
            current[stage, default: 0] += seconds
        }
    }

    var handler: LogHandler { Handler(sink: self) }

    private struct Handler: LogHandler {
        let sink: StageLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { sink.line(event.message.description) }
    }
}
