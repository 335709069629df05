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

    /// Reads shapes.txt into `shapes`, one row per shape: the points sorted by shape_pt_sequence (feeds need not
    /// group or order their rows), simplified and delta-encoded. Rows are staged in a temporary table keyed by
    /// (shape, sequence), so memory stays bounded by one shape's points whatever the file's size; only shapes
    /// that some trip uses are kept.
    mutating func importShapes(_ db: Database) throws {
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
        var c = (id: -1, lat: -1, lon: -1, sequence: -1, dist: -1)
        var shapeKeys: [String: Int] = [:]
        var shapeIDs: [String] = [""]
        var currentBytes: [UInt8] = []
        var currentKey = -1  // 0: a shape no trip uses (skipped)
        try forEachRow(
            "shapes.txt",
            { h in
                c = (
                    try h.required("shape_id"), try h.required("shape_pt_lat"), try h.required("shape_pt_lon"),
                    try h.required("shape_pt_sequence"), h.optional("shape_dist_traveled")
                )
            }
        ) { row in
            let idBytes = row.bytes(c.id)
            if currentKey < 0 || !idBytes.elementsEqual(currentBytes) {
                if idBytes.isEmpty { throw row.invalid(c.id, "a non-empty value") }
                let id = String(decoding: idBytes, as: UTF8.self)
                if let known = shapeKeys[id] {
                    currentKey = known
                } else if tripShapeIDs.contains(id) {
                    currentKey = shapeIDs.count
                    shapeKeys[id] = currentKey
                    shapeIDs.append(id)
                } else {
                    currentKey = 0
                    shapeKeys[id] = 0
                }
                currentBytes = Array(idBytes)
            }
            // Every row is checked, used or not: a broken file is refused whichever shapes the trips name.
            let point: (lat: Double, lon: Double, sequence: Int, dist: Double?)
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
                point = (lat, lon, sequence, try row.double(c.dist))
            } catch let error as ImportError where lenient {
                repairs.add("shapes.txt: dropped a point without valid coordinates or sequence", at: "\(error)")
                return
            }
            guard currentKey > 0 else { return }
            stage.bind(1, currentKey); stage.bind(2, point.sequence)
            stage.bind(3, Int((point.lat * 1e6).rounded())); stage.bind(4, Int((point.lon * 1e6).rounded()))
            stage.bind(5, point.dist); stage.bind(6, row.line)
            guard try stage.run() else {
                let first = try Int.fetchOne(
                    db, sql: "SELECT line FROM temp.shape_staging WHERE shape_key = ? AND seq = ?",
                    arguments: [currentKey, point.sequence])
                let value = "\(shapeIDs[currentKey]) \(point.sequence)"
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
        try writeShapes(db, ids: shapeIDs)
    }

    /// Reads the staged points shape by shape in sequence order, simplifies and stores each shape.
    private mutating func writeShapes(_ db: Database, ids: [String]) throws {
        let insert = try BulkInsert(db, "INSERT INTO shapes VALUES (?, ?, ?, ?, ?)")
        var key = -1
        var latitudes: [Double] = [], longitudes: [Double] = []
        var micro: [(lat: Int32, lon: Int32)] = []
        var lastDist: Double? = nil
        var distWarned = false
        func flush(_ session: inout ImportSession) throws {
            guard key > 0 else { return }
            if micro.count < 2 {
                session.warnings.add(
                    "shapes.txt: shape with fewer than two points (its trips are drawn stop to stop)",
                    at: "'\(ImportError.quoted(ids[key]))'")
                return
            }
            let kept = LineSimplification.keptIndexes(
                latitudes: latitudes, longitudes: longitudes, tolerance: ImportSession.shapeToleranceMeters)
            let blob = ShapeCoding.encode(kept.map { micro[$0] })
            insert.bind(1, key); insert.bind(2, ids[key]); insert.bind(3, kept.count); insert.bind(4, micro.count)
            blob.withUnsafeBufferPointer { insert.bind(5, blob: $0) }
            try insert.insert()
        }
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT shape_key, lat, lon, dist, line FROM temp.shape_staging ORDER BY shape_key, seq")
        while let row = try cursor.next() {
            let rowKey: Int = row[0]
            if rowKey != key {
                try flush(&self)
                key = rowKey
                latitudes.removeAll(keepingCapacity: true)
                longitudes.removeAll(keepingCapacity: true)
                micro.removeAll(keepingCapacity: true)
                lastDist = nil
                distWarned = false
            }
            let lat: Int = row[1], lon: Int = row[2]
            micro.append((Int32(lat), Int32(lon)))
            latitudes.append(Double(lat) / 1e6)
            longitudes.append(Double(lon) / 1e6)
            if let dist: Double = row[3] {
                if let last = lastDist, dist < last, !distWarned {
                    distWarned = true
                    warnings.add(
                        "shapes.txt: shape_dist_traveled decreases along a shape's sequence (the distances are not used)",
                        at: "shapes.txt:\(row[4] as Int) '\(ImportError.quoted(ids[key]))'")
                }
                lastDist = dist
            }
        }
        try flush(&self)
    }

    /// After shapes: trips that name a shape the feed does not have are drawn stop to stop, and say so.
    mutating func checkTripShapes(_ db: Database) throws {
        let missing = try Row.fetchAll(
            db,
            sql: """
                SELECT trip_id, shape_id FROM trips WHERE shape_id IS NOT NULL
                AND shape_id NOT IN (SELECT shape_id FROM shapes) ORDER BY trip_idx
                """)
        for row in missing {
            warnings.add(
                "trips.txt: shape_id not in shapes.txt (the trip is drawn as straight lines between its stops)",
                at: "'\(ImportError.quoted(row[0]))' → '\(ImportError.quoted(row[1]))'")
        }
    }
}
