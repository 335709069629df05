import Foundation
import TOMLKit
import TransitModel

extension KioskConfigFile {
    /// The keys of one `[[realtime.feeds]]` table.
    public static let realtimeFeedKeys = ["feed", "trip_updates", "alerts", "vehicle_positions", "headers"]

    /// `[realtime]`: each feed a file path or an http(s):// URL, the poll interval, the mode and request headers;
    /// `feed` names the static feed of the route database the sources belong to, and `[[realtime.feeds]]` gives
    /// one table per publisher when there are several (whether those feed ids are the database's is checked
    /// when the config meets the database).
    static func readRealtimeSection(_ table: TOMLTable, reader: Reader) throws(KioskConfigError) -> RealtimeSettings {
        var settings = RealtimeSettings()
        let primary = try readRealtimeSources(table, key: "realtime", reader: reader)
        settings.feed = primary.feed
        settings.tripUpdates = primary.tripUpdates
        settings.alertFeeds = primary.alertFeeds
        settings.vehiclePositions = primary.vehiclePositions
        settings.headers = primary.headers
        if let v = try reader.int(table, "poll_seconds", RealtimeSettings.pollSecondsRange, prefix: "realtime.") {
            settings.pollSeconds = v
        }
        if let v = try reader.string(table, "mode", prefix: "realtime.") {
            guard let mode = RealtimeMode(rawValue: v) else {
                throw reader.error("realtime.mode", "must be \"online\", \"mixed\" or \"offline\", not \"\(clean(v))\"")
            }
            settings.mode = mode
        }
        if let value = table["feeds"] {
            settings.feeds = try readRealtimeFeeds(value, reader: reader)
            // One publisher per table: [realtime]'s own sources may then only be alerts in the database's own ids.
            if primary.feed != nil {
                throw reader.error(
                    "realtime.feed", "with [[realtime.feeds]], name each feed in its own table (feed = \"…\" there)")
            }
            for (key, given) in [
                ("trip_updates", primary.tripUpdates), ("vehicle_positions", primary.vehiclePositions),
            ]
            where given != nil {
                throw reader.error(
                    "realtime.\(key)",
                    "with [[realtime.feeds]], give \(key) in the table of the feed it belongs to (with feed = \"…\")")
            }
        }
        if settings.mode == .online && !settings.hasTripUpdates {
            throw reader.error(
                "realtime.mode",
                "\"online\" shows only live departures and needs trip_updates; set it, or use \"mixed\"")
        }
        if let problem = settings.problems.first {
            throw KioskConfigError(file: reader.file, key: nil, problem: problem)
        }
        return settings
    }

    /// `[[realtime.feeds]]`: one table per publisher, each naming its static feed.
    static func readRealtimeFeeds(
        _ value: TOMLValueConvertible, reader: Reader
    ) throws(KioskConfigError)
        -> [RealtimeFeedSources]
    {
        let shape = "one [[realtime.feeds]] table per realtime publisher, each with feed = \"ID\" and its sources"
        guard let array = value.array else {
            throw reader.error("realtime.feeds", "must be \(shape), not a \(value.type)")
        }
        guard !array.isEmpty else {
            throw reader.error("realtime.feeds", "is an empty list; give \(shape), or leave the key out")
        }
        var feeds: [RealtimeFeedSources] = []
        for (index, element) in array.enumerated() {
            let key = "realtime.feeds[\(index)]"
            guard let table = element.table else {
                throw reader.error(
                    key, "must be a table ([[realtime.feeds]] on a line of its own), not a \(element.type)")
            }
            for name in table.keys.sorted() where !realtimeFeedKeys.contains(name) {
                throw reader.error(
                    "\(key).\(clean(name))",
                    "unknown key (known in [[realtime.feeds]]: \(realtimeFeedKeys.joined(separator: ", ")))")
            }
            let sources = try readRealtimeSources(table, key: key, reader: reader)
            guard let feed = sources.feed else {
                throw reader.error(
                    "\(key).feed",
                    "is missing: name the static feed whose ids this realtime feed uses, as kiosk import named it (feed = \"mx-metro\")"
                )
            }
            guard sources.hasFeeds else {
                throw reader.error(key, "gives no source: set trip_updates, vehicle_positions or alerts")
            }
            if let earlier = feeds.firstIndex(where: { $0.feed == feed }) {
                throw reader.error(
                    "\(key).feed",
                    "\"\(clean(feed))\" is already realtime.feeds[\(earlier)]'s: give each feed's sources in one table")
            }
            feeds.append(sources)
        }
        return feeds
    }

    /// One publisher's keys (`feed`, `trip_updates`, `alerts`, `vehicle_positions`, `headers`) in `[realtime]`
    /// or a `[[realtime.feeds]]` table; `key` is the table's ("realtime", "realtime.feeds[1]").
    static func readRealtimeSources(
        _ table: TOMLTable, key tableKey: String, reader: Reader
    ) throws(KioskConfigError) -> RealtimeFeedSources {
        var sources = RealtimeFeedSources(key: tableKey)
        let prefix = tableKey + "."
        func source(_ v: String, key: String) throws(KioskConfigError) -> String {
            if v.trimmingCharacters(in: .whitespaces).isEmpty {
                throw reader.error(
                    prefix + key, "is empty; give a file path or an http(s):// URL, or leave the key out")
            }
            if v.contains("://") {
                guard Self.isHTTPURL(v) else {
                    throw reader.error(
                        prefix + key, "\"\(clean(v))\" is neither a file path nor an http:// or https:// URL")
                }
            }
            return v
        }
        if let v = try reader.string(table, "feed", prefix: prefix) {
            guard isFeedID(v) else {
                throw reader.error(
                    prefix + "feed",
                    "\"\(clean(v))\" is not a feed id (1 to 32 characters from a-z, A-Z, 0-9, '-' and '_', starting with a letter or digit, as kiosk import names feeds)"
                )
            }
            sources.feed = v
        }
        if let v = try reader.string(table, "trip_updates", prefix: prefix) {
            sources.tripUpdates = try source(v, key: "trip_updates")
        }
        if let v = try reader.string(table, "vehicle_positions", prefix: prefix) {
            sources.vehiclePositions = try source(v, key: "vehicle_positions")
        }
        // `alerts`: one source, or a list of them (the agency's feed and the staff messages file).
        if let value = table["alerts"], value.array != nil {
            guard let list = try reader.strings(table, "alerts", prefix: prefix), !list.isEmpty else {
                throw reader.error(
                    prefix + "alerts", "is an empty list; give file paths or http(s):// URLs, or leave the key out")
            }
            for (index, v) in list.enumerated() {
                if v.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    throw reader.error("\(prefix)alerts[\(index)]", "contains control characters")
                }
                let checked = try source(v, key: "alerts[\(index)]")
                if sources.alertFeeds.contains(checked) {
                    throw reader.error("\(prefix)alerts[\(index)]", "\"\(clean(v))\" is already in the list")
                }
                sources.alertFeeds.append(checked)
            }
        } else if let v = try reader.string(table, "alerts", prefix: prefix) {
            sources.alertFeeds = [try source(v, key: "alerts")]
        }
        sources.headers = try readHeaders(table, key: prefix + "headers", reader: reader)
        return sources
    }

    /// A feed id as `kiosk import` accepts it.
    static func isFeedID(_ id: String) -> Bool {
        func alphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard (1...32).contains(id.utf8.count), let first = id.utf8.first, alphanumeric(first) else { return false }
        return id.utf8.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}
