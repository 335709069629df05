import Foundation
import SwiftProtobuf

/// Why bytes are not a usable GTFS-Realtime feed. Each case says what was received, so a person can tell a
/// wrong URL (an HTML page) from a broken download (truncated protobuf).
public enum FeedDecodingError: Error, Equatable, CustomStringConvertible {
    case empty
    /// Text where protobuf was expected: `kind` says what it looks like ("an HTML page", "JSON", "text").
    case notProtobuf(kind: String, start: String)
    /// Bytes that do not decode as a FeedMessage: truncated, garbage, or a different message type.
    case malformed(reason: String, byteCount: Int)
    /// A FeedMessage without its required header.
    case missingHeader(byteCount: Int)
    case tooLarge(byteCount: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty:
            return "the realtime feed is empty (0 bytes)"
        case let .notProtobuf(kind, start):
            return
                "the realtime feed is \(kind), not a GTFS-Realtime protobuf (it starts with '\(start)'); check the URL"
        case let .malformed(reason, count):
            return "the realtime feed (\(count) bytes) is not a valid GTFS-Realtime FeedMessage: \(reason)"
        case let .missingHeader(count):
            return "the realtime feed (\(count) bytes) has no FeedHeader: not a GTFS-Realtime FeedMessage"
        case let .tooLarge(count, limit):
            return "the realtime feed is \(count) bytes, over the \(limit)-byte limit"
        }
    }
}

/// A decoded GTFS-Realtime `FeedMessage` with what every consumer asks of it first.
public struct RealtimeFeed: Sendable {
    /// Counts of what the feed carries.
    public struct Contents: Sendable, Equatable, Codable {
        public var entities = 0
        public var tripUpdates = 0
        public var stopTimeUpdates = 0
        public var vehiclePositions = 0
        public var alerts = 0
        /// Entities flagged `is_deleted` (meaningful only in DIFFERENTIAL feeds).
        public var deleted = 0
        /// Entities carrying none of the three (shapes, stops, trip modifications, or nothing).
        public var other = 0
    }

    /// The header, and the entities carrying alerts or vehicle positions. Trip updates are in `tripUpdates`.
    public var message: TransitRealtime_FeedMessage
    /// Every TripUpdate, in feed order, kept compactly (deleted ones flagged).
    public var tripUpdates: [TripUpdateRecord]
    public var byteCount: Int
    public var contents: Contents
    /// Recoverable oddities found while decoding (missing required fields, a DIFFERENTIAL feed …), with counts.
    public var oddities: [String: Int]

    /// The header's timestamp: when the publisher produced the data (nil when the feed leaves it out, or gives a
    /// value outside `FeedTime.plausibleSeconds`, which `oddities` then counts).
    public var headerTimestamp: Date? {
        message.header.hasTimestamp ? FeedTime.instant(message.header.timestamp) : nil
    }

    /// The alert and vehicle entities (trip updates are in `tripUpdates`).
    public var entities: [TransitRealtime_FeedEntity] { message.entity }

    /// Feeds larger than this are refused before decoding (a full TripUpdates feed of a large city is a few MB).
    public static let defaultSizeLimit = 64 << 20

    /// Entities beyond this many are left out, and counted in `oddities`: the largest real feeds carry tens of
    /// thousands, and each decoded entity costs far more memory than its bytes on the wire.
    public static let maximumEntities = 50_000

    /// Decodes a FeedMessage. Never traps: text, truncated and garbage input become a `FeedDecodingError`.
    /// Required fields are not enforced (real feeds omit them): a missing header version or entity id is
    /// counted in `oddities`; a whole-tree `isInitialized` walk is skipped, as it would cost a third of the decode.
    public static func decode(
        _ data: Data, sizeLimit: Int = RealtimeFeed.defaultSizeLimit
    ) throws(FeedDecodingError) -> RealtimeFeed {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= sizeLimit else { throw .tooLarge(byteCount: data.count, limit: sizeLimit) }
        if let kind = textKind(data) {
            throw .notProtobuf(
                kind: kind,
                start: String(decoding: data.prefix(40), as: UTF8.self)
                    .unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : String($0) }.joined())
        }
        var message: TransitRealtime_FeedMessage
        let splits: [EntitySplit]
        var entitiesLeftOut = 0
        do {
            if data.count >= parallelThreshold, let layout = TopLevelLayout(data, keepingEntities: maximumEntities) {
                entitiesLeftOut = layout.entitiesLeftOut
                (message, splits) = try decodeInParallel(data, layout)
            } else {
                message = try TransitRealtime_FeedMessage(serializedBytes: data, partial: true)
                if message.entity.count > maximumEntities {
                    entitiesLeftOut = message.entity.count - maximumEntities
                    message.entity.removeSubrange(maximumEntities...)
                }
                splits = message.entity.map(EntitySplit.init)
                message.entity = []
            }
        } catch let error as BinaryDecodingError {
            throw .malformed(reason: reason(error), byteCount: data.count)
        } catch {
            throw .malformed(reason: "\(error)", byteCount: data.count)
        }
        guard message.hasHeader else { throw .missingHeader(byteCount: data.count) }

