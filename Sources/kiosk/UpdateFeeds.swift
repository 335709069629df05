import ArgumentParser
import Crypto
import Foundation
import KioskConfiguration
import Realtime
import SystemSupport
import TransitModel
import TransitStore

/// `kiosk update` for a database of several feeds (`[[update.feeds]]`): each feed is downloaded and checked on
/// its own, its last good copy kept beside the database (`DB.feed.ID.zip`), and the database is rebuilt from
/// every feed's good copy only when one of them changed. One operator's broken download leaves that feed at its
/// last good copy and does not stop the others' updates.
struct FeedSetUpdate {
    var feeds: [UpdateFeedSource]
    var database: String
    var transfers: String?
    var interchanges: String?
    var force: Bool
    var timeout: Int
    var progress: ProgressLine

    /// What became of one feed in this run.
    enum Result: Equatable {
        case updated(bytes: Int)
        case unchanged(why: String)
        /// The download or the feed was refused; `keptSince` is when the good copy in use was downloaded
        /// (nil: there is none yet).
        case failed(reason: String, refused: Bool, keptSince: String?)
    }

    static func goodCopyPath(database: String, id: String) -> String { "\(database).feed.\(id).zip" }
    static func statePath(database: String) -> String { database + ".feeds.json" }

    func run() throws {
        let statePath = Self.statePath(database: database)
        var state = FeedSetState.load(statePath) ?? FeedSetState()
        var results: [(feed: UpdateFeedSource, result: Result)] = []
        for feed in feeds {
            let result = update(feed, state: &state)
            results.append((feed, result))
            do {
                try state.save(to: statePath)
            } catch {
                printError("warning: cannot remember the feeds' state in \(statePath): \(error)")
            }
        }
        progress.finish()
        for (feed, result) in results {
            let url = TerminalText.sanitize(feed.url)
            switch result {
            case let .updated(bytes): print("\(feed.id): updated (\(bytes) bytes from \(url))")
            case let .unchanged(why): print("\(feed.id): unchanged (\(url) \(why))")
            case let .failed(reason, _, since):
                let kept = since.map { "kept the last good copy since \($0)" } ?? "no good copy of it yet"
                print("\(feed.id): failed (\(kept))")
                printError("error: feed \(feed.id) (\(url)): \(reason)")
            }
        }
        let anyFailed = results.contains { if case .failed = $0.result { true } else { false } }
        let missing = feeds.filter {
            !FileManager.default.fileExists(atPath: Self.goodCopyPath(database: database, id: $0.id))
        }
        guard missing.isEmpty else {
            printError(
                "error: cannot build \(database) without a good copy of \(missing.map(\.id).joined(separator: ", ")); the database was not changed."
            )
            throw ExitCode(ExitStatus.failure)
        }
        let current = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id, state.feeds[$0.id]?.sha256 ?? "") })
        func regionFileHash(_ path: String?, _ what: String) throws -> String? {
            try path.map { path in
                do {
                    return Self.hash(Data(try BoundedFile.read(path, limit: 256 << 20)))
                } catch {
                    printError("error: cannot read the region's \(what) file \(path): \(error)")
                    printError("The database at \(database) was not changed.")
                    throw ExitCode(ExitStatus.badInput)
                }
            }
        }
        // Both region files in one remembered hash; the transfers file alone keeps its own hash, as before.
        let regionHashes = try [
            regionFileHash(transfers, "transfers"), regionFileHash(interchanges, "interchanges").map { "i" + $0 },
        ].compactMap { $0 }
        let transfersHash = regionHashes.isEmpty ? nil : regionHashes.joined(separator: " ")
        let unchanged =
            FileManager.default.fileExists(atPath: database) && state.built == current
            && state.builtTransfers == transfersHash
        if unchanged && !force {
            print("No feed changed: \(database) unchanged.")
            if anyFailed { throw ExitCode(ExitStatus.failure) }
            return
        }
        var importer = GTFSImporter(
            feeds: feeds.map { FeedInput(id: $0.id, path: Self.goodCopyPath(database: database, id: $0.id)) },
            databasePath: database)
        importer.regionTransfers = transfers
        importer.regionInterchanges = interchanges
        do {
            let summary = try ImportCommand.importShowingProgress(importer, on: progress)
            print("Rebuilt \(database) from \(feeds.count) feeds.")
            print(ImportReport.text(summary))
        } catch let error as ImportError {
            printError("error: the feeds together were refused: \(error)")
            printError("The database at \(database) was not changed.")
            if case .writeFailed = error { throw ExitCode(ExitStatus.failure) }
            throw ExitCode(ExitStatus.badInput)
        }
        state.built = current
        state.builtTransfers = transfersHash
        do {
            try state.save(to: statePath)
        } catch {
            // The import stands; the next update just rebuilds once more.
            printError("warning: cannot remember the feeds' state in \(statePath): \(error)")
        }
        if anyFailed { throw ExitCode(ExitStatus.failure) }
    }

    /// Downloads one feed, checks it alone, and makes it the feed's good copy when it is new and imports.
    func update(_ feed: UpdateFeedSource, state: inout FeedSetState) -> Result {
        let goodCopy = Self.goodCopyPath(database: database, id: feed.id)
        let hasCopy = FileManager.default.fileExists(atPath: goodCopy)
        let known = hasCopy ? state.feeds[feed.id] : nil
        let keptSince = known?.since
        TemporaryFiles.removeAbandoned(besides: goodCopy, purpose: "download")
        let download = TemporaryFiles.path(besides: goodCopy, purpose: "download")
        TemporaryFiles.register(download)
        defer {
            unlink(download)
            TemporaryFiles.unregister(download)
        }
        let progress = self.progress
        let downloadProgress = UpdateCommand.downloadProgress(on: progress)
        let previous = force ? nil : known?.validators
        let outcome: StaticFeedDownload.Outcome
        do {
            let (url, headers, timeout) = (feed.url, feed.headers, self.timeout)
            outcome = try UpdateCommand.blocking {
                () async throws(StaticFeedDownloadError) -> StaticFeedDownload.Outcome in
                try await StaticFeedDownload.fetch(
                    url: url, headers: headers, previous: previous, to: download, timeoutSeconds: timeout,
                    progress: downloadProgress)
            }
        } catch {
            return .failed(reason: "\(error)", refused: false, keptSince: keptSince)
        }
        guard case let .downloaded(bytes, validators) = outcome else {
            return .unchanged(why: "has not changed since the last update")
        }
        let hash: String
        do {
            hash = try Self.hashFile(download)
        } catch {
            return .failed(
                reason: "cannot read the download \(download): \(error)", refused: false, keptSince: keptSince)
        }
        if let known, known.sha256 == hash {
            state.feeds[feed.id]?.validators = validators
            return .unchanged(why: "sent the same feed again")
        }
        // The feed must import on its own before it may replace the good copy (nothing is written: the check
        // stops before the staging database would be renamed).
        var check = GTFSImporter(
            feedPath: download, databasePath: TemporaryFiles.path(besides: database, purpose: "check"))
        check.beforeCommit = { _ in throw CheckedOnly() }
        do {
            _ = try check.run()
        } catch is CheckedOnly {
        } catch {
            return .failed(reason: "the feed was refused: \(error)", refused: true, keptSince: keptSince)
        }
        do {
            try AtomicFile.replace(goodCopy, with: download)
        } catch {
            return .failed(
                reason: "cannot keep the feed at \(goodCopy): \(error)", refused: false, keptSince: keptSince)
        }
        state.feeds[feed.id] = FeedSetState.Feed(
            validators: validators, sha256: hash, since: Self.timestamp(Date()))
        return .updated(bytes: bytes)
    }

    private struct CheckedOnly: Error {}

    static func hash(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    static func hashFile(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// What `kiosk update` remembers of a database of several feeds (`DB.feeds.json`): each feed's good copy (the
/// server's validators, its hash, when it was downloaded) and the hashes the database was last built from.
struct FeedSetState: Codable, Equatable {
    struct Feed: Codable, Equatable {
        var validators: StaticFeedDownload.Validators
        var sha256: String
        var since: String
    }

    var feeds: [String: Feed] = [:]
    var built: [String: String]?
    /// The region files' hashes: the transfers file's, then the interchanges file's marked `i`.
    var builtTransfers: String?

    static func load(_ path: String) -> FeedSetState? {
        guard let bytes = try? BoundedFile.read(path, limit: 1 << 20) else { return nil }
        return try? JSONDecoder().decode(FeedSetState.self, from: Data(bytes))
    }

    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(self)), to: path, purpose: "update")
    }
}
