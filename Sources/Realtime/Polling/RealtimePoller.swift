import Foundation
import SystemSupport
import TransitModel
import TransitStore

/// Polls the configured feeds every `pollSeconds` and keeps the `LiveData` a kiosk applies to stop views.
/// A failed fetch or an undecodable feed keeps the previous data (freshness retires it in time) and is
/// reported; `offline` mode never fetches. Each publisher (`[realtime]`, or each `[[realtime.feeds]]` table) is
/// fetched and aged on its own and its ids read in its static feed's namespace: one operator's dead server
/// leaves the others' live data flowing.
public actor RealtimePoller {
    /// What one poll did, per feed.
    public struct Report: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            case updated(entities: Int)
            case notModified
            case failed(String)
            case notFetched
        }
        /// With several publishers, their trip updates together (the failures named by source).
        public var tripUpdates: Outcome = .notFetched
        /// The alerts sources together: the only one's outcome, or with several, the failures named by source
        /// (each source's own is in `alertSources`).
        public var alerts: Outcome = .notFetched
        /// Each alerts source's outcome, in config order (`[realtime]`'s, then each `[[realtime.feeds]]` table's).
        public var alertSources: [Outcome] = []
        public var vehiclePositions: Outcome = .notFetched
        /// Each publisher's own, in config order (empty when nothing was fetched).
        public var feeds: [FeedReport] = []

        public init() {}
    }

    /// One publisher's part of a poll, and how well its latest trip updates matched the timetable.
    public struct FeedReport: Sendable, Equatable {
        /// The static feed ("metro"), "" for `[realtime]` without `feed`.
        public var feed: String
        public var tripUpdates: Outcome = .notFetched
        public var alertSources: [Outcome] = []
        public var vehiclePositions: Outcome = .notFetched
        /// The statistics of the publisher's trip updates now held (nil: none yet).
        public var statistics: MatchStatistics?

        public typealias Outcome = Report.Outcome
    }

    /// One publisher's fetchers.
    struct Publisher {
        var binding: RealtimeBinding
        var tripUpdates: FeedFetcher?
        /// Its trip updates' slot in `tripUpdateSources`.
        var tripUpdatesSlot: Int?
        var alerts: [FeedFetcher]
        /// Its first alerts source's slot in `alertSources`.
        var firstAlertsSlot: Int
        var vehicles: FeedFetcher?
    }

    public let settings: RealtimeSettings
    private let database: RouteDatabase
    private let publishers: [Publisher]
    private var tripUpdateSources: TripUpdateSources
    private var alertSources: AlertSources
    private let allAlertsFetchers: [FeedFetcher]
    public private(set) var live: LiveData
    /// The size of the last feed decoded from each source: a feed that shrinks gives back what the large one took.
    private var lastFeedBytes: [String: Int] = [:]
    /// Vehicles in the latest VehiclePositions feed of each publisher (decoded and counted; not yet shown).
    private var vehicleCounts: [Int: Int] = [:]
    public var vehicleCount: Int { vehicleCounts.values.reduce(0, +) }

    /// Refuses (`RealtimeBindingError`) a config whose feed ids the database does not hold.
    public init(settings: RealtimeSettings, database: RouteDatabase, timeoutSeconds: Int = 10) throws {
        self.settings = settings
        self.database = database
        var publishers: [Publisher] = []
        var tripUpdatesCount = 0, alertsCount = 0
        for binding in try settings.bind(to: database) {
            let sources = binding.sources
            func fetcher(_ source: String?) -> FeedFetcher? {
                source.map { FeedFetcher(source: $0, headers: sources.headers, timeoutSeconds: timeoutSeconds) }
            }
            let alerts = sources.alertFeeds.compactMap(fetcher)
            publishers.append(
                Publisher(
                    binding: binding, tripUpdates: fetcher(sources.tripUpdates),
                    tripUpdatesSlot: sources.tripUpdates == nil ? nil : tripUpdatesCount, alerts: alerts,
                    firstAlertsSlot: alertsCount, vehicles: fetcher(sources.vehiclePositions)))
            if sources.tripUpdates != nil { tripUpdatesCount += 1 }
            alertsCount += alerts.count
        }
        self.publishers = publishers
        allAlertsFetchers = publishers.flatMap(\.alerts)
        tripUpdateSources = TripUpdateSources(count: tripUpdatesCount)
        alertSources = AlertSources(count: alertsCount)
        var live = try LiveData(database: database, mode: settings.mode, pollSeconds: settings.pollSeconds)
        live.hasTripUpdatesFeed = tripUpdatesCount > 0
        live.hasAlertsFeed = alertsCount > 0
        self.live = live
    }

    /// Fetches every configured feed once. `now` stamps what arrives.
    @discardableResult
    public func pollOnce(now: @Sendable () -> Date = { Date() }) async -> Report {
        var report = Report()
        guard settings.mode != .offline else { return report }
        for (number, publisher) in publishers.enumerated() {
            var part = FeedReport(feed: publisher.binding.name)
            let prefix = publisher.binding.idPrefix
            if let fetcher = publisher.tripUpdates, let slot = publisher.tripUpdatesSlot {
                part.tripUpdates = await poll(fetcher, now: now) { feed, at in
                    feed.readInNamespace(prefix)
                    let timetable = try TripUpdateMatcher.match(feed, database: database)
                    tripUpdateSources.update(
                        slot, .init(value: timetable, headerTimestamp: feed.headerTimestamp, fetchedAt: at))
                } confirmed: { at in
                    tripUpdateSources.confirm(slot, at: at)
                }
                part.statistics = tripUpdateSources.latest[slot]?.value.statistics
            }
            for (offset, fetcher) in publisher.alerts.enumerated() {
                let slot = publisher.firstAlertsSlot + offset
                part.alertSources.append(
                    await poll(fetcher, now: now) { feed, at in
                        feed.readInNamespace(prefix)
                        alertSources.update(
                            slot,
                            .init(
                                value: AlertIndex(feed: feed), headerTimestamp: feed.freshnessTimestamp, fetchedAt: at))
                    } confirmed: { at in
                        alertSources.confirm(slot, at: at)
                    })
            }
            if let fetcher = publisher.vehicles {
                part.vehiclePositions = await poll(fetcher, now: now) { feed, _ in
                    vehicleCounts[number] = feed.contents.vehiclePositions
                } confirmed: { _ in
                }
            }
            report.feeds.append(part)
        }
        let withTripUpdates = publishers.filter { $0.tripUpdates != nil }
        if !withTripUpdates.isEmpty {
            live.tripUpdates = tripUpdateSources.merged(
                now: now(), pollSeconds: settings.pollSeconds, mode: settings.mode)
            report.tripUpdates = Self.combined(
                zip(publishers, report.feeds).filter { $0.0.tripUpdates != nil }.map(\.1.tripUpdates),
                sources: withTripUpdates.compactMap(\.tripUpdates?.source))
        }
        report.alertSources = report.feeds.flatMap(\.alertSources)
        if !allAlertsFetchers.isEmpty {
            live.alerts = alertSources.merged(now: now(), pollSeconds: settings.pollSeconds, mode: settings.mode)
            report.alerts = Self.combined(report.alertSources, sources: allAlertsFetchers.map(\.source))
        }
        let withVehicles = publishers.filter { $0.vehicles != nil }
        if !withVehicles.isEmpty {
            report.vehiclePositions = Self.combined(
                zip(publishers, report.feeds).filter { $0.0.vehicles != nil }.map(\.1.vehiclePositions),
                sources: withVehicles.compactMap(\.vehicles?.source))
        }
        return report
    }

    /// One outcome for several alerts sources: the failures, named by source, else the updates, else not modified.
    static func combined(_ outcomes: [Report.Outcome], sources: [String]) -> Report.Outcome {
        guard outcomes.count > 1 else { return outcomes.first ?? .notFetched }
        var failures: [String] = [], entities = 0, updated = false
        for (outcome, source) in zip(outcomes, sources) {
            switch outcome {
            case let .failed(reason): failures.append("\(source): \(reason)")
            case let .updated(count): entities += count; updated = true
            case .notModified, .notFetched: break
            }
        }
        if !failures.isEmpty { return .failed(failures.joined(separator: "; ")) }
        return updated ? .updated(entities: entities) : .notModified
    }

    private func poll(
        _ fetcher: FeedFetcher, now: @Sendable () -> Date, apply: (inout RealtimeFeed, Date) throws -> Void,
        confirmed: (Date) -> Void
    ) async -> Report.Outcome {
        do {
            var feed: RealtimeFeed
            do {
                guard case let .body(data) = try await fetcher.fetch() else {
                    confirmed(now())
                    return .notModified
                }
                feed = try RealtimeFeed.decode(data)
            }  // the fetched bytes go here, before matching builds its own data
            try apply(&feed, now())
            let (entities, byteCount) = (feed.contents.entities, feed.byteCount)
            // After a large feed, and after the first smaller one (whose data replaced the large one's), give the
            // memory back rather than keep the peak for the rest of the process: a feed that shrinks must shrink
            // the kiosk too.
            let previous = lastFeedBytes.updateValue(byteCount, forKey: fetcher.source) ?? 0
            if max(previous, byteCount) >= 1 << 20 {
                _ = consume feed
                FreeMemory.returnToSystem()
            }
            return .updated(entities: entities)
        } catch {
            return .failed("\(error)")
        }
    }

    /// Polls until the task is cancelled, every `pollSeconds`.
    public func run() async {
        while !Task.isCancelled {
            await pollOnce()
            try? await Task.sleep(for: .seconds(settings.pollSeconds))
        }
    }
}
