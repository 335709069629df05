import ArgumentParser
import Foundation
import KioskConfiguration
import Labels
import StopCodes
import SystemSupport
import TransitModel
import TransitStore

/// `kiosk timetable`: printed timetables — a stop's poster (departures by hour per route, direction and day
/// type, with the stop's QR code), a route's pocket timetable, or every stop's poster.
struct TimetableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timetable",
        abstract: "Print a stop's timetable poster, a route's timetable, or every stop's poster (PDF, SVG or PNG).",
        discussion: """
            kiosk timetable STOP --out poster.pdf: the stop's poster. Per route and direction (only --route's, when \
            given), the departures grouped by hour (hour rows, minutes across) for each day type of the week: days \
            whose service is the same share a column (Mondays to Fridays, Saturdays, Sundays and holidays, Daily); a \
            weekday running the Sunday service is a holiday and goes with Sunday; a trip that does not run every day \
            of its column, or ends short of the usual destination, carries a footnote mark. It says how long it is \
            valid (the dates around the week whose services here are the same), the stop's name and code, the \
            operator, and the stop's QR code — the same URL as its label, signed with --sign-key — with "live \
            departures: scan or open …". Frequency-based service is printed as "every N min from HH:MM to HH:MM". \
            --date D prints that one day; --week (the default) the day types of the week containing --date (default \
            today).

            kiosk timetable --route R [--direction N] [--date D] --out route.pdf: the route's timetable for the date, \
            stops down and trips across (only the timepoints when the feed marks some times as approximate), on \
            landscape pages with the stop column repeated. Without --direction, the direction with more trips.

            kiosk timetable --all-stops --out DIR: every boarding stop's poster as DIR/CODE.pdf (.svg, .png with \
            --format), with a progress line; stops where nothing departs that week are skipped and counted.

            Every page is checked before it is written: each text inside its box, no two texts overlapping, the QR \
            code decoding back (zbar) to exactly its URL. Layouts: a4 and a3 (portrait, routes one after another), \
            single (a page per route and direction, each with the stop's header and QR code). --lang es|en (default: \
            the config's language, else the feed's).

            A stop's poster whose QR code would carry the default template's placeholder address (transit.example, \
            or any .example or example.com/.net/.org address) is refused (exit 2) until the template names this \
            network's site: url_template in the [labels] section of the config (--config), or --template. --proof \
            prints it anyway as a proof copy: every page framed in red and saying "PROOF — placeholder address, not \
            for posting" in the poster's language. A route timetable has no QR code, and no --proof.

            --out - writes the stop's or route's timetable to standard output (a PDF, or an SVG or PNG of one page; \
            the summary then goes to standard error). --out never replaces anything but a regular file this user's \
            mode bits allow writing: a device, a FIFO, a folder, a read-only file, a file on /proc or /sys, or a name \
            whose extension is not the format's (poster.txt for a PDF) is refused.

            Exit codes: 0 ok; 2 bad input (unknown stop or route, a date outside the feed, nothing departing or no \
            trips that day, a refused or unwritable --out), nothing written; 1 a page failed its check (nothing \
            written).
            """
    )

    @Argument(help: ArgumentHelp("The stop: a stop ID, stop code or scanned stop URL.", valueName: "stop"))
    var stop: String?

    @Option(help: ArgumentHelp("The service date, e.g. 2026-11-25 (default: today).", valueName: "yyyy-mm-dd"))
    var date: String?

    @Flag(help: "The day types of the whole week containing --date (the default for stop posters).")
    var week = false

    @Option(
        name: .customLong("route"), parsing: .upToNextOption,
        help: ArgumentHelp("With STOP: only these routes. Without: the route to print.", valueName: "route"))
    var routes: [String] = []

    @Option(help: "With --route alone: the direction_id (0 or 1).")
    var direction: Int?

    @Flag(name: .customLong("all-stops"), help: "Print every boarding stop's poster into the folder --out names.")
    var allStops = false

    @Option(help: ArgumentHelp("Page layout: a4, a3 or single.", valueName: "name"))
    var layout: TimetableLayout = .a4

    @Option(
        help: ArgumentHelp(
            "Output format: pdf, svg or png (default: from --out's extension, else pdf).", valueName: "format"))
    var format: LabelFormat?

    @Option(
        help: ArgumentHelp(
            "The file to write, - for standard output (the folder, with --all-stops).", valueName: "path"))
    var out: String

    @Option(help: ArgumentHelp("PNG resolution in dots per inch (72–600).", valueName: "dpi"))
    var dpi = 200

    @Option(help: ArgumentHelp("Language: es or en (default: the config's, else the feed's).", valueName: "es|en"))
    var lang: Language?

    @Flag(help: "Print a JSON summary (files, pages, and the areas of the table columns) instead of text.")
    var json = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @Option(
        help: ArgumentHelp(
            "Stop URL template for the QR code (default: the config's, as for labels).", valueName: "template"))
    var template: String?

    @Option(
        name: .customLong("feed-id"),
        help: ArgumentHelp("Feed ID signatures name (default: the database's).", valueName: "id"))
    var feedID: String?

    @Option(
        name: .customLong("sign-key"),
        help: ArgumentHelp("Private key file to sign the QR code's URL with, as labels are.", valueName: "file"))
    var signKey: String?

    @Flag(help: "A proof copy of stop posters, marked on every page as not for posting (placeholder address allowed).")
    var proof = false

    func validate() throws {
        let modes = [stop != nil, allStops, stop == nil && !allStops && !routes.isEmpty].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError(
                "give exactly one of: a STOP, --route R (a route timetable) or --all-stops")
        }
        if allStops && !routes.isEmpty { throw ValidationError("--all-stops prints every route; leave out --route") }
        if stop == nil && !allStops {
            guard routes.count == 1 else { throw ValidationError("a route timetable is for one route: give one --route") }
            if week { throw ValidationError("a route timetable is for one day: use --date, not --week") }
            if proof {
                throw ValidationError("--proof marks posters with a QR code; a route timetable has none: leave it out")
            }
        } else if direction != nil {
            throw ValidationError("--direction goes with a route timetable (--route R without a stop)")
        }
        if let direction, !(0...1).contains(direction) {
            throw ValidationError("--direction must be 0 or 1 (got \(direction))")
        }
        if let date, ServiceDate(parsing: date) == nil {
            throw ValidationError(
                "--date must be a date such as 2026-11-25 (got '\(TerminalText.sanitize(date, maxLength: 40))')")
        }
        guard (72...600).contains(dpi) else { throw ValidationError("--dpi must be between 72 and 600 (got \(dpi))") }
        if out == OutputDestination.standardOutputName {
            if allStops {
                throw ValidationError("--all-stops writes a file per stop into a folder; --out - is one file")
            }
            if json {
                throw ValidationError("--json prints the summary on standard output, where --out - sends the timetable")
            }
        }
    }

    /// --format, else the extension of --out, else PDF.
    var resolvedFormat: LabelFormat {
        if let format { return format }
        if !allStops, let dot = out.lastIndex(of: "."),
            let guessed = LabelFormat(rawValue: out[out.index(after: dot)...].lowercased())
        {
            return guessed
        }
        return .pdf
    }

    func run() throws {
        let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "timetable")
        defer { signals.cancel() }
        if !allStops { try resolvedFormat.checkOutput(out, chosen: format != nil) }
        // --out -: the pages wait in a private folder until every one has passed its check.
        let staging = out == OutputDestination.standardOutputName ? try OutputFile.staging() : nil
        let output = staging?.path(named: "timetable.\(resolvedFormat.rawValue)") ?? out
        try reportingTimetableErrors {
            let settings = try configOption.load()
            let routesDB = try database.open(config: settings)
            var decided = settings
            decided.decidePassengerLocale(commandLine: lang, feed: routesDB.feedLocaleFacts())
            let language = decided.language  // --lang, the config's, else the feed's (PassengerLocale)
            let day = date.flatMap(ServiceDate.init(parsing:)) ?? ServiceDate.containing(Date(), in: routesDB.timeZone)
            try routesDB.checkServiceRange(day)
            let options = TimetablePrintOptions(
                layout: layout, format: resolvedFormat, dpi: dpi, language: language,
                title: "StopKiosk · \(routesDB.feedName)", proof: proof, clock: decided.passengerLocale.clock,
                dates: decided.passengerLocale.dates)

            if stop == nil && !allStops {
                let timetable = try routesDB.routeTimetable(routes[0], direction: direction, date: day)
                let result = try TimetablePrinter(options: options).printRoute(timetable, output: output)
                if let staging { try resolvedFormat.emit(result.files, from: staging, what: "timetable's pages") }
                report(result, what: "route \(timetable.route.label)", toStandardOutput: staging == nil)
                return
            }

            let urlTemplate = try StopURLTemplate(template ?? settings.urlTemplate)
            let signingKey = try signKey.map(LabelsCommand.loadSigningKey)
            let feed = feedID ?? settings.feedID ?? routesDB.feedID
            let payloads = LabelPayloadBuilder(template: urlTemplate, feedID: feed, signingKey: signingKey)
            let span: TimetableSpan = date != nil && !week ? .day(day) : .week(containing: day)

            if let stop {
                let resolved = try routesDB.resolveStop(StopQuery.reference(for: stop, routes: routesDB, config: settings))
                let timetable = try routesDB.stopTimetable(for: resolved, span: span, routes: routes)
                let result = try TimetablePrinter(options: options).printStop(
                    timetable, payloads: payloads, output: output)
                if let staging { try resolvedFormat.emit(result.files, from: staging, what: "timetable's pages") }
                report(
                    result, what: "stop \(timetable.stop.code ?? timetable.stop.id)", toStandardOutput: staging == nil)
                return
            }
            // One refusal for the run, not one per stop (the printer refuses each poster too).
            do throws(LabelError) {
                try PlaceholderAddress.check(urlTemplate, proof: proof)
            } catch {
                throw TimetablePrintError.label(error)
            }
            try printAllStops(routesDB, span: span, payloads: payloads, options: options)
        }
    }

    /// The summary; beside the errors when the timetable itself went to standard output.
    func report(_ result: TimetablePrintResult, what: String, toStandardOutput: Bool) {
        if json {
            struct Summary: Encodable {
                var files: [String], pages: Int, pageWidth: Double, pageHeight: Double
                var regions: [TimetablePrintResult.Region]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let summary = Summary(
                files: result.files, pages: result.pages, pageWidth: result.pageWidth, pageHeight: result.pageHeight,
                regions: result.regions)
            print(String(decoding: (try? encoder.encode(summary)) ?? Data(), as: UTF8.self))
        } else {
            let files =
                toStandardOutput
                ? result.files.map { TerminalText.sanitize($0, maxLength: 200) }.joined(separator: ", ")
                : "standard output"
            let line =
                "Wrote the timetable of \(TerminalText.sanitize(what, maxLength: 80)) on \(result.pages) page\(result.pages == 1 ? "" : "s") to "
                + files + "; every page checked (texts in their boxes, no overlaps, the QR code read back)"
            if toStandardOutput { print(line) } else { printError(line) }
        }
    }

    /// Every boarding stop's poster into the folder `out`, on two threads, each with its own printer.
    func printAllStops(
        _ routesDB: RouteDatabase, span: TimetableSpan, payloads: LabelPayloadBuilder, options: TimetablePrintOptions
    ) throws {
        do {
            try OutputDestination.checkFolder(out)
        } catch {
            throw CommandInputError.badInput("--out \(TerminalText.sanitize(error.description, maxLength: 300))")
        }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            } catch {
                throw CommandInputError.badInput(
                    "cannot create the folder \(TerminalText.sanitize(out, maxLength: 200)): \(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw CommandInputError.badInput(
                "--out \(TerminalText.sanitize(out, maxLength: 200)) is a file; --all-stops writes into a folder")
        }
        do {
            // The folder is checked once here (a file can be made in it), not before each poster.
            let probe = "\(out)/.timetable-probe-\(getpid())"
            guard FileManager.default.createFile(atPath: probe, contents: nil) else {
                throw CommandInputError.badInput(
                    "cannot write into the folder \(TerminalText.sanitize(out, maxLength: 200))")
            }
            unlink(probe)
        }
        var unprobed = options
        unprobed.probeOutput = false
        let options = unprobed
        let ids = try routesDB.boardingStopIDs()
        let progress = progressOption.line()
        defer { progress.finish() }
        let outcome = AllStopsOutcome()
        let threads = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount))
        let started = DispatchTime.now().uptimeNanoseconds
        let folder = out
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            let printer = TimetablePrinter(options: options)
            var index = worker
            while index < ids.count {
                let result = Self.printOne(
                    ids[index], routesDB: routesDB, span: span, payloads: payloads, printer: printer, folder: folder,
                    format: options.format)
                let done = outcome.record(result)
                progress.update(
                    ProgressUpdate(
                        stage: "posters", done: done, unit: "posters", workDone: Int64(done),
                        workTotal: Int64(ids.count)))
                index += threads
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        progress.finish()
        let (written, skipped, failures) = outcome.totals
        for failure in failures.prefix(20) { printError("error: \(failure)") }
        if failures.count > 20 { printError("error: … and \(failures.count - 20) more") }
        print(
            "Wrote \(written) stop timetable\(written == 1 ? "" : "s") to \(TerminalText.sanitize(out, maxLength: 200)) in "
                + String(format: "%.1f s (%.1f a second)", seconds, Double(written) / max(seconds, 1e-9))
                + "; \(skipped) stop\(skipped == 1 ? "" : "s") without departures skipped; every page checked")
        if !failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    enum OneStop {
        case written
        case skipped
        case failed(String)
    }

    static func printOne(
        _ id: String, routesDB: RouteDatabase, span: TimetableSpan, payloads: LabelPayloadBuilder,
        printer: TimetablePrinter, folder: String, format: LabelFormat
    ) -> OneStop {
        do {
            let resolved = try routesDB.resolveStop(.id(id))
            let timetable = try routesDB.stopTimetable(for: resolved, span: span)
            let name = fileName(resolved.stop.code.flatMap { $0.isEmpty ? nil : $0 } ?? resolved.stop.id)
            _ = try printer.printStop(timetable, payloads: payloads, output: "\(folder)/\(name).\(format.rawValue)")
            return .written
        } catch TimetableError.noDepartures {
            return .skipped
        } catch {
            return .failed("stop \(TerminalText.sanitize(id, maxLength: 60)): \(error)")
        }
    }

    /// A stop code or ID as a file name: letters, digits, '-', '_' and '.' kept, anything else '_'.
    static func fileName(_ value: String) -> String {
        let kept = value.unicodeScalars.map { scalar -> Character in
            let ok = (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                && scalar.isASCII
            return ok ? Character(scalar) : "_"
        }
        let name = String(kept)
        return name.hasPrefix(".") ? "_" + name : name
    }
}

/// Counts of an --all-stops run, updated from both threads.
final class AllStopsOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var written = 0, skipped = 0
    private var failures: [String] = []

    func record(_ result: TimetableCommand.OneStop) -> Int {
        lock.lock()
        defer { lock.unlock() }
        switch result {
        case .written: written += 1
        case .skipped: skipped += 1
        case .failed(let message): failures.append(message)
        }
        return written + skipped + failures.count
    }

    var totals: (Int, Int, [String]) {
        lock.lock()
        defer { lock.unlock() }
        return (written, skipped, failures)
    }
}

extension TimetableLayout: ExpressibleByArgument {}

/// Timetable failures: bad input exits 2 naming the cause; a page failing its check exits 1. Nothing is written
/// in either case.
func reportingTimetableErrors(_ body: () throws -> Void) throws {
    do {
        try reportingRouteErrors(body)
    } catch let error as TimetableError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as TimetablePrintError {
        printError("error: \(error)")
        if case .checkFailed = error { throw ExitCode(ExitStatus.failure) }
        throw ExitCode(ExitStatus.badInput)
    } catch let error as StopURLTemplate.TemplateError {
        printError("error: --template: \(TerminalText.sanitize(error.description, maxLength: 300))")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as CommandInputError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    }
}
