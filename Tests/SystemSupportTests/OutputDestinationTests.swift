import Foundation
import KioskTesting
import SystemSupport
import Testing

/// The one rule every writer follows (issue 36): only a regular file is replaced; a device, a FIFO, a socket or a
/// folder is refused naming what it is; nothing is written on /proc or /sys; a file named on the command line is
/// replaced only when its mode bits let this user write it, root included. Refused means unchanged and no
/// temporary file left beside it.
@Suite struct OutputDestinationTests {
    private func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    private func leftovers(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tmp") }
    }

    @Test func aFIFOIsRefusedAndStaysAFIFO() throws {
        let dir = TemporaryFolder.make("destination")
        let fifo = dir.appendingPathComponent("poster.pdf").path
        try #require(mkfifo(fifo, 0o666) == 0)
        for rule in [OutputDestination.Rule.regularFile, .writableByMode] {
            let error = try #require(throws: FileError.self) { try AtomicFile.write([1, 2, 3], to: fifo, rule: rule) }
            #expect(error.problem == .notARegularFile(kind: "FIFO (named pipe)"))
            #expect(
                error.description
                    == "\(fifo): is a FIFO (named pipe), not a regular file; only a regular file is replaced")
            #expect(error.isBadDestination)
        }
        #expect(kind(fifo) == S_IFIFO)
        #expect(leftovers(dir).isEmpty)
    }

    /// /dev/null is only looked at: the check refuses it before any temporary file is made in /dev.
    @Test func aCharacterDeviceIsRefusedBeforeAnythingIsMadeBesideIt() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".null.") }
        let error = try #require(throws: FileError.self) {
            _ = try AtomicFileWriter(destination: "/dev/null", purpose: "test")
        }
        #expect(error.problem == .notARegularFile(kind: "character device"))
        #expect(kind("/dev/null") == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".null.") } == before)
    }

    @Test func aSocketAndAFolderAreRefused() throws {
        let dir = TemporaryFolder.make("destination")
        let socketPath = dir.appendingPathComponent("s.pdf").path
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        #expect(throws: FileError(path: socketPath, operation: .writing, problem: .notARegularFile(kind: "socket"))) {
            try AtomicFile.write([1], to: socketPath)
        }
        #expect(kind(socketPath) == S_IFSOCK)
        #expect(throws: FileError(path: dir.path, operation: .writing, problem: .isDirectory)) {
            try AtomicFile.write([1], to: dir.path)
        }
        #expect(throws: FileError(path: dir.path + "/", operation: .writing, problem: .isDirectory)) {
            try AtomicFile.write([1], to: dir.path + "/")
        }
        #expect(leftovers(dir).isEmpty)
    }

    /// Today's failure said "no such file" (the temporary file beside /proc/self/mem cannot be made).
    @Test func kernelFileSystemsAreNamedForWhatTheyAre() throws {
        for path in ["/proc/self/mem", "/proc/poster.pdf", "/proc/self/fd/new.svg"] {
            let error = try #require(throws: FileError.self) {
                try AtomicFile.write([1], to: path, rule: .writableByMode)
            }
            #expect(error.problem == .kernelFileSystem("/proc"), "\(path)")
            #expect(error.description == "\(path): is on /proc, a kernel file system, not a file on disk")
        }
        if FileManager.default.fileExists(atPath: "/sys/kernel") {
            #expect(
                throws: FileError(path: "/sys/kernel/x.pdf", operation: .writing, problem: .kernelFileSystem("/sys"))
            ) {
                try AtomicFile.write([1], to: "/sys/kernel/x.pdf")
            }
        }
    }

    /// The mode bits decide for a file named on the command line, for root too; the program's own files (rule
    /// `.regularFile`) are still replaced, keeping their owner and mode, as root does for a service account.
    @Test func aReadOnlyFileIsNotReplacedByCommandLineOutput() throws {
        let dir = TemporaryFolder.make("destination")
        let path = dir.appendingPathComponent("poster.pdf").path
        try AtomicFile.write(Array("mine".utf8), to: path)
        #expect(chmod(path, 0o444) == 0)
        let error = try #require(throws: FileError.self) {
            try AtomicFile.write(Array("new".utf8), to: path, rule: .writableByMode)
        }
        guard case .readOnly(_, let mode) = error.problem else {
            Issue.record("expected readOnly, got \(error)")
            return
        }
        #expect(mode == 0o444)
        #expect(error.description.contains("is not writable by this user ("))
        #expect(error.description.contains("mode 0444); not replaced: the mode bits decide, for root too"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        #expect(leftovers(dir).isEmpty)

        try AtomicFile.write(Array("own file".utf8), to: path, rule: .regularFile)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "own file")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o444)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func anotherUsersFileIsReplacedOnlyWhenItsModeLetsOthersWrite() throws {
        let dir = TemporaryFolder.make("destination")
        let theirs = dir.appendingPathComponent("theirs.pdf").path
        try AtomicFile.write(Array("theirs".utf8), to: theirs)
        #expect(chown(theirs, 65534, 65534) == 0 && chmod(theirs, 0o644) == 0)
        let error = try #require(throws: FileError.self) {
            try AtomicFile.write(Array("root's".utf8), to: theirs, rule: .writableByMode)
        }
        #expect(
            error.problem
                == .readOnly(owner: error.description.contains("nobody") ? "nobody" : "uid 65534", mode: 0o644))
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "theirs")
        #expect(chmod(theirs, 0o666) == 0)
        try AtomicFile.write(Array("shared".utf8), to: theirs, rule: .writableByMode)
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "shared")
        let attributes = try FileManager.default.attributesOfItem(atPath: theirs)
        #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == 65534)
    }

    /// A link is written through: the file it names is replaced (or made) and the link stays; a link to a FIFO,
    /// or a loop, is refused.
    @Test func symbolicLinksAreFollowed() throws {
        let dir = TemporaryFolder.make("destination")
        let real = dir.appendingPathComponent("real.pdf").path
        let link = dir.appendingPathComponent("link.pdf").path
        try AtomicFile.write(Array("old".utf8), to: real)
        #expect(symlink(real, link) == 0)
        try AtomicFile.write(Array("new".utf8), to: link, rule: .writableByMode)
        #expect(kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new")

        let fifo = dir.appendingPathComponent("fifo").path
        let toFIFO = dir.appendingPathComponent("to-fifo.pdf").path
        #expect(mkfifo(fifo, 0o666) == 0 && symlink(fifo, toFIFO) == 0)
        #expect(
            throws: FileError(path: toFIFO, operation: .writing, problem: .notARegularFile(kind: "FIFO (named pipe)"))
        ) {
            try AtomicFile.write([1], to: toFIFO)
        }
        // A link to a file not made yet makes it, as cp does; a loop is refused.
        let dangling = dir.appendingPathComponent("dangling.pdf").path
        #expect(symlink("made.pdf", dangling) == 0)
        try AtomicFile.write(Array("made".utf8), to: dangling, rule: .writableByMode)
        #expect(try String(contentsOfFile: dir.appendingPathComponent("made.pdf").path, encoding: .utf8) == "made")
        let loop = dir.appendingPathComponent("loop.pdf").path
        #expect(symlink("loop.pdf", loop) == 0)
        #expect(
            throws: FileError(
                path: loop, operation: .writing, problem: .notARegularFile(kind: "symbolic link that leads to no file"))
        ) { try AtomicFile.write([1], to: loop) }
        #expect(kind(dangling) == S_IFLNK && kind(toFIFO) == S_IFLNK && kind(loop) == S_IFLNK)
        #expect(leftovers(dir).isEmpty)
    }

    @Test func aMissingFolderIsNamed() throws {
        let error = try #require(throws: FileError.self) {
            _ = try OutputDestination.check("/nonexistent-folder-36/x.pdf")
        }
        #expect(
            error
                == FileError(
                    path: "/nonexistent-folder-36/x.pdf", operation: .writing,
                    problem: .missingFolder("/nonexistent-folder-36")))
        #expect(error.description == "/nonexistent-folder-36/x.pdf: there is no folder /nonexistent-folder-36")
    }

    @Test func extensionsMustNameTheFormat() throws {
        try OutputDestination.checkExtension("poster.PDF", format: "a PDF", extensions: ["pdf"])
        try OutputDestination.checkExtension("poster", format: "a PDF", extensions: ["pdf"])
        try OutputDestination.checkExtension("dir.d/.hidden", format: "a PDF", extensions: ["pdf"])
        try OutputDestination.checkExtension("-", format: "a PDF", extensions: ["pdf"])
        let error = try #require(throws: FileError.self) {
            try OutputDestination.checkExtension("x.txt", format: "a PDF", extensions: ["pdf"])
        }
        #expect(error.description == "x.txt: ends in .txt, but what is written is a PDF (.pdf)")
        #expect(error.isBadDestination)
        #expect(OutputDestination.fileExtension("a.b/c") == nil)
        #expect(OutputDestination.fileExtension("a.tar.GZ") == "GZ")
    }

    /// The database's replacement (SQLite writes the staging file itself) follows the same rule, and removes the
    /// staged file when refused.
    @Test func replacingAFIFORemovesTheStagedFile() throws {
        let dir = TemporaryFolder.make("destination")
        let fifo = dir.appendingPathComponent("routes.sqlite").path
        let staged = dir.appendingPathComponent(".routes.sqlite.import-1.tmp").path
        try #require(mkfifo(fifo, 0o666) == 0)
        try Data("staged".utf8).write(to: URL(fileURLWithPath: staged))
        #expect(
            throws: FileError(path: fifo, operation: .writing, problem: .notARegularFile(kind: "FIFO (named pipe)"))
        ) {
            try AtomicFile.replace(fifo, with: staged)
        }
        #expect(kind(fifo) == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: staged))
    }
}