        var contents = Contents()
        var oddities: [String: Int] = [:]
        if entitiesLeftOut > 0 {
            oddities["entities beyond the first \(maximumEntities) left out", default: 0] += entitiesLeftOut
        }
        contents.entities = splits.count
        var tripUpdates: [TripUpdateRecord] = []
        tripUpdates.reserveCapacity(splits.count)
        for split in splits {
            let summary = split.summary
            if summary.isDeleted { contents.deleted += 1 }
            if let record = split.tripUpdate {
                tripUpdates.append(record)
                contents.tripUpdates += 1
                contents.stopTimeUpdates += record.stopTimeUpdate.count
            }
            if let entity = split.kept {
                message.entity.append(entity)
                if entity.hasVehicle { contents.vehiclePositions += 1 }
                if entity.hasAlert { contents.alerts += 1 }
            }
            if summary.implausiblePeriodBounds > 0 {
                oddities["alert active_period bound outside 2000–2100 (read as open-ended)", default: 0] +=
                    summary.implausiblePeriodBounds
            }
            if summary.kinds == 0 { contents.other += 1 }
            if summary.kinds > 1 {
                oddities["entity carrying more than one of trip_update, vehicle and alert", default: 0] += 1
            }
            if !summary.hasID { oddities["entity without its required id", default: 0] += 1 }
        }
        if !message.header.hasGtfsRealtimeVersion {
            oddities["header without gtfs_realtime_version", default: 0] += 1
        } else if !["1.0", "2.0"].contains(message.header.gtfsRealtimeVersion) {
            oddities["gtfs_realtime_version '\(String(message.header.gtfsRealtimeVersion.prefix(16)))'", default: 0] +=
                1
        }
        if !message.header.hasTimestamp {
            oddities["header without timestamp (age unknown)", default: 0] += 1
        } else if FeedTime.instant(message.header.timestamp) == nil {
            oddities[
                "header timestamp \(message.header.timestamp) is outside 2000–2100 (ignored: age unknown)", default: 0] +=
                1
        }
        if message.header.incrementality == .differential {
            oddities["DIFFERENTIAL feed (read as a full dataset)", default: 0] += 1
        }
        return RealtimeFeed(
            message: message, tripUpdates: tripUpdates, byteCount: data.count, contents: contents, oddities: oddities)
    }

    /// Reads and decodes a file; a read failure is reported as `FeedReadError`.
    public static func read(path: String, sizeLimit: Int = RealtimeFeed.defaultSizeLimit) throws -> RealtimeFeed {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > sizeLimit { throw FeedDecodingError.tooLarge(byteCount: size, limit: sizeLimit) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw FeedReadError(path: path, reason: error.localizedDescription)
        }
        return try decode(data, sizeLimit: sizeLimit)
    }

    /// What text the bytes look like, when they are text: a protobuf FeedMessage starts with 0x0A (field 1,
    /// the header), never with '<' or '{'.
    static func textKind(_ data: Data) -> String? {
        if data.first == 0x0A { return nil }  // field 1 (the header), length-delimited: how feeds start
        guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else {
            return "blank text"
        }
        switch first {
        case UInt8(ascii: "<"):
            let head = String(decoding: data.prefix(256), as: UTF8.self).lowercased()
            return head.contains("<html") || head.contains("<!doctype html") ? "an HTML page" : "XML or HTML"
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return "JSON"
        default:
            let sample = data.prefix(512)
            let printable = sample.filter { (0x20...0x7E).contains($0) || [0x09, 0x0A, 0x0D].contains($0) }.count
            return printable == sample.count && sample.count >= 16 ? "text" : nil
        }
    }

    static func reason(_ error: BinaryDecodingError) -> String {
        switch error {
        case .truncated: return "it ends in the middle of a field (truncated download?)"
        case .malformedProtobuf: return "malformed protobuf data (garbage, or not a FeedMessage)"
        case .invalidUTF8: return "a text field is not valid UTF-8"
        case .messageDepthLimit: return "messages nested too deeply"
        case .missingRequiredFields: return "required fields are missing"
        default: return "\(error)"
        }
    }
}

// MARK: - Parallel decoding of large feeds

extension RealtimeFeed {
    /// Feeds from this size on are decoded entity by entity on all cores (a 50,000-update TripUpdates feed is
    /// about 1.2 MB); smaller ones in one swift-protobuf call.
    static let parallelThreshold = 256 << 10

