import Foundation
import GRDB
import TransitModel

/// A shape's points as stored in `shapes.points`: microdegrees (latitude, longitude), the first point absolute
/// and each next one as the difference from the previous, every number a zigzag LEB128 varint. A simplified
/// city route of a few hundred points takes one or two kilobytes.
public enum ShapeCoding {
    /// Encodes points given in microdegrees.
    public static func encode(_ points: [(lat: Int32, lon: Int32)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 4)
        var previous: (lat: Int32, lon: Int32) = (0, 0)
        for point in points {
            append(Int64(point.lat) - Int64(previous.lat), to: &out)
            append(Int64(point.lon) - Int64(previous.lon), to: &out)
            previous = point
        }
        return out
    }

    /// Decodes `encode`'s bytes; nil when they are truncated or malformed.
    public static func decode(_ bytes: [UInt8]) -> [Coordinate]? {
        var points: [Coordinate] = []
        var index = 0
        var lat: Int64 = 0, lon: Int64 = 0
        func next() -> Int64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return Int64(bitPattern: (result >> 1) ^ (0 &- (result & 1))) }
                shift += 7
            }
            return nil
        }
        while index < bytes.count {
            guard let dLat = next(), let dLon = next() else { return nil }
            lat += dLat
            lon += dLon
            points.append(Coordinate(latitude: Double(lat) / 1e6, longitude: Double(lon) / 1e6))
        }
        return points
    }

    private static func append(_ value: Int64, to out: inout [UInt8]) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while zigzag >= 0x80 {
            out.append(UInt8(zigzag & 0x7F) | 0x80)
            zigzag >>= 7
        }
        out.append(UInt8(zigzag))
    }
}

