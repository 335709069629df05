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
            "A GTFS-Realtime feed (trip updates and/or alerts): a file or an http(s):// URL. Repeatable.",
            valueName: "file-or-url"))
    var sources: [String] = []

    @Option(help: "online, mixed or offline (default: the config's [realtime] mode, else mixed).")
    var realtimeMode: RealtimeMode?

    /// The live data to apply, fetched once now; nil when there is none to use (no feed, or offline mode).
    /// `now` stamps what arrives, so freshness is judged at the moment asked for.
    func load(config: KioskConfig, routes: RouteDatabase, now: Date) throws -> LiveData? {
        let settings = config.realtime
        let mode = realtimeMode ?? settings.mode
        var feeds = sources
        if feeds.isEmpty {
            let configured = [settings.tripUpdates].compactMap({ $0 }) + settings.alertFeeds
            for source in configured where !feeds.contains(source) {
                feeds.append(source)
            }
        }
        guard !feeds.isEmpty, mode != .offline else { return nil }
        var live = try LiveData(database: routes, mode: mode, pollSeconds: settings.pollSeconds)
        live.hasTripUpdatesFeed = false
        live.hasAlertsFeed = false
        var failedURLs = 0
        for source in feeds {
            let feed: RealtimeFeed
            if FeedFetcher.isHTTP(source) {
                do {
                    feed = try RealtimeFeed.decode(
                        try RealtimeInspectCommand.download(source, headers: settings.headers))
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
            try live.take(feed, fetchedAt: now, database: routes, addingAlerts: true)
        }
        // A URL that failed could have been either kind: the passenger is told live data is unavailable.
        if failedURLs > 0 && live.tripUpdates == nil { live.hasTripUpdatesFeed = true }
        return live
    }
}
