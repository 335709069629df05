import ArgumentParser
import Foundation
import KioskUI
import TransitModel
import TransitStore

struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show a stop's routes, departures, first and last service, and nearby stops.",
        discussion: """
        QUERY is a stop_id, a stop_code, or a scanned stop URL. An exact stop_id wins over a stop_code; a station
        stands for all its platforms. Unknown stops exit with status 2 and up to five suggestions.
        --json prints the stop view documented in the README (times in ISO 8601 with the agency's offset).
        """
    )

    @Argument(help: "A stop ID, stop code or scanned stop URL.")
    var query: String

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now).")
    var at: String?

    @Option(help: "Minutes of departures to show (1–1440).")
    var window = 60

    @Option(help: "Radius for nearby stops, in metres (0–5000).")
    var nearby = 400

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Language of the text output: es or en.")
    var lang: Language = .es

    func validate() throws {
        guard (1...1440).contains(window) else { throw ValidationError("--window must be between 1 and 1440 minutes (got \(window))") }
        guard (0...5000).contains(nearby) else { throw ValidationError("--nearby must be between 0 and 5000 metres (got \(nearby))") }
    }

    func run() throws {
        try reportingLookupErrors {
            let routes = try database.open()
            let instant = try at.map { text in
                guard let date = LocalTime.parse(text, in: routes.timeZone) else { throw LookupError.invalidTime(text) }
                return date
            } ?? Date()
            let stop = try routes.resolveStop(try StopQuery.reference(for: query))
            let view = try routes.stopView(for: stop, at: instant, windowMinutes: window, nearbyRadiusMeters: nearby)
            print(json ? try KioskJSON.encode(view, timeZone: routes.timeZone) : StopViewText.render(view, language: lang))
        }
    }
}

extension Language: ExpressibleByArgument {}

/// Turns what a person typed or scanned into a stop reference.
enum StopQuery {
    static func reference(for text: String) throws -> StopReference {
        .idOrCode(try RouteDatabase.validateQuery(text))
    }
}

/// Lookup failures are bad input (exit 2) with a message naming the cause, never a stack trace.
func reportingLookupErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as LookupError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as ImportError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    }
}
