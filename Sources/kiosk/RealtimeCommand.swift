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
        Prints what the feed carries (entities, stop time updates, vehicles, alerts), how well its trips and stops
        match the timetable, how old its header time is at --at, and every oddity found: unknown trips, stop_sequence
        and stop_id that disagree, delays that contradict times, a header from the future or years ago.
        A match rate near zero usually means a feed for another agency or another timetable version.
        FILE that is not a GTFS-Realtime protobuf (an HTML page, truncated or garbage bytes) exits with status 2.
        """
    )

    @Argument(help: ArgumentHelp("A GTFS-Realtime feed file (binary protobuf FeedMessage).", valueName: "file"))
    var source: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var moment: MomentOption

    @Option(help: "The poll interval the freshness verdict assumes, in seconds.")
    var pollSeconds = LiveData.defaultPollSeconds

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (1...3600).contains(pollSeconds) else { throw ValidationError("--poll-seconds must be between 1 and 3600 (got \(pollSeconds))") }
    }

    func run() throws {
        try reportingLookupErrors {
            if source.hasPrefix("http://") || source.hasPrefix("https://") {
                printError("error: fetching feeds over HTTP is not available yet; download the feed and give its file")
                throw ExitCode(ExitStatus.badInput)
            }
            let routes = try database.open()
            let instant = try moment.instant(in: routes.timeZone)
            let feed: RealtimeFeed
            do {
                feed = try RealtimeFeed.read(path: source)
            } catch {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.badInput)
            }
            let report = try FeedInspection(feed: feed, source: source, database: routes, at: instant, pollSeconds: pollSeconds)
            print(json ? try report.json() : report.text)
        }
    }
}
