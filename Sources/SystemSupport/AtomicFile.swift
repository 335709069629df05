#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes a file so that readers see either the old file or the whole new one, never a part: the bytes go to a
/// temporary file beside the destination, which is flushed (`fsync`), renamed over the destination, and the
/// folder flushed too, every result checked. A failure or a termination signal leaves the destination as it was.
///
/// The temporary file is registered with `TemporaryFiles`, so a signal handler can remove it, and named after
/// this process, so the next writer removes it if this process was killed outright.
///
/// The destination is checked first (`OutputDestination`): only a regular file is ever replaced, never a device,
/// a FIFO or a folder, nothing is written on /proc or /sys, and a symbolic link is written through.
public final class AtomicFileWriter {
    /// The path as given, for messages.
    public let destination: String
    /// The file replaced: `destination`, or the file a symbolic link there names.
    public let target: String
    public let temporaryPath: String
    private var descriptor: Int32
    private var state = State.open
    /// Whether the mode was given exactly (a key file's 0600), so the replaced file's mode is not carried over.
    private let exactMode: Bool

    private enum State { case open, committed, discarded }

    /// Checks the destination under `rule` (`.writableByMode` for a file named on the command line) and creates
    /// the temporary file. `mode` is applied exactly (the umask does not narrow it) when `exactMode` is set, as key
    /// files need; otherwise the umask applies as for any new file. Replacing an existing file keeps that file's
    /// mode and owner.
    public init(
        destination: String, purpose: String = "write", mode: mode_t = 0o666, exactMode: Bool = false,
        rule: OutputDestination.Rule = .regularFile
    ) throws(FileError) {
        self.destination = destination
        self.exactMode = exactMode
        target = try OutputDestination.check(destination, rule: rule)
        TemporaryFiles.removeAbandoned(besides: target, purpose: purpose)
        temporaryPath = TemporaryFiles.path(besides: target, purpose: purpose)
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            throw FileError(
                path: code == ENOENT ? TemporaryFiles.split(target).folder : destination, operation: .writing,
                problem: .errno(code))
        }
        TemporaryFiles.register(temporaryPath)
        if exactMode, fchmod(descriptor, mode) != 0 {
            let error = FileError.current(destination, .writing)
            discard()
            throw error
        }
    }

    deinit { discard() }

    /// Appends `bytes`; a failed write (a full disk, `ulimit -f`) is an error naming the destination, and the
    /// temporary file is removed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard state == .open else {
            throw FileError(
                path: destination, operation: .writing, problem: .other("write after the file was abandoned"))
        }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let error = FileError.current(destination, .writing)
                discard()
                throw error
            }
            offset += written
        }
    }

    public func write(_ bytes: [UInt8]) throws(FileError) {
        let result: Result<Void, FileError> = bytes.withUnsafeBytes { raw in
            do throws(FileError) { try write(raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Flushes the file and puts it in place. With `overwrite` false an existing destination is not replaced
    /// (`link` refuses atomically) and the error says so.
    public func commit(overwrite: Bool = true) throws(FileError) {
        switch state {
        case .committed: return
        case .discarded:
            throw FileError(path: destination, operation: .writing, problem: .other("not written completely"))
        case .open: break
        }
        if overwrite { AtomicFile.copyOwnerAndMode(from: target, toDescriptor: descriptor, keepMode: !exactMode) }
        if fsync(descriptor) != 0 {
            let error = FileError.current(destination, .writing)
            discard()
            throw error
        }
        close(descriptor)
        descriptor = -1
        if overwrite {
            guard rename(temporaryPath, target) == 0 else {
                let error = FileError.current(destination, .writing)
                discard()
                throw error
            }
        } else {
            let linked = link(temporaryPath, target)
            let code = errno
            unlink(temporaryPath)
            if linked != 0 {
                state = .discarded
                TemporaryFiles.unregister(temporaryPath)
                throw FileError(
                    path: destination, operation: .writing, problem: code == EEXIST ? .alreadyExists : .errno(code))
            }
        }
        state = .committed
        TemporaryFiles.unregister(temporaryPath)
        AtomicFile.syncFolder(of: target)
    }

    /// Removes the temporary file (nothing once committed).
    public func discard() {
        guard state == .open else { return }
        state = .discarded
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }
}

/// Atomic replacement for callers that write the temporary file themselves (SQLite writes the staging database).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically (see `AtomicFileWriter`).
    public static func write(
        _ bytes: [UInt8], to path: String, purpose: String = "write", mode: mode_t = 0o666,
        exactMode: Bool = false, overwrite: Bool = true, rule: OutputDestination.Rule = .regularFile
    ) throws(FileError) {
        let writer = try AtomicFileWriter(
            destination: path, purpose: purpose, mode: mode, exactMode: exactMode, rule: rule)
        try writer.write(bytes)
        try writer.commit(overwrite: overwrite)
    }

    /// Flushes the finished file at `temporaryPath`, gives it the owner and mode of the file it replaces, renames it
    /// over `destination` and flushes the folder. On failure the temporary file is removed and the destination is
    /// unchanged.
    public static func replace(_ destination: String, with temporaryPath: String) throws(FileError) {
        do {
            _ = try OutputDestination.check(destination, rule: .regularFile)
        } catch {
            unlink(temporaryPath)
            throw error
        }
        let descriptor = open(temporaryPath, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.current(destination, .writing) }
        copyOwnerAndMode(from: destination, toDescriptor: descriptor)
        let synced = fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard synced else {
            unlink(temporaryPath)
            throw FileError(path: destination, operation: .writing, problem: .errno(code))
        }
        guard rename(temporaryPath, destination) == 0 else {
            let error = FileError.current(destination, .writing)
            unlink(temporaryPath)
            throw error
        }
        TemporaryFiles.unregister(temporaryPath)
        syncFolder(of: destination)
    }

    /// A replaced file keeps its mode, and its owner where this process may set it (root replacing a service's
    /// database must not hand the file to root).
    static func copyOwnerAndMode(from path: String, toDescriptor descriptor: Int32, keepMode: Bool = true) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        // Best effort by design: only root may give a file away, and a failure leaves this process's defaults.
        _ = fchown(descriptor, status.st_uid, status.st_gid)
        if keepMode { _ = fchmod(descriptor, status.st_mode & 0o7777) }
    }

    /// Makes a rename in the folder durable (the new directory entry reaches the disk). Its result is not an
    /// error to report: the new file is already in place and readable, only its durability across a power cut
    /// is in question, and saying "failed" would be wrong.
    static func syncFolder(of path: String) {
        let descriptor = open(TemporaryFiles.split(path).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
