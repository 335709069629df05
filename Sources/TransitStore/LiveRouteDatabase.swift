import Foundation
import Synchronization

/// The route database at a path, reopened when `kiosk import` replaces the file.
///
/// `kiosk import` writes a new file and renames it over the old one, so the path's device and inode change while
/// readers that still hold the old file keep reading it, unchanged, until they let go. `current()` hands out the
/// open `RouteDatabase`; at most every `checkInterval` it `stat`s the path (about a microsecond), and when the
/// file there is a different one it opens it and hands that out from then on. A caller that takes one database
/// per request and uses only it never mixes old and new data in one answer; the old database closes when the last
/// request holding it finishes.
///
/// A replacement that cannot be opened (not a route database, a wrong schema) is logged through `onEvent` and the
/// old database stays in service; it is tried again when the file changes again. While a check opens a new file,
/// other callers keep getting the old database, so a swap never stalls requests.
public final class LiveRouteDatabase: Sendable {
    /// What happened to the file: for logs and metrics.
    public enum Event: Sendable, Equatable {
        /// A new file was opened and is now in service (`generation` counts swaps, 0 the first open).
        case opened(path: String, feedHash: String, generation: Int)
        /// The file changed but could not be opened; the previous database stays in service.
        case reloadFailed(path: String, reason: String)
    }

    public let path: String
    /// Longest time between two checks of the path; 0 checks on every call.
    public let checkInterval: Duration
    private let onEvent: @Sendable (Event) -> Void
    private let state: Mutex<State>

    private struct State {
        var database: RouteDatabase
        var identity: FileIdentity?
        var lastCheck: ContinuousClock.Instant
        var checking = false
        var generation = 0
        /// The identity of a replacement that failed to open, so it is not retried on every check.
        var failedIdentity: FileIdentity?
    }

    /// Opens the database at `path` now (throwing `LookupError` as `RouteDatabase(path:)` does).
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
        onEvent(.opened(path: path, feedHash: database.feedHash, generation: 0))
    }

    /// How many times a replacement was put in service.
    public var generation: Int { state.withLock { $0.generation } }

    /// The database in service, after checking the path if `checkInterval` has passed since the last check.
    public func current() -> RouteDatabase {
        let now = ContinuousClock.now
        let (database, mustCheck): (RouteDatabase, Bool) = state.withLock { state in
            guard !state.checking, now - state.lastCheck >= checkInterval else { return (state.database, false) }
            state.checking = true
            state.lastCheck = now
            return (state.database, true)
        }
        guard mustCheck else { return database }
        return reloadIfReplaced(current: database)
    }

    /// Checks the path now, whatever the interval, and returns the database in service afterwards.
    @discardableResult
    public func checkNow() -> RouteDatabase {
        let database: RouteDatabase? = state.withLock { state in
            guard !state.checking else { return nil }
            state.checking = true
            state.lastCheck = .now
            return state.database
        }
        guard let database else { return state.withLock { $0.database } }
        return reloadIfReplaced(current: database)
    }

    private func reloadIfReplaced(current database: RouteDatabase) -> RouteDatabase {
        let identity = FileIdentity(path: path)
        let (known, failed) = state.withLock { ($0.identity, $0.failedIdentity) }
        // Gone (between an unlink and a rename, or removed by hand): keep serving the open file.
        guard let identity, identity != known, identity != failed else {
            state.withLock { $0.checking = false }
            return database
        }
        do {
            let replacement = try RouteDatabase(path: path)
            let generation = state.withLock { state in
                state.database = replacement
                state.identity = identity
                state.failedIdentity = nil
                state.generation += 1
                state.checking = false
                return state.generation
            }
            onEvent(.opened(path: path, feedHash: replacement.feedHash, generation: generation))
            return replacement
        } catch {
            state.withLock { state in
                state.failedIdentity = identity
                state.checking = false
            }
            onEvent(.reloadFailed(path: path, reason: String(describing: error)))
            return database
        }
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
