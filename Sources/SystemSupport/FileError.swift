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
        /// A folder was expected (to write files into) and this is something else.
        case notAFolder(kind: String)
        /// A new file's folder does not exist (or is not a folder).
        case missingFolder(String)
        /// On a kernel file system (/proc, /sys…), which holds no files on disk.
        case kernelFileSystem(String)
        /// An existing file whose mode bits do not let this user write it (see `OutputDestination`).
        case readOnly(owner: String, mode: UInt32)
        /// A file name whose extension is not the format written into it.
        case wrongExtension(found: String, format: String, expected: [String])
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

    /// The path a failure writing to standard output names.
    public static let standardOutput = "standard output"

    /// The error for the current `errno`.
    public static func current(_ path: String, _ operation: Operation) -> FileError {
        FileError(path: path, operation: operation, problem: .errno(Glibc.errno))
    }

    /// The cause without the path, for messages that name the file themselves.
    public var reason: String {
        // Standard output has no previous file to keep.
        let unchanged =
            operation == .writing && path != FileError.standardOutput ? "; the previous file is unchanged" : ""
        switch problem {
        case .notFound: return "no such file or folder"
        case .permissionDenied: return "permission denied while \(operation.rawValue)"
        case .isDirectory: return "is a folder, not a file"
        case .notARegularFile(let kind):
            let rule = operation == .writing ? "; only a regular file is replaced" : ""
            return "is a \(kind), not a regular file" + rule
        case .tooLarge(let limit): return "larger than \(limit) bytes, refused"
        case .diskFull: return "disk full\(unchanged)"
        case .fileSizeLimit: return "file size limit (ulimit -f) reached\(unchanged)"
        case .alreadyExists: return "file already exists (not overwritten)"
        case .notAFolder(let kind): return "is a \(kind), not a folder"
        case .missingFolder(let folder): return "there is no folder \(folder)"
        case .kernelFileSystem(let name): return "is on \(name), a kernel file system, not a file on disk"
        case let .readOnly(owner, mode):
            return "is not writable by this user (owner \(owner), mode 0\(String(mode, radix: 8))); not replaced: "
                + "the mode bits decide, for root too (make it writable or remove it first)"
        case let .wrongExtension(found, format, expected):
            return "ends in .\(found), but what is written is \(format) ("
                + expected.map { ".\($0)" }.joined(separator: " or ") + ")"
        case .other(let reason): return reason + unchanged
        }
    }

    /// Whether the path itself was the problem (a device, a read-only file, a missing folder, a wrong
    /// extension): bad input to a command, exit 2, rather than a failure while writing (a full disk, exit 1).
    public var isBadDestination: Bool {
        switch problem {
        case .notFound, .permissionDenied, .isDirectory, .notARegularFile, .alreadyExists, .notAFolder,
            .missingFolder, .kernelFileSystem, .readOnly, .wrongExtension:
            return true
        case .tooLarge, .diskFull, .fileSizeLimit, .other: return false
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
