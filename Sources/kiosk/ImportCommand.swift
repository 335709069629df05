import ArgumentParser
import Foundation
import Logging
import SystemSupport
import TransitModel
import TransitStore
import TripPlanning

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import one or several GTFS feeds (.zip or folder) into a route database, replacing it atomically.",
        discussion: """
            The new database is built beside PATH and renamed over it only once it is complete and checked: an \
            import that fails or is interrupted leaves the previous database as it was. shapes.txt is imported \
            (the shapes trips use, simplified to about a metre, for maps); fare files, pathways and levels are not \
            (the kiosk does not sell fares); the summary lists what was skipped.

            Several feeds (one per operator, say) make one database of a region: each feed's GTFS ids are kept in \
            its own namespace, FEEDID:ID (stop 1 of the feed metro is metro:1), so feeds whose ids collide can be \
            combined; a bare id is still accepted wherever exactly one feed has it. A feed's id is its file or \
            folder name without .zip, or is chosen with ID=PATH; it is \(FeedInput.idRule). One feed keeps its ids \
            as they are. The feeds must keep one clock: the same time zone, or zones whose UTC offsets agree over \
            the service period (another name for the same zone). Any feed refused refuses the whole import, and \
            the error names the feed. Stations of several feeds with one name within 50 m, and stops within 10 m, \
            become one interchange whose board shows every operator; a trip two feeds both publish is kept once \
            (the first feed's) and listed in the summary.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The GTFS feeds: each a .zip file or a folder of .txt files, optionally as ID=PATH.",
            valueName: "feed"))
    var feeds: [String]

    @Option(name: .long, help: "The route database to create or replace.")
    var db: String

    @Flag(
        help: ArgumentHelp(
            "Repair what has one clear repair instead of refusing the feed, and list every repair.",
            discussion:
                "Drops stop_times, frequencies and transfers rows that name an unknown stop or trip; drops a file's last record cut short (fewer fields than the header, no final newline); gives agencies that disagree on agency_timezone the zone of the agencies that run the trips; drops a broken agency row no route uses."
        ))
    var lenient = false

    @Option(
        name: .customLong("transfers"),
        help: ArgumentHelp(
            "With several feeds: a transfers.txt of the rules between them (ids as FEEDID:ID).",
            discussion:
                "Each feed's transfers.txt applies to its own stops, routes and trips. Between feeds, stops within the walking radius are linked by walks, as stops of one feed are; this file adds the rules a region knows (a change that takes longer, or is not possible), with the columns of transfers.txt.",
            valueName: "file"))
    var regionTransfers: String?

    @Option(
        name: .customLong("interchanges"),
        help: ArgumentHelp(
            "With several feeds: an interchanges.txt of places the feeds share (ids as FEEDID:ID).",
            discussion:
                "Stations and stops of several feeds with one folded name a few metres apart are one place by themselves (the stop view of either shows every operator's departures). This file makes places one that the rule does not find, named differently or further apart: a header of from_stop_id,to_stop_id, then one pair per line, each a station or a stop without a station.",
            valueName: "file"))
    var regionInterchanges: String?

    @Flag(name: .shortAndLong, help: "Log progress to standard error.")
    var verbose = false

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("give the GTFS feed to import (a .zip or a folder)") }
    }

    func run() throws {
        bootstrapLogging(verbose: verbose)
        let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "import")
        defer {
            signals.cancel()
            if verbose, let peak = PeakMemory.residentKilobytes() {
                printError("kiosk import: peak resident memory \(peak / 1024) MB")
            }
        }
        // Before any work: the database is replaced only if it is a regular file (or new), never a device or a FIFO;
        // root may replace a service account's database, so the mode bits do not decide here (see OutputDestination).
        do {
            _ = try OutputDestination.check(db, rule: .regularFile)
        } catch {
            printError("error: --db \(error); nothing was imported")
            throw ExitCode(error.isBadDestination ? ExitStatus.badInput : ExitStatus.failure)
        }
        do {
            var image: PlanningImage.Report?
            var importer = GTFSImporter(feeds: feeds.map(FeedInput.init(argument:)), databasePath: db, lenient: lenient)
            importer.regionTransfers = regionTransfers
            importer.regionInterchanges = regionInterchanges
            let summary = try Self.importShowingProgress(
                importer, on: progressOption.line()
            ) { image = $0 }
            print(ImportReport.text(summary))
            if let image { print(ImportReport.text(image)) }
        } catch let error as ImportError {
            printError("error: \(error)")
            printError("The database at \(db) was not changed.")
            // A full disk is the machine's problem, not the feed's: a runtime failure, not bad input.
            if case .writeFailed = error { throw ExitCode(ExitStatus.failure) }
            throw ExitCode(ExitStatus.badInput)
        }
    }
}

enum ImportReport {
    static func text(_ image: PlanningImage.Report) -> String {
        let megabytes = String(format: "%.1f", Double(image.bytes) / 1_048_576)
        let seconds = String(format: "%.2f", image.compileSeconds + image.writeSeconds)
        return
            "Planning timetable \(image.path): \(image.queryDays.lowerBound) to \(image.queryDays.upperBound), \(image.trips) trips, \(megabytes) MB, compiled and written in \(seconds) s"
    }

    static func text(_ summary: ImportSummary) -> String {
        var lines = [
            "Imported \(summary.feedName) into \(summary.databasePath) in \(String(format: "%.2f", summary.seconds)) s"
        ]
        let width = summary.counts.map(\.table.count).max() ?? 0
        for (table, rows) in summary.counts {
            lines.append("  \(table.padding(toLength: width, withPad: " ", startingAt: 0))  \(rows)")
        }
        if let start = summary.serviceStart, let end = summary.serviceEnd {
            lines.append("Service dates: \(start) to \(end) (\(summary.timeZone))")
        }
        if summary.feeds.count > 1 {
            lines.append("Feeds: \(summary.feeds.count)")
            for feed in summary.feeds {
                let dates = feed.serviceStart.flatMap { s in feed.serviceEnd.map { "\(s) to \($0)" } } ?? "no service dates"
                lines.append(
                    "  \(feed.id) (\(TerminalText.sanitize(feed.source))): \(feed.agencies) agencies, \(feed.stops) stops, \(feed.routes) routes, \(feed.trips) trips, \(feed.stopTimes) stop times; \(dates); \(feed.warnings) warnings; sha256 \(feed.feedHash.prefix(12))"
                )
            }
            lines.append(
                "Interchanges: \(summary.interchanges) (stations of several feeds with one name within \(Int(Interchanges.radiusMeters)) m, stops within \(Int(Interchanges.sameStopMeters)) m, shown as one place)"
            )
            if !summary.duplicateTrips.isEmpty {
                lines.append("Duplicate trips (published by two feeds; the first feed's kept): \(summary.duplicateTrips.count)")
                for pair in summary.duplicateTrips.prefix(10) {
                    lines.append("  \(TerminalText.sanitize(pair.dropped)) dropped, same as \(TerminalText.sanitize(pair.kept))")
                }
                if summary.duplicateTrips.count > 10 { lines.append("  … and \(summary.duplicateTrips.count - 10) more") }
            }
        }
        if summary.interpolatedStopTimes > 0 {
            lines.append("Interpolated times for \(summary.interpolatedStopTimes) stop times without them")
        }
        if !summary.skippedFiles.isEmpty {
            lines.append("Not imported: \(summary.skippedFiles.joined(separator: ", "))")
        }
        if summary.repairs.total > 0 {
            lines.append("Repaired (--lenient): \(summary.repairs.total)")
            for kind in summary.repairs.kinds {
                lines.append("  \(kind.count) × \(kind.message):")
                for example in kind.examples { lines.append("      \(TerminalText.sanitize(example))") }
                if kind.count > kind.examples.count {
                    lines.append("      … and \(kind.count - kind.examples.count) more")
                }
            }
        }
        if summary.warnings.total == 0 {
            lines.append("No warnings")
        } else {
            lines.append("Warnings: \(summary.warnings.total)")
            for kind in summary.warnings.kinds {
                lines.append(
                    "  \(kind.count) × \(kind.message) — e.g. \(kind.examples.map { TerminalText.sanitize($0) }.joined(separator: "; "))"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension ImportCommand {
    /// Runs `importer`, its progress on `progress` (ended either way, with the rows imported on success).
    /// The planning timetable image is written beside the database (`PlanningImage`); `imageWritten` hears what it
    /// cost.
    static func importShowingProgress(
        _ importer: GTFSImporter, on progress: ProgressLine,
        imageWritten: @escaping (PlanningImage.Report) -> Void = { _ in }
    ) throws -> ImportSummary {
        var importer = importer
        importer.writePlanningImage(done: imageWritten)
        if progress.isActive { importer.progress = { progress.update($0) } }
        let summary: ImportSummary
        do {
            summary = try importer.run()
        } catch {
            progress.finish()
            throw error
        }
        progress.finish(
            ProgressUpdate(
                stage: "done", done: summary.counts.reduce(0) { $0 + $1.rows }, unit: "rows", workDone: 1, workTotal: 1)
        )
        return summary
    }
}

/// `--progress`: a progress line on standard error while a long command works.
struct ProgressOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Progress on standard error: auto (a line redrawn in place when standard error is a terminal, else nothing), lines (machine-readable 'progress stage=… done=…' lines), off.",
            valueName: "auto|lines|off"))
    var progress: ProgressLine.Mode = .auto

    func line() -> ProgressLine { ProgressLine(mode: progress) }
}

extension ProgressLine.Mode: ExpressibleByArgument {}
