import Foundation
import TransitModel
import TransitStore

/// What `kiosk rt inspect` reports about one GTFS-Realtime feed against a timetable: what it carries, how well
/// it matches, how old it is, and everything odd about it. Never throws on the feed's content.
public struct FeedInspection: Sendable, Codable {
    public struct VehicleStatistics: Sendable, Codable, Equatable {
        public var vehicles = 0
        public var withPosition = 0
        public var withTrip = 0
        public var tripsMatched = 0
        public var tripsUnknown = 0
        public var stopsUnknown = 0
    }

    public struct AlertStatistics: Sendable, Codable, Equatable {
        public var alerts = 0
        public var activeNow = 0
        public var informedEntities = 0
        public var emptySelectors = 0
        public var unknownRouteIDs = 0
        public var unknownStopIDs = 0
        public var otherAgencyIDs = 0
        public var languages: [String] = []
    }

    /// How a feed's trip updates match the timetable when read as one static feed's (a database of several feeds).
    public struct FeedMatch: Sendable, Codable, Equatable {
        public var feed: String
        public var tripsMatched: Int
        public var tripsUnknown: Int
        public var tripMatchRate: Double
        public var stopsMatched: Int
        public var stopsUnknown: Int
        public var stopMatchRate: Double
    }

    public var source: String
    /// The static feed whose namespace the ids were read in (a database of several feeds), nil with one feed.
    public var feed: String?
    /// In a database of several feeds: the trip and stop match rates of the feed's trip updates read in each
    /// feed's namespace, in the database's order (nil with one feed, or without trip updates).
    public var feedMatches: [FeedMatch]?
    public var bytes: Int
    public var gtfsRealtimeVersion: String
    public var incrementality: String
    public var headerTimestamp: Date?
    /// `at` minus the header timestamp (negative: the header is in the future).
    public var ageSeconds: Int?
    public var freshness: String
    public var at: Date
    public var timeZone: String
    public var contents: RealtimeFeed.Contents
    public var tripUpdates: MatchStatistics?
    public var vehiclePositions: VehicleStatistics?
    public var alerts: AlertStatistics?
    /// One sentence each.
    public var oddities: [String]

    /// `feedID` names the static feed the realtime feed belongs to (`kiosk rt inspect --feed`); in a database of
    /// several feeds, without it the ids are read in the namespace of the feed whose trips they match best.
    /// A `feedID` the database does not hold throws `RealtimeBindingError`.
    public init(
        feed original: RealtimeFeed, source: String, database: RouteDatabase, at: Date,
        pollSeconds: Int = LiveData.defaultPollSeconds, feedID: String? = nil
    ) throws {
        var feed = original
        var notes: [String] = []
        var chosen: String?
        var matches: [FeedMatch]?
        let several = !database.namespaces.isEmpty
        let reference = original.headerTimestamp ?? at
        if several && original.contents.tripUpdates > 0 {
            matches = try database.feeds.map { record in
                let s = try TripUpdateMatcher.match(
                    original.inNamespace(record.idPrefix), database: database, referenceTime: reference
                ).statistics
                return FeedMatch(
                    feed: record.id, tripsMatched: s.tripsMatched, tripsUnknown: s.tripsUnknown,
                    tripMatchRate: s.tripMatchRate, stopsMatched: s.stopsMatched, stopsUnknown: s.stopsUnknown,
                    stopMatchRate: s.stopMatchRate)
            }
        }
        if let feedID, !database.feeds.isEmpty {
            guard let record = database.feeds.first(where: { $0.id == feedID }) else {
                throw RealtimeBindingError(
                    key: "--feed",
                    problem:
                        "\"\(TerminalText.sanitize(feedID, maxLength: 40))\" is not a feed of the route database \(database.path) (its feeds: \(database.feeds.map { "'\($0.id)'" }.joined(separator: ", ")))"
                )
            }
            chosen = record.id
            feed.readInNamespace(record.idPrefix)
        } else if several {
            let ranked = (matches ?? []).filter { $0.tripsMatched > 0 }.sorted { $0.tripsMatched > $1.tripsMatched }
            if let best = ranked.first, let record = database.feeds.first(where: { $0.id == best.feed }) {
                chosen = record.id
                feed.readInNamespace(record.idPrefix)
                let equal = ranked.filter { $0.tripsMatched == best.tripsMatched }.map(\.feed)
                notes.append(
                    equal.count > 1
                        ? "no --feed: its trips match feeds \(equal.map { "'\($0)'" }.joined(separator: ", ")) equally; read as feed '\(record.id)''s (name the feed with --feed)"
                        : "no --feed: read as feed '\(record.id)''s, whose trips it matches best")
            } else if original.contents.tripUpdates > 0 {
                notes.append(
                    "no --feed in a database of several feeds (\(database.feeds.map(\.id).joined(separator: ", "))): its trips match no feed's; name the feed with --feed"
                )
            } else {
                notes.append(
                    "no --feed in a database of several feeds (\(database.feeds.map(\.id).joined(separator: ", "))): the ids were read as they are; name the feed with --feed"
                )
            }
        }
        try self.init(
            namespaced: feed, source: source, database: database, at: at, pollSeconds: pollSeconds, feedID: chosen,
            feedMatches: matches, notes: notes)
    }

