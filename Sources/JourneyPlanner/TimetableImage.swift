// A compiled `Timetable` as a file that is used where it lies: the planner's buffers point straight into the
// (memory-mapped) bytes, so opening one costs a header check and one pass of index checks, never a parse.
//
// Layout, native byte order (the header records it and the size of `Int`; a file from another kind of machine
// is refused, not converted):
//
//     0   magic "SKTTIMG\0"            8 bytes
//     8   format version               UInt32
//     12  byte-order mark 0x01020304   UInt32
//     16  MemoryLayout<Int>.size       UInt32
//     20  section count                UInt32
//     24  file size                    UInt64
//     32  header length                UInt64   (fixed part, section table, identity, metadata; 64-aligned)
//     40  stops, trips, patterns, stop events, minimum transfer seconds   5 × Int64
//     80  identity length, metadata length                                2 × UInt32
//     88  extra section count, 0                                          2 × UInt32
//     96  header checksum (FNV-1a 64 of the header's bytes, this field read as 0)   UInt64
//     104 section table: per section id UInt32, element size UInt32, offset UInt64, count UInt64 (24 bytes)
//     …   identity (the caller's key, e.g. a feed hash), metadata (the caller's bytes), padding
//     …   sections, each starting at a multiple of 64 bytes
//
// Every section offset and count is checked against the file's size, every count against the header's, and
// every index the planner follows (pattern, stop, trip, position, CSR bounds) against what it indexes, before
// a buffer is handed out: a truncated, damaged or hostile file is an error naming the problem, never a read
// outside the file. Times are checked to lie in `TimetableBuilder.timeRange`, so the planner's arithmetic
// cannot overflow.

/// The sections of a timetable image, with their element types.
enum TimetableSection: UInt32, CaseIterable, Sendable {
    case patternStopStart = 1, patternStops, patternFlags, patternTripStart, patternTimeStart
    case arrivals, departures, tripPattern, tripRef, tripRoute
    case stopPatternStart, stopPatternPattern, stopPatternPosition
    case walkOutStart, walkOutStop, walkOutSeconds, walkInStart, walkInStop, walkInSeconds
    case transferOutStart, transferOutStop, transferOutSeconds, transferInStart, transferInStop, transferInSeconds
    case changeSeconds

    var elementSize: Int {
        switch self {
        case .patternFlags: 1
        case .tripRef, .tripRoute: MemoryLayout<Int>.size
        default: 4
        }
    }

    var name: String { "\(self)" }
}

/// Why an image cannot be used. `description` says what is wrong in a person's words; the caller adds the path.
public struct TimetableImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not a timetable image at all (wrong magic, too short for a header).
        case notAnImage
        /// An image of another format version, byte order or word size: rebuild it.
        case incompatible
        /// An image whose header or sections do not add up: truncated, overwritten or damaged.
        case damaged
    }

    public var kind: Kind
    public var reason: String

    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }

    static func damaged(_ reason: String) -> Self { Self(kind: .damaged, reason: reason) }
}

/// What `TimetableImage.read` found: the timetable over the image's bytes and the caller's data stored beside it.
/// Everything here points into the bytes, which `owner` keeps alive.
public struct LoadedTimetableImage: @unchecked Sendable {
    public let timetable: Timetable
    /// The key the writer gave (e.g. the feed hash and the window): compare it before using the timetable.
    public let identity: String
    /// The writer's own bytes (e.g. JSON describing the service days).
    public let metadata: [UInt8]
    /// The writer's extra `Int32` columns, in the order given.
    public let extras: [UnsafeBufferPointer<Int32>]
    /// Keeps the bytes alive (the mapped file).
    public let owner: AnyObject
}

/// Writes and reads the binary image of a compiled `Timetable`.
public enum TimetableImage {
    /// Bumped whenever the layout or the meaning of a section changes; an image of another version is refused.
    /// 2: a change by a walk takes at least `minTransferSeconds` (section `transfers`).
    public static let formatVersion: UInt32 = 2
    static let magic: [UInt8] = Array("SKTTIMG\0".utf8)
    static let fixedHeaderLength = 104
    static let tableEntryLength = 24
    static let alignment = 64
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let extraSectionBase: UInt32 = 1000
    /// Identity and metadata are small (a hash, a few dates); anything larger is a damaged length.
    static let maximumIdentityLength = 4096
    static let maximumMetadataLength = 1 << 20