    /// Where the FeedMessage's own fields lie: the header (field 1) and each entity (field 2), both
    /// length-delimited. Nil for anything else at the top level (extensions, unknown fields, a repeated header,
    /// truncation), which the plain decoder then handles and reports. Entities past `keepingEntities` are only
    /// counted (a hostile feed's millions of ranges are not kept).
    struct TopLevelLayout {
        var header: Range<Int>?
        var entities: [Range<Int>] = []
        var entitiesLeftOut = 0

        init?(_ data: Data, keepingEntities limit: Int = .max) {
            let parsed: Bool = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
                var offset = 0
                func varint() -> UInt64? {
                    var value: UInt64 = 0, shift: UInt64 = 0
                    while offset < bytes.count && shift < 64 {
                        let byte = bytes[offset]
                        offset += 1
                        value |= UInt64(byte & 0x7F) << shift
                        if byte & 0x80 == 0 { return value }
                        shift += 7
                    }
                    return nil
                }
                while offset < bytes.count {
                    guard let key = varint(), key & 7 == 2, let length = varint(),
                        length <= UInt64(bytes.count - offset)
                    else { return false }
                    let range = offset..<(offset + Int(length))
                    offset = range.upperBound
                    switch key >> 3 {
                    case 1:
                        guard header == nil else { return false }
                        header = range
                    case 2:
                        if entities.count < limit { entities.append(range) } else { entitiesLeftOut += 1 }
                    default:
                        return false
                    }
                }
                return true
            }
            guard parsed else { return nil }
        }
    }

    /// Decodes each entity with swift-protobuf, chunks of them concurrently, and splits it at once (a trip update
    /// becomes its compact record and the message is dropped); the result is what the plain path gives.
    static func decodeInParallel(
        _ data: Data, _ layout: TopLevelLayout
    ) throws -> (TransitRealtime_FeedMessage, [EntitySplit]) {
        let base = data.startIndex
        var message = TransitRealtime_FeedMessage()
        if let header = layout.header {
            message.header = try TransitRealtime_FeedHeader(
                serializedBytes: data[(base + header.lowerBound)..<(base + header.upperBound)], partial: true)
        }
        let ranges = layout.entities
        let results = ParallelSlots<EntitySplit>(count: ranges.count)
        let chunks = min(ranges.count, ProcessInfo.processInfo.activeProcessorCount * 4)
        if chunks > 0 {
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = ranges.count * chunk / chunks, end = ranges.count * (chunk + 1) / chunks
                for index in start..<end {
                    let range = ranges[index]
                    do {
                        let entity = try TransitRealtime_FeedEntity(
                            serializedBytes: data[(base + range.lowerBound)..<(base + range.upperBound)], partial: true)
                        results.store(EntitySplit(entity), at: index)
                    } catch {
                        results.fail(error)
                        return
                    }
                }
            }
        }
        if let error = results.error { throw error }
        return (message, results.takeValues())
    }
}

/// One decoded entity, taken apart: its trip update as a compact record, the entity itself only when it carries an
/// alert or a vehicle position (what `AlertIndex` and `rt inspect` read), and the facts `decode` counts.
struct EntitySplit: Sendable {
    struct Summary: Sendable {
        var isDeleted = false
        var hasID = false
        /// How many of trip_update, vehicle and alert it carries.
        var kinds = 0
        var implausiblePeriodBounds = 0
    }

    var tripUpdate: TripUpdateRecord?
    var kept: TransitRealtime_FeedEntity?
    var summary = Summary()

    init(_ entity: TransitRealtime_FeedEntity) {
        summary.isDeleted = entity.isDeleted
        summary.hasID = entity.hasID
        if entity.hasTripUpdate {
            tripUpdate = TripUpdateRecord(entity.tripUpdate, isDeleted: entity.isDeleted)
            summary.kinds += 1
        }
        if entity.hasVehicle { summary.kinds += 1 }
        if entity.hasAlert {
            summary.kinds += 1
            for period in entity.alert.activePeriod {
                if period.start != 0 && FeedTime.instant(period.start) == nil
                    || period.end != 0 && FeedTime.instant(period.end) == nil
                {
                    summary.implausiblePeriodBounds += 1
                }
            }
        }
        if entity.hasVehicle || entity.hasAlert {
            var kept = entity
            kept.clearTripUpdate()
            self.kept = kept
        }
    }
}

/// Write-once slots filled by concurrent workers, each at its own index.
final class ParallelSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()
    private(set) var error: (any Error)?

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ value: Value, at index: Int) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func fail(_ error: any Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }

    /// The values, every slot filled; the slots are emptied (no second copy of a large result stays alive).
    func takeValues() -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(slots.count)
        for index in slots.indices {
            values.append(slots[index]!)
            slots[index] = nil
        }
        slots = []
        return values
    }
}

/// A realtime feed file that could not be read.
public struct FeedReadError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot read the realtime feed \(path): \(reason)" }
}
