import ArgumentParser
import Foundation
import KioskConfiguration
import Realtime
import ScanService
import StopCodes
import StopPresentation
import SystemSupport
import TransitModel
import TransitStore

struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show a stop's routes, departures, first and last service, and nearby stops.",
        discussion: """
            QUERY is a stop_id, a stop_code, or a scanned stop URL. An exact stop_id wins over a stop_code; a station \
            stands for all its platforms. Unknown stops exit with status 2 and up to five suggestions.
            --json prints the stop view documented in the README (times in ISO 8601 with the agency's offset).

            Live departures: --realtime gives a GTFS-Realtime feed (a file or an http(s):// URL; repeat it for \
            trip updates and alerts in separate feeds). Each feed is fetched once and used for what it carries. \
            Without --realtime, the feeds of the config's [realtime] section are used (unless its mode is \
            offline). Freshness is judged at --at, so a recorded snapshot replays as it was live. A feed file that \
            cannot be read or decoded exits with status 2; a URL that fails leaves the timetable, with a warning.

            --speak says it (espeak-ng, the --lang voice, the config's [speech] rate and volume); --speak-to \
            writes the same audio to a WAV file.
            """
    )

    @Argument(help: "A stop ID, stop code or scanned stop URL.")
    var query: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @OptionGroup var moment: MomentOption

    @Option(help: "Minutes of departures to show (1–1440).")
    var window = 60

    @Option(help: "Radius for nearby stops, in metres (0–5000).")
    var nearby = 400

    @OptionGroup var output: OutputOptions

    @OptionGroup var live: LiveOptions
    @OptionGroup var speech: SpeechOptions

    func validate() throws {
        guard (1...1440).contains(window) else {
            throw ValidationError("--window must be between 1 and 1440 minutes (got \(window))")
        }
        guard (0...5000).contains(nearby) else {
            throw ValidationError("--nearby must be between 0 and 5000 metres (got \(nearby))")
        }
    }

    func run() throws {
        try speech.check()
        // Writing a file: a signal removes the unfinished one, and ulimit -f is an error by name.
        let signals = speech.speakTo.map { _ in ProcessSignals.removeTemporaryFilesOnTermination(command: "lookup") }
        defer { signals?.cancel() }
        try reportingLookupErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let instant = try moment.instant(in: routes.timeZone)
            let locale = output.locale(config: config, routes: routes)
            let stop = try routes.resolveStop(try StopQuery.reference(for: query, routes: routes, config: config))
            // Freshness is judged at --at when given, so a recorded snapshot replays as it was live.
            let judgedAt = moment.at == nil ? Date() : instant
            let view = try routes.liveStopView(
                for: stop, at: instant, windowMinutes: window, nearbyRadiusMeters: nearby,
                live: try live.load(config: config, routes: routes, now: judgedAt), now: judgedAt,
                language: locale.language.rawValue)
            // Text and speech name stops, routes and headsigns as the feed translates them; JSON as the feed has them.
            let shown = routes.translated(view, into: locale.language)
            if !speech.printSpeech {
                print(
                    output.json
                        ? try StopViewJSON.render(view)
                        : StopViewText.render(shown, locale: locale, strikeThrough: isatty(STDOUT_FILENO) == 1))
            }
            if speech.wanted {
                try speech.perform(
                    StopViewSpeech.text(shown, language: locale.language, detail: speech.speech),
                    language: locale.language, config: config)
            }
        }
    }
}

extension Language: ExpressibleByArgument {}

/// `--at`, shared by the commands that answer for a moment.
struct MomentOption: ParsableArguments {
    @Option(help: "Local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now).")
    var at: String?

    init() {}

    init(at: String) { self.at = at }

    func instant(in timeZone: TimeZone) throws -> Date {
        guard let at else { return Date() }
        switch LocalTime.interpret(at, in: timeZone) {
        case let .instant(date): return date
        case .nonexistent: throw LookupError.nonexistentLocalTime(text: at, timeZone: timeZone.identifier)
        case .unreadable: throw LookupError.invalidTime(at)
        }
    }
}

/// `--json` and `--lang`, shared by every command that prints an answer.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Language of the text output: es or en (default: the config's, else the feed's).")
    var lang: Language?

    /// The locale of this command's output, decided once: `--lang`, the config, the feed (`PassengerLocale`).
    func locale(config: KioskConfig, routes: RouteDatabase) -> PassengerLocale {
        Self.locale(lang, config: config, routes: routes)
    }

    static func locale(_ lang: Language?, config: KioskConfig, routes: RouteDatabase) -> PassengerLocale {
        var config = config
        config.decidePassengerLocale(commandLine: lang, feed: routes.feedLocaleFacts())
        return config.passengerLocale
    }

    /// The language of a command's `--lang` option: given, else the config's, else the feed's.
    static func language(_ lang: Language?, config: KioskConfig, routes: RouteDatabase) -> Language {
        locale(lang, config: config, routes: routes).language
    }
}

/// Turns what a person typed or scanned into a stop reference.
enum StopQuery {
    /// A scanned stop URL is read exactly as the kiosk's scanner reads it (the same `PayloadParser`, templates,
    /// keys and signature policy): our label URLs name a stop code or id, a forged or damaged label is refused.
    /// Anything else is typed text: an exact stop_id, then an exact stop_code.
    static func reference(for text: String, routes: RouteDatabase, config: KioskConfig) throws -> StopKey {
        let query = try RouteDatabase.validateQuery(text)
        let parser = try config.payloadParser(databaseFeedID: routes.feedID)
        switch parser.parse(query) {
        case .stopReference(let reference) where reference.source != .bare:
            return reference.kind == .stopID ? .id(reference.value) : .code(reference.value)
        case .forged(let reason, _):
            throw LookupError.invalidQuery(
                "forged or damaged label: \(reason) ('\(TerminalText.sanitize(query, maxLength: 60))')")
        case .signatureRequired:
            throw LookupError.invalidQuery(
                "signature required: this kiosk accepts signed labels only, and '\(TerminalText.sanitize(query, maxLength: 60))' is not signed"
            )
        default:
            return .idOrCode(query)
        }
    }
}

/// Lookup failures are bad input (exit 2) with a message naming the cause, never a stack trace.
@discardableResult
func reportingLookupErrors<Value>(_ body: () throws -> Value) throws -> Value {
    do {
        return try body()
    } catch let error as LookupError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as ImportError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    }
}
