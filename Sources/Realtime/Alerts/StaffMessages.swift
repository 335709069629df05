import Foundation
import SwiftProtobuf
import SystemSupport
import TransitModel

/// Staff messages (`kiosk message`): a GTFS-Realtime ServiceAlerts file written by the people running the kiosks,
/// read by kiosks and servers as one more `[realtime] alerts` source beside the agency's feed.
///
/// The file is a standing list, not a snapshot: its header says `feed_version: "stopkiosk-messages/1"`, and a
/// reader judges its age by when it read the file, not by when the file was written (a message written last
/// week and in force until next week is not stale). Each message is one alert entity with its text in Spanish
/// and English, the stops, routes or agencies it is for, an optional active period and a severity.
public enum StaffMessages {
    /// The header's `feed_version` that marks a staff messages file.
    public static let feedVersion = "stopkiosk-messages/1"
    /// Files larger than this are not messages files (a thousand messages are well under a megabyte).
    public static let maximumFileBytes = 4 << 20
    /// Messages that ended this long ago are dropped when the file is written again: they are never shown, and
    /// a reader keeps the first `AlertIndex.maximumAlerts` alerts of a feed, so old ones would in time crowd out
    /// new ones.
    public static let keepEndedSeconds: TimeInterval = 30 * 86_400

    public enum Severity: String, Sendable, CaseIterable {
        case info, warning, severe

        var level: TransitRealtime_Alert.SeverityLevel {
            switch self {
            case .info: return .info
            case .warning: return .warning
            case .severe: return .severe
            }
        }
    }

    /// Who a message is for.
    public enum Audience: Sendable, Equatable {
        case stops([String])
        case routes([String])
        /// Every kiosk: one informed entity per agency of the timetable.
        case agencies([String])
    }

    /// One message as `kiosk message add` describes it.
    public struct Message: Sendable, Equatable {
        public var id: String
        public var textES: String
        public var textEN: String
        public var audience: Audience
        public var from: Date?
        public var until: Date?
        public var severity: Severity
        /// The IANA zone `from` and `until` were given in (the route database's), kept with the message so that
        /// `kiosk message list` shows them as written, whatever database it runs with.
        public var timeZone: String?

        public init(
            id: String, textES: String, textEN: String, audience: Audience, from: Date?, until: Date?,
            severity: Severity, timeZone: String? = nil
        ) {
            self.id = id
            self.textES = textES
            self.textEN = textEN
            self.audience = audience
            self.from = from
            self.until = until
            self.severity = severity
            self.timeZone = timeZone
        }

        /// The alert entity: header text in `es` and `en`, one informed entity per stop, route or agency.
        public var entity: TransitRealtime_FeedEntity {
            var alert = TransitRealtime_Alert()
            var header = TransitRealtime_TranslatedString()
            for (language, text) in [("es", textES), ("en", textEN)] where !text.isEmpty {
                var translation = TransitRealtime_TranslatedString.Translation()
                translation.text = text
                translation.language = language
                header.translation.append(translation)
            }
            alert.headerText = header
            alert.severityLevel = severity.level
            if let timeZone { alert.setExtensionValue(ext: StaffMessages.timeZoneField, value: timeZone) }
            alert.cause = .otherCause
            alert.effect = .otherEffect
            if from != nil || until != nil {
                var period = TransitRealtime_TimeRange()
                if let from { period.start = UInt64(max(0, from.timeIntervalSince1970.rounded(.down))) }
                if let until { period.end = UInt64(max(0, until.timeIntervalSince1970.rounded(.down))) }
                alert.activePeriod = [period]
            }
            switch audience {
            case let .stops(ids):
                alert.informedEntity = ids.map {
                    var s = TransitRealtime_EntitySelector(); s.stopID = $0; return s
                }
            case let .routes(ids):
                alert.informedEntity = ids.map {
                    var s = TransitRealtime_EntitySelector(); s.routeID = $0; return s
                }
            case let .agencies(ids):
                alert.informedEntity = ids.map {
                    var s = TransitRealtime_EntitySelector(); s.agencyID = $0; return s
                }
            }
            var entity = TransitRealtime_FeedEntity()
            entity.id = id
            entity.alert = alert
            return entity
        }
    }

    /// A message's time zone (`Message.timeZone`) in its alert: field 9000, in the range GTFS-Realtime keeps for
    /// private experiments, so agencies' readers and Google's bindings skip it (the file is ours alone: its
    /// `feed_version` says so).
    public static let timeZoneField = MessageExtension<OptionalExtensionField<ProtobufString>, TransitRealtime_Alert>(
        _protobuf_fieldNumber: 9000, fieldName: "transit_realtime.Alert.stopkiosk_time_zone")

    /// The zone an alert of a messages file was written for; nil for one written before zones were kept.
    public static func timeZone(of alert: TransitRealtime_Alert) -> TimeZone? {
        alert.getExtensionValue(ext: timeZoneField).flatMap(TimeZone.init(identifier:))
    }

