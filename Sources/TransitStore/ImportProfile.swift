import Crypto
import Foundation

/// What reading a feed costs before any row reaches the database, stage by stage, for `kiosk-bench import
/// --stages`: each pass reads every file the importer reads, in its order, and adds one stage to the last pass,
/// so the differences between passes are the stages' costs. Nothing is written.
public enum ImportReadingProfile {
    public struct Pass: Sendable {
        public var stage: String
        public var seconds: Double
    }

    /// The passes, each run once: inflate (with the zip's CRC-32 and size checks, or plain reads for a
    /// folder); + the feed hash (SHA-256); + splitting records with the per-record text checks (NUL, UTF-8).
    public static func measure(feedPath: String, limits: FeedLimits = FeedLimits()) throws -> [Pass] {
        var passes: [Pass] = []
        for level in 0..<3 {
            let source = try openFeedSource(path: feedPath, limits: limits)
            let files = GTFSImporter.readingOrder.filter(source.contains)
            let started = DispatchTime.now().uptimeNanoseconds
            var hasher = SHA256()
            var records = 0
            for file in files {
                var parser = CSVStreamParser(maximumRecordBytes: limits.maximumRecordBytes)
                let count: (CSVRecord) -> Void = { _ in records += 1 }
                try source.stream(file) { chunk in
                    if level >= 1 { hasher.update(bufferPointer: chunk) }
                    if level >= 2 { try parser.consume(chunk, count) }
                }
                if level >= 2 { try parser.finish(count) }
            }
            _ = hasher.finalize()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let stage = ["inflate and CRC-32", "+ SHA-256 feed hash", "+ CSV split and text checks"][level]
            passes.append(Pass(stage: level == 2 ? "\(stage) (\(records) records)" : stage, seconds: seconds))
        }
        return passes
    }
}

extension GTFSImporter {
    /// The order `ImportSession.importAll` reads the files in.
    static let readingOrder = [
        "agency.txt", "stops.txt", "routes.txt", "calendar.txt", "calendar_dates.txt", "trips.txt", "shapes.txt",
        "frequencies.txt", "stop_times.txt", "transfers.txt", "feed_info.txt",
    ]
}
