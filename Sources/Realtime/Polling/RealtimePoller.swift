import Foundation
import SystemSupport
import TransitModel
import TransitStore

/// Polls the configured feeds every `pollSeconds` and keeps the `LiveData` a kiosk applies to stop views.
/// A failed fetch or an undecodable feed keeps the previous data (freshness retires it in time) and is
/// reported; `offline` mode never fetches.
public actor RealtimePoller {
    /// What one poll did, per feed.
    public struct Report: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            case updated(entities: Int)
            case notModified
            case failed(String)
            case notFetched
        }
        public var tripUpdates: Outcome = .notFetched
        /// The alerts sources together: the only one's outcome, or with several, the failures named by source
        /// (each source's own is in `alertSources`).
        public var alerts: Outcome = .notFetched
        /// Each `[realtime] alerts` source's outcome, in config order.
        public var alertSources: [Outcome] = []
        public var vehiclePositions: Outcome = .notFetched

        public init() {}
    }

    public let settings: RealtimeSettings
    private let database: RouteDatabase
    private let tripUpdatesFetcher: FeedFetcher?
    private let alertsFetchers: [FeedFetcher]
    private var alertSources: AlertSources
    private let vehiclesFetcher: FeedFetcher?
    public private(set) var live: LiveData
    /// The size of the last feed decoded from each source: a feed that shrinks gives back what the large one took.
    private var lastFeedBytes: [String: Int] = [:]
    /// Vehicles in the latest VehiclePositions feed (decoded and counted; not yet shown).
    public private(set) var vehicleCount = 0

    public init(settings: RealtimeSettings, database: RouteDatabase, timeoutSeconds: Int = 10) throws {
        self.settings = settings
        self.database = database
        func fetcher(_ source: String?) -> FeedFetcher? {
            source.map { FeedFetcher(source: $0, headers: settings.headers, timeoutSeconds: timeoutSeconds) }
        }
        tripUpdatesFetcher = fetcher(settings.tripUpdates)
        alertsFetchers = settings.alertFeeds.compactMap(fetcher)
        alertSources = AlertSources(count: settings.alertFeeds.count)
        vehiclesFetcher = fetcher(settings.vehiclePositions)
        var live = try LiveData(database: database, mode: settings.mode, pollSeconds: settings.pollSeconds)
        live.hasTripUpdatesFeed = settings.tripUpdates != nil
        live.hasAlertsFeed = !settings.alertFeeds.isEmpty
        self.live = live
    }

    /// Fetches every configured feed once. `now` stamps what arrives.
    @discardableResult
    public func pollOnce(now: @Sendable () -> Date = { Date() }) async -> Report {
        var report = Report()
        guard settings.mode != .offline else { return report }
        if let fetcher = tripUpdatesFetcher {
            report.tripUpdates = await poll(fetcher, now: now) { feed, at in
                let timetable = try TripUpdateMatcher.match(feed, database: database)
                live.tripUpdates = .init(value: timetable, headerTimestamp: feed.headerTimestamp, fetchedAt: at)
            } confirmed: { at in
                live.tripUpdates?.fetchedAt = at
            }
        }
        for (index, fetcher) in alertsFetchers.enumerated() {
            report.alertSources.append(
                await poll(fetcher, now: now) { feed, at in
                    alertSources.update(
                        index,
                        .init(value: AlertIndex(feed: feed), headerTimestamp: feed.freshnessTimestamp, fetchedAt: at))
                } confirmed: { at in
                    alertSources.confirm(index, at: at)
                })
        }
        if !alertsFetchers.isEmpty {
            live.alerts = alertSources.merged(now: now(), pollSeconds: settings.pollSeconds, mode: settings.mode)
            report.alerts = Self.combined(report.alertSources, sources: alertsFetchers.map(\.source))
        }
        if let fetcher = vehiclesFetcher {
            report.vehiclePositions = await poll(fetcher, now: now) { feed, _ in
                vehicleCount = feed.contents.vehiclePositions
            } confirmed: { _ in
            }
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
        _ fetcher: FeedFetcher, now: @Sendable () -> Date, apply: (RealtimeFeed, Date) throws -> Void,
        confirmed: (Date) -> Void
    ) async -> Report.Outcome {
        do {
            let feed: RealtimeFeed
            do {
                guard case let .body(data) = try await fetcher.fetch() else {
                    confirmed(now())
                    return .notModified
                }
                feed = try RealtimeFeed.decode(data)
            }  // the fetched bytes go here, before matching builds its own data
            try apply(feed, now())
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
