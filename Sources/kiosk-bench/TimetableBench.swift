import ArgumentParser
import Foundation
import Labels
import StopCodes
import TransitModel
import TransitStore

/// What printed timetables cost (issue 25): the poster of a feed's busiest stop (≤ 200 ms: the store's week of
/// departures, layout, the check with the QR read-back, the PDF), in process; and `kiosk timetable --all-stops`
/// on the whole network, run as staff run it (≥ 50 posters a second, every page checked).
struct TimetableBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timetables", abstract: "Busiest stop's poster time; kiosk timetable --all-stops posters/s.")

    @Option(help: "The route database (made by kiosk import).")
    var db: String

    @Option(help: "The date whose week is printed (default: the feed's busiest day).")
    var date: String?

    @Option(help: "Timed posters of the busiest stop (after one warm-up).")
    var runs = 15

    @Option(help: "Runs of --all-stops (each prints every stop).")
    var networkRuns = 3

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let day = date.flatMap(ServiceDate.init(parsing:)) ?? routes.busiestServiceDate() else {
            throw ValidationError("the database has no service dates")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-timetables-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let busiest = try routes.busiestStopIDs(limit: 1).first ?? ""
        let stop = try routes.resolveStop(.id(busiest))
        let payloads = LabelPayloadBuilder(template: try StopURLTemplate("https://transit.example/s/{stop}"), feedID: routes.feedID)
        // Proof copies: the placeholder address is refused otherwise (the mark is one more line of text).
        let printer = TimetablePrinter(options: TimetablePrintOptions(language: .en, title: "kiosk-bench", proof: true))
        var totals: [Double] = [], queries: [Double] = []
        var pages = 0
        for run in 0...runs {
            let (timetable, query) = try Measure.seconds { try routes.stopTimetable(for: stop, span: .week(containing: day)) }
            let (result, print) = try Measure.seconds {
                try printer.printStop(timetable, payloads: payloads, output: work.appendingPathComponent("busiest.pdf").path)
            }
            pages = result.pages
            if run == 0 { continue }
            totals.append(query + print)
            queries.append(query)
        }
        let ms = { (value: Double) in String(format: "%.1f ms", value * 1000) }
        print(
            "busiest stop \(busiest) (week of \(day), \(pages) pages): min \(ms(totals.min() ?? .nan)), median \(ms(Measure.median(totals))) "
                + "(the store's query: median \(ms(Measure.median(queries)))); target ≤ 200 ms")

        let stops = try routes.boardingStopIDs().count
        var rates: [Double] = []
        for run in 1...max(1, networkRuns) {
            let folder = work.appendingPathComponent("all-\(run)").path
            let output = work.appendingPathComponent("all-\(run).txt").path
            let child = try Measure.spawn(
                Measure.siblingKiosk(),
                ["timetable", "--all-stops", "--db", db, "--date", day.description, "--week", "--lang", "en",
                 "--progress", "off", "--proof", "--out", folder],
                stdoutPath: output)
            guard child.status == 0 else { throw ValidationError("kiosk timetable --all-stops failed (status \(child.status))") }
            let written = try FileManager.default.contentsOfDirectory(atPath: folder).count
            rates.append(Double(written) / child.seconds)
            print(
                "all stops run \(run): \(written) posters of \(stops) stops in \(Measure.format(child.seconds)) = "
                    + String(format: "%.1f posters/s", Double(written) / child.seconds)
                    + String(format: " (CPU %.1f s, peak %.0f MB)", child.cpuSeconds, child.peakResidentMB))
            try? FileManager.default.removeItem(atPath: folder)
        }
        print(
            String(
                format: "all stops with read-back: min %.1f, median %.1f posters/s; target ≥ 50", rates.min() ?? .nan,
                Measure.median(rates)))
    }
}
