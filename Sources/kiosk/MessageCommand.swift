import ArgumentParser
import Foundation
import Realtime
import SystemSupport
import TransitModel
import TransitStore

extension StaffMessages.Severity: ExpressibleByArgument {}

/// `kiosk message add|list|remove`: staff messages for the screens, kept in a GTFS-Realtime ServiceAlerts file
/// that kiosks and servers read as one of their `[realtime] alerts` sources.
struct MessageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Write staff messages for the screens: a GTFS-Realtime ServiceAlerts file the kiosks read.",
        discussion: """
            The messages file is a GTFS-Realtime ServiceAlerts feed (FULL_DATASET, feed_version "stopkiosk-messages/1"). Name it in the kiosks' config beside the agency's alerts feed: alerts = ["https://agency.example/alerts.pb", "/var/lib/stopkiosk/messages.pb"]. Kiosks and kiosk serve read it at every poll, so a change shows within poll_seconds, without a restart.

            Info and warning messages show as the agency's alerts do. A severe message for a kiosk's own stop, or for every kiosk (--all), takes over the terminal kiosk's idle screen and shows at the top of every stop screen and of the /kiosk board; with auto_speak it is said once. Every message ends by itself at --until.
            """,
        subcommands: [MessageAddCommand.self, MessageListCommand.self, MessageRemoveCommand.self]
    )
}

struct MessageAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a message, or update the one with the same --id.",
        discussion: """
            Give the text in both languages: each screen shows the one it is in. Say who the message is for: --stops (stop IDs or codes), --routes (route IDs or short names) or --all (every kiosk); each stop and route is checked against the route database, and one it does not know is refused naming it (exit 2).

            --from and --until are local times in the feed's time zone, as --at elsewhere: 2026-11-25T08:00, 2026-11-25 08:00, with seconds or an explicit offset; a date alone means the start of that day for --from and its end for --until. Without --from the message is in force at once; without --until until it is removed.

            The file is replaced atomically: kiosks reading it see the old list or the new one, never a part. Commands run at once on one file take turns (an flock on FILE.lock, left beside it), so none loses another's message and each gets an id of its own. Messages that ended more than 30 days ago are dropped from the file (and named): they are never shown, and a reader keeps only the first 1,000 alerts of a feed.
            """
    )

    @Option(name: .customLong("text-es"), help: "The message in Spanish.")
    var textES: String

    @Option(name: .customLong("text-en"), help: "The message in English.")
    var textEN: String

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("The stops it is for: stop IDs or codes (spaces or commas between them).", valueName: "stop")
    )
    var stops: [String] = []

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("The routes it is for: route IDs or short names.", valueName: "route"))
    var routes: [String] = []

    @Flag(help: "For every kiosk (every agency of the route database).")
    var all = false

    @Option(help: ArgumentHelp("When it starts (default: now).", valueName: "date-time"))
    var from: String?

    @Option(help: ArgumentHelp("When it ends by itself (default: when removed).", valueName: "date-time"))
    var until: String?

    @Option(help: "How it shows: severe messages take over the screen.")
    var severity: StaffMessages.Severity = .info

    @Option(
        help: ArgumentHelp(
            "The message's id: an existing id updates that message (default: the next msg-N).", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("The messages file to write (created if missing).", valueName: "file.pb"))
    var out: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        let chosen = [!stops.isEmpty, !routes.isEmpty, all].filter { $0 }.count
        if chosen == 0 { throw ValidationError("say who the message is for: --stops, --routes or --all") }
        if chosen > 1 { throw ValidationError("give one of --stops, --routes and --all, not several") }
        for (name, text) in [("--text-es", textES), ("--text-en", textEN)] {
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw ValidationError("\(name) is empty: give the message in both languages")
            }
            if text.count > 1_000 { throw ValidationError("\(name) is \(text.count) characters long; at most 1000") }
        }
        if let id {
            if id.isEmpty || id.count > 100
                || id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " })
            {
                throw ValidationError(
                    "--id '\(TerminalText.sanitize(id, maxLength: 40))' must be 1 to 100 characters without spaces or control characters"
                )
            }
        }
    }

    func run() throws {
        try reportingMessageErrors {
            let config = try configOption.load()
            let routeDatabase = try database.open(config: config)
            let zone = routeDatabase.timeZone
            let now = Date()
            let audience: StaffMessages.Audience
            if all {
                audience = .agencies(try routeDatabase.agencyIDs())
            } else if !stops.isEmpty {
                audience = .stops(try MessageTargets.stops(MessageTargets.split(stops), in: routeDatabase))
            } else {
                audience = .routes(try MessageTargets.routes(MessageTargets.split(routes), in: routeDatabase))
            }
            let start = try from.map { try MessageTimes.instant($0, option: "--from", endOfDay: false, in: zone) }
            let end = try until.map { try MessageTimes.instant($0, option: "--until", endOfDay: true, in: zone) }
            if let start, let end, end <= start {
                throw CommandInputError.badInput(
                    "--until \(until!) is not after --from \(from!): the message would never show")
            }
            // The id is chosen and the file replaced under the file's lock: commands run at once each see the
            // others' messages.
            let (message, result) = try StaffMessages.update(path: out, now: now) { entities in
                let message = StaffMessages.Message(
                    id: id ?? StaffMessages.nextID(after: entities), textES: textES, textEN: textEN,
                    audience: audience, from: start, until: end, severity: severity, timeZone: zone.identifier)
                let result = StaffMessages.upsert(message, into: entities, now: now)
                if result.entities.count > AlertIndex.maximumAlerts {
                    throw CommandInputError.badInput(
                        "\(out) would hold \(result.entities.count) messages; kiosks read at most \(AlertIndex.maximumAlerts): remove some first (kiosk message remove)"
                    )
                }
                entities = result.entities
                return (message, result)
            }
            let period = MessageTimes.period(from: start, until: end, in: zone)
            print(
                "\(result.replaced ? "updated" : "added") \(message.id) (\(severity.rawValue), \(MessageTargets.describe(audience)), \(period)) in \(out)"
            )
            if let end, end <= now {
                printError("warning: \(message.id) has already ended (--until \(until!)): no screen will show it")
            }
            if !result.pruned.isEmpty {
                print(
                    "dropped \(result.pruned.count) message(s) that ended over 30 days ago: \(result.pruned.joined(separator: ", "))"
                )
            }
        }
    }
}