    private init(
        namespaced feed: RealtimeFeed, source: String, database: RouteDatabase, at: Date, pollSeconds: Int,
        feedID: String?, feedMatches: [FeedMatch]?, notes early: [String]
    ) throws {
        self.feed = feedID
        self.feedMatches = feedMatches
        self.source = source
        bytes = feed.byteCount
        let header = feed.message.header
        gtfsRealtimeVersion = header.gtfsRealtimeVersion
        incrementality = header.incrementality == .differential ? "differential" : "full_dataset"
        headerTimestamp = feed.headerTimestamp
        ageSeconds = feed.headerTimestamp.map { Int(wholeSecondsOf: at.timeIntervalSince($0)) }
        let verdict = Freshness.evaluate(
            headerTimestamp: feed.headerTimestamp, fetchedAt: at, now: at, pollSeconds: pollSeconds, mode: .mixed
        ).verdict
        freshness = verdict.description
        self.at = at
        timeZone = database.timeZone.identifier
        contents = feed.contents
        var notes =
            early + feed.oddities.sorted { $0.key < $1.key }.map { $0.value > 1 ? "\($0.key) (\($0.value)×)" : $0.key }
        if verdict != .live, verdict != .neverFetched { notes.append("data is \(verdict)") }

        if feed.contents.tripUpdates > 0 {
            let live = try TripUpdateMatcher.match(feed, database: database, referenceTime: feed.headerTimestamp ?? at)
            let s = live.statistics
            tripUpdates = s
            if s.tripsUnknown > 0 {
                notes.append(
                    "\(s.tripsUnknown) trip_ids are not in the timetable (e.g. \(s.unknownTripIDs.prefix(3).map { "'\(TerminalText.sanitize($0, maxLength: 40))'" }.joined(separator: ", ")))"
                )
            }
            if s.tripsMatched + s.tripsUnknown >= 5 && s.tripMatchRate < 0.2 {
                notes.append(
                    String(
                        format:
                            "only %.0f%% of trips match: is this feed for another agency or another timetable version?",
                        s.tripMatchRate * 100))
            }
            if s.stopsUnknown > 0 { notes.append("\(s.stopsUnknown) stop updates name no stop of their trip") }
            if s.sequenceStopIDDisagreements > 0 {
                notes.append(
                    "\(s.sequenceStopIDDisagreements) stop updates have a stop_sequence that names another stop than their stop_id (the stop_id was used)"
                )
            }
            if s.outOfOrder > 0 { notes.append("\(s.outOfOrder) stop updates are out of stop_sequence order") }
            if s.timeDelayConflicts > 0 {
                notes.append(
                    "\(s.timeDelayConflicts) events give a delay and a time more than a minute apart (the time was used)"
                )
            }
            if s.duplicateTripUpdates > 0 {
                notes.append(
                    "\(s.duplicateTripUpdates) trip updates repeat an earlier one for the same trip and day (the last was used)"
                )
            }
            if s.outOfRangeEvents > 0 {
                notes.append(
                    "\(s.outOfRangeEvents) times or delays are out of range (a time outside 2000–2100, a delay over a day): ignored"
                )
            }
            if s.tripsNotRunningOnStartDate > 0 {
                notes.append("\(s.tripsNotRunningOnStartDate) trips do not run on their start_date")
            }
            if s.tripsIgnored > 0 {
                notes.append("\(s.tripsIgnored) trip updates without trip_id, or DUPLICATED, were ignored")
            }
        } else {
            tripUpdates = nil
        }

        if feed.contents.vehiclePositions > 0 {
            var v = VehicleStatistics()
            let vehicles = feed.entities.filter { $0.hasVehicle && !$0.isDeleted }.map(\.vehicle)
            let schedules = try database.scheduledTrips(
                ids: vehicles.filter { $0.hasTrip && $0.trip.hasTripID }.map(\.trip.tripID))
            let knownStops = try database.knownStopIDs(vehicles.filter(\.hasStopID).map(\.stopID))
            for vehicle in vehicles {
                v.vehicles += 1
                if vehicle.hasPosition { v.withPosition += 1 }
                if vehicle.hasTrip && vehicle.trip.hasTripID {
                    v.withTrip += 1
                    if schedules[vehicle.trip.tripID] != nil { v.tripsMatched += 1 } else { v.tripsUnknown += 1 }
                }
                if vehicle.hasStopID && !knownStops.contains(vehicle.stopID) { v.stopsUnknown += 1 }
            }
            if v.tripsUnknown > 0 { notes.append("\(v.tripsUnknown) vehicles run trips the timetable does not have") }
            if v.stopsUnknown > 0 { notes.append("\(v.stopsUnknown) vehicles name stops the timetable does not have") }
            vehiclePositions = v
        } else {
            vehiclePositions = nil
        }

        if feed.contents.alerts > 0 {
            var a = AlertStatistics()
            let index = AlertIndex(feed: feed)
            notes += index.oddities
            let routes = try database.routeRecords()
            let agencies = Set(try database.agencyIDs())
            let selectors = index.entries.flatMap(\.alert.informedEntity)
            let knownStops = try database.knownStopIDs(selectors.filter(\.hasStopID).map(\.stopID))
            var languages = Set<String>()
            for entry in index.entries {
                a.alerts += 1
                if AlertIndex.isActive(entry.alert, at: at) {
                    a.activeNow += 1
                }
                for text in [entry.alert.headerText, entry.alert.descriptionText] {
                    for translation in text.translation {
                        languages.insert(translation.hasLanguage ? translation.language : "(untagged)")
                    }
                }
            }
            a.informedEntities = selectors.count
            a.emptySelectors = index.emptySelectors
            a.unknownRouteIDs = selectors.filter { $0.hasRouteID && routes[$0.routeID] == nil }.count
            a.unknownStopIDs = selectors.filter { $0.hasStopID && !knownStops.contains($0.stopID) }.count
            a.otherAgencyIDs = selectors.filter { $0.hasAgencyID && !agencies.contains($0.agencyID) }.count
            a.languages = languages.sorted()
            if a.emptySelectors > 0 { notes.append("\(a.emptySelectors) informed entities select nothing") }
            if a.unknownRouteIDs + a.unknownStopIDs + a.otherAgencyIDs > 0 {
                notes.append(
                    "alerts name \(a.unknownRouteIDs) unknown routes, \(a.unknownStopIDs) unknown stops and \(a.otherAgencyIDs) other agencies"
                )
            }
            alerts = a
        } else {
            alerts = nil
        }
        oddities = notes
    }

