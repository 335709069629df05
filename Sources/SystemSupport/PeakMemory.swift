#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's peak resident memory, for `-v` diagnostics and the memory-bound tests.
///
/// Read from `VmHWM` in /proc/self/status rather than `getrusage`: a process started with `posix_spawn` (vfork)
/// inherits in `ru_maxrss` the resident size its parent had, which says nothing about this program.
public enum PeakMemory {
    /// Kilobytes, or nil where /proc is not mounted.
    public static func residentKilobytes() -> Int? {
        guard let bytes = try? BoundedFile.read("/proc/self/status", limit: 64 << 10) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.dropFirst(6).filter(\.isNumber))
    }
}
