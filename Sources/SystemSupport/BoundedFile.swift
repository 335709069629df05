#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads small files that come from outside (keys, configs) without trusting them: only regular files, opened
/// without blocking (a FIFO or a device never stalls the reader), and never more than `limit` bytes, so
/// `/dev/zero` or a 1 GB file is refused at once instead of being read to the end.
public enum BoundedFile {
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw FileError.current(path, .reading) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileError.current(path, .reading) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            if kind == S_IFDIR { throw FileError(path: path, operation: .reading, problem: .isDirectory) }
            throw FileError(path: path, operation: .reading, problem: .notARegularFile(kind: describe(kind)))
        }
        guard Int(status.st_size) <= limit else {
            throw FileError(path: path, operation: .reading, problem: .tooLarge(limit: limit))
        }
        // The size can change while reading (a file being appended to): read at most limit + 1 bytes to tell.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError.current(path, .reading)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { throw FileError(path: path, operation: .reading, problem: .tooLarge(limit: limit)) }
        return Array(bytes[..<count])
    }

    /// A file type in words, for messages.
    public static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFSOCK: return "socket"
        case S_IFDIR: return "folder"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }
}
