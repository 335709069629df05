import Foundation
import ZIPFoundation

/// Where a GTFS feed's files come from: a `.zip` (as agencies publish them) or an unpacked directory.
/// Files are streamed in chunks so that a feed of any size is read in bounded memory. Only the files the
/// importer asks for are opened: listing a feed never reads a file.
protocol FeedSource {
    /// A human-readable name for errors ("carta.zip").
    var displayName: String { get }
    /// The GTFS `.txt` files present (by name; not opened).
    var fileNames: [String] { get }
    func contains(_ file: String) -> Bool
    /// Streams the file's bytes, in order, in chunks of at most a few hundred kilobytes.
    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws
    /// The file's size in bytes as far as it is known without reading it (for progress), else nil.
    func expectedSize(_ file: String) -> Int64?
}

let feedChunkSize = 256 * 1024

/// What a feed may cost to read, so that a hostile archive cannot fill the disk or the memory.
public struct FeedLimits: Sendable, Equatable {
    /// The most bytes the imported tables of a zip may inflate to, all together (default 8 GiB: ten times
    /// the largest national feeds).
    public var maximumUncompressedBytes: Int64 = 8 << 30
    /// The highest compression ratio (uncompressed ÷ compressed) of one zip entry once it is past
    /// `ratioCheckFromBytes`. Real GTFS text compresses 5 to 20 times; zip bombs a thousand times.
    public var maximumCompressionRatio: Int64 = 100
    public var ratioCheckFromBytes: Int64 = 1 << 20
    /// The longest CSV record (see `CSVStreamParser`).
    public var maximumRecordBytes = CSVStreamParser.defaultMaximumRecordBytes

    public init() {}
}

func openFeedSource(path: String, limits: FeedLimits = FeedLimits()) throws -> FeedSource {
    var status = stat()
    guard stat(path, &status) == 0 else { throw FileCheck.openError(path: path, errno: errno) }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return try DirectoryFeedSource(path: path)
    case S_IFREG: return try ZipFeedSource(path: path, limits: limits)
    default: throw ImportError.notARegularFile(path: path, kind: FileCheck.kind(status.st_mode))
    }
}

/// Opening files that may be anything: a FIFO, a device, a socket, a directory, a dangling link, a file we
/// may not read. Each becomes an `ImportError` that names the path and the real cause.
enum FileCheck {
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "directory"
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFSOCK: return "socket"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }

    static func openError(path: String, errno code: Int32) -> ImportError {
        switch code {
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ENOENT:
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                return .unreadableFeed(
                    path: path, reason: "a dangling symbolic link (to \(target), which does not exist)")
            }
            return .unreadableFeed(path: path, reason: "no such file or directory")
        case ELOOP: return .unreadableFeed(path: path, reason: "too many levels of symbolic links")
        default: return .unreadableFeed(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Opens a regular file for reading without ever blocking: the type is checked before opening (so a
    /// device is never opened) and again on the open descriptor (so a swap in between is caught), and
    /// `O_NONBLOCK` keeps a FIFO from waiting for a writer.
    static func openRegularFile(_ path: String) throws -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw openError(path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ImportError.notARegularFile(path: path, kind: kind(status.st_mode))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw openError(path: path, errno: errno) }
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ImportError.notARegularFile(path: path, kind: kind(status.st_mode))
        }
        return fd
    }
}

/// An unpacked feed. Only regular files (or links to them) are read; a table that is a directory, a FIFO,
/// a device or a socket is refused by name. Files the importer does not use are listed but never opened, so
/// a dangling link or an unreadable `shapes.txt` does not matter.
struct DirectoryFeedSource: FeedSource {
    let root: String
    let files: Set<String>
    var displayName: String { URL(fileURLWithPath: root).lastPathComponent }

    init(path: String) throws {
        root = path
        guard let directory = opendir(path) else { throw FileCheck.openError(path: path, errno: errno) }
        defer { closedir(directory) }
        var files: Set<String> = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileCheck.openError(path: path, errno: errno) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".txt"), !name.hasPrefix(".") { files.insert(name) }
        }
        guard !files.isEmpty else {
            throw ImportError.unreadableFeed(path: path, reason: "the directory holds no GTFS .txt files")
        }
        self.files = files
    }

    var fileNames: [String] { Array(files) }
    func contains(_ file: String) -> Bool { files.contains(file) }

    func expectedSize(_ file: String) -> Int64? {
        var status = stat()
        guard files.contains(file), stat((root as NSString).appendingPathComponent(file), &status) == 0,
            status.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return Int64(status.st_size)
    }

    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard files.contains(file) else { throw ImportError.missingFile(file: file, feed: displayName) }
        try Self.streamFile((root as NSString).appendingPathComponent(file), consumer)
    }

    static func streamFile(_ path: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        let fd = try FileCheck.openRegularFile(path)
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: feedChunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileCheck.openError(path: path, errno: errno)
            }
            if count == 0 { return }
            try consumer(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}

/// One file read as one GTFS table (`table`): a region's cross-feed transfers file, read as transfers.txt.
struct SingleTableSource: FeedSource {
    let path: String
    let table: String
    var displayName: String { path }
    var fileNames: [String] { [table] }
    func contains(_ file: String) -> Bool { file == table }

