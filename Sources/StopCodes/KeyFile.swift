import Foundation
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Key files: one key line, optional `#` comment lines and blank lines.
///
/// Private key file (mode 0600, written by `savePrivateKey`):
/// ```
/// # StopKiosk label-signing key (Ed25519), key id 3fa28c0d5e1b7a90. Secret: keep this file mode 0600.
/// # Public key for kiosk configs: stopkiosk-ed25519-public-v1:<base64url>
/// stopkiosk-ed25519-private-v1:<base64url of the 32-byte seed>
/// ```
/// Public key file (mode 0644): the same with `stopkiosk-ed25519-public-v1:<base64url of the 32-byte key>`.
public enum KeyFile {
    /// A private key read from a file, with what was wrong about the file's permissions.
    public struct LoadedPrivateKey: Sendable {
        public var keyPair: KeyPair
        /// The file's permission bits.
        public var mode: UInt32
        /// True when group or others have any access to the file (they should have none).
        public var isAccessibleToOthers: Bool { mode & 0o077 != 0 }
        /// A message to show when `isAccessibleToOthers`, else nil.
        public var permissionWarning: String?
    }

    public static func savePrivateKey(_ key: KeyPair, to path: String, overwrite: Bool = false) throws(KeyFileError) {
        let text = """
            # StopKiosk label-signing key (Ed25519), key id \(key.keyID). Secret: keep this file mode 0600.
            # Public key for kiosk configs: \(key.publicKey.encoded)
            \(key.encodedPrivateKey)

            """
        try writeKeyFile(text, to: path, mode: 0o600, overwrite: overwrite)
    }

    public static func savePublicKey(_ key: PublicKey, to path: String, overwrite: Bool = false) throws(KeyFileError) {
        let text = """
            # StopKiosk label-verification key (Ed25519), key id \(key.keyID).
            \(key.encoded)

            """
        try writeKeyFile(text, to: path, mode: 0o644, overwrite: overwrite)
    }

    /// Reads a private key. Besides the key line, the comments `savePrivateKey` writes (the key id and the
    /// public key) are checked against the public key the secret derives: a file whose secret does not match
    /// them was damaged or pieced together, and is refused as corrupted rather than signing with a key no
    /// kiosk trusts.
    public static func loadPrivateKey(from path: String) throws(KeyFileError) -> LoadedPrivateKey {
        let (line, number, mode, comments) = try readKeyLine(path)
        let keyPair: KeyPair
        do {
            keyPair = try KeyPair(encoded: line)
        } catch {
            throw .invalid(path: path, line: number, reason: error)
        }
        for (comment, commentLine) in comments {
            if let claimed = word(after: "key id ", in: comment),
                claimed.trimmingCharacters(in: .punctuationCharacters) != keyPair.keyID
            {
                throw .corrupted(
                    path: path, line: commentLine,
                    detail:
                        "the file says key id \(claimed.trimmingCharacters(in: .punctuationCharacters)), the secret's key id is \(keyPair.keyID)"
                )
            }
            if let claimed = word(after: PublicKey.textPrefix, in: comment),
                PublicKey.textPrefix + claimed != keyPair.publicKey.encoded
            {
                throw .corrupted(
                    path: path, line: commentLine,
                    detail: "the public key in the file is not the one the secret derives")
            }
        }
        let exposed = mode & 0o077 != 0
        let warning =
            exposed
            ? "\(path): private key file is accessible to group or others (mode \(String(mode & 0o777, radix: 8))); run chmod 600 \(path)"
            : nil
        return LoadedPrivateKey(keyPair: keyPair, mode: mode & 0o7777, permissionWarning: warning)
    }

    public static func loadPublicKey(from path: String) throws(KeyFileError) -> PublicKey {
        let (line, number, _, _) = try readKeyLine(path)
        do {
            return try PublicKey(encoded: line)
        } catch {
            throw .invalid(path: path, line: number, reason: error)
        }
    }

    // MARK: - Internals

    /// Key files are a few hundred bytes; anything over this is not one and is refused before reading.
    public static let maximumFileBytes = 64 * 1024

