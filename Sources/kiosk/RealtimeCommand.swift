import ArgumentParser
import Foundation
import Realtime
import TransitStore

/// `kiosk rt …`: tools for live (GTFS-Realtime) feeds.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rt",
        abstract: "Inspect GTFS-Realtime feeds (trip updates, vehicle positions, alerts).",
        subcommands: [RealtimeInspectCommand.self]
    )
}

struct RealtimeInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a GTFS-Realtime feed and check it against the route database.",
        discussion: """
            Prints what the feed carries (entities, stop time updates, vehicles, alerts), how well its trips and stops \
            match the timetable, how old its header time is at --at, and every oddity found: unknown trips, \
            stop_sequence and stop_id that disagree, delays that contradict times, a header from the future or years \
            ago.
            A match rate near zero usually means a feed for another agency or another timetable version.
            In a database of several feeds (kiosk import metro=… bus=…) the feed's ids are read in one feed's namespace: \
            --feed names it (as [[realtime.feeds]] feed does); without it, the feed whose trips match best. The trip \
            and stop match rates in every feed's namespace are listed either way.
            A URL is fetched once (10 s timeout, 64 MB cap; a failed fetch exits with status 1). A feed that is not a GTFS-Realtime protobuf (an HTML page, truncated or garbage bytes) exits with status 2.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "A GTFS-Realtime feed (binary protobuf FeedMessage): a file, or an http(s):// URL.",
            valueName: "file-or-url"))
    var source: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var moment: MomentOption

    @Option(
        help: ArgumentHelp(
            "The static feed the realtime feed belongs to, in a database of several feeds (its ids are read as FEED:ID).",
            valueName: "feed-id"))
    var feed: String?

    @Option(help: "The poll interval the freshness verdict assumes, in seconds.")
    var pollSeconds = LiveData.defaultPollSeconds

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (1...3600).contains(pollSeconds) else {
            throw ValidationError("--poll-seconds must be between 1 and 3600 (got \(pollSeconds))")
        }
    }

    func run() throws {
        try reportingLookupErrors {
            let routes = try database.open()
            let instant = try moment.instant(in: routes.timeZone)
            let feed: RealtimeFeed
            do {
                if source.hasPrefix("http://") || source.hasPrefix("https://") {
                    feed = try RealtimeFeed.decode(try Self.download(source))
                } else {
                    feed = try RealtimeFeed.read(path: source)
                }
            } catch let error as FeedFetchError {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.failure)  // the network or the server, not the input
            } catch {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.badInput)
            }
            let report: FeedInspection
            do {
                report = try FeedInspection(
                    feed: feed, source: source, database: routes, at: instant, pollSeconds: pollSeconds,
                    feedID: self.feed)
            } catch let error as RealtimeBindingError {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.badInput)
            }
            print(json ? try report.json() : report.text)
        }
    }

    /// Fetches a URL from this synchronous command (one request; the command has nothing else to do meanwhile).
    static func download(_ url: String, headers: [String: String] = [:]) throws -> Data {
        final class Box: @unchecked Sendable { var result: Result<FeedFetcher.Outcome, any Error>? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await FeedFetcher(source: url, headers: headers).fetch()) } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        guard case let .body(data) = try box.result!.get() else { return Data() }
        return data
    }
}
