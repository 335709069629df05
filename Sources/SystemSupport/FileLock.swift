#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive advisory lock (`flock`) for processes that read a file, change it and replace it atomically:
/// held across all three, so each writer reads what the previous one wrote and no change is lost.
///
/// The lock is taken on a lock file beside the data file (`PATH.lock`), never on the data file itself: an
/// atomic replace puts a new inode at the path, and a lock on the old one would exclude nobody. The lock file is
/// left in place (removing it would let two writers lock two different files). The kernel releases the lock
/// when its descriptor closes, so a writer killed outright never leaves it held.
public enum FileLock {
    /// The lock file for `path`.
    public static func lockPath(for path: String) -> String { path + ".lock" }

    /// Runs `body` while holding the exclusive lock for `path`, waiting for another holder to finish first.
    public static func withExclusiveLock<T>(beside path: String, _ body: () throws -> T) throws -> T {
        let lockPath = lockPath(for: path)
        var descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o666)
        if descriptor < 0, errno == EACCES {
            // Someone else's lock file we may not write: a shared-mode descriptor locks just as well.
            descriptor = open(lockPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            let code = errno
            throw FileError(
                path: code == ENOENT ? TemporaryFiles.split(path).folder : lockPath, operation: .writing,
                problem: code == ELOOP ? .notARegularFile(kind: "symbolic link") : .errno(code))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileError.current(lockPath, .writing) }
        }
        return try body()
    }
}
