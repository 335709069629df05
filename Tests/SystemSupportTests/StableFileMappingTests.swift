import Foundation
import KioskTesting
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A mapped file that another process writes over or truncates: the mapping keeps the bytes it opened (no SIGBUS,
/// no changed content), and says so once.
@Suite struct StableFileMappingTests {
    static func file(_ name: String, bytes: Int) throws -> (path: String, content: [UInt8]) {
        let path = TemporaryFolder.make("mapping").appendingPathComponent(name).path
        let content = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) }
        // Written through a descriptor closed on exec: a child another test spawns meanwhile must not inherit it, or
        // the file is open for writing in that child and cannot be leased (Foundation's Data.write leaves it open).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == content.count)
        return (path, content)
    }

    static func map(_ path: String, changes: Recorder<String>? = nil) throws -> StableFileMapping {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        var info = stat()
        #expect(fstat(descriptor, &info) == 0)
        return try StableFileMapping(descriptor: descriptor, size: Int(info.st_size), path: path) { change in
            changes?.append(change)
        }
    }

    /// Runs a shell command to completion (the writer: it waits on the lease until the copy is made).
    static func shell(_ command: String) throws {
        let result = try Programs.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
        #expect(result.status == 0, "\(command): \(result)")
    }

    @Test(arguments: [
        ("truncated to nothing", Programs.truncateCommand("$0", size: 0)),
        ("a shorter file copied over it", "head -c 1000 /etc/passwd > \"$0\""),
        ("the same size of other bytes", "head -c 3000000 /dev/zero > \"$0\""),
        ("cp over it", "cp /etc/hostname \"$0\""),
    ])
    func writesInPlaceDoNotReachTheMapping(attack: String, command: String) throws {
        let (path, content) = try Self.file("image", bytes: 3_000_000)
        let changes = Recorder<String>()
        let mapping = try Self.map(path, changes: changes)
        #expect(
            mapping.protection == StableFileMapping.Protection.leased,
            "\(attack): the test expects a file system with leases (ext4, tmpfs)")
        try Self.shell(command.replacingOccurrences(of: "$0", with: path))  // the path has no quote or space
        // Every page read after the writer went on, the last one included (past a truncated end: SIGBUS before).
        #expect(Array(mapping.bytes) == content, "\(attack)")
        #expect(mapping.protection != StableFileMapping.Protection.leased, "\(attack)")
        let said = changes.all
        #expect(said.count == 1 && said[0].contains(path) && said[0].contains("private copy"), "\(attack): \(said)")
        // The writer did write: the file on disk is the new one.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != Data(content), "\(attack)")
    }

    /// A file already open for writing cannot be leased: it is read into memory at once, and a truncation after that
    /// changes nothing either.
    @Test func aFileOpenForWritingIsCopiedAtOnce() throws {
        let (path, content) = try Self.file("busy", bytes: 200_000)
        let writer = try #require(FileHandle(forWritingAtPath: path))
        defer { try? writer.close() }
        let mapping = try Self.map(path)
        guard case .privateCopy(let reason) = mapping.protection else {
            Issue.record("a file open for writing was leased")
            return
        }
        #expect(reason.contains("open for writing"))
        try writer.truncate(atOffset: 0)
        #expect(Array(mapping.bytes) == content)
    }

    /// Several mappings of one file in one process: each keeps its bytes.
    @Test func everyMappingOfTheFileIsKept() throws {
        let (path, content) = try Self.file("shared", bytes: 100_000)
        let first = try Self.map(path), second = try Self.map(path)
        try Self.shell(Programs.truncateCommand(path, size: 10))
        #expect(Array(first.bytes) == content && Array(second.bytes) == content)
        // A mapping made now sees the file as it is.
        #expect(try Self.map(path).bytes.count == 10)
    }
}
