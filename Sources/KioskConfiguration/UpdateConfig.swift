import Foundation
import TOMLKit

/// One `[[update.feeds]]` table: a feed of a region's route database (`kiosk import metro=… bus=…`), the URL of
/// its GTFS zip and the request headers for it.
public struct UpdateFeedSource: Sendable, Equatable {
    /// The feed id the database's ids are namespaced with (`metro` → `metro:1`).
    public var id: String
    public var url: String
    /// `[update] headers` with this table's own `headers` over them.
    public var headers: [String: String]

    public init(id: String, url: String, headers: [String: String] = [:]) {
        self.id = id
        self.url = url
        self.headers = headers
    }
}

extension KioskConfigFile {
    /// The keys of one `[[update.feeds]]` table.
    public static let updateFeedKeys = ["id", "url", "headers"]

    /// `[update]`'s keys for several feeds: `[[update.feeds]]` (one table per feed), `transfers` and
    /// `interchanges` (the region's transfers and interchanges files, ids as FEEDID:ID). `gtfs_url` names the one
    /// feed of a database of one feed, so it and `feeds` do not go together.
    static func readUpdateFeeds(
        _ update: TOMLTable, reader: Reader, into config: inout KioskConfig
    )
        throws(KioskConfigError)
    {
        for (key, file) in [("transfers", "transfers.txt"), ("interchanges", "interchanges.txt")] {
            guard let v = try reader.string(update, key, prefix: "update.") else { continue }
            guard !v.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw reader.error("update.\(key)", "is empty; give the path of the region's \(file)")
            }
            if key == "transfers" { config.updateTransfers = v } else { config.updateInterchanges = v }
        }
        guard let value = update["feeds"] else {
            for (key, set) in [("transfers", config.updateTransfers), ("interchanges", config.updateInterchanges)]
            where set != nil {
                throw reader.error(
                    "update.\(key)", "is for a database of several feeds: give them as [[update.feeds]] tables")
            }
            return
        }
        let shape = "one [[update.feeds]] table per feed, each with id = \"ID\" and url = \"https://…\""
        guard let array = value.array else {
            throw reader.error("update.feeds", "must be \(shape), not a \(value.type)")
        }
        guard !array.isEmpty else {
            throw reader.error("update.feeds", "is an empty list; give \(shape), or leave the key out")
        }
        if config.updateURL != nil {
            throw reader.error(
                "update.gtfs_url", "with [[update.feeds]], give each feed's URL in its own table (url = \"…\")")
        }
        var feeds: [UpdateFeedSource] = []
        for (index, element) in array.enumerated() {
            let key = "update.feeds[\(index)]"
            guard let table = element.table else {
                throw reader.error(
                    key, "must be a table ([[update.feeds]] on a line of its own), not a \(element.type)")
            }
            for name in table.keys.sorted() where !updateFeedKeys.contains(name) {
                throw reader.error(
                    "\(key).\(clean(name))",
                    "unknown key (known in [[update.feeds]]: \(updateFeedKeys.joined(separator: ", ")))")
            }
            guard let id = try reader.string(table, "id", prefix: key + ".") else {
                throw reader.error(
                    "\(key).id", "is missing: name the feed as kiosk import names it (id = \"metro\")")
            }
            guard isUpdateFeedID(id) else {
                throw reader.error(
                    "\(key).id",
                    "\"\(clean(id))\" is not a feed id (1 to 32 characters from a-z, A-Z, 0-9, '-' and '_', starting with a letter or digit)"
                )
            }
            if let earlier = feeds.firstIndex(where: { $0.id == id }) {
                throw reader.error("\(key).id", "\"\(id)\" is already update.feeds[\(earlier)]'s: give each feed once")
            }
            guard let url = try reader.string(table, "url", prefix: key + ".") else {
                throw reader.error("\(key).url", "is missing: give the http:// or https:// URL of the feed's GTFS zip")
            }
            guard isHTTPURL(url) else {
                throw reader.error(
                    "\(key).url", "must be the http:// or https:// URL of the feed's GTFS zip, not \"\(clean(url))\"")
            }
            let own = try readHeaders(table, key: key + ".headers", reader: reader)
            feeds.append(
                UpdateFeedSource(
                    id: id, url: url, headers: config.updateHeaders.merging(own) { _, feedOwn in feedOwn }))
        }
        config.updateFeeds = feeds
    }

    /// A feed id as `kiosk import` accepts it (`FeedInput.isValidID`, which this module cannot see).
    static func isUpdateFeedID(_ id: String) -> Bool {
        func alphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard (1...32).contains(id.utf8.count), let first = id.utf8.first, alphanumeric(first) else { return false }
        return id.utf8.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}
