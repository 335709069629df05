import Foundation
import GRDB
import SystemSupport

/// Inserts stop times on a thread of its own while the importer's thread checks the next rows: the rows cross
/// over in batches, at most `depth` ahead, and the importer's thread does not use the database meanwhile (one
/// connection, used by one thread at a time). A row the database refuses (a repeated trip and sequence, a full
/// disk) stops the writing; `check()` and `finish()` report it on the importer's thread, so an import fails on
/// the first bad row in file order, as if it wrote each row itself.
///
/// Rows that cannot repeat an earlier trip and sequence (`Row.mayRepeat` false) go in by `rowsPerStatement` per
/// INSERT, which spares SQLite most of its per-statement work (0.13 s of 1.1 s on vilnius ×3's 1.3 M stop times).
/// A statement of many rows that fails leaves some of them written (the staging file has no journal to roll a
/// statement back), so a row that may repeat one goes in alone: the database then refuses exactly that row.
final class StopTimeWriter: @unchecked Sendable {
    static let depth = 3
    static let batchRows = 4096
    static let rowsPerStatement = 32
    /// The columns of one row, in `stop_times`' order.
    static let columns = 10

    struct Row {
        var trip: Int, sequence: Int, stop: Int, arrival: Int?, departure: Int?
        var headsignStart: Int, headsignEnd: Int
        var pickup: Int, dropOff: Int, timepoint: Int, dist: Double?
        var line: Int
        /// False when no earlier row can have this trip and sequence: the trip's rows so far came in one run, in
        /// increasing sequence, and the trip was not met before that run.
        var mayRepeat: Bool
    }

    final class Batch {
        var rows: [Row] = []
        var text: [UInt8] = []
    }

    /// Why the writing stopped: a row whose trip and sequence repeat an earlier one, or a database error.
    enum Failure: Error {
        case duplicate(line: Int, trip: Int, sequence: Int)
        case database(Error)
    }

    /// Let go in `close()`: the connection cannot close while a statement of it lives.
    private var insert: BulkInsert?
    /// `INSERT INTO stop_times` of `rowsPerStatement` rows.
    private var insertMany: BulkInsert?
    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var spare: [Batch] = []
    private var closed = false
    private var writing = false
    private var failure: Failure?
    private var filling = Batch()
    private var thread: Thread?

    /// Writes through `db`'s statements (which it lets go in `close()`).
    init(_ db: Database) throws {
        let row = "(" + Array(repeating: "?", count: Self.columns).joined(separator: ", ") + ")"
        insert = try BulkInsert(db, "INSERT INTO stop_times VALUES \(row)")
        insertMany = try BulkInsert(
            db,
            "INSERT INTO stop_times VALUES "
                + Array(repeating: row, count: Self.rowsPerStatement).joined(separator: ", "))
        filling.rows.reserveCapacity(Self.batchRows)
        let thread = Thread { [weak self] in
            ThreadName.setCurrent("kiosk-import-wr")
            self?.run()
        }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Queues one row (`headsign` is copied).
    @inline(__always)
    func add(_ row: Row, headsign: UnsafeBufferPointer<UInt8>) throws {
        var row = row
        row.headsignStart = filling.text.count
        filling.text.append(contentsOf: headsign)
        row.headsignEnd = filling.text.count
        filling.rows.append(row)
        if filling.rows.count >= Self.batchRows { try hand() }
    }

    /// The failure met so far, if any (without waiting).
    func check() throws {
        if let failure = condition.withLock({ failure }) { throw failure }
    }

    /// Waits until every queued row is written; throws the failure met, if any.
    func finish() throws {
        if !filling.rows.isEmpty { try hand() }
        condition.lock()
        while (!ready.isEmpty || writing) && failure == nil { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Stops the thread (after the rows queued, unless writing failed), waits for it to end and lets the
    /// statement go.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        while thread != nil { condition.wait() }
        insert = nil
        insertMany = nil
        condition.unlock()
    }

    private func hand() throws {
        let batch = filling
        condition.lock()
        while ready.count >= Self.depth && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        ready.append(batch)
        filling = spare.popLast() ?? Batch()
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while ready.isEmpty && !closed { condition.wait() }
            if ready.isEmpty || failure != nil { break }
            let batch = ready.removeFirst()
            writing = true
            condition.unlock()
            let outcome = write(batch)
            batch.rows.removeAll(keepingCapacity: true)
            batch.text.removeAll(keepingCapacity: true)
            condition.lock()
            writing = false
            spare.append(batch)
            if let outcome {
                failure = outcome
                ready.removeAll()
            }
            condition.broadcast()
        }
        thread = nil
        condition.broadcast()
        condition.unlock()
    }

    private func write(_ batch: Batch) -> Failure? {
        guard let insert, let insertMany else { return nil }
        return batch.text.withUnsafeBufferPointer { text in
            func bind(_ row: Row, to statement: BulkInsert, at first: Int32) {
                statement.bind(first, row.trip); statement.bind(first + 1, row.sequence)
                statement.bind(first + 2, row.stop); statement.bind(first + 3, row.arrival)
                statement.bind(first + 4, row.departure)
                statement.bind(
                    first + 5, bytes: UnsafeBufferPointer(rebasing: text[row.headsignStart..<row.headsignEnd]))
                statement.bind(first + 6, row.pickup); statement.bind(first + 7, row.dropOff)
                statement.bind(first + 8, row.timepoint); statement.bind(first + 9, row.dist)
            }
            let rows = batch.rows, many = Self.rowsPerStatement
            var next = 0
            var unrepeatable = 0  // rows[next..<unrepeatable] cannot repeat an earlier row
            while next < rows.count {
                if unrepeatable <= next {
                    unrepeatable = next
                    while unrepeatable < rows.count && !rows[unrepeatable].mayRepeat { unrepeatable += 1 }
                }
                do {
                    if unrepeatable - next >= many {
                        for k in 0..<many { bind(rows[next + k], to: insertMany, at: Int32(k * Self.columns + 1)) }
                        // None of these rows can repeat another: a refusal is a database error, not a duplicate row.
                        try insertMany.insert()
                        next += many
                    } else {
                        let row = rows[next]
                        bind(row, to: insert, at: 1)
                        guard try insert.run() else {
                            return .duplicate(line: row.line, trip: row.trip, sequence: row.sequence)
                        }
                        next += 1
                    }
                } catch {
                    return .database(error)
                }
            }
            return nil
        }
    }
}
