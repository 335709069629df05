import Foundation
import TransitModel
import TransitStore

/// The Realtime module: GTFS-Realtime feeds (TripUpdates, ServiceAlerts, VehiclePositions) decoded with
/// swift-protobuf, matched to the timetable, judged for freshness and applied to stop views.
///
/// `LiveData` is what a kiosk holds between polls: the latest matched TripUpdates and alerts with the times
/// they were fetched, and the policy (mode, poll interval). `apply(to:)` turns a timetable stop view into the
/// one a passenger sees.
public struct LiveData: Sendable {
    /// A decoded feed's product with its two clocks.
    public struct Fetched<Value: Sendable>: Sendable {
        public var value: Value
        public var headerTimestamp: Date?
        public var fetchedAt: Date

        public init(value: Value, headerTimestamp: Date?, fetchedAt: Date) {
            self.value = value
            self.headerTimestamp = headerTimestamp
            self.fetchedAt = fetchedAt
        }
    }

    public var mode: RealtimeMode
    public var pollSeconds: Int
    public var tripUpdates: Fetched<LiveTimetable>?
    public var alerts: Fetched<AlertIndex>?
    /// Whether feeds are configured at all (a configured feed that never arrived is "not live", not "absent").
    public var hasTripUpdatesFeed: Bool
    public var hasAlertsFeed: Bool
    /// The timetable's routes (by route_id) and agencies, for added trips and alert selection.
    public var routes: [String: RouteRecord]
    public var agencyIDs: [String]

    public static let defaultPollSeconds = RealtimeSettings.defaultPollSeconds
    /// How far before the view's moment timetable departures are read, so that late ones still show.
    public static let lookbackMinutes = 30

    public init(
        mode: RealtimeMode = .mixed, pollSeconds: Int = LiveData.defaultPollSeconds,
        tripUpdates: Fetched<LiveTimetable>? = nil,
        alerts: Fetched<AlertIndex>? = nil, hasTripUpdatesFeed: Bool = true, hasAlertsFeed: Bool = true,
        routes: [String: RouteRecord] = [:], agencyIDs: [String] = []
    ) {
        self.mode = mode
        self.pollSeconds = pollSeconds
        self.tripUpdates = tripUpdates
        self.alerts = alerts
        self.hasTripUpdatesFeed = hasTripUpdatesFeed
        self.hasAlertsFeed = hasAlertsFeed
        self.routes = routes
        self.agencyIDs = agencyIDs
    }

    /// Loads the timetable's routes and agencies once.
    public init(
        database: RouteDatabase, mode: RealtimeMode = .mixed, pollSeconds: Int = LiveData.defaultPollSeconds
    ) throws {
        self.init(
            mode: mode, pollSeconds: pollSeconds, routes: try database.routeRecords(),
            agencyIDs: try database.agencyIDs())
    }

    public func tripUpdatesFreshness(now: Date) -> Freshness {
        Freshness.evaluate(
            headerTimestamp: tripUpdates?.headerTimestamp, fetchedAt: tripUpdates?.fetchedAt, now: now,
            pollSeconds: pollSeconds, mode: mode)
    }

    public func alertsFreshness(now: Date) -> Freshness {
        Freshness.evaluate(
            headerTimestamp: alerts?.headerTimestamp, fetchedAt: alerts?.fetchedAt, now: now, pollSeconds: pollSeconds,
            mode: mode)
    }

    /// The stop view a passenger sees at `now`.
    ///
    /// - offline mode: the view unchanged.
    /// - fresh TripUpdates: each departure gains its `realtime` state; deleted trips vanish; departures of
    ///   added trips join; departures are ordered and counted down by their expected time and kept while that
    ///   time is in the window (`earlier`, read from before the window, lets late departures back in).
    /// - stale or missing TripUpdates: mixed mode shows the timetable (every departure `scheduled`); online
    ///   mode shows no departures.
    /// - fresh alerts: those that apply to the stop, its routes or the agency, in `language`.
    public func apply(to view: StopView, earlier: [Departure] = [], now: Date, language: String) -> StopView {
        guard mode != .offline else { return view }
        var result = view
        if hasTripUpdatesFeed {
            let freshness = tripUpdatesFreshness(now: now)
            result.realtimeAgeSeconds = freshness.ageSeconds
            result.realtimeStatus =
                freshness.display == .live ? .live : freshness.display == .nothing ? .withheld : .stale
            if freshness.display != .live, let fetched = tripUpdates {
                result.realtimeUnavailableSince = min(fetched.fetchedAt, fetched.headerTimestamp ?? fetched.fetchedAt)
            }
            switch freshness.display {
            case .nothing:
                result.departures = []
                result.nextDeparture = nil
            case .scheduled:
                result.departures = view.departures.map {
                    var d = $0; d.realtime = DepartureRealtime(state: .scheduled); return d
                }
                result.nextDeparture?.realtime = DepartureRealtime(state: .scheduled)
            case .live:
                if let live = tripUpdates?.value { apply(live, to: &result, earlier: earlier) }
            }
        }
        if hasAlertsFeed {
            let freshness = alertsFreshness(now: now)
            if freshness.isLive, let index = alerts?.value {
                let scope = AlertIndex.Scope(view: result, routes: routes, agencyIDs: agencyIDs)
                let selected = index.select(
                    for: scope, routes: routes, at: now, language: language, limit: StopView.maximumAlertsShown)
                result.alerts = selected.shown
                result.alertsNotShown = selected.notShown > 0 ? selected.notShown : nil
            } else {
                result.alerts = []  // stale alerts mislead: none rather than old ones
            }
        }
        return result
    }

