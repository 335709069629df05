import Foundation
import GRDB

/// Inserts stop times on a thread of its own while the importer's thread checks the next rows: the rows cross
/// over in batches, at most `depth` ahead, and the importer's thread does not use the database meanwhile (one
/// connection, used by one thread at a time). A row the database refuses (a repeated trip and sequence, a full
/// disk) stops the writing; `check()` and `finish()` report it on the importer's thread, so an import fails on
/// the first bad row in file order, as if it wrote each row itself.
final class StopTimeWriter: @unchecked Sendable {
    static let depth = 3
    static let batchRows = 4096

    struct Row {
        var trip: Int, sequence: Int, stop: Int, arrival: Int?, departure: Int?
        var headsignStart: Int, headsignEnd: Int
        var pickup: Int, dropOff: Int, timepoint: Int, dist: Double?
        var line: Int
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
    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var spare: [Batch] = []
    private var closed = false
    private var writing = false
    private var failure: Failure?
    private var filling = Batch()
    private var thread: Thread?

    init(_ insert: BulkInsert) {
        self.insert = insert
        filling.rows.reserveCapacity(Self.batchRows)
        let thread = Thread { [weak self] in self?.run() }
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
        guard let insert else { return nil }
        return batch.text.withUnsafeBufferPointer { text in
            for row in batch.rows {
                insert.bind(1, row.trip); insert.bind(2, row.sequence); insert.bind(3, row.stop)
                insert.bind(4, row.arrival); insert.bind(5, row.departure)
                insert.bind(6, bytes: UnsafeBufferPointer(rebasing: text[row.headsignStart..<row.headsignEnd]))
                insert.bind(7, row.pickup); insert.bind(8, row.dropOff); insert.bind(9, row.timepoint)
                insert.bind(10, row.dist)
                do {
                    guard try insert.run() else {
                        return .duplicate(line: row.line, trip: row.trip, sequence: row.sequence)
                    }
                } catch {
                    return .database(error)
                }
            }
            return nil
        }
    }
}
