import ArgumentParser
import Foundation
import KioskConfiguration
import Labels
import StopCodes
import SystemSupport
import TransitModel
import TransitStore

/// `kiosk labels`: stop QR labels for staff to stick on poles and shelters.
///
/// The QR code carries the same URL the kiosks parse (template and feed ID from the same settings, or the same
/// config file), signed when a key is given; every label is decoded back with the kiosk's own decoder before
/// the file appears, so a sheet that reaches the printer is a sheet that scans.
struct LabelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels",
        abstract: "Print stop QR labels (PDF, SVG or PNG) for poles and shelters.",
        discussion: """
            Choose the stops with exactly one of --stops (stop IDs or codes; a station means its platforms), --route \
            (a route_id or short name: its stops in travel order) or --all (every boarding stop, by code).

            Each label has the QR code of the stop's URL (--template, default \(KioskConfig().urlTemplate)), the stop \
            code in large type with the manual fallback ("o escriba 2201 en el quiosco / or type 2201 at the kiosk"), \
            the stop name, the routes that depart there and the agency; --barcode adds a Code 128 of the code. \
            With --sign-key the URL carries an Ed25519 signature over the feed ID and the stop (see 'kiosk keys'); \
            kiosks holding the public key can then tell a genuine label from a pasted-over one.

            The default template's address, transit.example, is a placeholder no phone can open: labels with it (or \
            any .example or example.com/.net/.org address) are refused (exit 2) until the template names this \
            network's site — url_template in the [labels] section of the config (--config), or --template. --proof \
            prints them anyway as a proof copy, to check a layout: each label framed in red and saying "PRUEBA — \
            dirección de ejemplo, no para colocar / PROOF — placeholder address, not for posting" (with a real \
            address, "… no para colocar / … not for posting").

            Layouts: \(LabelLayout.all.map { "\($0.name): \($0.summary)" }.joined(separator: "; ")). \
            A layout where QR modules would print smaller than \(LabelLayout.minimumModuleMM) mm is refused, saying why.

            Every label is rasterised in memory and decoded with the kiosk's own decoder; --out appears only when every \
            label reads back exactly its payload (and its barcode its code). Otherwise nothing is written and the \
            failing stops are named. The file appears whole or not at all: it is drawn beside --out and renamed into \
            place. SVG and PNG hold one page each: a run of several pages writes NAME-01.svg, NAME-02.svg, … and \
            lists them. --out - writes to standard output (a PDF, or an SVG or PNG of one page; the summary then goes \
            to standard error). --out never replaces anything but a regular file this user's mode bits allow writing \
            (root included): a device, a FIFO, a folder, a read-only file, a file on /proc or /sys, or a name whose \
            extension is not the format's (labels.txt) is refused.

            --print sends the PDF to CUPS with lp (--printer to choose one). Without CUPS (no lp on PATH) the command \
            stops before drawing anything and exits with status 1 (a missing system service, not bad input). \
            Exit codes: 0 ok, 1 printing failed or CUPS missing, 2 bad input (unknown stops, an empty route, a bad key \
            or template, an unwritable --out, a layout too small, a label that does not read back).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Stops to label: stop IDs or stop codes.", valueName: "id"))
    var stops: [String] = []

    @Option(help: ArgumentHelp("Label every stop of a route (route_id or short name).", valueName: "id"))
    var route: String?

    @Flag(help: "Label every boarding stop of the database (of one feed with --feed).")
    var all = false

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "With --all, in a database of several feeds: label the stops of this feed only.", valueName: "feed id"))
    var onlyFeed: String?

    @Option(
        help: ArgumentHelp("Page layout: \(LabelLayout.all.map(\.name).joined(separator: ", ")).", valueName: "name"))
    var layout = "a4"

    @Option(
        help: ArgumentHelp(
            "Output format: pdf, svg or png (default: from --out's extension, else pdf).", valueName: "format"))
    var format: LabelFormat?

    @Option(
        help: ArgumentHelp(
            "The file to write; - for standard output (a PDF, or an SVG or PNG of one page). Optional only with "
                + "--print.",
            valueName: "path"))
    var out: String?

    @OptionGroup var progressOption: ProgressOption

    @Option(
        help: ArgumentHelp(
            "PNG resolution in dots per inch (\(LabelOptions.dpiRange.lowerBound)–\(LabelOptions.dpiRange.upperBound)).",
            valueName: "dpi"))
    var dpi = 300

    @Option(help: ArgumentHelp("QR error correction: L, M, Q or H.", valueName: "level"))
    var ecc: QRErrorCorrection = .medium

    @Flag(help: "Add a Code 128 barcode of the stop code.")
    var barcode = false

    /// The kiosk's config: its [labels] url_template and feed_id (and database) unless given here.
    @OptionGroup var configOption: ConfigOption

    @Option(
        help: ArgumentHelp(
            "Stop URL template with {stop_code} or {stop_id} (default \(KioskConfig().urlTemplate)).",
            valueName: "template"))
    var template: String?

    @Option(
        name: .customLong("feed-id"),
        help: ArgumentHelp("Feed ID signatures name (default: the database's).", valueName: "id"))
    var feedID: String?

    @Option(
        name: .customLong("sign-key"),
        help: ArgumentHelp("Private key file (from 'kiosk keys generate') to sign the URLs with.", valueName: "file"))
    var signKey: String?

    @Flag(
        help: "A proof copy, marked on every label as not for posting: allowed with the placeholder address.")
    var proof = false

    @Flag(name: .customLong("print"), help: "Send the PDF to CUPS (lp).")
    var sendToPrinter = false

    @Option(help: ArgumentHelp("CUPS printer (default: the system default).", valueName: "name"))
    var printer: String?

    @Flag(help: "Print a JSON summary (files, pages, and every label's stop, code and payload) instead of text.")
    var json = false

    func validate() throws {
        let chosen = [!stops.isEmpty, route != nil, all].filter { $0 }.count
        guard chosen == 1 else {
            throw ValidationError("choose the stops with exactly one of --stops ID…, --route ID, --all")
        }
        if onlyFeed != nil && !all { throw ValidationError("--feed chooses the stops of --all; give --all too") }
        guard LabelLayout.named(layout) != nil else {
            throw ValidationError(
                "unknown --layout '\(TerminalText.sanitize(layout, maxLength: 40))'; use one of: \(LabelLayout.all.map(\.name).joined(separator: ", "))"
            )
        }
        guard LabelOptions.dpiRange.contains(dpi) else {
            throw ValidationError(
                "--dpi must be between \(LabelOptions.dpiRange.lowerBound) and \(LabelOptions.dpiRange.upperBound) (got \(dpi))"
            )
        }
        if out == nil && !sendToPrinter {
            throw ValidationError("--out PATH is required (it may be left out only with --print)")
        }
        if printer != nil && !sendToPrinter { throw ValidationError("--printer needs --print") }
        if out == OutputDestination.standardOutputName {
            if sendToPrinter {
                throw ValidationError("--print sends the PDF to CUPS; leave out --out, or give a file to keep a copy")
            }
            if json {
                throw ValidationError("--json prints the summary on standard output, where --out - sends the labels")
            }
        }
        if let printer,
            printer.isEmpty || printer.hasPrefix("-")
                || printer.unicodeScalars.contains(where: {
                    $0.value < 0x21 || $0.value == 0x7F || $0 == "/" || $0 == "#"
                })
        {
            throw ValidationError(
                "--printer '\(TerminalText.sanitize(printer, maxLength: 40))' is not a CUPS printer name")
        }
        if sendToPrinter, resolvedFormat != .pdf {
            throw ValidationError("--print sends PDF only; use --format pdf (or leave --format out)")
        }
    }

    /// --format, else the extension of --out, else PDF.
    var resolvedFormat: LabelFormat {
        if let format { return format }
        if let out, let dot = out.lastIndex(of: "."),
            let guessed = LabelFormat(rawValue: out[out.index(after: dot)...].lowercased())
        {
            return guessed
        }
        return .pdf
    }

    func run() throws {
        let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "labels")
        defer { signals.cancel() }
        // Check what costs nothing before opening the database: printing needs CUPS.
        var lp: String?
        if sendToPrinter {
            guard let found = Self.which("lp") else {
                printError(
                    "error: cannot print: CUPS is not installed (no 'lp' on PATH). Install the CUPS client (e.g. apt install cups-client) or write the PDF with --out and print it from another machine. Nothing was written."
                )
                throw ExitCode(ExitStatus.failure)
            }
            lp = found
        }
        if let out { try resolvedFormat.checkOutput(out, chosen: format != nil) }
        try reportingLabelErrors {
            let settings = try configOption.load()
            let urlTemplate = try StopURLTemplate(template ?? settings.urlTemplate)
            try PlaceholderAddress.check(urlTemplate, proof: proof)
            let signingKey = try signKey.map(Self.loadSigningKey)
            let routes = try database.open(config: settings)
            let feed = feedID ?? settings.feedID ?? routes.feedID
            guard !feed.isEmpty, !feed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw CommandInputError.badInput("--feed-id must be non-empty text without control characters")
            }

            let records: [LabelStopRecord]
            if !stops.isEmpty {
                records = try routes.labelStops(ids: stops)
            } else if let route {
                records = try routes.labelStops(route: route)
            } else {
                records = try routes.allLabelStops(feed: onlyFeed)
            }
            let labelStops = records.map(Self.labelStop)

            // With --print and no --out, the PDF lives in a private temporary directory until lp has it; with --out -,
            // the document waits in one until every label has read back.
            var temporaryDirectory: String?
            defer { if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) } }
            var staging: StandardOutputStaging?
            let output: String
            if let out, out == OutputDestination.standardOutputName {
                let folder = try OutputFile.staging()
                staging = folder
                output = folder.path(named: "labels.\(resolvedFormat.rawValue)")
            } else if let out {
                output = out
            } else {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "kiosk-labels-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                ).path
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                temporaryDirectory = directory
                output = directory + "/labels.pdf"
            }

            let options = LabelOptions(
                layout: LabelLayout.named(layout)!, format: resolvedFormat, dpi: dpi, errorCorrection: ecc,
                barcode: barcode, title: "StopKiosk · \(feed)", proof: proof)
            let renderer = LabelRenderer(options: options)
            let progress = progressOption.line()
            if progress.isActive { renderer.progress = { progress.update($0) } }
            defer { progress.finish() }
            let run = try renderer.run(
                stops: labelStops,
                payloads: LabelPayloadBuilder(template: urlTemplate, feedID: feed, signingKey: signingKey),
                output: output)
            for warning in run.warnings.prefix(20) { printError("warning: \(warning)") }
            if run.warnings.count > 20 { printError("warning: … and \(run.warnings.count - 20) more") }
            if let staging {
                try resolvedFormat.emit(run.files, from: staging, what: "labels")
            }

            if json {
                print(
                    try Self.summaryJSON(
                        run, template: urlTemplate, feedID: feed, signingKey: signingKey, layout: options.layout,
                        format: options.format, printed: sendToPrinter, keepFiles: out != nil, proof: proof))
            } else {
                let signed = signingKey.map { ", signed with key \($0.keyID)" } ?? ", unsigned"
                var files = ""
                if staging != nil {
                    files = " to standard output"
                } else if out != nil {
                    files = " to " + run.files.map { TerminalText.sanitize($0, maxLength: 200) }.joined(separator: ", ")
                }
                // With --out - the document holds standard output; the summary goes beside the errors.
                let toStandardError = staging != nil
                func say(_ line: String) { if toStandardError { printError(line) } else { print(line) } }
                say(
                    "Wrote \(run.labels.count) label\(run.labels.count == 1 ? "" : "s") on \(run.pages) page\(run.pages == 1 ? "" : "s") (\(options.layout.name), \(options.format.rawValue))\(files)"
                )
                say(
                    "Payload: \(urlTemplate.pattern) for feed \(TerminalText.sanitize(feed, maxLength: 80))\(signed); every label read back with zbar"
                )
                if proof {
                    let placeholder = PlaceholderAddress.host(of: urlTemplate) != nil
                    say("A proof copy: every label says \"\(ProofMark.text(placeholder: placeholder, .en))\"")
                }
            }
            if let lp { try Self.sendToCUPS(lp: lp, file: output, printer: printer, copyKept: out != nil) }
        }
    }

    // MARK: - Pieces

    static func labelStop(_ record: LabelStopRecord) -> LabelStop {
        LabelStop(
            id: record.stop.id, code: record.stop.code, name: record.stop.name,
            routes: record.routes.map {
                LabelRoute(name: $0.label, color: RGBColor(hex: $0.color), textColor: RGBColor(hex: $0.textColor))
            },
            agencies: record.agencies)
    }

    /// Loads the private key; a file others can read is a warning (the key is already exposed, and refusing
    /// would not un-expose it), a missing or malformed file an error.
    static func loadSigningKey(_ path: String) throws -> KeyPair {
        do {
            let loaded = try KeyFile.loadPrivateKey(from: path)
            if let warning = loaded.permissionWarning {
                printError("warning: \(TerminalText.sanitize(warning, maxLength: 300))")
            }
            return loaded.keyPair
        } catch {
            throw CommandInputError.badInput("--sign-key: \(TerminalText.sanitize(error.description, maxLength: 300))")
        }
    }

    static func sendToCUPS(lp: String, file: String, printer: String?, copyKept: Bool) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lp)
        process.arguments = (printer.map { ["-d", $0] } ?? []) + ["-t", "StopKiosk labels", "--", file]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            printError("error: cannot run \(lp): \(error.localizedDescription)")
            throw ExitCode(ExitStatus.failure)
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            printError(
                "error: lp failed (status \(process.terminationStatus)): \(TerminalText.sanitize(message, maxLength: 400))"
                    + (copyKept ? " The PDF was written; print it by hand." : ""))
            throw ExitCode(ExitStatus.failure)
        }
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        where !directory.isEmpty {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func summaryJSON(
        _ run: LabelRun, template: StopURLTemplate, feedID: String, signingKey: KeyPair?, layout: LabelLayout,
        format: LabelFormat, printed: Bool, keepFiles: Bool, proof: Bool
    ) throws -> String {
        struct Label: Encodable {
            var stopId: String, stopCode: String?, value: String, payload: String, page: Int, file: String?,
                qrVersion: Int, moduleMm: Double
        }
        struct Summary: Encodable {
            var files: [String], pages: Int, layout: String, format: String, template: String, feedId: String,
                keyId: String?
            var printed: Bool, proof: Bool, labels: [Label], warnings: [String]
        }
        let summary = Summary(
            files: keepFiles ? run.files : [], pages: run.pages, layout: layout.name, format: format.rawValue,
            template: template.pattern,
            feedId: feedID, keyId: signingKey?.keyID, printed: printed, proof: proof,
            labels: run.labels.map {
                Label(
                    stopId: $0.stopID, stopCode: $0.stopCode, value: $0.value, payload: $0.payload, page: $0.page,
                    file: keepFiles ? $0.file : nil, qrVersion: $0.qrVersion,
                    moduleMm: ($0.moduleMM * 100).rounded() / 100)
            },
            warnings: run.warnings.map(\.description))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }
}

extension LabelFormat: ExpressibleByArgument {}

extension LabelFormat {
    /// The format as a message names it: "a PDF".
    var named: String {
        switch self {
        case .pdf: return "a PDF"
        case .svg: return "an SVG"
        case .png: return "a PNG"
        }
    }

    /// Checks `--out` for a document in this format (`chosen`: by --format, else by the extension or the PDF
    /// default) before any work; see `OutputFile`. `-` is standard output, never a terminal for PDF or PNG.
    func checkOutput(_ path: String, chosen: Bool) throws {
        try OutputFile.check(
            path, option: "--out", format: named, extensions: [rawValue],
            standardOutput: .allowed(binary: self != .svg),
            hint: chosen
                ? " (--format \(rawValue))"
                : " (the extension chooses the format: "
                    + LabelFormat.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ") + ")")
    }

    /// Copies a document drawn into `staging` to standard output (`--out -`); a document of several files (SVG or
    /// PNG pages) is refused, nothing written.
    func emit(_ files: [String], from staging: StandardOutputStaging, what: String) throws {
        guard files.count == 1 else {
            printError(
                "error: --out -: the \(what) fill \(files.count) pages, and \(named) holds one page per file; standard "
                    + "output takes one file: use --format pdf, or --out NAME.\(rawValue) for NAME-01.\(rawValue)…; "
                    + "nothing was written")
            throw ExitCode(ExitStatus.badInput)
        }
        do {
            try staging.emit(files[0])
        } catch {
            throw OutputFile.failure(error, option: "--out")
        }
    }
}

extension QRErrorCorrection: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}

/// Bad input to a command (`kiosk labels`, `keys`, `timetable`) found after parsing: exit 2 with the message.
enum CommandInputError: Error, CustomStringConvertible {
    case badInput(String)
    var description: String {
        switch self {
        case .badInput(let message): return message
        }
    }
}

/// Label and key failures are bad input (exit 2) with a message naming the cause; lookup errors as for
/// every command.
func reportingLabelErrors(_ body: () throws -> Void) throws {
    do {
        try reportingLookupErrors(body)
    } catch let error as LabelError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as LabelSelectionError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as StopURLTemplate.TemplateError {
        printError("error: --template: \(TerminalText.sanitize(error.description, maxLength: 300))")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as CommandInputError {
        printError("error: \(error)")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as CocoaError {
        printError("error: \(error.localizedDescription)")
        throw ExitCode(ExitStatus.failure)
    }
}
