import ArgumentParser
import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TerminalKiosk
import TransitModel
import TransitStore
import TripPlanning

/// 1,000 stop views at random stops and times in one warm process (JSON rendering included), and the cost of
/// a whole `kiosk lookup` process against `sqlite3` running the single departures query on the same database.
struct LookupBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup", abstract: "Stop-view latency, warm and cold.")

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Lookups in the warm run.")
    var count = 1000

    @Option(help: "Cold process runs of each side (0: none).")
    var coldRuns = 10

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let start = routes.serviceStart, let end = routes.serviceEnd else {
            throw ValidationError("\(db) has no service dates")
        }
        var rng = SplitMix64(seed: seed)
        let codes = try routes.boardingStopIDs()
        var samples: [Double] = []
        var queries: [Double] = [], encoder: [Double] = [], direct: [Double] = []
        var bytes = 0
        for _ in 0..<count {
            let stopID = codes[Int(rng.next() % UInt64(codes.count))]
            let date = ServiceDate(
                dayNumber: start.dayNumber + Int(rng.next() % UInt64(end.dayNumber - start.dayNumber + 1)))
            let at = date.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(
                Double(5 * 3600 + Int(rng.next() % (19 * 3600))))
            let (view, query) = try Measure.seconds {
                try routes.stopView(for: try routes.resolveStop(.id(stopID)), at: at)
            }
            let (json, written) = try Measure.seconds { try StopViewJSON.render(view) }
            // The reference the direct writer replaced: Foundation's encoder, the same bytes.
            let (_, encoded) = try Measure.seconds {
                try KioskJSON.encode(view, timeZone: routes.timeZone, keysDeclaredInSnakeCase: true)
            }
            bytes += json.utf8.count
            samples.append(query + written)
            queries.append(query); direct.append(written); encoder.append(encoded)
        }
        samples.sort(); queries.sort(); encoder.sort(); direct.sort()
        func line(_ name: String, _ sorted: [Double]) -> String {
            "  \(name)  p50 \(Measure.ms(Measure.percentile(sorted, 50)))  p99 \(Measure.ms(Measure.percentile(sorted, 99)))  max \(Measure.ms(sorted.last!))"
        }
        let encoderTotal = encoder.reduce(0, +), directTotal = direct.reduce(0, +)
        print(
            """
            warm lookups: \(count) random stops and times on \(db) (JSON rendered, \(bytes / count) bytes each on average)
            \(line("view + JSON   ", samples))  (target p99 ≤ 5 ms, goal 2 ms)
            \(line("query alone   ", queries))
            \(line("JSON, direct  ", direct))
            \(line("JSON, encoder ", encoder))  (Foundation's JSONEncoder, the same bytes)
              the direct writer takes \(String(format: "%.2f", directTotal / encoderTotal)) of the encoder's time
            """)
        try coldComparison(routes: routes, stopID: codes[0])
    }

    /// A whole `kiosk lookup` process (open, query, print) against the sqlite3 shell running just the departures query.
    private func coldComparison(routes: RouteDatabase, stopID: String) throws {
        guard coldRuns > 0 else { return }
        let kiosk = Measure.siblingKiosk()
        guard FileManager.default.isExecutableFile(atPath: kiosk) else {
            print("cold comparison skipped: build the kiosk product beside kiosk-bench (swift build -c release)")
            return
        }
        guard let sqlite3 = Measure.which("sqlite3") else { throw ValidationError("sqlite3 is not installed") }
        let date = routes.serviceStart!.adding(days: 7)
        let at = "\(date)T08:00"
        let services = routes.activeServiceIndexes(on: date).map(String.init).joined(separator: ",")
        let query = """
            SELECT st.departure_time, t.trip_id, t.route_idx FROM stops s JOIN stop_times st ON st.stop_idx = s.stop_idx
            JOIN trips t ON t.trip_idx = st.trip_idx
            WHERE s.stop_id = '\(stopID.replacingOccurrences(of: "'", with: "''"))' AND st.departure_time BETWEEN 28800 AND 32400
              AND t.service_idx IN (\(services)) AND st.pickup_type != 1 ORDER BY st.departure_time;
            """
        // Alternately, so a machine that slows down during the run slows all three; ratios taken run by run.
        var ratios: [Double] = [], ours: [Double] = [], peer: [Double] = []
        var versionRatios: [Double] = [], version: [Double] = []
        for run in 0...coldRuns {
            let a = try Measure.runProcess(kiosk, ["lookup", stopID, "--db", db, "--at", at, "--json"]).seconds
            let b = try Measure.runProcess(sqlite3, [db, query]).seconds
            let c = try Measure.runProcess(kiosk, ["--version"]).seconds
            if run == 0 { continue }
            ours.append(a); peer.append(b); ratios.append(a / b)
            version.append(c); versionRatios.append(c / b)
        }
        func ratio(_ values: [Double]) -> String {
            "min \(String(format: "%.2f", values.min()!))  median \(String(format: "%.2f", Measure.median(values)))"
        }
        print(
            """
            start-up, whole processes, \(coldRuns) in turn, stop \(stopID) at \(at) (lookup: median ≤ 20 ms):
              kiosk lookup --json  min \(Measure.ms(ours.min()!))  median \(Measure.ms(Measure.median(ours)))
              kiosk --version      min \(Measure.ms(version.min()!))  median \(Measure.ms(Measure.median(version)))
              sqlite3 departures   min \(Measure.ms(peer.min()!))  median \(Measure.ms(Measure.median(peer)))
              ratio lookup / sqlite3     \(ratio(ratios))
              ratio --version / sqlite3  \(ratio(versionRatios))
            """)
    }
}

/// A small, fast, seedable generator, so benchmark runs are repeatable.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
