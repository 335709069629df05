import CFileLease
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A whole file mapped read-only whose bytes never change and never vanish while it is mapped, whatever another
/// process does to the file: `cp` over it, `truncate -s 0`, a shorter file written in place.
///
/// A plain mapping of a file changes with the file, and a page past a truncated end raises SIGBUS in whichever
/// thread reads it next (a server planning on the timetable image died that way). Here the mapping holds a Linux read
/// lease on the file: a process that opens the file for writing, or truncates it, waits while the kernel signals this
/// one; this process then puts a private copy of the bytes in place of the file's pages, at the same addresses, in
/// one step, and lets the writer go on. Readers on any thread see the same bytes before, during and after.
///
/// Where no lease can be taken (the file is already open for writing somewhere, or belongs to another user and the
/// process lacks CAP_LEASE, or its file system has no leases) the file is read into private memory at once, so
/// the guarantee holds either way; `protection` says which, for the logs.
///
/// A file renamed over the path (the atomic replacement every writer of this project uses) breaks no lease and
/// changes nothing here: the mapping keeps the file it opened.
public final class StableFileMapping: @unchecked Sendable {
    /// How the bytes are kept stable.
    public enum Protection: Sendable, Equatable {
        /// The file's own pages, under a read lease.
        case leased
        /// A private copy in memory: the lease was broken by a writer, or could not be taken (the reason).
        case privateCopy(reason: String)
    }

    public let path: String
    /// The file's bytes as they were when it was opened.
    public let bytes: UnsafeRawBufferPointer
    private let state: Mutex<State>
    /// Told (on the lease watcher's thread) when a writer made this mapping a private copy.
    private let onPrivateCopy: @Sendable (String) -> Void

    private struct State {
        /// Open while the lease is held.
        var descriptor: Int32
        var protection: Protection
        var dropResidentPagesAllowed: Bool
    }

    /// Maps `size` bytes of the regular file open at `descriptor` (read-only), taking ownership of the descriptor.
    /// `onPrivateCopy` receives a sentence for the log if a writer later breaks the lease.
    public init(
        descriptor: Int32, size: Int, path: String,
        onPrivateCopy: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(FileError) {
        precondition(size > 0)
        self.path = path
        self.onPrivateCopy = onPrivateCopy
        let watcher = LeaseWatcher.shared
        let leaseRefusal: String?
        if let problem = watcher.problem {
            leaseRefusal = problem
        } else if cfilelease_take_read_lease(descriptor) != 0 {
            leaseRefusal = Self.leaseRefusal(errno)
        } else {
            leaseRefusal = nil
        }
        if let leaseRefusal {
            defer { close(descriptor) }
            bytes = try Self.readPrivately(descriptor, size: size, path: path)
            state = Mutex(
                State(descriptor: -1, protection: .privateCopy(reason: leaseRefusal), dropResidentPagesAllowed: false))
            return
        }
        let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            let error = FileError.current(path, .reading)
            _ = cfilelease_release(descriptor)
            close(descriptor)
            throw error
        }
        bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        state = Mutex(State(descriptor: descriptor, protection: .leased, dropResidentPagesAllowed: true))
        watcher.watch(self)
        // A writer that came between the lease and the watch sent its signal before this mapping was watched.
        copyIfLeaseBroken()
    }

    deinit {
        LeaseWatcher.shared.unwatch(self)
        state.withLock { state in
            if state.descriptor >= 0 {
                _ = cfilelease_release(state.descriptor)
                close(state.descriptor)
            }
        }
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// How the bytes are kept stable now.
    public var protection: Protection { state.withLock { $0.protection } }

    /// Gives back the resident pages of the file's mapping (they stay in the page cache), so the process's resident
    /// size counts only what is read afterwards. Nothing once the mapping is a private copy, whose pages are its
    /// only copy.
    public func dropResidentPages() {
        state.withLock { state in
            guard state.dropResidentPagesAllowed else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, MADV_DONTNEED)
        }
    }

