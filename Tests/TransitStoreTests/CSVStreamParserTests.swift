import Testing

@testable import TransitStore

@Suite struct CSVStreamParserTests {
    /// Parses `text`, delivered in chunks of `chunkSize` bytes, into rows of strings with their line numbers.
    func parse(_ text: String, chunkSize: Int = 1 << 20) throws -> [(line: Int, fields: [String])] {
        var parser = CSVStreamParser()
        var rows: [(Int, [String])] = []
        let collect: (CSVRecord) -> Void = { record in
            rows.append((record.line, (0..<record.count).map { record.string($0) }))
        }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            try bytes[offset..<end].withUnsafeBytes { try parser.consume($0, collect) }
            offset = end
        }
        try parser.finish(collect)
        return rows
    }

    func fields(_ text: String, chunkSize: Int = 1 << 20) throws -> [[String]] {
        try parse(text, chunkSize: chunkSize).map(\.fields)
    }

    @Test func lineEndingsAndMissingFinalNewline() throws {
        let expected = [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]]
        #expect(try fields("a,b\n1,2\n3,4\n5,6\n") == expected)
        #expect(try fields("a,b\r\n1,2\r\n3,4\r\n5,6\r\n") == expected)
        #expect(try fields("a,b\r\n1,2\n3,4\r5,6") == expected)  // mixed, lone CR, no final newline
    }

    @Test func byteOrderMarkIsDropped() throws {
        #expect(try fields("\u{FEFF}stop_id,stop_name\nS1,Uno\n") == [["stop_id", "stop_name"], ["S1", "Uno"]])
    }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "id,desc\n1,\"Av. Patria, \"\"Casa\"\" de la Cultura\"\n2,\"two\nlines\"\n3,plain\n"
        let rows = try parse(text)
        #expect(
            rows.map(\.fields) == [
                ["id", "desc"], ["1", "Av. Patria, \"Casa\" de la Cultura"], ["2", "two\nlines"], ["3", "plain"],
            ])
        #expect(rows.map(\.line) == [1, 2, 3, 5])  // the record after a quoted newline starts two lines later
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let rows = try parse("a,b\n\n1,2\n\r\n,\n3,4\n")
        #expect(rows.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(rows.map(\.line) == [1, 3, 6])
    }

    @Test func emptyFieldsAndShortRows() throws {
        #expect(try fields("a,b,c\n1,,3\n4\n,,\n") == [["a", "b", "c"], ["1", "", "3"], ["4"]])
    }

    @Test func anyChunkBoundaryGivesTheSameRecords() throws {
        let text = "\u{FEFF}h1,h2\r\n\"q,1\",\"x\"\"y\"\r\n\"multi\r\nline\",z\r\nlast,row"
        let whole = try fields(text)
        #expect(whole == [["h1", "h2"], ["q,1", "x\"y"], ["multi\r\nline", "z"], ["last", "row"]])
        for size in 1...9 { #expect(try fields(text, chunkSize: size) == whole, "chunk size \(size)") }
    }

    @Test func unterminatedQuoteIsAnErrorNamingTheLineItOpened() throws {
        #expect(throws: CSVError.unterminatedQuote(line: 2)) { try fields("a\n\"open\nmore\nlines") }
        // A stray quote at the very end of a file is not imported silently, whatever the chunk size.
        for size in [1, 2, 3, 1 << 20] {
            #expect(throws: CSVError.unterminatedQuote(line: 3), "chunk size \(size)") {
                try fields("a,b\n1,2\n3,\"", chunkSize: size)
            }
        }
        // A quote closed right at the end of the file is fine.
        #expect(try fields("a\n\"closed\"") == [["a"], ["closed"]])
    }

    @Test func recordLongerThanTheCapIsRefusedWithItsLine() throws {
        func parse(_ text: String, limit: Int, chunkSize: Int) throws -> Int {
            var parser = CSVStreamParser(maximumRecordBytes: limit)
            var count = 0
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try bytes[start..<min(bytes.count, start + chunkSize)].withUnsafeBytes {
                    try parser.consume($0) { _ in count += 1 }
                }
            }
            try parser.finish { _ in count += 1 }
            return count
        }
        let long = String(repeating: "x", count: 1000)
        #expect(throws: CSVError.recordTooLong(line: 3, limit: 100)) {
            try parse("h\nok\n\(long)\n", limit: 100, chunkSize: 7)
        }
        // An unterminated quote in a long file fails at the cap, naming the line the record started on.
        #expect(throws: CSVError.recordTooLong(line: 2, limit: 100)) {
            try parse("h\n\"\(long)\n\(long)", limit: 100, chunkSize: 64)
        }
        // Ten thousand empty fields count too: separators are part of the record.
        #expect(throws: CSVError.recordTooLong(line: 1, limit: 100)) {
            try parse(String(repeating: ",", count: 10_000) + "x", limit: 100, chunkSize: 5)
        }
        #expect(try parse("h\n\(String(repeating: "y", count: 99))\n", limit: 100, chunkSize: 3) == 2)
        #expect(CSVStreamParser.defaultMaximumRecordBytes == 1 << 20)
    }

    @Test func invalidUTF8IsReplacedAndFlaggedAndNULBytesAreLocated() throws {
        var parser = CSVStreamParser()
        var seen: [(line: Int, fields: [String], repaired: Bool, nul: Int?)] = []
        let bytes: [UInt8] = Array("id,name\nS1,Caf".utf8) + [0xE9] + Array("\nS\u{0}2,ok\nS3,Café\n".utf8)
        try bytes.withUnsafeBytes { raw in
            try parser.consume(raw) { r in
                seen.append((r.line, (0..<r.count).map { r.string($0) }, r.repairedInvalidUTF8, r.firstFieldWithNUL))
            }
        }
        try parser.finish { _ in }
        #expect(seen.count == 4)
        #expect(seen[1].fields == ["S1", "Caf\u{FFFD}"] && seen[1].repaired && seen[1].nul == nil)
        #expect(seen[2].line == 3 && seen[2].nul == 0 && !seen[2].repaired)
        #expect(seen[3].fields == ["S3", "Café"] && !seen[3].repaired && seen[3].nul == nil)
    }

    @Test func fieldAccessBeyondTheRowIsEmpty() throws {
        var parser = CSVStreamParser()
        var seen = false
        try Array("x\n".utf8).withUnsafeBytes { bytes in
            try parser.consume(bytes) { record in
                #expect(record.field(5).isEmpty)
                #expect(record.field(-1).isEmpty)
                seen = true
            }
        }
        #expect(seen)
    }
}