struct MessageListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the messages of a file: id, severity, whether in force, who for, when, and both texts.",
        discussion: """
            Each message is active (in force now), upcoming (its period starts later) or expired (it has ended; no screen shows it). Times are shown in the time zone each message was written for (the route database's when it was added); a message from a file written before zones were kept shows in the route database's (--db). --json prints the same as a JSON array, each message with its time_zone.
            """
    )

    @Option(
        name: [.customLong("file"), .customLong("out")], help: ArgumentHelp("The messages file.", valueName: "file.pb"))
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    func run() throws {
        try reportingMessageErrors {
            guard FileManager.default.fileExists(atPath: file) else {
                throw CommandInputError.badInput("\(file): no such file (kiosk message add --out \(file) creates it)")
            }
            let entities = try StaffMessages.read(path: file)
            // The route database is opened only for messages that do not name their own zone.
            var zone = TimeZone(identifier: "UTC")!
            if entities.contains(where: { StaffMessages.timeZone(of: $0.alert) == nil }) {
                zone = try database.open(config: try configOption.load()).timeZone
            }
            print(
                json
                    ? try MessageListing.json(entities, now: Date(), in: zone)
                    : MessageListing.text(entities, now: Date(), in: zone, file: file))
        }
    }
}

struct MessageRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a message by its id (the file is replaced atomically).")

    @Argument(help: "The message's id (kiosk message list shows them).")
    var id: String

    @Option(help: ArgumentHelp("The messages file.", valueName: "file.pb"))
    var file: String

    func run() throws {
        try reportingMessageErrors {
            guard FileManager.default.fileExists(atPath: file) else {
                throw CommandInputError.badInput("\(file): no such file")
            }
            let left = try StaffMessages.update(path: file, now: Date()) { entities in
                guard let index = entities.firstIndex(where: { $0.id == id }) else {
                    let known = entities.map(\.id)
                    throw CommandInputError.badInput(
                        "no message '\(TerminalText.sanitize(id, maxLength: 60))' in \(file)"
                            + (known.isEmpty ? " (it holds none)" : "; it holds: \(known.joined(separator: ", "))"))
                }
                entities.remove(at: index)
                return entities.count
            }
            print("removed \(id) from \(file) (\(left) left)")
        }
    }
}