    /// If a writer is waiting on the lease: the private copy in place of the file's pages, then the lease let go.
    /// `signalled`: woken by the lease signal (false: by the once-a-second look, which the log then says).
    fileprivate func copyIfLeaseBroken(signalled: Bool = true) {
        let copied: String? = state.withLock { state in
            guard state.descriptor >= 0, cfilelease_is_held(state.descriptor) == 0 else { return nil }
            state.dropResidentPagesAllowed = false
            let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
            var reason =
                "another process opened it for writing or truncated it"
                + (signalled ? "" : " (seen by the once-a-second look: the lease's signal did not arrive)")
            if cfilelease_replace_with_private_copy(base, bytes.count) != 0 {
                // Without the room for a copy the file's pages stay mapped: the writer goes on after the kernel's
                // lease-break time, and this is said loudly.
                reason +=
                    "; no memory for a private copy (\(String(cString: strerror(errno)))): the mapping may now change"
            }
            _ = cfilelease_release(state.descriptor)
            close(state.descriptor)
            state.descriptor = -1
            state.protection = .privateCopy(reason: reason)
            return reason
        }
        if let copied {
            let megabytes = bytes.count / 1_048_576
            onPrivateCopy(
                "\(path): \(copied); reads go on from a private copy of the file as it was opened (\(megabytes) MB)")
        }
    }

    private static func leaseRefusal(_ code: Int32) -> String {
        switch code {
        case EAGAIN: "the file is open for writing in another process"
        case EACCES, EPERM: "it belongs to another user (a lease needs the owner or CAP_LEASE)"
        case EINVAL: "its file system has no file leases"
        default: "no file lease: \(String(cString: strerror(code)))"
        }
    }

    /// The file read into private memory (not mapped from the file: a file shrinking meanwhile is a short read, not
    /// a SIGBUS).
    private static func readPrivately(_ descriptor: Int32, size: Int, path: String) throws(FileError)
        -> UnsafeRawBufferPointer
    {
        let region = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else { throw FileError.current(path, .reading) }
        var offset = 0
        while offset < size {
            let count = pread(descriptor, region + offset, size - offset, off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error =
                    count < 0
                    ? FileError.current(path, .reading)
                    : FileError(
                        path: path, operation: .reading,
                        problem: .other("the file became shorter while it was read (\(offset) of \(size) bytes)"))
                munmap(region, size)
                throw error
            }
            offset += count
        }
        mprotect(region, size, PROT_READ)
        return UnsafeRawBufferPointer(start: region, count: size)
    }
}

/// The process's one lease-break listener: the signal handler (C) writes a byte to a pipe; a thread of its own, with
/// the lease signal unblocked so that the process always has a thread that takes it, reads the pipe and lets each
/// mapping whose lease is being broken make its copy.
private final class LeaseWatcher: Sendable {
    static let shared = LeaseWatcher()

    /// Why leases are not used in this process (nil: they are).
    let problem: String?
    private let mappings = Mappings()

    /// The watched mappings, weakly: a mapping released by its users stops being watched.
    private final class Mappings: Sendable {
        private struct Weak: @unchecked Sendable { weak var mapping: StableFileMapping? }
        private let table = Mutex<[ObjectIdentifier: Weak]>([:])

        func insert(_ mapping: StableFileMapping) {
            table.withLock { $0[ObjectIdentifier(mapping)] = Weak(mapping: mapping) }
        }

        func remove(_ mapping: StableFileMapping) {
            _ = table.withLock { $0.removeValue(forKey: ObjectIdentifier(mapping)) }
        }

        var live: [StableFileMapping] {
            table.withLock { table in
                table = table.filter { $0.value.mapping != nil }
                return table.values.compactMap(\.mapping)
            }
        }
    }

    private init() {
        let mappings = self.mappings
        var readEnd: Int32 = -1, writeEnd: Int32 = -1
        guard cfilelease_open_wake_pipe(&readEnd, &writeEnd) == 0 else {
            problem = "no pipe for lease signals: \(String(cString: strerror(errno)))"
            return
        }
        let started = DispatchSemaphore(value: 0)
        // The thread waits for the handler's byte, and looks at every lease once a second as well: a break is then
        // seen in time (the kernel waits 45 s by default) even if its signal were lost or went to a thread that
        // blocks it. A look is one fcntl per mapping.
        let thread = Thread { [readEnd] in
            ThreadName.setCurrent("file-leases")
            _ = cfilelease_unblock_in_this_thread()
            started.signal()
            var buffer = [UInt8](repeating: 0, count: 64)
            var wake = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            while true {
                let ready = poll(&wake, 1, 1_000)
                if ready < 0, errno != EINTR { return }
                if ready > 0 {
                    // Drain what the handler wrote (the read end does not block).
                    while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
                }
                for mapping in mappings.live { mapping.copyIfLeaseBroken(signalled: ready > 0) }
            }
        }
        thread.start()
        started.wait()
        guard cfilelease_install_handler(writeEnd) == 0 else {
            problem = "no handler for lease signals: \(String(cString: strerror(errno)))"
            return
        }
        problem = nil
    }

    func watch(_ mapping: StableFileMapping) { mappings.insert(mapping) }

    func unwatch(_ mapping: StableFileMapping) { mappings.remove(mapping) }
}