    /// Writes `timetable`, the caller's `identity` and `metadata` and its `extras` columns as one image, handing
    /// the bytes to `sink` in order (a file writer; the caller makes the file appear atomically).
    /// - Returns: the number of bytes written.
    @discardableResult
    public static func write(
        _ timetable: Timetable, identity: String, metadata: [UInt8] = [], extras: [[Int32]] = [],
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        let s = timetable.storage
        let identityBytes = Array(identity.utf8)
        precondition(identityBytes.count <= maximumIdentityLength, "identity too long")
        precondition(metadata.count <= maximumMetadataLength, "metadata too long")
        let sectionCount = TimetableSection.allCases.count + extras.count
        let headerLength = padded(
            fixedHeaderLength + sectionCount * tableEntryLength + identityBytes.count + metadata.count)

        // Section placement.
        var entries: [(id: UInt32, elementSize: Int, offset: Int, count: Int)] = []
        var offset = headerLength
        for section in TimetableSection.allCases {
            let bytes = s.bytes(of: section)
            entries.append((section.rawValue, section.elementSize, offset, bytes.count / section.elementSize))
            offset = padded(offset + bytes.count)
        }
        for (i, column) in extras.enumerated() {
            entries.append((extraSectionBase + UInt32(i), 4, offset, column.count))
            offset = padded(offset + column.count * 4)
        }
        let fileSize = offset

        var header = [UInt8](repeating: 0, count: headerLength)
        header.withUnsafeMutableBytes { h in
            for (i, byte) in magic.enumerated() { h[i] = byte }
            h.storeBytes(of: formatVersion, toByteOffset: 8, as: UInt32.self)
            h.storeBytes(of: byteOrderMark, toByteOffset: 12, as: UInt32.self)
            h.storeBytes(of: UInt32(MemoryLayout<Int>.size), toByteOffset: 16, as: UInt32.self)
            h.storeBytes(of: UInt32(sectionCount), toByteOffset: 20, as: UInt32.self)
            h.storeBytes(of: UInt64(fileSize), toByteOffset: 24, as: UInt64.self)
            h.storeBytes(of: UInt64(headerLength), toByteOffset: 32, as: UInt64.self)
            for (i, value) in [s.stopCount, s.tripCount, s.patternCount, s.eventCount, s.minTransferSeconds]
                .enumerated()
            {
                h.storeBytes(of: Int64(value), toByteOffset: 40 + 8 * i, as: Int64.self)
            }
            h.storeBytes(of: UInt32(identityBytes.count), toByteOffset: 80, as: UInt32.self)
            h.storeBytes(of: UInt32(metadata.count), toByteOffset: 84, as: UInt32.self)
            h.storeBytes(of: UInt32(extras.count), toByteOffset: 88, as: UInt32.self)
            var at = fixedHeaderLength
            for entry in entries {
                h.storeBytes(of: entry.id, toByteOffset: at, as: UInt32.self)
                h.storeBytes(of: UInt32(entry.elementSize), toByteOffset: at + 4, as: UInt32.self)
                h.storeBytes(of: UInt64(entry.offset), toByteOffset: at + 8, as: UInt64.self)
                h.storeBytes(of: UInt64(entry.count), toByteOffset: at + 16, as: UInt64.self)
                at += tableEntryLength
            }
            for (i, byte) in identityBytes.enumerated() { h[at + i] = byte }
            at += identityBytes.count
            for (i, byte) in metadata.enumerated() { h[at + i] = byte }
            h.storeBytes(of: checksum(UnsafeRawBufferPointer(h)), toByteOffset: 96, as: UInt64.self)
        }

        let zeros = [UInt8](repeating: 0, count: alignment)
        var written = 0
        func emit(_ bytes: UnsafeRawBufferPointer) throws {
            if bytes.count > 0 { try sink(bytes) }
            written += bytes.count
            let pad = padded(written) - written
            if pad > 0 {
                try zeros.withUnsafeBytes { z in try sink(UnsafeRawBufferPointer(rebasing: z[0..<pad])) }
                written += pad
            }
        }
        try header.withUnsafeBytes { h in try emit(h) }
        for section in TimetableSection.allCases { try emit(s.bytes(of: section)) }
        for column in extras { try column.withUnsafeBytes { c in try emit(c) } }
        precondition(written == fileSize, "image layout and bytes written disagree")
        return written
    }

