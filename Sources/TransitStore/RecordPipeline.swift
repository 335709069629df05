import Crypto
import Foundation
import SystemSupport

/// Reads one feed file on a second thread — inflating it (with the zip's CRC-32 and size checks), hashing it,
/// splitting it into records with the per-record text checks — while the importer's thread turns the records
/// before into rows and inserts them. Records cross over in batches (one per chunk read), at most
/// `RecordPipeline.depth` ahead, so memory stays bounded by a few chunks.
///
/// The errors are those of a reading on one thread, in the same order: the records before a CSV error are all
/// handed over before it; a row refused by the importer stops the reading (the rest of a zip entry is still
/// inflated, so that a corrupted entry is reported as such rather than as whatever its damage looked like).
final class RecordPipeline: @unchecked Sendable {
    static let depth = 3

    /// Records copied out of the parser's scratch buffers.
    final class Batch {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var records: [Entry] = []
        /// Bytes of the file read when this batch was full (for progress).
        var bytesRead: Int64 = 0

        struct Entry {
            var byteStart: Int, byteEnd: Int, endStart: Int, endEnd: Int, line: Int
            var repaired: Bool, nulField: Int?, endsWithoutNewline: Bool
        }

        func append(_ record: CSVRecord) {
            let byteStart = bytes.count, endStart = ends.count
            bytes.append(contentsOf: record.bytes)
            ends.append(contentsOf: record.ends)
            records.append(
                Entry(
                    byteStart: byteStart, byteEnd: bytes.count, endStart: endStart, endEnd: ends.count,
                    line: record.line, repaired: record.repairedInvalidUTF8, nulField: record.firstFieldWithNUL,
                    endsWithoutNewline: record.endsWithoutNewline))
        }

        func reset() {
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }

        /// Hands each record to `body`, in order, as the parser did.
        func forEach(_ body: (CSVRecord) throws -> Void) rethrows {
            try bytes.withUnsafeBufferPointer { allBytes in
                try ends.withUnsafeBufferPointer { allEnds in
                    for entry in records {
                        try body(
                            CSVRecord(
                                bytes: UnsafeBufferPointer(rebasing: allBytes[entry.byteStart..<entry.byteEnd]),
                                ends: UnsafeBufferPointer(rebasing: allEnds[entry.endStart..<entry.endEnd]),
                                line: entry.line, repairedInvalidUTF8: entry.repaired,
                                firstFieldWithNUL: entry.nulField, endsWithoutNewline: entry.endsWithoutNewline))
                    }
                }
            }
        }
    }

    /// A CSV error, which comes after the records before it.
    private struct RecordError: Error { let error: Error }
    /// The importer refused a row: reading stops.
    private struct Stopped: Error {}

    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var spare: [Batch] = []
    private var done = false
    private var failure: Error?
    private var stopped = false
    /// The feed hash after the file's bytes (when the reading hashes).
    private(set) var hasher: SHA256

    private init(hasher: SHA256) { self.hasher = hasher }

    /// Reads `file` from `source`, calling `body` for each record on this thread (after `hasher` took in the
    /// file's bytes, unless `hash` is false); returns the hasher. `progress` is called after each batch with the
    /// bytes read so far.
    static func read(
        _ file: String, from source: FeedSource, maximumRecordBytes: Int, hashing hasher: SHA256?,
        progress: (Int64) -> Void, _ body: (CSVRecord) throws -> Void
    ) throws -> SHA256? {
        let pipeline = RecordPipeline(hasher: hasher ?? SHA256())
        let hashing = hasher != nil
        let reader = Thread { [pipeline, source = UncheckedSendable(source)] in
            ThreadName.setCurrent("kiosk-import-rd")
            pipeline.produce(file, from: source.value, maximumRecordBytes: maximumRecordBytes, hashing: hashing)
        }
        reader.stackSize = 1 << 20
        reader.start()
        var refusal: Error?
        while let batch = pipeline.next() {
            if refusal == nil {
                do {
                    try batch.forEach(body)
                    progress(batch.bytesRead)
                } catch {
                    refusal = error
                    pipeline.stop()
                }
            }
            pipeline.recycle(batch)
        }
        // `next()` returned nil: the reader has finished and touches nothing any more.
        let failure = pipeline.failure
        if let refusal {
            // A zip entry found corrupted (or a read that failed) is the cause to report, not what its damage did.
            if let failure, !(failure is RecordError), !(failure is Stopped) { throw failure }
            throw refusal
        }
        if let failure { throw (failure as? RecordError)?.error ?? failure }
        return hasher == nil ? nil : pipeline.hasher
    }

    /// The reading thread.
    private func produce(_ file: String, from source: FeedSource, maximumRecordBytes: Int, hashing: Bool) {
        var parser = CSVStreamParser(maximumRecordBytes: maximumRecordBytes)
        var read: Int64 = 0
        var batch = takeSpare()
        do {
            try source.stream(file) { chunk in
                if isStopped { throw Stopped() }
                if hashing { hasher.update(bufferPointer: chunk) }
                do { try parser.consume(chunk, batch.append) } catch { throw RecordError(error: error) }
                read += Int64(chunk.count)
                batch.bytesRead = read
                hand(batch)
                batch = takeSpare()
            }
            do { try parser.finish(batch.append) } catch { throw RecordError(error: error) }
            batch.bytesRead = read
            hand(batch)
            end(nil)
        } catch {
            end(error)
        }
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    private func takeSpare() -> Batch {
        condition.withLock {
            if let batch = spare.popLast() { return batch }
            return Batch()
        }
    }

    /// Queues a batch, waiting while `depth` batches wait already (unless the importer stopped reading).
    private func hand(_ batch: Batch) {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.depth && !stopped { condition.wait() }
        if stopped {
            batch.reset()
            spare.append(batch)
        } else {
            ready.append(batch)
        }
        condition.broadcast()
    }

    private func end(_ error: Error?) {
        condition.withLock {
            failure = error
            done = true
            condition.broadcast()
        }
    }

    /// The next batch in order, or nil once the reader has finished and every batch was taken.
    private func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !done { condition.wait() }
        if ready.isEmpty { return nil }
        let batch = ready.removeFirst()
        condition.broadcast()
        return batch
    }

    private func recycle(_ batch: Batch) {
        batch.reset()
        condition.withLock { spare.append(batch) }
    }

    private func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}

/// A value handed to the reading thread, which alone uses it until the reading ends.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