    /// The text after `prefix` in `line` up to the next space, if `prefix` occurs.
    private static func word(after prefix: String, in line: String) -> String? {
        guard let range = line.range(of: prefix) else { return nil }
        let rest = line[range.upperBound...].prefix { !$0.isWhitespace }
        return rest.isEmpty ? nil : String(rest)
    }

    /// Reads a key file in bounded time and memory: only a regular file (a directory, FIFO, device or socket
    /// is refused before it is read, and a FIFO is opened non-blocking so it cannot hang the command), at most
    /// `maximumFileBytes`. Returns the one key line, its number, the file's mode and the comment lines.
    private static func readKeyLine(_ path: String) throws(KeyFileError) -> (String, Int, UInt32, [(String, Int)]) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        try checkRegular(path, status)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        try checkRegular(path, status)
        // Read one byte past the limit, never more: a file that grew after fstat is still caught.
        var bytes = [UInt8](repeating: 0, count: maximumFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes[count...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumFileBytes else { throw tooLarge(path, Int64(count)) }
        bytes.removeSubrange(count...)
        guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
            throw .invalid(path: path, line: nil, reason: .malformed("the file is not text (UTF-8)"))
        }
        var keyLines: [(String, Int)] = []
        var comments: [(String, Int)] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("#") { comments.append((line, index + 1)) }
            if line.isEmpty || line.hasPrefix("#") { continue }
            keyLines.append((line, index + 1))
        }
        guard let first = keyLines.first else {
            throw .invalid(path: path, line: nil, reason: .malformed("no key line (only comments or empty)"))
        }
        guard keyLines.count == 1 else {
            throw .invalid(path: path, line: keyLines[1].1, reason: .malformed("more than one key line"))
        }
        return (first.0, first.1, UInt32(status.st_mode), comments)
    }

    private static func checkRegular(_ path: String, _ status: stat) throws(KeyFileError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard Int64(status.st_size) <= Int64(maximumFileBytes) else { throw tooLarge(path, Int64(status.st_size)) }
            return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw .unreadable(path: path, reason: "is \(kind), not a key file")
    }

    private static func tooLarge(_ path: String, _ size: Int64) -> KeyFileError {
        .unreadable(
            path: path,
            reason: "\(size) bytes or more is too large for a key file (at most \(maximumFileBytes / 1024) KB)")
    }

    private static func writeKeyFile(
        _ text: String, to path: String, mode: mode_t, overwrite: Bool
    ) throws(KeyFileError) {
        if !overwrite, access(path, F_OK) == 0 { throw .alreadyExists(path: path) }
        do {
            // The mode is set exactly (the umask may have removed bits); without `overwrite`, link() refuses to
            // replace a file that appeared meanwhile: no window where another file is clobbered.
            try AtomicFile.write(
                Array(text.utf8), to: path, purpose: "key", mode: mode, exactMode: true, overwrite: overwrite)
        } catch {
            if error.problem == .alreadyExists { throw .alreadyExists(path: path) }
            throw .writeFailed(path: path, reason: error.reason)
        }
    }
}

/// Why a key file could not be read or written. Every case names the file.
public enum KeyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    /// The file's content is not a usable key of the expected kind; `line` is 1-based when known.
    case invalid(path: String, line: Int?, reason: KeyFormatError)
    case alreadyExists(path: String)
    case writeFailed(path: String, reason: String)
    /// A private key file whose secret does not derive the key id or public key it states.
    case corrupted(path: String, line: Int, detail: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such key file"
        case .unreadable(let path, let reason): return "\(path): cannot read key file (\(reason))"
        case .invalid(let path, let line, let reason):
            return "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case .alreadyExists(let path): return "\(path): file already exists (not overwritten)"
        case .writeFailed(let path, let reason): return "\(path): cannot write key file (\(reason))"
        case .corrupted(let path, let line, let detail):
            return "\(path):\(line): corrupted key: the secret does not match the key's own public key (\(detail))"
        }
    }
}
