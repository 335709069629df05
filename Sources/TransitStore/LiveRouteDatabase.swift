import Dispatch
import Foundation
import Synchronization

/// The route database at a path, reopened when `kiosk import` replaces the file, and only once the new file has
/// passed its check.
///
/// `kiosk import` writes a new file and renames it over the old one, so the path's device and inode change while
/// readers that still hold the old file keep reading it, unchanged, until they let go. `current()` hands out the
/// open `RouteDatabase`; at most every `checkInterval` it `stat`s the path (about a microsecond), and when the
/// file there is a different one it checks it — opens it, runs `RouteDatabase.verify` (`PRAGMA quick_check` and
/// the import's own marks: seconds for a big feed) — on a thread of its own, and hands the new database out once
/// it passed. Meanwhile, and for good if it fails, every caller keeps getting the previous database at once: no
/// request waits for a check. A caller that takes one database per request and uses only it never mixes old and
/// new data in one answer; the old database closes when the last request holding it finishes.
///
/// A replacement that cannot be opened or fails its check (not a route database, a wrong schema, a corrupted
/// copy, an unfinished import) is reported once through `onEvent` (`reloadFailed`, naming the path and SQLite's
/// first complaint) and not used; it is tried again when the file changes again. The database first opened is
/// checked the same way in the background, and a database in service that fails a read — or fails that first
/// check — is reported once (`failing`) and in `health`.
public final class LiveRouteDatabase: Sendable {
    /// What happened to the file: for logs and metrics.
    public enum Event: Sendable, Equatable {
        /// A new file was opened and is now in service (`generation` counts swaps, 0 the first open).
        case opened(path: String, feedHash: String, generation: Int)
        /// The file changed but could not be opened or failed its check; the previous database stays in service.
        /// Once per file (device, inode, size, modification time).
        case reloadFailed(path: String, reason: String)
        /// The database in service failed a read or its check: its answers fail until a good import replaces it.
        /// Once per database.
        case failing(path: String, reason: String)
    }

    /// How the database in service is doing, for `/health` and `/metrics`.
    public struct Health: Sendable, Equatable {
        /// Failed reads of the database in service (its check failing counts as one); 0 while it is healthy.
        public var readFailures: Int
        /// SQLite's first complaint about the database in service; nil while it is healthy.
        public var firstError: String?
        /// Failed reads of every database served since this object was made, as a counter: the database in
        /// service's plus those of the ones it replaced, as they stood when they were replaced.
        public var totalReadFailures: Int
        /// Why the file now at the path was refused (nil: it is the one in service, or none was refused).
        public var refusedReplacement: String?

        public var isHealthy: Bool { readFailures == 0 }
    }

    public let path: String
    /// Longest time between two checks of the path; 0 checks on every call.
    public let checkInterval: Duration
    private let onEvent: @Sendable (Event) -> Void
    private let state: Mutex<State>
    /// Where replacements are opened and checked, one at a time, off the callers' threads.
    private let checks = DispatchQueue(label: "stopkiosk.route-database-check", qos: .utility)

    private struct State {
        var database: RouteDatabase
        var identity: FileIdentity?
        var lastCheck: ContinuousClock.Instant
        /// A replacement is being checked on `checks`: callers do not queue another.
        var checking = false
        var generation = 0
        /// The identity of a replacement that was refused, so it is not retried (nor logged) on every check.
        var failedIdentity: FileIdentity?
        var refusedReason: String?
        /// Failed reads of the databases replaced so far.
        var retiredReadFailures = 0
    }

