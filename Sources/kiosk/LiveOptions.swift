import ArgumentParser
import Foundation
import KioskConfiguration
import Realtime
import TransitModel
import TransitStore

extension RealtimeMode: ExpressibleByArgument {}

/// `--realtime` and `--realtime-mode`: live data for a one-shot answer (`kiosk lookup`).
struct LiveOptions: ParsableArguments {
    @Option(
        name: .customLong("realtime"),
        help: ArgumentHelp(
            "A GTFS-Realtime feed (trip updates and/or alerts): a file or an http(s):// URL; FEED=SOURCE reads its ids as feed FEED's (a database of several feeds). Repeatable.",
            valueName: "file-or-url"))
    var sources: [String] = []

    @Option(help: "online, mixed or offline (default: the config's [realtime] mode, else mixed).")
    var realtimeMode: RealtimeMode?

    /// One `--realtime` argument: `FEED=SOURCE` names the static feed (a URL's own `=` comes after a `:`).
    static func split(_ argument: String) -> (feed: String?, source: String) {
        if let equals = argument.firstIndex(of: "="), FeedInput.isValidID(String(argument[..<equals])) {
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        return (nil, argument)
    }

    /// The live data to apply, fetched once now; nil when there is none to use (no feed, or offline mode).
    /// `now` stamps what arrives, so freshness is judged at the moment asked for. Each feed's ids are read in the
    /// namespace of the static feed it belongs to; a feed id the database does not hold is refused.
    func load(config: KioskConfig, routes: RouteDatabase, now: Date) throws -> LiveData? {
        let settings = config.realtime
        let mode = realtimeMode ?? settings.mode
        var feeds: [(source: String, prefix: String, headers: [String: String])] = []
        do {
            if sources.isEmpty {
                for binding in try settings.bind(to: routes) {
                    let configured = [binding.sources.tripUpdates].compactMap({ $0 }) + binding.sources.alertFeeds
                    for source in configured where !feeds.contains(where: { $0.source == source }) {
                        feeds.append((source, binding.idPrefix, binding.sources.headers))
                    }
                }
            } else {
                for argument in sources {
                    let (feed, source) = Self.split(argument)
                    do throws(RealtimeBindingError) {
                        let bound = try RealtimeSettings(feed: feed, tripUpdates: source).bind(to: routes).first
                        feeds.append((source, bound?.idPrefix ?? "", settings.headers))
                    } catch {
                        throw LookupError.invalidQuery(
                            "--realtime \(argument): "
                                + (feed == nil ? "name the feed it belongs to, --realtime FEED=\(source): " : "")
                                + error.problem)
                    }
                }
            }
        } catch let error as LookupError {
            throw error
        } catch {
            throw LookupError.invalidQuery("[realtime] \(error)")
        }
        guard !feeds.isEmpty, mode != .offline else { return nil }
        var live = try LiveData(database: routes, mode: mode, pollSeconds: settings.pollSeconds)
        live.hasTripUpdatesFeed = false
        live.hasAlertsFeed = false
        var failedURLs = 0
        for (source, prefix, headers) in feeds {
            let feed: RealtimeFeed
            if FeedFetcher.isHTTP(source) {
                do {
                    feed = try RealtimeFeed.decode(
                        try RealtimeInspectCommand.download(source, headers: headers))
                } catch {
                    printError("warning: live data from \(source) unavailable: \(error)")
                    failedURLs += 1
                    continue
                }
            } else {
                do {
                    feed = try RealtimeFeed.read(path: source)
                } catch {
                    throw LookupError.invalidQuery("--realtime \(source): \(error)")
                }
            }
            try live.take(
                feed, fetchedAt: now, database: routes, addingAlerts: true, idPrefix: prefix,
                addingTripUpdates: Set(feeds.map(\.prefix)).count > 1)
        }
        // A URL that failed could have been either kind: the passenger is told live data is unavailable.
        if failedURLs > 0 && live.tripUpdates == nil { live.hasTripUpdatesFeed = true }
        return live
    }
}