    func expectedSize(_ file: String) -> Int64? {
        var status = stat()
        guard file == table, stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard file == table else { throw ImportError.missingFile(file: file, feed: displayName) }
        try DirectoryFeedSource.streamFile(path, consumer)
    }
}

/// A zipped feed.
///
/// Which entries count: directories, anything under `__MACOSX/` (resource forks a Mac adds) and anything
/// whose path has a component starting with `.` are ignored; the other `.txt` entries are matched on their
/// base name, so a feed zipped inside a folder works. A base name found at two paths (`stops.txt` and
/// `gtfs/stops.txt`) is ambiguous and refused, naming both.
///
/// Reading an entry checks its CRC-32 and its size against the central directory (a mismatch is a
/// corrupted entry, refused by name, even if the damage happened to parse as CSV), and enforces
/// `FeedLimits`: total uncompressed bytes and the compression ratio, both checked against the declared
/// sizes before reading and against the bytes actually inflated while reading.
final class ZipFeedSource: FeedSource {
    let path: String
    let archive: Archive
    let limits: FeedLimits
    /// GTFS file name → entry.
    let entries: [String: Entry]
    private var inflatedSoFar: Int64 = 0
    var displayName: String { URL(fileURLWithPath: path).lastPathComponent }

    init(path: String, limits: FeedLimits) throws {
        self.path = path
        self.limits = limits
        close(try FileCheck.openRegularFile(path))  // the real cause (permission …) before the zip library's
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ImportError.unreadableFeed(path: path, reason: "not a readable zip archive (\(error))")
        }
        var found: [String: [Entry]] = [:]
        for entry in archive where entry.type == .file {
            guard let base = Self.tableName(entry.path) else { continue }
            found[base, default: []].append(entry)
        }
        guard !found.isEmpty else {
            throw ImportError.unreadableFeed(path: path, reason: "the archive holds no GTFS .txt files")
        }
        if let (name, list) = found.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) {
            throw ImportError.ambiguousArchive(
                archive: URL(fileURLWithPath: path).lastPathComponent, file: name, paths: list.map(\.path).sorted())
        }
        entries = found.mapValues { $0[0] }
    }

    /// The GTFS file name an entry path stands for, or nil when the entry is ignored.
    static func tableName(_ entryPath: String) -> String? {
        let components = entryPath.split(separator: "/")
        guard let base = components.last, base.hasSuffix(".txt") else { return nil }
        if components.first == "__MACOSX" || components.contains(where: { $0.hasPrefix(".") }) { return nil }
        return String(base)
    }

    var fileNames: [String] { Array(entries.keys) }
    func contains(_ file: String) -> Bool { entries[file] != nil }
    func expectedSize(_ file: String) -> Int64? { entries[file].map { Int64(clamping: $0.uncompressedSize) } }

    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = entries[file] else { throw ImportError.missingFile(file: file, feed: displayName) }
        let name = entry.path
        let declared = Int64(clamping: entry.uncompressedSize), compressed = Int64(clamping: entry.compressedSize)
        func checkLimits(_ size: Int64) throws {
            if inflatedSoFar + size > limits.maximumUncompressedBytes {
                throw ImportError.archiveTooLarge(
                    archive: displayName, entry: name, bytes: inflatedSoFar + size,
                    limit: limits.maximumUncompressedBytes)
            }
            if size >= limits.ratioCheckFromBytes, size / max(compressed, 1) > limits.maximumCompressionRatio {
                throw ImportError.compressionRatioTooHigh(
                    archive: displayName, entry: name, compressed: compressed, uncompressed: size,
                    limit: limits.maximumCompressionRatio)
            }
        }
        try checkLimits(declared)
        var produced: Int64 = 0
        // An error from the consumer (bad CSV, bad GTFS) is held while the rest of the entry is read: if the
        // entry turns out corrupted, that is the cause to report, not what the damage looked like.
        var consumerError: Error?
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, bufferSize: feedChunkSize, skipCRC32: false) { data in
                produced += Int64(data.count)
                if produced > declared {
                    throw ImportError.corruptZipEntry(
                        archive: displayName, entry: name,
                        reason: "it inflates to more than the \(declared) bytes its header declares")
                }
                try checkLimits(produced)
                guard consumerError == nil else { return }
                do { try data.withUnsafeBytes(consumer) } catch { consumerError = error }
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError.corruptZipEntry(archive: displayName, entry: name, reason: "\(error)")
        }
        inflatedSoFar += produced
        if checksum != entry.checksum {
            throw ImportError.corruptZipEntry(
                archive: displayName, entry: name,
                reason: "CRC-32 mismatch (stored \(Self.hex(entry.checksum)), computed \(Self.hex(checksum)))")
        }
        if produced != declared {
            throw ImportError.corruptZipEntry(
                archive: displayName, entry: name, reason: "\(produced) bytes, but its header declares \(declared)")
        }
        if let consumerError { throw consumerError }
    }

    private static func hex(_ value: CRC32) -> String { String(format: "%08x", value) }
}
