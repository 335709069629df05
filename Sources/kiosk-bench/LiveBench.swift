import ArgumentParser
import Foundation
import Realtime
import StopPresentation
import TransitModel
import TransitStore

/// Live departures end to end (issue 14): the stop view with live data applied (JSON rendered), against the same
/// view without it in the same run; and memory over many polls of a feed that changes every time.
struct LiveBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Stop views with live data (p99 limit 3 ms) and memory over 10,000 polls (growth limit 10%)."
    )

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Lookups per run.")
    var count = 1000

    @Option(help: "Timed runs (after one warm-up run).")
    var runs = 3

    @Option(help: "Polls in the memory run (0: skip it).")
    var polls = 10_000

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let date = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let zone = routes.timeZone
        let eight = date.serviceDayOrigin(in: zone).addingTimeInterval(8 * 3600)
        // The feed a kiosk would get at 08:00: every trip running between 07:30 and 09:30, each stop predicted.
        let (data, trips, updates) = try Self.runningTripsFeed(routes: routes, date: date, at: eight, limit: 60_000)
        let feed = try RealtimeFeed.decode(data)
        var live = try LiveData(database: routes)
        live.tripUpdates = .init(
            value: try TripUpdateMatcher.match(feed, database: routes, referenceTime: eight),
            headerTimestamp: eight, fetchedAt: eight)
        live.hasAlertsFeed = false
        let matched = live.tripUpdates!.value.statistics
        print(
            "live: feed of \(trips) running trips, \(updates) stop time updates (\(data.count / 1024) KB), \(matched.tripsMatched) trips matched, on \(db), \(date) 08:00"
        )

        // Stops with departures around 08:00, picked at random; lookups at random moments 07:45–08:30 (the feed
        // stays fresh: freshness is judged at the lookup's moment).
        let stops = try routes.boardingStopIDs()
        var p99Live: [Double] = [], p50Live: [Double] = [], p99Plain: [Double] = [], maxLive: [Double] = []
        var p99Lookup: [Double] = []
        var liveShare = 0.0
        for run in 0...runs {
            var rng = SplitMix64(seed: seed &+ UInt64(run))
            var lookupOnly: [Double] = [], withLive: [Double] = [], without: [Double] = []
            var liveDepartures = 0, departures = 0
            for _ in 0..<count {
                let stopID = stops[Int(rng.next() % UInt64(stops.count))]
                let at = eight.addingTimeInterval(Double(Int(rng.next() % 2700)) - 900)
                let stop = try routes.resolveStop(.id(stopID))
                let (view, lookup) = try Measure.seconds {
                    try routes.liveStopView(for: stop, at: at, live: live, now: at, language: "en")
                }
                let (_, json) = try Measure.seconds { _ = try StopViewJSON.render(view) }
                let (_, plain) = try Measure.seconds {
                    _ = try StopViewJSON.render(try routes.stopView(for: stop, at: at))
                }
                lookupOnly.append(lookup)
                withLive.append(lookup + json)
                without.append(plain)
                departures += view.departures.count
                liveDepartures += view.departures.filter { $0.realtime.map { $0.state != .scheduled } ?? false }.count
            }
            if run == 0 { continue }  // warm-up
            withLive.sort()
            without.sort()
            lookupOnly.sort()
            p99Lookup.append(Measure.percentile(lookupOnly, 99))
            p50Live.append(Measure.percentile(withLive, 50))
            p99Live.append(Measure.percentile(withLive, 99))
            maxLive.append(withLive.last!)
            p99Plain.append(Measure.percentile(without, 99))
            liveShare = departures == 0 ? 0 : Double(liveDepartures) / Double(departures)
        }
        let ratios = zip(p99Live, p99Plain).map { $0 / $1 }
        print(
            """
              stop view with live data, \(count) random stops × \(runs) runs (\(String(format: "%.0f", liveShare * 100))% of departures live)
                lookup alone (the view built, live data applied) p99  min \(Measure.ms(p99Lookup.min()!))  median \(Measure.ms(Measure.median(p99Lookup)))  (limit 3 ms)
              the same views rendered as the API's JSON (lookup + JSON):
                p50  min \(Measure.ms(p50Live.min()!))  median \(Measure.ms(Measure.median(p50Live)))
                p99  min \(Measure.ms(p99Live.min()!))  median \(Measure.ms(Measure.median(p99Live)))
                max  min \(Measure.ms(maxLive.min()!))  median \(Measure.ms(Measure.median(maxLive)))
                p99 without live data  min \(Measure.ms(p99Plain.min()!))  median \(Measure.ms(Measure.median(p99Plain)))
                ratio p99 live / without   min \(String(format: "%.2f", ratios.min()!))  median \(String(format: "%.2f", Measure.median(ratios)))
            """)
        if polls > 0 { try pollMemory(routes: routes, date: date, at: eight) }
    }

    /// A feed file rewritten (new bytes, new modification time) before every poll, so each poll reads, decodes and
    /// matches it anew, as with a live server; resident memory after the warm-up against the end.
    private func pollMemory(routes: RouteDatabase, date: ServiceDate, at eight: Date) throws {
        let (data, _, updates) = try Self.runningTripsFeed(routes: routes, date: date, at: eight, limit: 2_000)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-live-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("trip-updates.pb").path
        let settings = RealtimeSettings(tripUpdates: path, alerts: path)
        let polls = self.polls
        final class Box: @unchecked Sendable { var result: Result<(Double, Double, Double, Int), any Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let routesBox = routes
        Task {
            do {
                let poller = try RealtimePoller(settings: settings, database: routesBox)
                var warm = 0.0, peak = 0.0, failures = 0
                let started = Date()
                for poll in 0..<polls {
                    // A new header time each poll: different bytes, as a live server sends.
                    var message = try TransitRealtime_FeedMessage(serializedBytes: data)
                    message.header.timestamp = UInt64(eight.timeIntervalSince1970) + UInt64(poll)
                    try message.serializedData().write(to: URL(fileURLWithPath: path))
                    try FileManager.default.setAttributes(
                        [.modificationDate: started.addingTimeInterval(Double(poll))], ofItemAtPath: path)
                    let report = await poller.pollOnce(now: { eight.addingTimeInterval(Double(poll)) })
                    if case .failed = report.tripUpdates { failures += 1 }
                    if poll == min(polls - 1, 500) { warm = MemorySampler.residentMB() }
                    if poll > 500 { peak = max(peak, MemorySampler.residentMB()) }
                }
                box.result = .success((warm, MemorySampler.residentMB(), peak, failures))
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        let (warm, end, peak, failures) = try box.result!.get()
        print(
            """
              memory over \(polls) polls of a changing \(updates)-update feed (file; trip updates and alerts, decoded and matched each time; \(failures) failed)
                resident after 500 polls \(String(format: "%.1f", warm)) MB → at the end \(String(format: "%.1f", end)) MB (peak after warm-up \(String(format: "%.1f", peak)) MB): growth \(String(format: "%+.1f", 100 * (end - warm) / warm))% (limit 10%)
            """)
    }

    /// Every trip of `date` running within an hour and a half of `at` (scheduled before 09:30, still running at
    /// 07:30), each of its stops given as a delay (a third) or an absolute time, until `limit` updates.
    static func runningTripsFeed(
        routes: RouteDatabase, date: ServiceDate, at: Date, limit: Int
    ) throws -> (Data, Int, Int) {
        let origin = Int64(date.serviceDayOrigin(in: routes.timeZone).timeIntervalSince1970)
        let now = Int(at.timeIntervalSince1970) - Int(origin)
        let feed = try SyntheticTripUpdates.make(
            routes: routes, date: date, headerTime: UInt64(at.timeIntervalSince1970), stampTrips: false, limit: limit,
            include: { trip in
                guard let first = trip.stopTimes.first?.departure, let last = trip.stopTimes.last?.arrival else {
                    return false
                }
                return first <= now + 5400 && last >= now - 1800
            }
        ) { update, stopTime, trip, _, delay in
            if trip % 3 == 0 {
                update.departure.delay = delay
            } else {
                update.departure.time = origin + Int64(stopTime.departure ?? 0) + Int64(delay)
            }
        }
        return (feed.data, feed.trips, feed.updates)
    }
}
