import ArgumentParser
import Foundation
import KioskConfiguration
import Realtime
import SystemSupport
import TransitStore

/// `kiosk update`: fetch the agency's static GTFS feed and import it atomically, keeping the previous database on
/// any failure.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download the configured static GTFS feed and import it, if it changed.",
        discussion: """
            Fetches [update] gtfs_url (or --url) with a conditional GET: the ETag and Last-Modified of the last \
            successful update are kept beside the database (DB.update.json), and a "304 Not Modified" ends here \
            with nothing changed. A new feed is downloaded to a temporary file beside the database, imported \
            atomically ('kiosk import'), and only then are the validators remembered. On any failure — the server \
            down or answering an error, the download cut, a file that is not a zip, a feed that does not validate — \
            the previous database stays exactly as it was and the message says why. On a terminal a progress line \
            (download, then import) is redrawn on standard error; --progress lines prints machine-readable lines.
            Exit codes: 0 updated or not modified, 1 download failure (network, server, disk), 2 bad usage or a \
            feed that is refused.

            A database of several feeds ([[update.feeds]], each with id and url, and [update] transfers and \
            interchanges for the region's files, as 'kiosk import ID=PATH … --transfers FILE --interchanges FILE' \
            takes them): each feed is \
            downloaded and checked on its own (it must import alone), and its last good copy is kept beside the \
            database (DB.feed.ID.zip; state in DB.feeds.json). The database is rebuilt from every feed's good copy \
            only when one of them changed (by content hash); a feed whose download fails or that is refused is \
            reported and its last good copy used, so the others still update. Each feed's line says updated, \
            unchanged or failed (kept the last good copy since …); the exit code is 1 when a feed failed, 2 when \
            the feeds together are refused (the previous database stays). --url updates one feed as above.
            """
    )

    @OptionGroup var configOption: ConfigOption

    @Option(help: ArgumentHelp("The GTFS zip URL (default: the config's [update] gtfs_url).", valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp("The route database to replace (default: the config's [database] path).", valueName: "path"))
    var db: String?

    @Flag(help: "Download even if the server says the feed has not changed (no conditional GET).")
    var force = false

    @Option(help: ArgumentHelp("Seconds the whole download may take (10–7200).", valueName: "seconds"))
    var timeout = 600

    @Flag(name: .shortAndLong, help: "Log progress to standard error.")
    var verbose = false

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        guard (10...7200).contains(timeout) else {
            throw ValidationError("--timeout must be between 10 and 7200 seconds (got \(timeout))")
        }
        if let url, !KioskConfigFile.isHTTPURL(url) {
            throw ValidationError("--url must be an http:// or https:// URL (got '\(url.prefix(80))')")
        }
    }

    func run() throws {
        bootstrapLogging(verbose: verbose)
        let config = try configOption.load()
        guard let database = db ?? config.databasePath else {
            printError("error: no database to update: set [database] path in the config or give --db")
            throw ExitCode(ExitStatus.badInput)
        }
        if url == nil, !config.updateFeeds.isEmpty {
            let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "update")
            defer { signals.cancel() }
            try FeedSetUpdate(
                feeds: config.updateFeeds, database: database, transfers: config.updateTransfers,
                interchanges: config.updateInterchanges, force: force,
                timeout: timeout, progress: progressOption.line()
            ).run()
            return
        }
        guard let source = url ?? config.updateURL else {
            printError("error: no GTFS URL: set [update] gtfs_url (or [[update.feeds]]) in the config or give --url")
            throw ExitCode(ExitStatus.badInput)
        }
        let statePath = database + ".update.json"
        let previous =
            force || !FileManager.default.fileExists(atPath: database) ? nil : UpdateState.load(statePath)

        let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "update")
        defer { signals.cancel() }
        TemporaryFiles.removeAbandoned(besides: database, purpose: "download")
        let download = TemporaryFiles.path(besides: database, purpose: "download")
        TemporaryFiles.register(download)
        defer {
            unlink(download)
            TemporaryFiles.unregister(download)
        }

        // One progress display for the download (bytes, of the announced size) and then the import (rows).
        let progress = progressOption.line()
        let downloadProgress = UpdateCommand.downloadProgress(on: progress)
        let outcome: StaticFeedDownload.Outcome
        do {
            outcome = try Self.blocking { () async throws(StaticFeedDownloadError) -> StaticFeedDownload.Outcome in
                try await StaticFeedDownload.fetch(
                    url: source, headers: config.updateHeaders, previous: previous, to: download,
                    timeoutSeconds: timeout, progress: downloadProgress)
            }
        } catch {
            progress.finish()
            printError("error: \(error)")
            printError("The database at \(database) was not changed.")
            throw ExitCode(ExitStatus.failure)
        }
        guard case let .downloaded(bytes, validators) = outcome else {
            progress.finish()
            print("\(source) has not changed since the last update: \(database) unchanged.")
            return
        }
        do {
            let summary = try ImportCommand.importShowingProgress(
                GTFSImporter(feedPath: download, databasePath: database), on: progress)
            print("Downloaded \(bytes) bytes from \(source)")
            print(ImportReport.text(summary))
        } catch let error as ImportError {
            printError("error: the feed downloaded from \(source) was refused: \(error)")
            printError("The database at \(database) was not changed.")
            if case .writeFailed = error { throw ExitCode(ExitStatus.failure) }
            throw ExitCode(ExitStatus.badInput)
        }
        do {
            try UpdateState.save(validators, to: statePath)
        } catch {
            // The import stands; the next update just downloads the feed once more.
            printError("warning: cannot remember the feed's validators in \(statePath): \(error)")
        }
    }

    /// Runs the download from this synchronous command (it has nothing else to do meanwhile).
    static func blocking(
        _ body: @escaping @Sendable () async throws(StaticFeedDownloadError) -> StaticFeedDownload.Outcome
    ) throws(StaticFeedDownloadError) -> StaticFeedDownload.Outcome {
        let box = DownloadBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(StaticFeedDownloadError) { box.result = .success(try await body()) } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// Hands the download's result from its task to the waiting command (written once, read after the semaphore).
private final class DownloadBox: @unchecked Sendable {
    var result: Result<StaticFeedDownload.Outcome, StaticFeedDownloadError>?
}

/// The validators of the last successful update, in a small JSON file beside the database.
enum UpdateState {
    static func load(_ path: String) -> StaticFeedDownload.Validators? {
        guard let bytes = try? BoundedFile.read(path, limit: 64 << 10) else { return nil }
        return try? JSONDecoder().decode(StaticFeedDownload.Validators.self, from: Data(bytes))
    }

    static func save(_ validators: StaticFeedDownload.Validators, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(validators)), to: path, purpose: "update")
    }
}

extension UpdateCommand {
    /// A download's bytes (of the announced size) on `progress`; nil when it shows nothing.
    static func downloadProgress(on progress: ProgressLine) -> (@Sendable (Int, Int?) -> Void)? {
        guard progress.isActive else { return nil }
        return { @Sendable received, expected in
            progress.update(
                ProgressUpdate(
                    stage: "download", done: received, unit: "bytes", workDone: Int64(received),
                    workTotal: Int64(expected ?? 0)))
        }
    }
}
