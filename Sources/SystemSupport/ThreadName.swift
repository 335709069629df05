#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's name as the kernel holds it: what `ps -L`, `top -H` and debuggers show. Set through
/// `/proc/thread-self/comm`, as Swift cannot see glibc's `pthread_setname_np` (a GNU extension) and Foundation's
/// `Thread.name` drops a name set before `start` has returned to the thread's creator.
public enum ThreadName {
    /// The kernel keeps at most 15 bytes of a name.
    public static let maximumBytes = 15

    /// Names the calling thread `name`, cut to `maximumBytes`; false when the kernel refused it.
    @discardableResult
    public static func setCurrent(_ name: String) -> Bool {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(maximumBytes))
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }

    /// The calling thread's name ("" when it cannot be read).
    public static var current: String {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: maximumBytes + 2)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix(count).filter { $0 != 0x0A }, as: UTF8.self)
    }
}
