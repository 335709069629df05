import ArgumentParser
import Foundation
import StopPresentation
import TransitModel
import TransitStore
import ZIPFoundation

/// What shapes and pictures cost: a feed's import with its shapes.txt against the same feed without it (the
/// issue allows at most 20% more time), and drawing the stop map of the feed's busiest stop (≤ 5 ms, so the
/// server can draw one per request).
struct MapsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maps", abstract: "Import with vs without shapes.txt; stop map rendering time.")

    @Argument(help: "GTFS feeds (.zip) that carry shapes.txt, e.g. ../shared/data/gtfs/carta.zip vilnius.zip.")
    var feeds: [String]

    @Option(help: "Measured runs of each import (after one warm-up of each), alternating with and without shapes.")
    var runs = 3

    @Option(help: "Stop maps drawn per timed batch (the figure is the batch's time per map).")
    var renders = 200

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-maps-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for (index, feed) in feeds.enumerated() {
            let name = URL(fileURLWithPath: feed).deletingPathExtension().lastPathComponent
            // Both sides read a folder, so the only difference is shapes.txt.
            let with = work.appendingPathComponent("\(index)-with"),
                without = work.appendingPathComponent("\(index)-without")
            try FileManager.default.unzipItem(at: URL(fileURLWithPath: feed), to: with)
            try FileManager.default.copyItem(at: with, to: without)
            let shapes = without.appendingPathComponent("shapes.txt")
            guard FileManager.default.fileExists(atPath: shapes.path) else {
                throw ValidationError("\(feed) has no shapes.txt at its top level")
            }
            try FileManager.default.removeItem(at: shapes)
            let db = work.appendingPathComponent("\(index).sqlite").path
            var withTimes: [Double] = [], withoutTimes: [Double] = [], ratios: [Double] = []
            var shapeCount = 0, pointsKept = 0, pointsRead = 0
            for run in 0...runs {
                let (summary, a) = try Measure.seconds {
                    try GTFSImporter(feedPath: with.path, databasePath: db, logger: Measure.quietLogger).run()
                }
                let (_, b) = try Measure.seconds {
                    try GTFSImporter(
                        feedPath: without.path, databasePath: db + ".plain", logger: Measure.quietLogger
                    ).run()
                }
                shapeCount = summary.count("shapes")
                if run == 0 { continue }
                withTimes.append(a); withoutTimes.append(b); ratios.append(a / b)
                print(
                    "\(name) run \(run): with shapes \(Measure.format(a))  without \(Measure.format(b))  ratio \(String(format: "%.3f", a / b))"
                )
            }
            let routes = try RouteDatabase(path: db)
            (pointsKept, pointsRead) = try routes.shapePointCounts()
            let busiest = try routes.busiestStopIDs(limit: 1)[0]
            let stop = try routes.resolveStop(.id(busiest))
            var queryTimes: [Double] = [], renderTimes: [Double] = []
            var bytes = 0
            for _ in 0..<max(3, runs) {
                let (map, q) = try Measure.seconds { try routes.stopMap(for: stop, radiusMeters: 400) }
                queryTimes.append(q)
                let (_, r) = Measure.seconds {
                    for _ in 0..<renders { bytes = stopMapSVG(for: map, language: .es).utf8.count }
                }
                renderTimes.append(r / Double(renders))
            }
            print(
                """
                \(name): \(shapeCount) shapes, \(pointsRead) points in shapes.txt → \(pointsKept) kept (1 m)
                  import with shapes:    min \(Measure.format(withTimes.min()!))  median \(Measure.format(Measure.median(withTimes)))
                  import without shapes: min \(Measure.format(withoutTimes.min()!))  median \(Measure.format(Measure.median(withoutTimes)))
                  growth (with/without): min \(String(format: "%.3f", ratios.min()!))  median \(String(format: "%.3f", Measure.median(ratios)))  (limit 1.20)
                  stop map of the busiest stop \(busiest) (\(bytes) bytes): render min \(Measure.ms(renderTimes.min()!))  median \(Measure.ms(Measure.median(renderTimes)))  (limit 5 ms, ratio median/limit \(String(format: "%.3f", Measure.median(renderTimes) / 0.005)));  store query min \(Measure.ms(queryTimes.min()!))  median \(Measure.ms(Measure.median(queryTimes)))
                """)
        }
    }
}
