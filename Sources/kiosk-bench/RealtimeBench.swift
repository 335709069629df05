import ArgumentParser
import Foundation
import Realtime
import TransitModel
import TransitStore

/// Decoding and applying a large TripUpdates feed, as a kiosk does after every poll: bytes → FeedMessage →
/// every trip and stop matched to the timetable (its stop times read from the database), delays propagated.
/// The peer is Google's Python bindings (upb, C) decoding the same bytes in the same run.
struct RealtimeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Decode + apply a GTFS-Realtime TripUpdates feed of 50,000 stop time updates (limit 200 ms)."
    )

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Stop time updates in the generated feed.")
    var stopTimeUpdates = 50_000

    @Option(help: "Timed runs (after one warm-up).")
    var runs = 9

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let date = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let (data, trips) = try Self.generateFeed(routes: routes, date: date, stopTimeUpdates: stopTimeUpdates)
        let reference = date.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(8 * 3600)
        var decodeTimes: [Double] = [], matchTimes: [Double] = [], totals: [Double] = [], cpuTimes: [Double] = []
        var last: LiveTimetable?
        for run in 0...runs {
            let cpuStart = Self.processCPUSeconds()
            let (feed, decode) = try Measure.seconds { try RealtimeFeed.decode(data) }
            let (live, match) = try Measure.seconds {
                try TripUpdateMatcher.match(feed, database: routes, referenceTime: reference)
            }
            let cpu = Self.processCPUSeconds() - cpuStart
            last = live
            if run == 0 { continue }
            decodeTimes.append(decode); matchTimes.append(match); totals.append(decode + match); cpuTimes.append(cpu)
        }
        var load = [Double](repeating: 0, count: 3)
        _ = getloadavg(&load, 3)
        let stats = last!.statistics
        guard stats.stopsMatched == stopTimeUpdates, stats.tripsMatched == trips else {
            throw ValidationError(
                "the generated feed did not match fully (\(stats.tripsMatched) trips, \(stats.stopsMatched) stops)")
        }
        print(
            """
            realtime: TripUpdates feed of \(trips) trips, \(stats.stopTimeUpdates) stop time updates (\(data.count / 1024) KB) on \(db), service day \(date)
              decode (swift-protobuf)        min \(Measure.ms(decodeTimes.min()!))  median \(Measure.ms(Measure.median(decodeTimes)))
              match + propagate (with DB)    min \(Measure.ms(matchTimes.min()!))  median \(Measure.ms(Measure.median(matchTimes)))
              decode + apply                 min \(Measure.ms(totals.min()!))  median \(Measure.ms(Measure.median(totals)))  (limit 200 ms)
              decode + apply, CPU time       min \(Measure.ms(cpuTimes.min()!))  median \(Measure.ms(Measure.median(cpuTimes)))  (load average \(String(format: "%.1f", load[0])) on \(ProcessInfo.processInfo.activeProcessorCount) cores)
            """)
        try pythonPeer(data: data, ours: decodeTimes)
    }

    /// CPU seconds this process has used (user + system): what the work costs, whatever else the machine runs.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        func value(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }

    /// Every stop time of the day's first trips until `stopTimeUpdates` are reached: half the trips as delays,
    /// half as absolute times, with stop_sequence and stop_id, arrival and departure, one stop in 50 SKIPPED.
    static func generateFeed(routes: RouteDatabase, date: ServiceDate, stopTimeUpdates: Int) throws -> (Data, Int) {
        let origin = Int64(date.serviceDayOrigin(in: routes.timeZone).timeIntervalSince1970)
        let feed = try SyntheticTripUpdates.make(
            routes: routes, date: date, headerTime: UInt64(origin + 8 * 3600), stampTrips: true, limit: stopTimeUpdates
        ) { update, stopTime, trip, count, delay in
            if count % 50 == 49 {
                update.scheduleRelationship = .skipped
            } else if trip % 2 == 0 {
                update.arrival.delay = delay
                update.departure.delay = delay
            } else {
                update.arrival.time = origin + Int64(stopTime.arrival ?? 0) + Int64(delay)
                update.departure.time = origin + Int64(stopTime.departure ?? 0) + Int64(delay)
            }
        }
        return (feed.data, feed.trips)
    }

    /// The same bytes through Google's Python bindings (`pip install gtfs-realtime-bindings`), timed inside Python.
    private func pythonPeer(data: Data, ours: [Double]) throws {
        guard let python = Measure.which("python3") else { print("  peer skipped: python3 is not installed"); return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-rt-\(getpid()).pb")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import sys, time
            from google.transit import gtfs_realtime_pb2 as g
            from google.protobuf.internal import api_implementation
            data = open(sys.argv[1], 'rb').read()
            times = []
            for _ in range(\(runs + 1)):
                t = time.perf_counter(); m = g.FeedMessage(); m.ParseFromString(data); times.append(time.perf_counter() - t)
            times = sorted(times[1:])
            print(api_implementation.Type(), times[0], times[len(times) // 2])
            """
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-rt-\(getpid()).out")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, file.path]
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let fields = (try String(contentsOf: out, encoding: .utf8)).split(separator: " ")
        guard process.terminationStatus == 0, fields.count == 3, let min = Double(fields[1]),
            let median = Double(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            print("  peer skipped: python3 cannot import gtfs-realtime-bindings (run kiosk/setup.sh)")
            return
        }
        print(
            """
              peer: Python gtfs-realtime-bindings (\(fields[0])) decode  min \(Measure.ms(min))  median \(Measure.ms(median))
              ratio swift decode / python decode   median \(String(format: "%.2f", Measure.median(ours) / median))
            """)
    }
}
