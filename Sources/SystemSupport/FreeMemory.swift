#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Gives freed heap memory back to the kernel. glibc keeps what a burst of allocations freed (a large realtime
/// feed decoded, a minute of cached answers dropped) in its arenas, so the resident size stays at the peak until
/// the next burst; `malloc_trim(0)` returns it.
public enum FreeMemory {
    /// Returns free heap memory to the kernel where the C library can (glibc); does nothing elsewhere.
    public static func returnToSystem() { _ = mallocTrim?(0) }

    /// Looked up at run time: Swift's Glibc module does not export malloc.h, and other C libraries have no such call.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
