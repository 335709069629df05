/// One CSV record, handed to the caller's closure and valid only while it runs (its bytes live in the
/// parser's scratch buffers, so nothing is allocated per record).
public struct CSVRecord {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>
    /// The physical line the record starts on (1-based; the header is line 1).
    public let line: Int

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

/// A push parser for RFC 4180 CSV as real GTFS feeds write it: fed arbitrary chunks (a zip entry streams in
/// pieces), it calls back once per complete record. Handles a UTF-8 BOM, LF, CRLF, lone CR and mixed line
/// endings, quoted fields containing commas, quotes (`""`) and newlines, a missing final newline, and blank
/// lines (skipped). Memory is bounded by the longest record, not the file.
public struct CSVStreamParser {
    private var pending: [UInt8] = []
    private var fieldBytes: [UInt8] = []
    private var fieldEnds: [Int] = []
    private var nextLine = 1
    private var checkedByteOrderMark = false

    public init() {
        fieldBytes.reserveCapacity(4096)
        fieldEnds.reserveCapacity(64)
    }

    /// Parses every complete record in `chunk` (plus what was left over from earlier chunks).
    public mutating func consume(_ chunk: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        pending.append(contentsOf: chunk)
        if !checkedByteOrderMark {
            if pending.count < 3 && [0xEF, 0xBB, 0xBF].starts(with: pending) { return } // a mark split across chunks
            dropByteOrderMark()
        }
        try parse(final: false, body)
    }

    /// Parses what is left as the end of the file (the last record may lack its newline).
    public mutating func finish(_ body: (CSVRecord) throws -> Void) throws {
        if !checkedByteOrderMark { dropByteOrderMark() }
        try parse(final: true, body)
        pending.removeAll()
    }

    /// Many feeds start every file with a UTF-8 byte order mark; it is not part of the first column's name.
    private mutating func dropByteOrderMark() {
        checkedByteOrderMark = true
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    private mutating func parse(final: Bool, _ body: (CSVRecord) throws -> Void) throws {
        let data = pending // shares storage; lets us scan it while writing the scratch buffers
        let consumed = try data.withUnsafeBufferPointer { buf -> Int in
            var position = 0
            while position < buf.count {
                guard let (end, newlines) = scanRecord(buf, from: position, final: final) else { break }
                let line = nextLine
                nextLine += newlines
                position = end
                if isBlank { continue }
                try fieldBytes.withUnsafeBufferPointer { fb in
                    try fieldEnds.withUnsafeBufferPointer { fe in
                        try body(CSVRecord(bytes: fb, ends: fe, line: line))
                    }
                }
            }
            return position
        }
        if consumed > 0 { pending.removeFirst(consumed) }
    }

    /// A record of one empty field (an empty line) or of only empty fields (`,,,`) carries nothing.
    private var isBlank: Bool { fieldBytes.isEmpty }

    /// Scans one record starting at `start` into the scratch buffers. Returns the offset after it and how many
    /// line breaks it spanned, or nil if the buffer ends inside it and more data may come.
    private mutating func scanRecord(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool) -> (Int, Int)? {
        fieldBytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        var i = start
        var newlines = 0
        let n = buf.count
        while true {
            if i < n, buf[i] == Self.quote {
                i += 1
                while true {
                    guard i < n else {
                        if !final { return nil }
                        break // unterminated quote at end of file: keep what we have
                    }
                    let b = buf[i]
                    if b == Self.quote {
                        if i + 1 < n {
                            if buf[i + 1] == Self.quote { fieldBytes.append(Self.quote); i += 2; continue }
                            i += 1
                            break
                        }
                        if !final { return nil }
                        i += 1
                        break
                    }
                    if b == Self.lf { newlines += 1 }
                    fieldBytes.append(b)
                    i += 1
                }
            }
            // Unquoted bytes (or stray bytes after a closing quote, kept rather than rejected).
            let runStart = i
            while i < n {
                let b = buf[i]
                if b == Self.comma || b == Self.lf || b == Self.cr { break }
                i += 1
            }
            if i > runStart { fieldBytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<i])) }
            if i >= n {
                if !final { return nil }
                fieldEnds.append(fieldBytes.count)
                return (n, newlines + 1)
            }
            fieldEnds.append(fieldBytes.count)
            let b = buf[i]
            if b == Self.comma { i += 1; continue }
            if b == Self.cr {
                if i + 1 < n {
                    i += buf[i + 1] == Self.lf ? 2 : 1
                } else {
                    if !final { return nil } // the LF of a CRLF may be in the next chunk
                    i += 1
                }
            } else {
                i += 1
            }
            return (i, newlines + 1)
        }
    }
}