    // MARK: Renderings

    /// Snake-case JSON with the agency's UTC offset on times (as `kiosk lookup --json`).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(LocalTime.iso8601(date, in: zone))
        }
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The text report (feed text sanitised for the terminal).
    public var text: String {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        var lines: [String] = []
        lines.append(
            "\(TerminalText.sanitize(source, maxLength: 200))  (\(bytes) bytes, GTFS-Realtime \(TerminalText.sanitize(gtfsRealtimeVersion, maxLength: 16)), \(incrementality))"
        )
        if let feed {
            lines.append(
                "Feed         \(TerminalText.sanitize(feed, maxLength: 40)) (its ids read in that feed's namespace)")
        }
        if let headerTimestamp, let ageSeconds {
            let age =
                ageSeconds >= 0
                ? "\(Freshness.Verdict.duration(ageSeconds)) old"
                : "\(Freshness.Verdict.duration(-ageSeconds)) in the future"
            lines.append(
                "Header time  \(LocalTime.iso8601(headerTimestamp, in: zone))  (\(age) at \(LocalTime.iso8601(at, in: zone))): \(freshness)"
            )
        } else {
            lines.append("Header time  none: the feed's age is unknown")
        }
        lines.append(
            "Entities     \(contents.entities): \(contents.tripUpdates) trip updates (\(contents.stopTimeUpdates) stop time updates), "
                + "\(contents.vehiclePositions) vehicle positions, \(contents.alerts) alerts"
                + (contents.deleted > 0 ? ", \(contents.deleted) deleted" : "")
                + (contents.other > 0 ? ", \(contents.other) other" : ""))
        func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }
        if let s = tripUpdates {
            lines.append("")
            lines.append("Trip updates")
            lines.append(
                "  trips   \(s.tripsMatched) matched, \(s.tripsUnknown) unknown (match rate \(percent(s.tripMatchRate))), \(s.tripsAdded) added, "
                    + "\(s.tripsCanceled) canceled, \(s.tripsDeleted) deleted, \(s.tripsIgnored) ignored")
            lines.append(
                "  stops   \(s.stopsMatched) matched, \(s.stopsUnknown) unknown (match rate \(percent(s.stopMatchRate))), \(s.skippedStops) skipped, "
                    + "\(s.noDataStops) no data, \(s.sequenceStopIDDisagreements) stop_sequence/stop_id disagreements")
            lines.append("  events  \(s.absoluteTimes) absolute times, \(s.delaysOnly) delays only")
        }
        if let feedMatches {
            lines.append("")
            lines.append("Trip updates per feed (the ids read in each feed's namespace)")
            let width = feedMatches.map(\.feed.count).max() ?? 0
            for m in feedMatches {
                let name = TerminalText.sanitize(m.feed, maxLength: 40)
                lines.append(
                    "  \(name)\(String(repeating: " ", count: max(0, width - m.feed.count)))  trips \(m.tripsMatched) matched, \(m.tripsUnknown) unknown (match rate \(percent(m.tripMatchRate))); "
                        + "stops \(m.stopsMatched) matched, \(m.stopsUnknown) unknown (match rate \(percent(m.stopMatchRate)))"
                        + (m.feed == feed ? "  ← read as" : ""))
            }
        }
        if let v = vehiclePositions {
            lines.append("")
            lines.append("Vehicle positions")
            lines.append(
                "  \(v.vehicles) vehicles, \(v.withPosition) with a position, \(v.withTrip) with a trip (\(v.tripsMatched) matched, \(v.tripsUnknown) unknown)"
            )
        }
        if let a = alerts {
            lines.append("")
            lines.append("Alerts")
            lines.append(
                "  \(a.alerts) alerts, \(a.activeNow) active now, \(a.informedEntities) informed entities, languages: "
                    + (a.languages.isEmpty
                        ? "none" : a.languages.map { TerminalText.sanitize($0, maxLength: 20) }.joined(separator: ", "))
            )
        }
        lines.append("")
        if oddities.isEmpty {
            lines.append("Oddities     none")
        } else {
            lines.append("Oddities")
            lines += oddities.map { "  - " + TerminalText.sanitize($0, maxLength: 300) }
        }
        return lines.joined(separator: "\n")
    }
}
