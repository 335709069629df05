import Foundation

/// Damage done to a route database file the way disks and careless copies do it: random bytes (from a seeded
/// generator, so every run damages the same bytes) written over part of the file.
public enum DatabaseDamage {
    /// Writes `count` random bytes over the file at `path` from `offset` (in place: the same inode).
    public static func scribble(_ path: String, offset: Int, count: Int, seed: UInt64 = 27) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw DamageError(description: "cannot open \(path) for writing")
        }
        defer { try? handle.close() }
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
        bytes.removeLast(bytes.count - count)
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: bytes)
        try handle.synchronize()
    }

    /// Copies the database at `source` to `destination` and writes up to 8 MB of random bytes into the middle of
    /// the copy (at most the middle half of a smaller file, on page boundaries): the first pages, which opening the
    /// database reads, stay whole, so the copy opens and its damage shows only when a lookup or a check reads it.
    public static func corruptedCopy(of source: String, to destination: String, bytes: Int = 8 << 20) throws {
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        let size = try FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int ?? 0
        let page = 4096
        let count = min(bytes, size / 2) / page * page
        let offset = (size - count) / 2 / page * page
        guard count > 0 else { throw DamageError(description: "\(source) is too small to damage (\(size) bytes)") }
        try scribble(destination, offset: offset, count: count)
    }

    struct DamageError: Error, CustomStringConvertible {
        var description: String
    }
}