/// Stops and routes named on the command line, checked against the route database.
enum MessageTargets {
    /// `--stops 1091 1092`, `--stops 1091,1092`: one value per name.
    static func split(_ values: [String]) -> [String] {
        var result: [String] = []
        for value in values.flatMap({ $0.split(separator: ",") }) {
            let name = value.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// The stop_id of each stop ID or code; an unknown one is refused with the stops it may have meant.
    static func stops(_ names: [String], in database: RouteDatabase) throws -> [String] {
        var ids: [String] = []
        for name in names {
            do {
                let id = try database.resolveStop(.idOrCode(try RouteDatabase.validateQuery(name))).stop.id
                if !ids.contains(id) { ids.append(id) }
            } catch let error as LookupError {
                throw CommandInputError.badInput("--stops: \(error)")
            }
        }
        return ids
    }

    /// The route_id of each route ID or short name (a short name several routes share is refused, naming them).
    static func routes(_ names: [String], in database: RouteDatabase) throws -> [String] {
        let records = try database.routeRecords()
        var ids: [String] = []
        for name in names {
            let id: String
            // A bare route_id of a database of several feeds: the route of the one feed that has it.
            let inFeeds =
                database.namespaces.isEmpty
                ? [] : records.keys.filter { database.namespaces.bareID($0) == name }.sorted()
            if records[name] != nil {
                id = name
            } else if inFeeds.count == 1 {
                id = inFeeds[0]
            } else if inFeeds.count > 1 {
                throw CommandInputError.badInput(
                    "--routes: '\(TerminalText.sanitize(name, maxLength: 60))' is a route_id in several feeds: \(inFeeds.joined(separator: ", ")); give it with its feed, e.g. \(inFeeds[0])"
                )
            } else {
                let matches = records.filter { $0.value.info.shortName?.caseInsensitiveCompare(name) == .orderedSame }
                    .map(\.key).sorted()
                guard matches.count == 1 else {
                    let clean = TerminalText.sanitize(name, maxLength: 60)
                    if matches.isEmpty {
                        throw CommandInputError.badInput(
                            "--routes: no such route: '\(clean)' is neither a route_id nor a route's short name (kiosk routes lists them)"
                        )
                    }
                    throw CommandInputError.badInput(
                        "--routes: '\(clean)' is the short name of several routes: give one of their route_ids: \(matches.joined(separator: ", "))"
                    )
                }
                id = matches[0]
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    static func describe(_ audience: StaffMessages.Audience) -> String {
        switch audience {
        case let .stops(ids): return "stops \(ids.joined(separator: ", "))"
        case let .routes(ids): return "routes \(ids.joined(separator: ", "))"
        case .agencies: return "every kiosk"
        }
    }
}

enum MessageTimes {
    /// A date-time as `--at` reads it, or a date alone: its first second (`--from`) or its last (`--until`).
    static func instant(_ text: String, option: String, endOfDay: Bool, in zone: TimeZone) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count == 10, let day = ServiceDate(parsing: trimmed) {
            let clock = endOfDay ? "23:59:59" : "00:00:00"
            if let instant = LocalTime.parse("\(day)T\(clock)", in: zone) { return instant }
        }
        switch LocalTime.interpret(trimmed, in: zone) {
        case let .instant(date): return date
        case .nonexistent:
            throw CommandInputError.badInput(
                "\(option): \(LookupError.nonexistentLocalTime(text: text, timeZone: zone.identifier))")
        case .unreadable:
            throw CommandInputError.badInput(
                "\(option): cannot read the time '\(TerminalText.sanitize(text, maxLength: 40))': use a local date-time such as 2026-11-25T08:00 or a date such as 2026-11-25 (\(zone.identifier))"
            )
        }
    }

    static func local(_ date: Date, in zone: TimeZone) -> String {
        let iso = LocalTime.iso8601(date, in: zone)
        return "\(iso.prefix(10)) \(LocalTime.clock(date, in: zone))"
    }

    static func period(from: Date?, until: Date?, in zone: TimeZone) -> String {
        switch (from, until) {
        case (nil, nil): return "until removed"
        case let (start?, nil): return "from \(local(start, in: zone)) until removed"
        case let (nil, end?): return "until \(local(end, in: zone)) \(zone.identifier)"
        case let (start?, end?): return "\(local(start, in: zone)) to \(local(end, in: zone)) \(zone.identifier)"
        }
    }
}

/// `kiosk message list` as text or JSON.
enum MessageListing {
    struct Row: Encodable {
        var id: String
        var severity: String
        var status: String
        var stops: [String]
        var routes: [String]
        var agencies: [String]
        var from: String?
        var until: String?
        /// The zone `from` and `until` are written in: the message's own, else the route database's.
        var timeZone: String
        var text: [String: String]

        enum CodingKeys: String, CodingKey {
            case id, severity, status, stops, routes, agencies, from, until, text
            case timeZone = "time_zone"
        }
    }

    /// `fallback` is the zone of messages that do not name theirs.
    static func rows(_ entities: [TransitRealtime_FeedEntity], now: Date, in fallback: TimeZone) -> [Row] {
        entities.map { entity in
            let alert = entity.alert
            let zone = StaffMessages.timeZone(of: alert) ?? fallback
            let period = alert.activePeriod.first.map(AlertIndex.ActivePeriod.init)
            var text: [String: String] = [:]
            for translation in alert.headerText.translation {
                text[translation.hasLanguage ? translation.language : ""] = translation.text
            }
            return Row(
                id: entity.id, severity: AlertIndexNames.severity(alert.severityLevel),
                status: StaffMessages.status(alert, at: now).rawValue,
                stops: alert.informedEntity.filter(\.hasStopID).map(\.stopID),
                routes: alert.informedEntity.filter(\.hasRouteID).map(\.routeID),
                agencies: alert.informedEntity.filter { $0.hasAgencyID && !$0.hasRouteID }.map(\.agencyID),
                from: period?.start.map { LocalTime.iso8601($0, in: zone) },
                until: period?.end.map { LocalTime.iso8601($0, in: zone) }, timeZone: zone.identifier, text: text)
        }
    }

    static func json(_ entities: [TransitRealtime_FeedEntity], now: Date, in zone: TimeZone) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows(entities, now: now, in: zone)), as: UTF8.self)
    }

    static func text(_ entities: [TransitRealtime_FeedEntity], now: Date, in zone: TimeZone, file: String) -> String {
        let rows = rows(entities, now: now, in: zone)
        guard !rows.isEmpty else { return "\(file): no messages" }
        // One zone for the file is said once at the end; messages written for different zones say each theirs.
        let zones = Set(rows.filter { $0.from != nil || $0.until != nil }.map(\.timeZone))
        var lines: [String] = []
        for row in rows {
            let who =
                !row.stops.isEmpty
                ? "stops \(row.stops.joined(separator: ", "))"
                : !row.routes.isEmpty ? "routes \(row.routes.joined(separator: ", "))" : "every kiosk"
            let clean = { (s: String) in TerminalText.sanitize(s, maxLength: 200) }
            let from = row.from.map { "\($0.prefix(10)) \($0.dropFirst(11).prefix(5))" }
            let until = row.until.map { "\($0.prefix(10)) \($0.dropFirst(11).prefix(5))" }
            var when: String
            switch (from, until) {
            case (nil, nil): when = "until removed"
            case let (f?, nil): when = "from \(f)"
            case let (nil, u?): when = "until \(u)"
            case let (f?, u?): when = "\(f) → \(u)"
            }
            if zones.count > 1, row.from != nil || row.until != nil { when += " \(row.timeZone)" }
            lines.append("\(clean(row.id))  \(row.severity)  \(row.status)  \(who)  \(when)")
            for language in ["es", "en"] {
                if let t = row.text[language] { lines.append("  \(language): \(clean(t))") }
            }
            for (language, t) in row.text.sorted(by: { $0.key < $1.key }) where !["es", "en"].contains(language) {
                lines.append("  \(language.isEmpty ? "--" : clean(language)): \(clean(t))")
            }
        }
        if zones.count == 1 { lines.append("Times in \(zones.first!).") }
        return lines.joined(separator: "\n")
    }
}

/// Alert enum values in the listing's words (lower snake case, as in the stop view's JSON).
enum AlertIndexNames {
    static func severity(_ level: TransitRealtime_Alert.SeverityLevel) -> String {
        switch level {
        case .info: return "info"
        case .warning: return "warning"
        case .severe: return "severe"
        case .unknownSeverity: return "unknown_severity"
        }
    }
}

/// Message failures: bad input and unusable files exit 2, naming the value or the file; lookup errors as for
/// every command.
func reportingMessageErrors(_ body: () throws -> Void) throws {
    do {
        try reportingLookupErrors(body)
    } catch let error as CommandInputError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as StaffMessages.FileProblem {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as FileError {
        printError("error: \(error)")
        throw ExitCode(error.isBadDestination ? ExitStatus.badInput : ExitStatus.failure)
    }
}