/// Douglas–Peucker line simplification in a local metric projection (equirectangular around the line's first
/// point, which is exact to well under a centimetre over a city).
public enum LineSimplification {
    /// The indexes of the points to keep so that no dropped point lies farther than `tolerance` metres from
    /// the kept line. The first and last points are always kept.
    public static func keptIndexes(latitudes: [Double], longitudes: [Double], tolerance: Double) -> [Int] {
        let count = latitudes.count
        guard count > 2 else { return Array(0..<count) }
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let cosLat = cos(latitudes[0] * .pi / 180)
        var x = [Double](repeating: 0, count: count), y = [Double](repeating: 0, count: count)
        for i in 0..<count {
            x[i] = (longitudes[i] - longitudes[0]) * metresPerDegree * cosLat
            y[i] = (latitudes[i] - latitudes[0]) * metresPerDegree
        }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        let limit = tolerance * tolerance
        var stack: [(Int, Int)] = [(0, count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let ax = x[first], ay = y[first]
            let dx = x[last] - ax, dy = y[last] - ay
            let length2 = dx * dx + dy * dy
            var worst = -1.0, worstIndex = first
            for i in (first + 1)..<last {
                let px = x[i] - ax, py = y[i] - ay
                let d2: Double
                if length2 == 0 {
                    d2 = px * px + py * py
                } else {
                    let t = max(0, min(1, (px * dx + py * dy) / length2))
                    let ex = px - t * dx, ey = py - t * dy
                    d2 = ex * ex + ey * ey
                }
                if d2 > worst {
                    worst = d2
                    worstIndex = i
                }
            }
            if worst > limit {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }
}

extension ImportSession {
    /// How far a simplified shape may stray from the feed's points: about what a screen can show.
    static let shapeToleranceMeters = 1.0

    /// Reads shapes.txt into `shapes`, one row per shape some trip uses: its points in shape_pt_sequence order,
    /// simplified and delta-encoded, with memory bounded by one shape's points whatever the file's size. Feeds
    /// almost always list each shape's points together and in order: those are stored as they stream by. A file
    /// that does not (a shape's rows apart, a sequence that does not increase, a repeated point) is read again
    /// through a temporary table keyed by (shape, sequence), which puts the rows in order.
    mutating func importShapes(_ db: Database) throws {
        let before = (warnings: warnings, repairs: repairs)
        if try importOrderedShapes(db) { return }
        warnings = before.warnings
        repairs = before.repairs
        try db.execute(sql: "DELETE FROM shapes WHERE shape_idx > ?", arguments: [shapeCount])  // this feed's only
        try importShapesThroughStaging(db)
    }

    /// The columns of shapes.txt this import reads.
    private struct ShapeColumns {
        var id = -1, lat = -1, lon = -1, sequence = -1, dist = -1

        init() {}

        init(_ h: TableHeader) throws {
            (id, lat, lon, sequence, dist) = (
                try h.required("shape_id"), try h.required("shape_pt_lat"), try h.required("shape_pt_lon"),
                try h.required("shape_pt_sequence"), h.optional("shape_dist_traveled")
            )
        }
    }

    /// Shape IDs as small keys: base + 1, base + 2, … for the shapes some trip uses (keys run on across the
    /// feeds of a database), 0 for the others (read, checked, skipped).
    private struct ShapeKeys {
        let base: Int
        var keys: [String: Int] = [:]
        var ids: [String] = [""]  // by key - base
        var currentBytes: [UInt8] = []
        var current = -1

        init(base: Int) { self.base = base }

        func id(_ key: Int) -> String { ids[key - base] }
        var last: Int { base + ids.count - 1 }

        /// The key of `row`'s shape; `isNew` when the row starts a shape not seen before.
        mutating func key(
            of row: GTFSRow, column: Int, usedByTrips: (String) -> Bool
        ) throws -> (key: Int, changed: Bool, isNew: Bool) {
            let idBytes = row.bytes(column)
            if current >= 0 && idBytes.elementsEqual(currentBytes) { return (current, false, false) }
            if idBytes.isEmpty { throw row.invalid(column, "a non-empty value") }
            let id = String(decoding: idBytes, as: UTF8.self)
            currentBytes = Array(idBytes)
            if let known = keys[id] {
                current = known
                return (known, true, false)
            }
            current = usedByTrips(id) ? base + ids.count : 0
            keys[id] = current
            if current > 0 { ids.append(id) }
            return (current, true, true)
        }
    }

    /// One point of shapes.txt, checked (every row, used or not: a broken file is refused whichever shapes the
    /// trips name); nil when `lenient` drops it.
    private mutating func shapePoint(
        _ row: GTFSRow, _ c: ShapeColumns
    ) throws -> (lat: Int, lon: Int, sequence: Int, dist: Double?)? {
        do {
            guard let lat = try row.double(c.lat), (-90...90).contains(lat) else {
                throw row.invalid(c.lat, "a latitude between -90 and 90")
            }
            guard let lon = try row.double(c.lon), (-180...180).contains(lon) else {
                throw row.invalid(c.lon, "a longitude between -180 and 180")
            }
            guard let sequence = try row.int(c.sequence), sequence >= 0 else {
                throw row.invalid(c.sequence, "a non-negative whole number")
            }
            return (Int((lat * 1e6).rounded()), Int((lon * 1e6).rounded()), sequence, try row.double(c.dist))
        } catch let error as ImportError where lenient {
            repairs.add("shapes.txt: dropped a point without valid coordinates or sequence", at: "\(error)")
            return nil
        }
    }

    /// The points of the shape being read, in order, in microdegrees.
    private struct ShapePoints {
        var key = -1
        var micro: [(lat: Int32, lon: Int32)] = []
        var lastSequence = Int.min
        var lastDist: Double?
        var distWarned = false

        mutating func start(_ key: Int) {
            self.key = key
            micro.removeAll(keepingCapacity: true)
            lastSequence = .min
            lastDist = nil
            distWarned = false
        }

        /// Adds a point; true when it is the first whose shape_dist_traveled is below the previous one's.
        mutating func append(lat: Int, lon: Int, dist: Double?) -> Bool {
            micro.append((Int32(lat), Int32(lon)))
            guard let dist else { return false }
            defer { lastDist = dist }
            if let last = lastDist, dist < last, !distWarned {
                distWarned = true
                return true
            }
            return false
        }
    }

    private mutating func warnDistanceDecreases(line: Int, shape: String) {
        warnings.add(
            "shapes.txt: shape_dist_traveled decreases along a shape's sequence (the distances are not used)",
            at: "shapes.txt:\(line) '\(ImportError.quoted(shape))'")
    }

    /// Simplifies and stores one shape, named by its key in `ids` (a warning instead for a shape of fewer than two
    /// points; nothing for none read yet or a shape no trip uses).
    private mutating func store(_ points: ShapePoints, _ shapes: ShapeKeys, _ insert: BulkInsert) throws {
        guard points.key > 0 else { return }
        let id = shapes.id(points.key)
        if points.micro.count < 2 {
            warnings.add(
                "shapes.txt: shape with fewer than two points (its trips are drawn stop to stop)",
                at: "'\(ImportError.quoted(id))'")
            return
        }
        let kept = LineSimplification.keptIndexes(
            latitudes: points.micro.map { Double($0.lat) / 1e6 }, longitudes: points.micro.map { Double($0.lon) / 1e6 },
            tolerance: ImportSession.shapeToleranceMeters)
        let blob = ShapeCoding.encode(kept.map { points.micro[$0] })
        insert.bind(1, points.key); insert.bind(2, namespaced(id)); insert.bind(3, kept.count); insert.bind(4, points.micro.count)
        blob.withUnsafeBufferPointer { insert.bind(5, blob: $0) }
        try insert.insert()
    }

    /// The streaming reading: true when every used shape's rows came together and in increasing sequence. Once
    /// they do not, the rest of the file is only read (the feed's hash covers all of it) for the second reading.
    private mutating func importOrderedShapes(_ db: Database) throws -> Bool {
        let insert = try BulkInsert(db, "INSERT INTO shapes VALUES (?, ?, ?, ?, ?)")
        var c = ShapeColumns()
        var shapes = ShapeKeys(base: shapeCount)
        var points = ShapePoints()
        var ordered = true
        let used = tripShapeIDs
        try forEachRow("shapes.txt", { c = try ShapeColumns($0) }) { row in
            guard ordered else { return }
            let shape = try shapes.key(of: row, column: c.id) { used.contains($0) }
            if shape.changed {
                // A used shape seen before, further up: the file is not grouped by shape.
                guard shape.isNew || shape.key == 0 else {
                    ordered = false
                    return
                }
                try store(points, shapes, insert)
                points.start(shape.key)
            }
            guard let point = try shapePoint(row, c), shape.key > 0 else { return }
            guard point.sequence > points.lastSequence else {
                ordered = false
                return
            }
            points.lastSequence = point.sequence
            if points.append(lat: point.lat, lon: point.lon, dist: point.dist) {
                warnDistanceDecreases(line: row.line, shape: shapes.id(shape.key))
            }
        }
        guard ordered else { return false }
        report("simplifying shapes")
        try store(points, shapes, insert)
        shapeCount = shapes.last
        return true
    }

    /// The reading for files in any order: every used point staged in a temporary table keyed by (shape,
    /// sequence), then read back in order shape by shape.
    private mutating func importShapesThroughStaging(_ db: Database) throws {
        // The staging table's pages: enough cache that rows arriving in any order are sorted without thrashing
        // the temporary file, and a fixed bound whatever the file's size.
        try db.execute(sql: "PRAGMA temp.cache_size = -32768")
        try db.execute(
            sql: """
                CREATE TEMP TABLE shape_staging (
                    shape_key INTEGER NOT NULL, seq INTEGER NOT NULL, lat INTEGER NOT NULL, lon INTEGER NOT NULL,
                    dist REAL, line INTEGER NOT NULL, PRIMARY KEY (shape_key, seq)) WITHOUT ROWID
                """)
        defer { try? db.execute(sql: "DROP TABLE temp.shape_staging") }
        let stage = try BulkInsert(db, "INSERT INTO temp.shape_staging VALUES (?, ?, ?, ?, ?, ?)")
        var c = ShapeColumns()
        var shapes = ShapeKeys(base: shapeCount)
        let used = tripShapeIDs
        try forEachRow("shapes.txt", again: true, { c = try ShapeColumns($0) }) { row in
            let shape = try shapes.key(of: row, column: c.id) { used.contains($0) }
            guard let point = try shapePoint(row, c), shape.key > 0 else { return }
            stage.bind(1, shape.key); stage.bind(2, point.sequence)
            stage.bind(3, point.lat); stage.bind(4, point.lon)
            stage.bind(5, point.dist); stage.bind(6, row.line)
            guard try stage.run() else {
                let first = try Int.fetchOne(
                    db, sql: "SELECT line FROM temp.shape_staging WHERE shape_key = ? AND seq = ?",
                    arguments: [shape.key, point.sequence])
                let value = "\(shapes.id(shape.key)) \(point.sequence)"
                guard lenient else {
                    throw ImportError.duplicateKey(
                        file: "shapes.txt", line: row.line, key: "shape_id and shape_pt_sequence", value: value,
                        firstLine: first)
                }
                repairs.add(
                    "shapes.txt: dropped a point whose shape_id and shape_pt_sequence repeat an earlier row",
                    at: "\(row.location) '\(ImportError.quoted(value))' (first on line \(first ?? 0))")
                return
            }
        }
        report("simplifying shapes")
        let insert = try BulkInsert(db, "INSERT INTO shapes VALUES (?, ?, ?, ?, ?)")
        var points = ShapePoints()
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT shape_key, lat, lon, dist, line FROM temp.shape_staging ORDER BY shape_key, seq")
        while let row = try cursor.next() {
            let key: Int = row[0]
            if key != points.key {
                try store(points, shapes, insert)
                points.start(key)
            }
            if points.append(lat: row[1], lon: row[2], dist: row[3]) {
                warnDistanceDecreases(line: row[4], shape: shapes.id(key))
            }
        }
        try store(points, shapes, insert)
        shapeCount = shapes.last
    }

    /// After shapes: trips (of the feed whose trips start at `fromTrip`) that name a shape the feed does not have
    /// are drawn stop to stop, and say so.
    mutating func checkTripShapes(_ db: Database, fromTrip: Int) throws {
        let missing = try Row.fetchAll(
            db,
            sql: """
                SELECT trip_id, shape_id FROM trips WHERE trip_idx >= ? AND shape_id IS NOT NULL
                AND shape_id NOT IN (SELECT shape_id FROM shapes) ORDER BY trip_idx
                """, arguments: [fromTrip])
        for row in missing {
            warnings.add(
                "trips.txt: shape_id not in shapes.txt (the trip is drawn as straight lines between its stops)",
                at: "'\(ImportError.quoted(row[0]))' → '\(ImportError.quoted(row[1]))'")
        }
    }
}