    func apply(_ live: LiveTimetable, to view: inout StopView, earlier: [Departure]) {
        let end = view.at.addingTimeInterval(TimeInterval(view.windowMinutes * 60))
        struct Key: Hashable { var trip: String, date: String, stop: String, time: String }
        var seen = Set<Key>()
        var departures: [Departure] = []
        for var departure in view.departures + earlier {
            guard
                seen.insert(
                    Key(
                        trip: departure.tripID, date: departure.serviceDate, stop: departure.stopID,
                        time: departure.scheduledTime)
                ).inserted
            else { continue }
            let (realtime, hidden) = live.realtime(for: departure)
            if hidden { continue }
            departure.realtime = realtime
            let shown = realtime.state == .updated ? departure.expectedTime : departure.time
            guard view.at <= shown, shown <= end else { continue }
            departures.append(departure)
        }
        departures += live.addedDepartures(at: view.platforms, from: view.at, to: end, routes: routes)
        for index in departures.indices {
            departures[index].minutesFromNow = Int(
                (departures[index].expectedTime.timeIntervalSince(view.at) / 60).rounded(.down))
        }
        departures.sort { ($0.expectedTime, $0.tripID) < ($1.expectedTime, $1.tripID) }
        view.departures = departures
        if var next = view.nextDeparture {
            let (realtime, hidden) = live.realtime(for: next)
            next.realtime = realtime
            view.nextDeparture = hidden || !departures.isEmpty ? nil : next
        }
    }
}

extension LiveData {
    /// What a feed was used for.
    public struct Uses: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let tripUpdates = Uses(rawValue: 1)
        public static let alerts = Uses(rawValue: 2)
        public static let vehiclePositions = Uses(rawValue: 4)
    }

    /// Takes in a feed fetched once (`kiosk lookup --realtime`, a first request before the poller has run):
    /// whatever it carries — trip updates, alerts, or both — replaces what this value held of that kind.
    /// A feed with no entities at all counts as trip updates (an empty feed says "no predictions", live).
    /// With `addingAlerts`, alerts already held are kept and the feed's are added after them (several alerts
    /// feeds at once: the agency's and the staff messages). A staff messages file's age is when it was read.
    /// `idPrefix` is the namespace of the static feed the realtime feed belongs to ("metro:" in a database of
    /// several feeds, see `RealtimeFeed.readInNamespace`); with `addingTripUpdates`, trip updates already held are
    /// kept beside the feed's (one feed per publisher), aged like the older.
    @discardableResult
    public mutating func take(
        _ feed: RealtimeFeed, fetchedAt: Date, database: RouteDatabase, addingAlerts: Bool = false,
        idPrefix: String = "", addingTripUpdates: Bool = false
    ) throws -> Uses {
        let feed = feed.inNamespace(idPrefix)
        var uses: Uses = []
        if feed.contents.tripUpdates > 0 || feed.contents.entities == 0 {
            var timetable = try TripUpdateMatcher.match(feed, database: database)
            var header = feed.headerTimestamp
            var at = fetchedAt
            if addingTripUpdates, let held = tripUpdates {
                timetable = LiveTimetable(merging: [held.value, timetable])
                header = [held.headerTimestamp, header].compactMap { $0 }.min()
                at = min(held.fetchedAt, at)
            }
            tripUpdates = .init(value: timetable, headerTimestamp: header, fetchedAt: at)
            hasTripUpdatesFeed = true
            uses.insert(.tripUpdates)
        }
        if feed.contents.alerts > 0 {
            var index = AlertIndex(feed: feed)
            var header = feed.freshnessTimestamp
            if addingAlerts, let held = alerts {
                index = AlertIndex(merging: [held.value, index])
                header = [held.headerTimestamp, header].compactMap { $0 }.min()
            }
            alerts = .init(value: index, headerTimestamp: header, fetchedAt: fetchedAt)
            hasAlertsFeed = true
            uses.insert(.alerts)
        }
        if feed.contents.vehiclePositions > 0 { uses.insert(.vehiclePositions) }
        return uses
    }
}