    /// Opens the database at `path` now (throwing `LookupError` as `RouteDatabase(path:)` does) and checks it in
    /// the background (a failed check makes `health` report it).
    public init(
        path: String, checkInterval: Duration = .milliseconds(500),
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws {
        self.path = path
        self.checkInterval = checkInterval
        self.onEvent = onEvent
        let identity = FileIdentity(path: path)
        let database = try RouteDatabase(path: path)
        state = Mutex(State(database: database, identity: identity, lastCheck: .now))
        watch(database)
        onEvent(.opened(path: path, feedHash: database.feedHash, generation: 0))
        // Requests are served meanwhile: the check reads through a connection of its own.
        checks.async { [self] in
            do {
                try database.verify(separateConnection: true)
            } catch {
                // Only if the file checked is still the one in service (not replaced in between).
                if FileIdentity(path: path) == identity, state.withLock({ $0.database }) === database {
                    database.readHealth.record(Self.reason(error))
                }
            }
        }
    }

    /// How many times a replacement was put in service.
    public var generation: Int { state.withLock { $0.generation } }

    /// How the database in service is doing.
    public var health: Health {
        state.withLock { state in
            let failures = state.database.readHealth.failures
            return Health(
                readFailures: failures, firstError: state.database.readHealth.firstError,
                totalReadFailures: state.retiredReadFailures + failures, refusedReplacement: state.refusedReason)
        }
    }

    /// The database in service, after checking the path if `checkInterval` has passed since the last check. A
    /// replacement found there is checked in the background; this call never waits for it.
    public func current() -> RouteDatabase {
        let now = ContinuousClock.now
        let (database, mustCheck): (RouteDatabase, Bool) = state.withLock { state in
            guard !state.checking, now - state.lastCheck >= checkInterval else { return (state.database, false) }
            state.checking = true
            state.lastCheck = now
            return (state.database, true)
        }
        guard mustCheck else { return database }
        guard isReplacement(FileIdentity(path: path)) else {
            state.withLock { $0.checking = false }
            return database
        }
        checks.async { [self] in
            reloadIfReplaced()
            state.withLock { $0.checking = false }
        }
        return database
    }

    /// Checks the path now, whatever the interval, waiting for a check under way and for the check of a
    /// replacement, and returns the database in service afterwards.
    @discardableResult
    public func checkNow() -> RouteDatabase {
        checks.sync {
            state.withLock { $0.lastCheck = .now }
            reloadIfReplaced()
        }
        return state.withLock { $0.database }
    }

    /// Waits until the checks under way (of a replacement, or of the database first opened) are done.
    public func waitForChecks() {
        checks.sync {}
    }

    /// Runs `body` on the queue where replacements are checked (tests hold the checks back with it).
    func onCheckQueue(_ body: @escaping @Sendable () -> Void) {
        checks.async(execute: body)
    }

    /// Whether the file at the path is neither the one in service nor one already refused. Gone (between an
    /// unlink and a rename, or removed by hand): keep serving the open file.
    private func isReplacement(_ identity: FileIdentity?) -> Bool {
        state.withLock { state in
            guard let identity else { return false }
            if identity == state.identity {
                // Back to the file in service (a refused file moved away again).
                state.failedIdentity = nil
                state.refusedReason = nil
                return false
            }
            return identity != state.failedIdentity
        }
    }

    /// Opens and checks the file at the path if it is a replacement, and puts it in service if it passes. Runs on
    /// `checks` only.
    private func reloadIfReplaced() {
        let identity = FileIdentity(path: path)
        guard isReplacement(identity) else { return }
        do {
            let replacement = try RouteDatabase(path: path)
            // Nobody reads it yet, so the check may use its own connection.
            try replacement.verify(separateConnection: false)
            let generation = state.withLock { state in
                state.retiredReadFailures += state.database.readHealth.failures
                state.database = replacement
                state.identity = identity
                state.failedIdentity = nil
                state.refusedReason = nil
                state.generation += 1
                return state.generation
            }
            watch(replacement)
            onEvent(.opened(path: path, feedHash: replacement.feedHash, generation: generation))
        } catch {
            let reason = Self.reason(error)
            let served = state.withLock { state in
                state.failedIdentity = identity
                state.refusedReason = reason
                // The same file as the one in service, written over in place: what was refused is being served.
                return identity.map { $0.device == state.identity?.device && $0.inode == state.identity?.inode }
                    == true ? state.database : nil
            }
            served?.readHealth.record(reason)
            onEvent(.reloadFailed(path: path, reason: reason))
        }
    }

    /// Reports the database's first failed read once.
    private func watch(_ database: RouteDatabase) {
        let path = path
        let onEvent = onEvent
        database.readHealth.onFirstFailure { reason in onEvent(.failing(path: path, reason: reason)) }
    }

    private static func reason(_ error: any Error) -> String {
        if case .notARouteDatabase(_, let reason) = error as? LookupError { return reason }
        return String(describing: error)
    }
}

/// A file's device and inode (and size and modification time, for file systems that reuse inodes at once): what
/// changes when `kiosk import` replaces the database. The server (`LiveRouteDatabase`) and the terminal kiosk
/// compare it to notice a new import; nil when the file cannot be read.
public struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