    /// Checks `bytes` (a whole image, e.g. a mapped file) and returns the timetable over them. `owner` must keep
    /// the bytes alive and unchanged; the timetable and everything returned retain it.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, owner: AnyObject
    ) throws(TimetableImageError) -> LoadedTimetableImage {
        let size = bytes.count
        guard size >= fixedHeaderLength, let base = bytes.baseAddress else {
            throw TimetableImageError(
                kind: .notAnImage, reason: "\(size) bytes: too short for a timetable image header (\(fixedHeaderLength))")
        }
        guard Array(bytes[0..<8]) == magic else {
            throw TimetableImageError(kind: .notAnImage, reason: "not a timetable image (no SKTTIMG magic)")
        }
        func u32(_ at: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
        func u64(_ at: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        func i64(_ at: Int) -> Int64 { bytes.loadUnaligned(fromByteOffset: at, as: Int64.self) }
        guard u32(8) == formatVersion else {
            throw TimetableImageError(
                kind: .incompatible, reason: "format version \(u32(8)), this program reads version \(formatVersion)")
        }
        guard u32(12) == byteOrderMark, u32(16) == UInt32(MemoryLayout<Int>.size) else {
            throw TimetableImageError(kind: .incompatible, reason: "written on a machine of another byte order or word size")
        }
        let declaredSize = u64(24)
        guard declaredSize == UInt64(size) else {
            throw .damaged("the header says \(declaredSize) bytes, the file has \(size) (truncated or appended to)")
        }
        let sectionCount = Int(u32(20))
        let identityLength = Int(u32(80)), metadataLength = Int(u32(84)), extraCount = Int(u32(88))
        let headerLength = u64(32)
        guard sectionCount == TimetableSection.allCases.count + extraCount, extraCount <= 64,
            identityLength <= maximumIdentityLength, metadataLength <= maximumMetadataLength,
            headerLength
                == UInt64(
                    padded(fixedHeaderLength + sectionCount * tableEntryLength + identityLength + metadataLength)),
            headerLength <= UInt64(size)
        else {
            throw .damaged("the header's lengths do not add up (\(sectionCount) sections, header \(headerLength) bytes)")
        }
        let header = UnsafeRawBufferPointer(start: base, count: Int(headerLength))
        guard checksum(header) == u64(96) else { throw .damaged("the header's checksum does not match") }

        let counts = stride(from: 40, to: 80, by: 8).map { i64($0) }
        guard counts.allSatisfy({ $0 >= 0 && $0 < Int64(Int32.max) }) else {
            throw .damaged("a count in the header is out of range: \(counts)")
        }
        let stopCount = Int(counts[0]), tripCount = Int(counts[1]), patternCount = Int(counts[2])
        let eventCount = Int(counts[3]), minTransferSeconds = Int(counts[4])
        guard TimetableBuilder.durationRange.contains(minTransferSeconds) else {
            throw .damaged("minimum transfer \(minTransferSeconds) s is out of range")
        }

        // The section table: every section inside the file, aligned, with the expected element size.
        var sections: [UInt32: UnsafeRawBufferPointer] = [:]
        var at = fixedHeaderLength
        for _ in 0..<sectionCount {
            let id = u32(at), elementSize = Int(u32(at + 4)), offset = u64(at + 8), count = u64(at + 16)
            at += tableEntryLength
            let expected =
                id >= extraSectionBase ? (id - extraSectionBase < UInt32(extraCount) ? 4 : nil)
                : TimetableSection(rawValue: id)?.elementSize
            guard let expected, expected == elementSize, sections[id] == nil else {
                throw .damaged("unknown, repeated or mis-sized section \(id) in the section table")
            }
            let name = TimetableSection(rawValue: id)?.name ?? "extra \(id - extraSectionBase)"
            guard offset % UInt64(alignment) == 0, offset >= headerLength, count <= UInt64(size),
                offset <= UInt64(size), count * UInt64(elementSize) <= UInt64(size) - offset
            else {
                throw .damaged(
                    "section '\(name)' (\(count) × \(elementSize) bytes at \(offset)) lies outside the file's \(size) bytes")
            }
            sections[id] = UnsafeRawBufferPointer(start: base + Int(offset), count: Int(count) * elementSize)
        }
        let identity = String(decoding: bytes[at..<at + identityLength], as: UTF8.self)
        let metadata = Array(bytes[at + identityLength..<at + identityLength + metadataLength])

        let arena = Arena()
        arena.retain(owner, bytes: size)
        let storage = TimetableStorage(
            arena: arena, stopCount: stopCount, tripCount: tripCount, patternCount: patternCount,
            eventCount: eventCount, minTransferSeconds: minTransferSeconds
        ) { sections[$0.rawValue]! }
        try validate(storage)
        let extras = (0..<extraCount).map { sections[extraSectionBase + UInt32($0)]!.bindMemory(to: Int32.self) }
        return LoadedTimetableImage(
            timetable: Timetable(storage: storage), identity: identity, metadata: metadata, extras: extras,
            owner: owner)
    }

    /// Checks every count and every index the planner follows, and the times' range.
    static func validate(_ s: TimetableStorage) throws(TimetableImageError) {
        let n = s.stopCount, patterns = s.patternCount, trips = s.tripCount, events = s.eventCount
        func count(_ name: String, _ actual: Int, _ expected: Int) throws(TimetableImageError) {
            guard actual == expected else {
                throw .damaged("section '\(name)' has \(actual) entries, \(expected) expected")
            }
        }
        /// CSR offsets: `rows + 1` non-decreasing values from 0 to `total`.
        func offsets(_ name: String, _ b: UnsafeBufferPointer<Int32>, rows: Int, total: Int) throws(TimetableImageError) {
            try count(name, b.count, rows + 1)
            guard b[0] == 0, Int(b[rows]) == total else { throw .damaged("section '\(name)' does not span 0..<\(total)") }
            var previous: Int32 = 0
            for v in b {
                guard v >= previous else { throw .damaged("section '\(name)' is not in order") }
                previous = v
            }
        }
        func indexes(_ name: String, _ b: UnsafeBufferPointer<Int32>, below limit: Int) throws(TimetableImageError) {
            var bad = false
            for v in b { bad = bad || v < 0 || Int(v) >= limit }
            if bad { throw .damaged("section '\(name)' holds an index outside 0..<\(limit)") }
        }

        try offsets("patternStopStart", s.patternStopStart, rows: patterns, total: s.patternStops.count)
        try count("patternFlags", s.patternFlags.count, s.patternStops.count)
        try indexes("patternStops", s.patternStops, below: n)
        try offsets("patternTripStart", s.patternTripStart, rows: patterns, total: trips)
        try count("patternTimeStart", s.patternTimeStart.count, patterns)
        try count("arrivals", s.arrivals.count, events)
        try count("departures", s.departures.count, events)
        try count("tripPattern", s.tripPattern.count, trips)
        try count("tripRef", s.tripRef.count, trips)
        try count("tripRoute", s.tripRoute.count, trips)
        // Times: in range, and ordered as the compiler leaves them — along each trip, and between the trips of a
        // pattern at every position (what lets the planner binary-search and keep one current trip).
        let low = Int32(TimetableBuilder.timeRange.lowerBound), high = Int32(TimetableBuilder.timeRange.upperBound)
        let arr = s.arrivals, dep = s.departures
        var nextTime = 0
        for p in 0..<patterns {
            let length = Int(s.patternStopStart[p + 1] - s.patternStopStart[p])
            let rows = Int(s.patternTripStart[p + 1] - s.patternTripStart[p])
            guard length >= 2, rows >= 1, Int(s.patternTimeStart[p]) == nextTime, length * rows <= events - nextTime
            else {
                throw .damaged("pattern \(p): \(length) stops, \(rows) trips, times at \(s.patternTimeStart[p])")
            }
            for t in Int(s.patternTripStart[p])..<Int(s.patternTripStart[p + 1]) where Int(s.tripPattern[t]) != p {
                throw .damaged("trip \(t) is listed in pattern \(p) but says pattern \(s.tripPattern[t])")
            }
            var bad = false
            for r in 0..<rows {
                let row = nextTime + r * length
                bad = bad || arr[row] < low || dep[row + length - 1] > high
                for i in 0..<length {
                    bad = bad || arr[row + i] > dep[row + i]
                    if i > 0 { bad = bad || dep[row + i - 1] > arr[row + i] }
                    if r > 0 { bad = bad || arr[row - length + i] > arr[row + i] || dep[row - length + i] > dep[row + i] }
                }
            }
            if bad { throw .damaged("pattern \(p): a stop time is out of range or out of order") }
            nextTime += length * rows
        }
        guard nextTime == events else { throw .damaged("the patterns' times add up to \(nextTime), not \(events)") }

        // The stop → (pattern, position) lists are derived from the patterns' stops: they must be exactly what the
        // compiler derives (else forward and reverse searches would see different networks).
        try offsets("stopPatternStart", s.stopPatternStart, rows: n, total: s.stopPatternPattern.count)
        try count("stopPatternPattern", s.stopPatternPattern.count, s.patternStops.count)
        try count("stopPatternPosition", s.stopPatternPosition.count, s.stopPatternPattern.count)
        var cursor = Array(s.stopPatternStart.dropLast())
        for p in 0..<patterns {
            let base = Int(s.patternStopStart[p])
            for i in 0..<(Int(s.patternStopStart[p + 1]) - base) {
                let stop = Int(s.patternStops[base + i])
                let slot = Int(cursor[stop])
                guard slot < Int(s.stopPatternStart[stop + 1]), Int(s.stopPatternPattern[slot]) == p,
                    Int(s.stopPatternPosition[slot]) == i
                else { throw .damaged("the stop lists do not match the patterns' stops (stop \(stop))") }
                cursor[stop] += 1
            }
        }
        let adjacencies: [(String, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>)] = [
            ("walkOut", s.walkOutStart, s.walkOutStop, s.walkOutSeconds),
            ("walkIn", s.walkInStart, s.walkInStop, s.walkInSeconds),
            ("transferOut", s.transferOutStart, s.transferOutStop, s.transferOutSeconds),
            ("transferIn", s.transferInStart, s.transferInStop, s.transferInSeconds),
        ]
        let longest = Int32(TimetableBuilder.durationRange.upperBound)
        for (name, start, stop, seconds) in adjacencies {
            try offsets(name + "Start", start, rows: n, total: stop.count)
            try count(name + "Seconds", seconds.count, stop.count)
            try indexes(name + "Stop", stop, below: n)
            for v in seconds where v < 0 || v > longest {
                throw .damaged("section '\(name)Seconds' holds \(v) s, out of range")
            }
        }
        // Each "in" list is exactly the compiler's transpose of its "out" list.
        for (out, into) in [(adjacencies[0], adjacencies[1]), (adjacencies[2], adjacencies[3])] {
            guard into.2.count == out.2.count else { throw .damaged("'\(into.0)' is not the reverse of '\(out.0)'") }
            var cursor = Array(into.1.dropLast())
            for from in 0..<n {
                for e in Int(out.1[from])..<Int(out.1[from + 1]) {
                    let to = Int(out.2[e])
                    let slot = Int(cursor[to])
                    guard slot < Int(into.1[to + 1]), Int(into.2[slot]) == from, into.3[slot] == out.3[e] else {
                        throw .damaged("'\(into.0)' is not the reverse of '\(out.0)' (stop \(to))")
                    }
                    cursor[to] += 1
                }
            }
        }
        try count("changeSeconds", s.changeSeconds.count, n)
        for v in s.changeSeconds where v < -1 || v > longest {
            throw .damaged("section 'changeSeconds' holds \(v) s, out of range")
        }
    }

    static func padded(_ offset: Int) -> Int { (offset + alignment - 1) / alignment * alignment }

    /// FNV-1a, 64 bits, over the header with its checksum field (bytes 96..<104) read as zeros.
    static func checksum(_ header: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (i, byte) in header.enumerated() {
            hash = (hash ^ UInt64((96..<104).contains(i) ? 0 : byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
