import GRDB
import GRDBSQLite
import TransitModel

/// A GTFS file's header: which column holds which field. Names are matched after trimming spaces (real
/// feeds write `" stop_name"`), columns may come in any order, and unknown columns are ignored.
struct TableHeader {
    let file: String
    let names: [String]
    private let indexByName: [String: Int]

    init(file: String, record: CSVRecord) {
        self.file = file
        var names: [String] = []
        var index: [String: Int] = [:]
        for i in 0..<record.count {
            let name = record.string(i).trimmingCharacters(in: .whitespaces)
            names.append(name)
            if index[name] == nil { index[name] = i }
        }
        self.names = names
        self.indexByName = index
    }

    /// The column's position, or -1 when the feed omits this optional column (reads as empty).
    func optional(_ name: String) -> Int { indexByName[name] ?? -1 }

    func required(_ name: String) throws -> Int {
        guard let index = indexByName[name] else { throw ImportError.missingColumn(file: file, column: name) }
        return index
    }

    func has(_ name: String) -> Bool { indexByName[name] != nil }

    func columnName(_ index: Int) -> String { index >= 0 && index < names.count ? names[index] : "?" }
}

/// One data row of a GTFS file with typed accessors that turn a bad value into an error naming the file,
/// line, column and value. Empty fields (or fields missing from a short row) read as nil.
struct GTFSRow {
    let record: CSVRecord
    let header: TableHeader

    var line: Int { record.line }
    var location: String { "\(header.file):\(record.line)" }

    /// The field without surrounding spaces.
    @inline(__always)
    func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> {
        var field = record.field(column)
        while let first = field.first, first == 0x20 || first == 0x09 {
            field = UnsafeBufferPointer(rebasing: field.dropFirst())
        }
        while let last = field.last, last == 0x20 || last == 0x09 {
            field = UnsafeBufferPointer(rebasing: field.dropLast())
        }
        return field
    }

    func string(_ column: Int) -> String? {
        let field = bytes(column)
        return field.isEmpty ? nil : String(decoding: field, as: UTF8.self)
    }

    func requiredString(_ column: Int) throws -> String {
        guard let value = string(column) else { throw invalid(column, "a non-empty value") }
        return value
    }

    func int(_ column: Int) throws -> Int? {
        let field = bytes(column)
        if field.isEmpty { return nil }
        var value = 0, negative = false, digits = 0
        for (i, byte) in field.enumerated() {
            if i == 0 && byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= 0x30 && byte <= 0x39, digits < 18 else { throw invalid(column, "a whole number") }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
        }
        guard digits > 0 else { throw invalid(column, "a whole number") }
        return negative ? -value : value
    }

    func double(_ column: Int) throws -> Double? {
        let field = bytes(column)
        if field.isEmpty { return nil }
        if let value = Self.plainDecimal(field) { return value }
        guard let value = Double(String(decoding: field, as: UTF8.self)), value.isFinite else {
            throw invalid(column, "a decimal number")
        }
        return value
    }

    /// `-?[0-9]+(.[0-9]+)?` with at most 19 digits, as coordinates and distances are written, read without
    /// building a String: when the digits make a whole number below 2^53 and the fraction has at most 22
    /// digits, both it and the power of ten are exact doubles and one correctly rounded division gives the
    /// double nearest the decimal — the value `Double(String)` returns. Anything else: nil (read the slow way).
    @inline(__always)
    static func plainDecimal(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = field[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0, integerDigits = 0, fractionDigits = 0
        var sawPoint = false
        while index < field.count {
            let byte = field[index]
            if byte >= 0x30 && byte <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                digits += 1
                if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits <= 19, integerDigits > 0, !sawPoint || fractionDigits > 0, mantissa <= 1 << 53 else {
            return nil
        }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 10^0 … 10^19, each exactly representable as a double.
    static let exactPowersOfTen: [Double] = (0...19).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    func time(_ column: Int) throws -> Int? {
        let field = bytes(column)
        if field.isEmpty { return nil }
        guard let seconds = GTFSTime.parse(bytes: field) else { throw invalid(column, "a time HH:MM:SS") }
        return seconds
    }

    func date(_ column: Int) throws -> ServiceDate? {
        let field = bytes(column)
        if field.isEmpty { return nil }
        guard let date = ServiceDate.parse(bytes: field) else { throw invalid(column, "a date YYYYMMDD") }
        return date
    }

    /// An optional enumerated field: values outside `allowed` become a counted warning and read as nil,
    /// so an unusual-but-harmless value never blocks an import.
    func enumValue(_ column: Int, allowed: ClosedRange<Int>, warnings: inout ImportWarnings) throws -> Int? {
        guard let value = try int(column) else { return nil }
        guard allowed.contains(value) else {
            warnings.add(
                "\(header.file): unknown \(header.columnName(column)) value (treated as the default)",
                at: "\(location) '\(value)'")
            return nil
        }
        return value
    }

    func invalid(_ column: Int, _ expected: String) -> ImportError {
        .invalidValue(
            file: header.file, line: line, column: header.columnName(column),
            value: String(decoding: bytes(column), as: UTF8.self), expected: expected)
    }
}

/// A prepared INSERT driven through the SQLite C API: binding straight from the CSV's bytes avoids building a
/// String and a boxed argument array for each of millions of rows.
final class BulkInsert {
    private let statement: Statement
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// SQLite copies the bound bytes before `bind` returns (the SQLITE_TRANSIENT destructor).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        connection = db.sqliteConnection!
    }

    @inline(__always) func bind(_ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always) func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds a string; unlike a CSV field, an empty string stays an empty string (nil is NULL).
    @inline(__always) func bind(_ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        var copy = value
        _ = copy.withUTF8 { bytes in
            if let base = bytes.baseAddress, !bytes.isEmpty {
                sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                    Self.transient)
            } else {
                sqlite3_bind_text(handle, index, "", 0, Self.transient)
            }
        }
    }

    /// Binds text bytes, or NULL for an empty field.
    @inline(__always) func bind(_ index: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty {
            sqlite3_bind_null(handle, index)
        } else {
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), Self.transient)
        }
    }

    /// Binds a BLOB (SQLite copies the bytes).
    @inline(__always) func bind(_ index: Int32, blob: UnsafeBufferPointer<UInt8>) {
        sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), Self.transient)
    }

    /// Runs the insert. A constraint violation returns false (the caller knows which key it was and says so);
    /// anything else is a database error. Callers that expect no violation use `insert()`.
    func run() throws -> Bool {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        if code == SQLITE_DONE { return true }
        if code & 0xFF == SQLITE_CONSTRAINT { return false }  // extended codes are on: SQLITE_CONSTRAINT_PRIMARYKEY …
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    /// Runs an insert that must succeed: a constraint violation here is a bug, reported as a database error.
    func insert() throws {
        guard try run() else {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
