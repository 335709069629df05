/// One CSV record, handed to the caller's closure and valid only while it runs (its bytes live in the
/// parser's scratch buffers, so nothing is allocated per record).
public struct CSVRecord {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>
    /// The physical line the record starts on (1-based; the header is line 1).
    public let line: Int
    /// True when the record held bytes that are not UTF-8; they were replaced by U+FFFD before this call.
    public let repairedInvalidUTF8: Bool
    /// The index of the first field holding a NUL byte, if any (text files never hold one: a UTF-16 file does).
    public let firstFieldWithNUL: Int?
    /// True when the input ended inside this record: no line break after it (only a file's last record can
    /// say so). With fewer fields than the header, it is what a file cut short looks like.
    public let endsWithoutNewline: Bool

    public var count: Int { ends.count }

    /// The bytes of field `index`, quotes removed and `""` unescaped; empty if the row is shorter than that
    /// (GTFS rows may omit trailing empty fields).
    @inline(__always)
    public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index >= 0, index < ends.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeBufferPointer(rebasing: bytes[start..<ends[index]])
    }

    public func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }
}

/// Why a CSV file could not be split into records. `line` is the physical line (1-based) where the record —
/// or, for an unterminated quote, the quoted field — starts.
public enum CSVError: Error, Equatable, Sendable {
    /// A record grew past `limit` bytes: a missing closing quote or a file that is not CSV at all.
    case recordTooLong(line: Int, limit: Int)
    /// The file ended inside a quoted field opened on `line`.
    case unterminatedQuote(line: Int)
}

/// A push parser for RFC 4180 CSV as real GTFS feeds write it: fed arbitrary chunks (a zip entry streams in
/// pieces), it calls back once per complete record. Handles a UTF-8 BOM, LF, CRLF, lone CR and mixed line
/// endings, quoted fields containing commas, quotes (`""`) and newlines, a missing final newline, and blank
/// lines (skipped).
///
/// Every byte is looked at once: the scanner is a state machine that keeps its state between chunks, so a
/// record split over many chunks costs no rescans (linear time on any input). Memory is bounded by the
/// longest record, and a record longer than `maximumRecordBytes` is refused (`CSVError.recordTooLong`),
/// so an unterminated quote in a 1 GB file fails after 1 MB, not after reading it all into memory. A file
/// that ends inside a quoted field is refused (`CSVError.unterminatedQuote`, naming the line the quote
/// opened on) rather than imported with a guess. Bytes that are not UTF-8 are replaced by U+FFFD and the
/// record says so (`repairedInvalidUTF8`), so callers can count and report them.
public struct CSVStreamParser {
    /// The default cap on one record's size (fields and separators): 1 MB. No GTFS row is near it.
    public static let defaultMaximumRecordBytes = 1 << 20

    public let maximumRecordBytes: Int
    private var fieldBytes: [UInt8] = []
    private var fieldEnds: [Int] = []
    private var state = State.recordStart
    /// The line of the next byte to be scanned.
    private var currentLine = 1
    private var recordLine = 1
    private var quoteLine = 1
    private var byteOrderMark: [UInt8] = []
    private var checkedByteOrderMark = false
    private var repairScratch: [UInt8] = []

    private enum State {
        /// Before the first byte of a record.
        case recordStart
        /// Before the first byte of a field that is not the record's first.
        case fieldStart
        case unquoted
        case quoted
        /// A quote inside a quoted field: either the first of `""` or the closing quote.
        case quoteInQuoted
        /// A CR ended the record; an LF right after it belongs to the same line break.
        case afterCR
    }

    public init(maximumRecordBytes: Int = CSVStreamParser.defaultMaximumRecordBytes) {
        self.maximumRecordBytes = maximumRecordBytes
        fieldBytes.reserveCapacity(4096)
        fieldEnds.reserveCapacity(64)
    }

    /// Parses every complete record in `chunk` (plus what was left over from earlier chunks).
    public mutating func consume(_ chunk: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        guard !chunk.isEmpty else { return }
        if !checkedByteOrderMark {
            // Many feeds start every file with a UTF-8 byte order mark; it is not part of the first column's name.
            let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
            let needed = 3 - byteOrderMark.count
            let head = Array(chunk.prefix(needed))
            byteOrderMark += head
            if mark.starts(with: byteOrderMark) {
                if byteOrderMark.count < 3 { return }  // a mark split across chunks
                checkedByteOrderMark = true
                try scan(UnsafeRawBufferPointer(rebasing: chunk[head.count...]), body)
                return
            }
            checkedByteOrderMark = true
            // Not a mark: the bytes held back (from earlier chunks) are data, then this chunk after them.
            let held = byteOrderMark.dropLast(head.count)
            try Array(held).withUnsafeBytes { try scan($0, body) }
            try scan(chunk, body)
            return
        }
        try scan(chunk, body)
    }

