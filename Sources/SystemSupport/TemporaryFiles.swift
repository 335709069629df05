import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The temporary files this process is writing, so that a termination signal can remove them before the process
/// exits (see `ProcessSignals.removeTemporaryFilesOnTermination`). Libraries register; only executables decide
/// what a signal does.
public enum TemporaryFiles {
    private static let paths = Mutex<Set<String>>([])

    public static func register(_ path: String) {
        _ = paths.withLock { $0.insert(path) }
    }

    public static func unregister(_ path: String) {
        _ = paths.withLock { $0.remove(path) }
    }

    /// Unlinks every registered file; returns how many there were.
    @discardableResult
    public static func removeAll() -> Int {
        paths.withLock { paths in
            for path in paths { unlink(path) }
            defer { paths.removeAll() }
            return paths.count
        }
    }

    /// The name of a temporary file beside `destination`: `.NAME.PURPOSE-PID.tmp` in the same folder, so the
    /// final rename stays on one file system (and so is atomic), and a later run can tell whose it was.
    public static func path(besides destination: String, purpose: String) -> String {
        let (folder, name) = split(destination)
        return "\(folder)/.\(name).\(purpose)-\(getpid()).tmp"
    }

    /// Removes temporary files beside `destination` left by processes that no longer exist (killed outright,
    /// so they could not clean up); files of a process that is still running are left alone.
    public static func removeAbandoned(besides destination: String, purpose: String) {
        let (folder, name) = split(destination)
        let prefix = ".\(name).\(purpose)-"
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix), entryName.hasSuffix(".tmp") else { continue }
            guard let pid = pid_t(entryName.dropFirst(prefix.count).dropLast(4)) else { continue }
            if pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }  // its writer is still running
            unlink("\(folder)/\(entryName)")
        }
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
