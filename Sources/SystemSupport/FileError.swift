#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file could not be read or written, in the words a person needs: the path, and the cause as the
/// operating system reported it, with the cases people meet named plainly (a full disk, a missing folder).
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case notFound
        case permissionDenied
        case isDirectory
        /// A FIFO, device, socket… where a regular file was expected.
        case notARegularFile(kind: String)
        /// Larger than the reader accepts.
        case tooLarge(limit: Int)
        /// No space left on the device, or the user's quota is used up.
        case diskFull
        /// The process's file-size limit (`ulimit -f`) was reached.
        case fileSizeLimit
        /// The destination exists and the writer was asked not to replace it.
        case alreadyExists
        case other(String)

        /// The problem an `errno` value describes.
        public static func errno(_ code: Int32) -> Problem {
            switch code {
            case ENOENT, ENOTDIR: return .notFound
            case EACCES, EPERM, EROFS: return .permissionDenied
            case EISDIR: return .isDirectory
            case ENOSPC, EDQUOT: return .diskFull
            case EFBIG: return .fileSizeLimit
            default: return .other(String(cString: strerror(code)))
            }
        }
    }

    public enum Operation: String, Sendable {
        case reading, writing
    }

    public var path: String
    public var operation: Operation
    public var problem: Problem

    public init(path: String, operation: Operation, problem: Problem) {
        self.path = path
        self.operation = operation
        self.problem = problem
    }

    /// The error for the current `errno`.
    public static func current(_ path: String, _ operation: Operation) -> FileError {
        FileError(path: path, operation: operation, problem: .errno(Glibc.errno))
    }

    /// The cause without the path, for messages that name the file themselves.
    public var reason: String {
        let unchanged = operation == .writing ? "; the previous file is unchanged" : ""
        switch problem {
        case .notFound: return "no such file or folder"
        case .permissionDenied: return "permission denied while \(operation.rawValue)"
        case .isDirectory: return "is a folder, not a file"
        case .notARegularFile(let kind): return "is a \(kind), not a regular file"
        case .tooLarge(let limit): return "larger than \(limit) bytes, refused"
        case .diskFull: return "disk full\(unchanged)"
        case .fileSizeLimit: return "file size limit (ulimit -f) reached\(unchanged)"
        case .alreadyExists: return "file already exists (not overwritten)"
        case .other(let reason): return reason + unchanged
        }
    }

    public var description: String {
        switch problem {
        case .diskFull, .fileSizeLimit:
            return
                "\(reason.prefix { $0 != ";" }) while writing \(path)\(operation == .writing ? "; the previous file is unchanged" : "")"
        default: return "\(path): \(reason)"
        }
    }
}
