import Foundation
import Realtime
import StopPresentation
import SwiftProtobuf
import TransitModel
import TransitStore

/// The realtime path end to end, as `kiosk serve`, `lookup --json` and `rt inspect` run it: feed bytes are decoded,
/// matched against the sample network's timetable, applied to the stop views of the stops the scenario touches,
/// and rendered as text, JSON and speech text (where dates from the feed become clock times). Nothing may trap.
enum RealtimeFuzzing {
    /// The sample network, imported once per fuzzing process into a temporary folder.
    struct Network {
        var database: RouteDatabase
        var stops: [ResolvedStop]
        var tripIDs: [String]
        var stopIDs: [String]
        var routeIDs: [String]
    }

    /// Removed when the process exits.
    nonisolated(unsafe) static var temporaryFolder: String?

    /// The scenario's moment: Wednesday 2026-11-25 08:00 in Quito (13:00Z).
    static let scenarioTime = Date(timeIntervalSince1970: 1_795_611_600)

    static let network: Network = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let feed = root.appendingPathComponent("assets/sample-network").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-fuzz-\(getpid())")
        temporaryFolder = work.path
        atexit { _ = temporaryFolder.map { try? FileManager.default.removeItem(atPath: $0) } }
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let path = work.appendingPathComponent("sample.sqlite").path
            _ = try GTFSImporter(feedPath: feed, databasePath: path).run()
            let database = try RouteDatabase(path: path)
            let stopIDs = ["TB-EJIDO-N", "TB-ALAMEDA", "TB-COLON", "TB-LAY", "1091"]
            let stops = stopIDs.compactMap { try? database.resolveStop(.idOrCode($0)) }
            let schedules = try database.scheduledTrips(ids: ["TB-LAB-0-0740", "TB-LAB-1-0756", "TB-LAB-0-0748"])
            return Network(
                database: database, stops: stops, tripIDs: schedules.keys.sorted(), stopIDs: stopIDs,
                routeIDs: try database.routeRecords().keys.sorted())
        } catch {
            printError("kiosk-fuzz realtime: cannot import the sample network from \(feed): \(error)")
            exit(2)
        }
    }()

    /// Random bytes as a feed.
    static func run(bytes input: UnsafeRawBufferPointer) {
        exercise(Data(input))
    }

    /// The input as choices that build a valid FeedMessage full of extreme values.
    static func run(structured input: UnsafeRawBufferPointer) {
        var choices = Choices(input)
        guard let bytes = try? structuredFeed(&choices).serializedBytes() as [UInt8] else { return }
        exercise(Data(bytes))
    }

    static func exercise(_ data: Data) {
        guard let feed = try? RealtimeFeed.decode(data) else { return }
        let network = network
        _ = feed.headerTimestamp.map { LocalTime.iso8601($0, in: network.database.timeZone) }
        for mode in [RealtimeMode.mixed, .online] {
            guard var live = try? LiveData(database: network.database, mode: mode) else { return }
            _ = try? live.take(feed, fetchedAt: scenarioTime, database: network.database)
            for stop in network.stops {
                for language in Language.allCases {
                    guard
                        let view = try? network.database.liveStopView(
                            for: stop, at: scenarioTime, live: live, now: scenarioTime, language: language.rawValue)
                    else { continue }
                    _ = StopViewText.render(view, language: language, strikeThrough: true)
                    _ = try? StopViewJSON.render(view)
                    _ = StopViewSpeech.text(view, language: language, detail: .full)
                }
            }
        }
    }

    // MARK: Structured feeds

    /// Reads choices from the fuzzer's bytes; past the end every choice is the first option.
    struct Choices {
        let bytes: [UInt8]
        var offset = 0
        init(_ input: UnsafeRawBufferPointer) { bytes = Array(input) }

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return offset < bytes.count ? bytes[offset] : 0
        }
        mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }
        mutating func count(_ limit: Int) -> Int { Int(byte()) % (limit + 1) }
        mutating func flag() -> Bool { byte() & 1 == 1 }
    }

    static let scenarioSeconds = UInt64(scenarioTime.timeIntervalSince1970)
    /// POSIX times: absent, the epoch, the scenario's minutes, the plausible range's edges and past them,
    /// −1 written into an unsigned field (2^64−1), 2^63 and its neighbours.
    static let unsignedTimes: [UInt64] = [
        0, 1, scenarioSeconds, scenarioSeconds - 3600, scenarioSeconds + 240, scenarioSeconds + 86_400 * 3650,
        946_684_799, 946_684_800, 4_102_444_800, 4_102_444_801, UInt64(Int64.max), UInt64(Int64.max) + 1,
        UInt64.max, UInt64.max - 1, 1 << 53, (1 << 53) + 1, UInt64(UInt32.max),
    ]
    static let signedTimes: [Int64] = unsignedTimes.map { Int64(bitPattern: $0) } + [Int64.min, -1, -86_400]
    static let delays: [Int32] = [0, 240, -60, 86_400, 86_401, -86_401, 315_360_000, -315_360_000, .max, .min, 1]
    static let dates = ["20261125", "20261124", "20261126", "00000000", "00010101", "99991231", "2026-11-25", "", "x"]
    static let startTimes = ["07:40:00", "08:00:00", "25:00:00", "999:59:59", "00:00:00", "", "8:00", "-1:00:00"]
    static let languages = ["es", "en", "es-EC", "", "zz", "\u{202E}es"]
    static let texts = ["Obras", "Works", "", "\u{202E}evil", String(repeating: "x", count: 300), "<b>&amp;</b>"]

    static func structuredFeed(_ c: inout Choices) -> TransitRealtime_FeedMessage {
        let network = network
        func id(_ known: [String]) -> String { c.pick(known + ["", "unknown", "../../14", String(repeating: "9", count: 64)]) }
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = c.pick(["2.0", "1.0", "", "3.0"])
        if c.flag() { message.header.timestamp = c.pick(unsignedTimes) }
        if c.flag() { message.header.incrementality = .differential }
        for index in 0..<c.count(12) {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "e\(index)"
            entity.isDeleted = c.byte() == 255
            switch c.byte() % 3 {
            case 0:
                var update = TransitRealtime_TripUpdate()
                update.trip.tripID = id(network.tripIDs)
                if c.flag() { update.trip.startDate = c.pick(dates) }
                if c.flag() { update.trip.startTime = c.pick(startTimes) }
                if c.flag() { update.trip.routeID = id(network.routeIDs) }
                if c.flag() { update.trip.directionID = c.pick([0, 1, UInt32.max]) }
                update.trip.scheduleRelationship =
                    TransitRealtime_TripDescriptor.ScheduleRelationship(rawValue: c.count(8)) ?? .scheduled
                if c.flag() { update.delay = c.pick(delays) }
                if c.flag() { update.timestamp = c.pick(unsignedTimes) }
                for _ in 0..<c.count(8) {
                    var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
                    if c.flag() { stop.stopSequence = c.pick([0, 1, 2, 5, 30, UInt32.max]) }
                    if c.flag() { stop.stopID = id(network.stopIDs) }
                    for isArrival in [true, false] where c.flag() {
                        var event = TransitRealtime_TripUpdate.StopTimeEvent()
                        if c.flag() { event.time = c.pick(signedTimes) }
                        if c.flag() { event.delay = c.pick(delays) }
                        if c.flag() { event.uncertainty = c.pick([0, -1, .max]) }
                        if isArrival { stop.arrival = event } else { stop.departure = event }
                    }
                    stop.scheduleRelationship =
                        TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship(rawValue: c.count(4)) ?? .scheduled
                    update.stopTimeUpdate.append(stop)
                }
                entity.tripUpdate = update
            case 1:
                var alert = TransitRealtime_Alert()
                for _ in 0..<c.count(3) {
                    var period = TransitRealtime_TimeRange()
                    if c.flag() { period.start = c.pick(unsignedTimes) }
                    if c.flag() { period.end = c.pick(unsignedTimes) }
                    alert.activePeriod.append(period)
                }
                for _ in 0..<c.count(4) {
                    var selector = TransitRealtime_EntitySelector()
                    if c.flag() { selector.stopID = id(network.stopIDs) }
                    if c.flag() { selector.routeID = id(network.routeIDs) }
                    if c.flag() { selector.routeType = c.pick([0, 3, 11, -1, .max]) }
                    if c.flag() { selector.directionID = c.pick([0, 1, UInt32.max]) }
                    if c.flag() { selector.agencyID = c.pick(["EPMMQ", "", "other"]) }
                    if c.flag() { selector.trip.tripID = id(network.tripIDs) }
                    alert.informedEntity.append(selector)
                }
                for _ in 0..<c.count(3) {
                    var translation = TransitRealtime_TranslatedString.Translation()
                    translation.text = c.pick(texts)
                    if c.flag() { translation.language = c.pick(languages) }
                    alert.headerText.translation.append(translation)
                    if c.flag() { alert.descriptionText.translation.append(translation) }
                }
                alert.cause = TransitRealtime_Alert.Cause(rawValue: c.count(20)) ?? .unknownCause
                alert.effect = TransitRealtime_Alert.Effect(rawValue: c.count(20)) ?? .unknownEffect
                entity.alert = alert
            default:
                var vehicle = TransitRealtime_VehiclePosition()
                vehicle.trip.tripID = id(network.tripIDs)
                if c.flag() { vehicle.timestamp = c.pick(unsignedTimes) }
                if c.flag() { vehicle.stopID = id(network.stopIDs) }
                entity.vehicle = vehicle
            }
            message.entity.append(entity)
        }
        return message
    }
}
