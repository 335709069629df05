import SystemSupport

/// Why an import was refused. Every case names what a person needs to find and fix the cause in the feed:
/// the file, the line, the column and the offending value. Nothing is written when one is thrown.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case unreadableFeed(path: String, reason: String)
    case missingFile(file: String, feed: String)
    case missingColumn(file: String, column: String)
    case invalidValue(file: String, line: Int, column: String, value: String, expected: String)
    case unknownReference(file: String, line: Int, column: String, value: String, target: String)
    case duplicateKey(file: String, line: Int, key: String, value: String, firstLine: Int?)
    /// A region's file names a bare id that several feeds' `target` define (`candidates`, as `FEEDID:ID`).
    case ambiguousReference(file: String, line: Int, column: String, value: String, target: String, candidates: [String])
    case inconsistentFeed(String)
    case database(path: String, reason: String)
    /// The database could not be written (a full disk, the file-size limit): not the feed's fault.
    case writeFailed(FileError)
    /// A path where a file was expected holds something else (a directory, a FIFO, a device, a socket).
    case notARegularFile(path: String, kind: String)
    case permissionDenied(path: String)
    /// A CSV record longer than `limit` bytes starts on `line` (usually a quote that is never closed).
    case recordTooLong(file: String, line: Int, limit: Int)
    /// The file ends inside a quoted field opened on `line`.
    case unterminatedQuote(file: String, line: Int)
    /// The file's last record, on `line`, has `fields` of the header's `columns` fields and no line break after
    /// it — the file looks cut short — and as it stands it is refused for `cause`. `--lenient` drops it.
    indirect case truncatedRecord(file: String, line: Int, fields: Int, columns: Int, cause: ImportError)
    /// The zip holds the table `file` at several paths and none is clearly the feed's.
    case ambiguousArchive(archive: String, file: String, paths: [String])
    /// A zip entry whose data does not match its header (CRC-32, size) or does not inflate.
    case corruptZipEntry(archive: String, entry: String, reason: String)
    /// The imported tables inflate to more than `limit` bytes (a zip bomb, or a feed far beyond any real one).
    case archiveTooLarge(archive: String, entry: String, bytes: Int64, limit: Int64)
    /// An entry inflates more than `limit` times its compressed size (a zip bomb).
    case compressionRatioTooHigh(archive: String, entry: String, compressed: Int64, uncompressed: Int64, limit: Int64)
    /// One feed of an import of several (`id`, read from `source`) was refused for `cause`.
    indirect case inFeed(id: String, source: String, cause: ImportError)
    /// The region's transfers file (`kiosk import --transfers`) was refused for `cause`.
    indirect case inTransfersFile(path: String, cause: ImportError)
    /// The region's interchanges file (`kiosk import --interchanges`) was refused for `cause`.
    indirect case inInterchangesFile(path: String, cause: ImportError)

    public var description: String {
        switch self {
        case let .inFeed(id, source, cause):
            return "feed '\(id)' (\(source)): \(cause)"
        case let .inTransfersFile(path, cause):
            return "the transfers between feeds, \(path): \(cause)"
        case let .inInterchangesFile(path, cause):
            return "the interchanges between feeds, \(path): \(cause)"
        case let .unreadableFeed(path, reason):
            return "cannot read the feed \(path): \(reason)"
        case let .missingFile(file, feed):
            return "the feed \(feed) has no \(file), which GTFS requires"
        case let .missingColumn(file, column):
            return "\(file): the header has no '\(column)' column, which GTFS requires"
        case let .invalidValue(file, line, column, value, expected):
            return "\(file) line \(line), column '\(column)': '\(Self.quoted(value))' is not \(expected)"
        case let .unknownReference(file, line, column, value, target):
            return "\(file) line \(line), column '\(column)': '\(Self.quoted(value))' is not defined in \(target)"
        case let .ambiguousReference(file, line, column, value, target, candidates):
            return
                "\(file) line \(line), column '\(column)': '\(Self.quoted(value))' is defined in several feeds' \(target): \(candidates.map(Self.quoted).joined(separator: ", ")); give it with its feed, e.g. \(Self.quoted(candidates[0]))"
        case let .duplicateKey(file, line, key, value, firstLine):
            let first = firstLine.map { " (first defined on line \($0))" } ?? ""
            return "\(file) line \(line): duplicate \(key) '\(Self.quoted(value))'\(first)"
        case let .inconsistentFeed(message):
            return message
        case let .database(path, reason):
            return "cannot write the database \(path): \(reason)"
        case let .writeFailed(error):
            return error.description
        case let .notARegularFile(path, kind):
            return "cannot read the feed: \(path) is a \(kind) where a file was expected"
        case let .permissionDenied(path):
            return "cannot read \(path): permission denied"
        case let .recordTooLong(file, line, limit):
            return
                "\(file) line \(line): record longer than \(Self.size(Int64(limit))) (\(limit) bytes) — is a closing quote missing?"
        case let .unterminatedQuote(file, line):
            return
                "\(file) line \(line): a quoted field opened on this line is never closed (unterminated quote at the end of the file)"
        case let .truncatedRecord(file, line, fields, columns, cause):
            return
                "\(file) line \(line): the file looks truncated: its last record has \(fields) of the header's \(columns) fields and no final newline, and is refused as it stands (\(cause)). Fetch the feed again, or import with --lenient to drop that record"
        case let .ambiguousArchive(archive, file, paths):
            return
                "\(archive): ambiguous archive: \(file) appears \(paths.count) times (\(paths.joined(separator: ", "))); keep one copy of each table"
        case let .corruptZipEntry(archive, entry, reason):
            return "\(archive): the entry \(entry) is corrupted: \(reason)"
        case let .archiveTooLarge(archive, entry, bytes, limit):
            return
                "\(archive): the tables inflate to more than \(Self.size(limit)) (\(limit) bytes; reached \(bytes) bytes at \(entry)): refused as a possible zip bomb"
        case let .compressionRatioTooHigh(archive, entry, compressed, uncompressed, limit):
            return
                "\(archive): the entry \(entry) inflates from \(compressed) to \(uncompressed) bytes (ratio \(uncompressed / max(compressed, 1)):1, limit \(limit):1): refused as a possible zip bomb"
        }
    }

    static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    /// Values come from the feed: keep them short and printable in an error line.
    static func quoted(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars.prefix(80) {
            out.unicodeScalars.append(
                contentsOf: scalar.value < 0x20 || scalar.value == 0x7F
                    ? "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars : String(scalar).unicodeScalars)
        }
        return value.unicodeScalars.count > 80 ? out + "…" : out
    }
}

