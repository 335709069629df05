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
    case inconsistentFeed(String)
    case database(path: String, reason: String)
    /// The database could not be written (a full disk, the file-size limit): not the feed's fault.
    case writeFailed(FileError)

    public var description: String {
        switch self {
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
        case let .duplicateKey(file, line, key, value, firstLine):
            let first = firstLine.map { " (first defined on line \($0))" } ?? ""
            return "\(file) line \(line): duplicate \(key) '\(Self.quoted(value))'\(first)"
        case let .inconsistentFeed(message):
            return message
        case let .database(path, reason):
            return "cannot write the database \(path): \(reason)"
        case let .writeFailed(error):
            return error.description
        }
    }

    /// Values come from the feed: keep them short and printable in an error line.
    static func quoted(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars.prefix(80) {
            out.unicodeScalars.append(contentsOf: scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars : String(scalar).unicodeScalars)
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
    static let examplesKept = 3

    public var total: Int { kinds.reduce(0) { $0 + $1.count } }

    public mutating func add(_ message: String, at location: String) {
        if let index = kinds.firstIndex(where: { $0.message == message }) {
            kinds[index].count += 1
            if kinds[index].examples.count < Self.examplesKept { kinds[index].examples.append(location) }
        } else {
            kinds.append(Kind(message: message, count: 1, examples: [location]))
        }
    }
}
