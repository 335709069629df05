import ArgumentParser
import Foundation
import Realtime
import StopPresentation
import SystemSupport
import TransitModel
import TransitStore

/// What a hostile realtime feed costs a running kiosk or server: a feed of a million tiny entities (about 42 MB,
/// under the 64 MiB cap) taken in by the poller as `kiosk serve` runs it, resident memory sampled throughout, then
/// the feed shrinking to an ordinary one; and a stop with 100,000 alerts asked for as the API answers it.
struct FeedMemoryBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed-memory",
        abstract:
            "Resident memory for a 1,000,000-entity realtime feed and after it shrinks (limit 4× the feed's size); a stop under 100,000 alerts."
    )

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Entities in the hostile feed: trip updates of the day's trips, one stop time update each.")
    var entities = 1_000_000

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let date = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let eight = date.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(8 * 3600)
        let hostile = try Self.tinyEntities(routes: routes, date: date, at: eight, count: entities)
        let ordinary = try LiveBench.runningTripsFeed(routes: routes, date: date, at: eight, limit: 2_000).0
        FreeMemory.returnToSystem()  // what building the feeds took, so the start is the poller's own
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-fm-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("trip-updates.pb").path

        final class Box: @unchecked Sendable { var result: Result<([Double], Double), any Error>? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let routesBox = routes
        Task {
            do {
                let poller = try RealtimePoller(settings: RealtimeSettings(tripUpdates: path), database: routesBox)
                var marks: [Double] = [], peak = 0.0
                for (index, data) in [ordinary, ordinary, hostile, ordinary, ordinary].enumerated() {
                    // The kernel's high-water mark, reset just before the large feed: its peak, not an earlier one.
                    if index == 2 { try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs")) }
                    try data.write(to: URL(fileURLWithPath: path))
                    try FileManager.default.setAttributes(
                        [.modificationDate: eight.addingTimeInterval(Double(index))], ofItemAtPath: path)
                    let report = await poller.pollOnce(now: { eight.addingTimeInterval(Double(index)) })
                    if case let .failed(reason) = report.tripUpdates { throw ValidationError("poll failed: \(reason)") }
                    marks.append(MemorySampler.residentMB())
                    if index == 2 { peak = Double(PeakMemory.residentKilobytes() ?? 0) / 1024 }
                }
                box.result = .success((marks, peak))
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        let (marks, peak) = try box.result!.get()
        let feedMB = Double(hostile.count) / 1_048_576
        let before = marks[1]
        func mb(_ value: Double) -> String { String(format: "%.1f MB", value) }
        print(
            """
            feed-memory: \(entities) trip updates of one stop time update each, \(mb(feedMB)) (\(String(format: "%.0f", Double(hostile.count) / Double(entities))) bytes an entity) on \(db)
              resident with an ordinary feed     \(mb(before))
              peak while taking the large feed   \(mb(peak)): +\(mb(peak - before)) = \(String(format: "%.2f", (peak - before) / feedMB))× the feed (limit 4×)
              after it                           \(mb(marks[2]))
              after the feed shrank back         \(mb(marks[3])), then \(mb(marks[4])): +\(mb(marks[4] - before)) over the start
            """)
        try alertsOnOneStop(routes: routes, at: eight)
    }

    /// N entities each naming one of the day's trips (cycled) with one stop's delay: ~42 bytes an entity, as
    /// the hostile feed that took a server from 591 MB to 2.2 GB.
    static func tinyEntities(routes: RouteDatabase, date: ServiceDate, at: Date, count: Int) throws -> Data {
        let ids = try routes.tripIDs(runningOn: date)
        guard !ids.isEmpty else { throw ValidationError("no trips on \(date)") }
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = UInt64(at.timeIntervalSince1970)
        message.entity.reserveCapacity(count)
        for n in 0..<count {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "e\(n)"
            entity.tripUpdate.trip.tripID = ids[n % ids.count]
            var update = TransitRealtime_TripUpdate.StopTimeUpdate()
            update.stopSequence = 1
            update.departure.delay = Int32(n % 600)
            entity.tripUpdate.stopTimeUpdate = [update]
            message.entity.append(entity)
        }
        return try message.serializedData()
    }

    /// 100,000 alerts on the busiest stop: the stop view with them applied and its JSON, per request.
    func alertsOnOneStop(routes: RouteDatabase, at: Date) throws {
        guard let stopID = try routes.busiestStopIDs(limit: 1).first else { return }
        let stop = try routes.resolveStop(.id(stopID))
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = UInt64(at.timeIntervalSince1970)
        message.entity = (0..<100_000).map { n in
            var entity = TransitRealtime_FeedEntity()
            entity.id = "alert-\(n)"
            var selector = TransitRealtime_EntitySelector()
            selector.stopID = stopID
            entity.alert.informedEntity = [selector]
            var text = TransitRealtime_TranslatedString.Translation()
            text.text = "Notice number \(n) about this stop"
            entity.alert.headerText.translation = [text]
            return entity
        }
        let feed = try RealtimeFeed.decode(try message.serializedData())
        var live = try LiveData(database: routes)
        try live.take(feed, fetchedAt: at, database: routes)
        var times: [Double] = [], bytes = 0
        for _ in 0..<50 {
            let (json, seconds) = try Measure.seconds {
                try StopViewJSON.render(
                    try routes.liveStopView(for: stop, at: at, live: live, now: at, language: "en"))
            }
            times.append(seconds)
            bytes = json.utf8.count
        }
        print(
            """
              a stop under 100,000 alerts (stop \(stopID)): stop view + JSON min \(Measure.ms(times.min()!))  median \(Measure.ms(Measure.median(times))), answer \(bytes / 1024) KB
            """)
    }
}