/// Recoverable oddities met during an import, counted by kind, with the first few examples kept so the
/// summary can show where to look.
public struct ImportWarnings: Sendable, Equatable {
    public struct Kind: Sendable, Equatable {
        public var message: String
        public var count: Int
        public var examples: [String]
    }

    public private(set) var kinds: [Kind] = []
    public static let examplesKept = 3
    /// How many examples each kind keeps (repairs made by `--lenient` keep more: they are a list to check).
    public var exampleLimit = ImportWarnings.examplesKept

    public init(exampleLimit: Int = ImportWarnings.examplesKept) { self.exampleLimit = exampleLimit }

    public var total: Int { kinds.reduce(0) { $0 + $1.count } }

    /// Adds every kind of `other` (counts and examples) after this one's.
    public mutating func absorb(_ other: ImportWarnings) {
        for kind in other.kinds {
            if let index = kinds.firstIndex(where: { $0.message == kind.message }) {
                kinds[index].count += kind.count
                kinds[index].examples = Array((kinds[index].examples + kind.examples).prefix(exampleLimit))
            } else {
                kinds.append(kind)
            }
        }
    }

    /// `absorb`, each of `other`'s examples prefixed (with the feed they come from).
    public mutating func absorb(_ other: ImportWarnings, prefixingExamplesWith prefix: String) {
        var prefixed = other
        for index in prefixed.kinds.indices {
            prefixed.kinds[index].examples = prefixed.kinds[index].examples.map { prefix + $0 }
        }
        absorb(prefixed)
    }

    public mutating func add(_ message: String, at location: String) {
        if let index = kinds.firstIndex(where: { $0.message == message }) {
            kinds[index].count += 1
            if kinds[index].examples.count < exampleLimit { kinds[index].examples.append(location) }
        } else {
            kinds.append(Kind(message: message, count: 1, examples: [location]))
        }
    }
}