    /// Parses what is left as the end of the file (the last record may lack its newline: it is handed over with
    /// `endsWithoutNewline` set).
    public mutating func finish(_ body: (CSVRecord) throws -> Void) throws {
        if !checkedByteOrderMark {
            checkedByteOrderMark = true
            let held = byteOrderMark
            if held != [0xEF, 0xBB, 0xBF] { try held.withUnsafeBytes { try scan($0, body) } }
        }
        switch state {
        case .recordStart, .afterCR:
            break
        case .quoted:
            throw CSVError.unterminatedQuote(line: quoteLine)
        case .fieldStart, .unquoted, .quoteInQuoted:
            fieldEnds.append(fieldBytes.count)
            try emit(body, endsWithoutNewline: true)
        }
        state = .recordStart
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"),
        cr = UInt8(ascii: "\r")

    private mutating func scan(_ chunk: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        let buf = chunk.bindMemory(to: UInt8.self)
        let n = buf.count
        var i = 0
        while i < n {
            switch state {
            case .afterCR:
                state = .recordStart
                if buf[i] == Self.lf { i += 1 }
            case .recordStart, .fieldStart:
                if state == .recordStart { recordLine = currentLine }
                if buf[i] == Self.quote {
                    quoteLine = currentLine
                    state = .quoted
                    i += 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                // Unquoted bytes (or stray bytes after a closing quote, kept rather than rejected).
                let runStart = i
                while i < n {
                    let b = buf[i]
                    if b == Self.comma || b == Self.lf || b == Self.cr { break }
                    i += 1
                }
                if i > runStart { try append(UnsafeBufferPointer(rebasing: buf[runStart..<i])) }
                guard i < n else { return }
                let b = buf[i]
                i += 1
                fieldEnds.append(fieldBytes.count)
                if b == Self.comma {
                    state = .fieldStart
                    try checkLength()
                } else {
                    currentLine += 1
                    state = b == Self.cr ? .afterCR : .recordStart
                    try emit(body)
                }
            case .quoted:
                let runStart = i
                var newlines = 0
                while i < n {
                    let b = buf[i]
                    if b == Self.quote { break }
                    if b == Self.lf { newlines += 1 }
                    i += 1
                }
                currentLine += newlines
                if i > runStart { try append(UnsafeBufferPointer(rebasing: buf[runStart..<i])) }
                guard i < n else { return }
                i += 1
                state = .quoteInQuoted
            case .quoteInQuoted:
                if buf[i] == Self.quote {
                    try append(Self.quote)
                    i += 1
                    state = .quoted
                } else {
                    state = .unquoted
                }
            }
        }
    }

    @inline(__always)
    private mutating func append(_ run: UnsafeBufferPointer<UInt8>) throws {
        fieldBytes.append(contentsOf: run)
        try checkLength()
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) throws {
        fieldBytes.append(byte)
        try checkLength()
    }

    @inline(__always)
    private func checkLength() throws {
        if fieldBytes.count + fieldEnds.count > maximumRecordBytes {
            throw CSVError.recordTooLong(line: recordLine, limit: maximumRecordBytes)
        }
    }

    /// Hands the finished record to `body` (unless it is blank) and clears the scratch buffers.
    private mutating func emit(_ body: (CSVRecord) throws -> Void, endsWithoutNewline: Bool = false) throws {
        defer {
            fieldBytes.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
        }
        // A record of one empty field (an empty line) or of only empty fields (`,,,`) carries nothing.
        if fieldBytes.isEmpty { return }
        var special = false
        fieldBytes.withUnsafeBufferPointer { fb in
            for b in fb where b == 0 || b >= 0x80 { special = true; break }
        }
        var repaired = false
        var nulField: Int?
        if special { (repaired, nulField) = checkText() }
        let line = recordLine
        try fieldBytes.withUnsafeBufferPointer { fb in
            try fieldEnds.withUnsafeBufferPointer { fe in
                try body(
                    CSVRecord(
                        bytes: fb, ends: fe, line: line, repairedInvalidUTF8: repaired, firstFieldWithNUL: nulField,
                        endsWithoutNewline: endsWithoutNewline))
            }
        }
    }

    /// The slow path for records with non-ASCII or NUL bytes: finds the first field with a NUL and replaces
    /// invalid UTF-8 (field by field, so a sequence cannot straddle a separator) with U+FFFD.
    private mutating func checkText() -> (repaired: Bool, nulField: Int?) {
        var nulField: Int?
        var invalid = false
        var start = 0
        for (index, end) in fieldEnds.enumerated() {
            let field = fieldBytes[start..<end]
            if nulField == nil, field.contains(0) { nulField = index }
            if !invalid, String(validating: field, as: UTF8.self) == nil { invalid = true }
            start = end
        }
        guard invalid else { return (false, nulField) }
        repairScratch.removeAll(keepingCapacity: true)
        var ends: [Int] = []
        start = 0
        for end in fieldEnds {
            repairScratch.append(contentsOf: String(decoding: fieldBytes[start..<end], as: UTF8.self).utf8)
            ends.append(repairScratch.count)
            start = end
        }
        swap(&fieldBytes, &repairScratch)
        fieldEnds = ends
        return (true, nulField)
    }
}
