import Foundation
import KioskTesting
import SystemSupport
import Testing

@Suite struct AtomicFileTests {
    @Test func replacesWholeFileAndLeavesNoTemporary() throws {
        let dir = TemporaryFolder.make("atomic")
        let path = dir.appendingPathComponent("out.txt").path
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.txt"])
    }

    @Test func discardedWriterLeavesDestinationUnchanged() throws {
        let dir = TemporaryFolder.make("atomic")
        let path = dir.appendingPathComponent("out.txt").path
        try AtomicFile.write(Array("old".utf8), to: path)
        let writer = try AtomicFileWriter(destination: path)
        try writer.write(Array("half of the new".utf8))
        #expect(FileManager.default.fileExists(atPath: writer.temporaryPath))
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryPath))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(throws: FileError.self) { try writer.commit() }
    }

    @Test func replacementKeepsTheOldFilesMode() throws {
        let dir = TemporaryFolder.make("atomic")
        let path = dir.appendingPathComponent("routes.sqlite").path
        try AtomicFile.write(Array("old".utf8), to: path)
        chmod(path, 0o640)
        try AtomicFile.write(Array("new".utf8), to: path)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
    }

    @Test func exactModeIsNotNarrowedOrCarriedOver() throws {
        let dir = TemporaryFolder.make("atomic")
        let path = dir.appendingPathComponent("key").path
        try AtomicFile.write(Array("a".utf8), to: path, mode: 0o644, exactMode: true)
        try AtomicFile.write(Array("b".utf8), to: path, mode: 0o600, exactMode: true)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func refusesToOverwriteWhenAskedNotTo() throws {
        let dir = TemporaryFolder.make("atomic")
        let path = dir.appendingPathComponent("key").path
        try AtomicFile.write(Array("mine".utf8), to: path)
        let error = try #require(throws: FileError.self) {
            try AtomicFile.write(Array("other".utf8), to: path, overwrite: false)
        }
        #expect(error.problem == .alreadyExists)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["key"])
    }

    @Test func missingFolderIsNamed() throws {
        let error = try #require(throws: FileError.self) {
            try AtomicFile.write([1], to: "/nonexistent-folder-xyz/out.pdf")
        }
        #expect(error.problem == .missingFolder("/nonexistent-folder-xyz"))
        #expect(error.description == "/nonexistent-folder-xyz/out.pdf: there is no folder /nonexistent-folder-xyz")
    }

    @Test func fullDiskReadsAsSuch() {
        let error = FileError(path: "/var/lib/stopkiosk/routes.sqlite", operation: .writing, problem: .errno(ENOSPC))
        #expect(
            error.description
                == "disk full while writing /var/lib/stopkiosk/routes.sqlite; the previous file is unchanged")
        #expect(FileError.Problem.errno(EFBIG) == .fileSizeLimit)
    }

    @Test func abandonedTemporariesOfDeadProcessesAreRemoved() throws {
        let dir = TemporaryFolder.make("atomic")
        let destination = dir.appendingPathComponent("sheet.pdf").path
        // A PID that cannot be running (above pid_max), one that is (this process's parent), and our own.
        let dead = dir.appendingPathComponent(".sheet.pdf.labels-99999999.tmp").path
        let alive = dir.appendingPathComponent(".sheet.pdf.labels-\(getppid()).tmp").path
        let other = dir.appendingPathComponent(".other.pdf.labels-99999999.tmp").path
        for path in [dead, alive, other] { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
        TemporaryFiles.removeAbandoned(besides: destination, purpose: "labels")
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: alive))
        #expect(FileManager.default.fileExists(atPath: other))
    }
}

@Suite struct BoundedFileTests {
    @Test func readsSmallRegularFiles() throws {
        let path = TemporaryFolder.make("bounded").appendingPathComponent("k").path
        try Data("key line\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.read(path, limit: 64) == Array("key line\n".utf8))
    }

    @Test func refusesEndlessDevicesAtOnce() throws {
        let error = try #require(throws: FileError.self) { try BoundedFile.read("/dev/zero", limit: 4096) }
        #expect(error.problem == .notARegularFile(kind: "character device"))
        #expect(error.description == "/dev/zero: is a character device, not a regular file")
    }

    @Test func refusesFIFOWithoutBlocking() throws {
        let path = TemporaryFolder.make("bounded").appendingPathComponent("fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(throws: FileError.self) { try BoundedFile.read(path, limit: 4096) }
        #expect(error.problem == .notARegularFile(kind: "FIFO (named pipe)"))
    }

    @Test func refusesFoldersAndLargeFiles() throws {
        let dir = TemporaryFolder.make("bounded")
        #expect(throws: FileError(path: dir.path, operation: .reading, problem: .isDirectory)) {
            try BoundedFile.read(dir.path, limit: 10)
        }
        let big = dir.appendingPathComponent("big").path
        // A sparse 1 GB file: refused from its size, never read.
        let descriptor = open(big, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(descriptor, 1 << 30) == 0)
        close(descriptor)
        let error = try #require(throws: FileError.self) { try BoundedFile.read(big, limit: 4096) }
        #expect(error.problem == .tooLarge(limit: 4096))
    }

    @Test func missingAndUnreadableFilesSayWhy() throws {
        #expect(throws: FileError(path: "/nonexistent/k", operation: .reading, problem: .notFound)) {
            try BoundedFile.read("/nonexistent/k", limit: 10)
        }
    }
}

/// A signal sent the moment `observe` returns is handled: Dispatch arms a signal source on its queue after
/// `resume()` returns, and a signal arriving before that, while ignored, was lost (39 of 40 fresh processes lost
/// one sent at once; on a loaded machine `kiosk import` went on to finish after a SIGHUP).
@Suite struct ProcessSignalsTests {
    @Test func aSignalSentRightAfterObservingIsHandled() {
        let handled = DispatchSemaphore(value: 0)
        // SIGUSR2: no other test of this process uses it, and it is observed once (Dispatch installs its own
        // handler once per signal and process).
        let observation = ProcessSignals.observe([SIGUSR2]) { _ in handled.signal() }
        kill(getpid(), SIGUSR2)
        // A hang guard only: the handler runs as soon as the signals queue gets a thread.
        #expect(handled.wait(timeout: .now() + 120) == .success, "the signal sent right after observe was lost")
        observation.cancel()
    }
}

@Suite struct ThreadNameTests {
    /// Named from inside a thread of its own, so the test runner's threads keep their names; cut to the kernel's 15
    /// bytes, as `ps -L` shows it.
    @Test func aThreadNamesItselfAndLongNamesAreCut() async {
        let names: (short: String, long: String) = await withCheckedContinuation { continuation in
            Thread {
                ThreadName.setCurrent("kiosk-test")
                let short = ThreadName.current
                ThreadName.setCurrent("kiosk-a-name-far-too-long")
                continuation.resume(returning: (short, ThreadName.current))
            }.start()
        }
        #expect(names.short == "kiosk-test")
        #expect(names.long == "kiosk-a-name-fa")
    }
}
