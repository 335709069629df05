import Testing
@testable import TransitStore

@Suite struct CSVStreamParserTests {
    /// Parses `text`, delivered in chunks of `chunkSize` bytes, into rows of strings with their line numbers.
    func parse(_ text: String, chunkSize: Int = 1 << 20) throws -> [(line: Int, fields: [String])] {
        var parser = CSVStreamParser()
        var rows: [(Int, [String])] = []
        let collect: (CSVRecord) -> Void = { record in rows.append((record.line, (0..<record.count).map { record.string($0) })) }
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

    func fields(_ text: String, chunkSize: Int = 1 << 20) throws -> [[String]] { try parse(text, chunkSize: chunkSize).map(\.fields) }

    @Test func lineEndingsAndMissingFinalNewline() throws {
        let expected = [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]]
        #expect(try fields("a,b\n1,2\n3,4\n5,6\n") == expected)
        #expect(try fields("a,b\r\n1,2\r\n3,4\r\n5,6\r\n") == expected)
        #expect(try fields("a,b\r\n1,2\n3,4\r5,6") == expected) // mixed, lone CR, no final newline
    }

    @Test func byteOrderMarkIsDropped() throws {
        #expect(try fields("\u{FEFF}stop_id,stop_name\nS1,Uno\n") == [["stop_id", "stop_name"], ["S1", "Uno"]])
    }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "id,desc\n1,\"Av. Patria, \"\"Casa\"\" de la Cultura\"\n2,\"two\nlines\"\n3,plain\n"
        let rows = try parse(text)
        #expect(rows.map(\.fields) == [["id", "desc"], ["1", "Av. Patria, \"Casa\" de la Cultura"], ["2", "two\nlines"], ["3", "plain"]])
        #expect(rows.map(\.line) == [1, 2, 3, 5]) // the record after a quoted newline starts two lines later
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

    @Test func unterminatedQuoteAtEndOfFileKeepsTheText() throws {
        #expect(try fields("a\n\"open") == [["a"], ["open"]])
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