    /// Why a messages file cannot be read or written; names the file.
    public struct FileProblem: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The alert entities of a messages file, in file order; a file that does not exist holds none.
    /// A file that is not a messages file (another feed, garbage) is refused, and when the caller means to
    /// replace it (`forWriting`) the reason says it is not overwritten.
    public static func read(path: String, forWriting: Bool = false) throws(FileProblem)
        -> [TransitRealtime_FeedEntity]
    {
        let notReplaced = forWriting ? "; refusing to overwrite it" : ""
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let bytes: [UInt8]
        do { bytes = try BoundedFile.read(path, limit: maximumFileBytes) } catch {
            throw FileProblem(path: path, reason: error.reason)
        }
        let message: TransitRealtime_FeedMessage
        do {
            message = try TransitRealtime_FeedMessage(
                serializedBytes: bytes, extensions: SimpleExtensionMap([timeZoneField]), partial: true)
        } catch {
            let why = (error as? BinaryDecodingError).map(RealtimeFeed.reason) ?? "\(error)"
            throw FileProblem(path: path, reason: "is not a GTFS-Realtime file (\(why))\(notReplaced)")
        }
        guard message.header.feedVersion.hasPrefix("stopkiosk-messages") else {
            throw FileProblem(
                path: path,
                reason:
                    "is a GTFS-Realtime feed but not a staff messages file (its header has no feed_version \"\(feedVersion)\")\(notReplaced)"
            )
        }
        return message.entity.filter(\.hasAlert)
    }

    /// The file's bytes: a FULL_DATASET FeedMessage of version 2.0 stamped `now`, marked as a messages file.
    public static func encode(_ entities: [TransitRealtime_FeedEntity], now: Date) throws -> [UInt8] {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.incrementality = .fullDataset
        message.header.timestamp = UInt64(max(0, now.timeIntervalSince1970.rounded(.down)))
        message.header.feedVersion = feedVersion
        message.entity = entities
        return try message.serializedBytes()
    }

    /// Writes the file atomically (readers see the old list or the new one, never a part).
    public static func write(_ entities: [TransitRealtime_FeedEntity], to path: String, now: Date) throws {
        try AtomicFile.write(try encode(entities, now: now), to: path, purpose: "messages")
    }

    /// Reads the file, lets `change` edit its messages, and writes the result atomically, holding the file's
    /// lock (`FileLock`, `PATH.lock`) from before the read until the new file is in place: writers running at
    /// once (twenty `kiosk message add`) each read what the previous one wrote, so none of their messages is
    /// lost and `nextID` gives each a different id. When `change` throws, the file is left as it was.
    public static func update<T>(
        path: String, now: Date, _ change: (inout [TransitRealtime_FeedEntity]) throws -> T
    ) throws -> T {
        // The destination is checked before the lock file is made beside it (`--out /dev/null` must not leave
        // /dev/null.lock), and the lock sits beside the file a symbolic link leads to, whatever the spelling.
        // `.regularFile`, as the atomic writer checks: who may replace the file is not changed by the lock.
        let target = try OutputDestination.check(path, rule: .regularFile)
        return try FileLock.withExclusiveLock(beside: target) {
            var entities = try read(path: path, forWriting: true)
            let result = try change(&entities)
            try write(entities, to: path, now: now)
            return result
        }
    }

    /// Adds `message`, or replaces the entity with its id in place. Messages that ended more than
    /// `keepEndedSeconds` before `now` are dropped; their ids are returned.
    public static func upsert(
        _ message: Message, into entities: [TransitRealtime_FeedEntity], now: Date
    ) -> (entities: [TransitRealtime_FeedEntity], replaced: Bool, pruned: [String]) {
        var result = entities
        let replaced: Bool
        if let index = result.firstIndex(where: { $0.id == message.id }) {
            result[index] = message.entity
            replaced = true
        } else {
            result.append(message.entity)
            replaced = false
        }
        var pruned: [String] = []
        result.removeAll { entity in
            guard entity.id != message.id, let end = lastEnd(entity.alert),
                now.timeIntervalSince(end) > keepEndedSeconds
            else { return false }
            pruned.append(entity.id)
            return true
        }
        return (result, replaced, pruned)
    }

    /// The next free id of the form `msg-N`.
    public static func nextID(after entities: [TransitRealtime_FeedEntity]) -> String {
        let used = entities.compactMap { $0.id.hasPrefix("msg-") ? Int($0.id.dropFirst(4)) : nil }
        return "msg-\((used.max() ?? 0) + 1)"
    }

    /// When an alert's last active period ends (nil: it has an open-ended period, or none).
    public static func lastEnd(_ alert: TransitRealtime_Alert) -> Date? {
        guard !alert.activePeriod.isEmpty else { return nil }
        var latest: Date?
        for period in alert.activePeriod {
            guard let end = AlertIndex.ActivePeriod(period).end else { return nil }
            latest = max(latest ?? end, end)
        }
        return latest
    }

    /// Where a message stands at `now`.
    public enum Status: String, Sendable {
        case active, upcoming, expired
    }

    public static func status(_ alert: TransitRealtime_Alert, at now: Date) -> Status {
        if AlertIndex.isActive(alert, at: now) { return .active }
        if let end = lastEnd(alert), end < now { return .expired }
        return .upcoming
    }
}

extension RealtimeFeed {
    /// Whether this is a staff messages file (`kiosk message`): a standing list whose age is when it was read.
    public var isStaffMessages: Bool { message.header.feedVersion.hasPrefix("stopkiosk-messages") }

    /// The header time freshness should judge: none for a staff messages file (see `StaffMessages`).
    public var freshnessTimestamp: Date? { isStaffMessages ? nil : headerTimestamp }
}
