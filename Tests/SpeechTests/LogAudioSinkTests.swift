import Foundation
import KioskTesting
import Synchronization
import Testing
import TransitModel

@testable import Speech

/// The log sink's hold (`KIOSK_AUDIO_LOG_HOLD`): while held, an utterance whose samples are all written stays
/// playing, so a test's interrupting key always finds the audio still playing; released, it ends; without a hold
/// nothing changes.
@Suite struct LogAudioSinkTests {
    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static let begin = "begin es rate=160 volume=100 chars=7 text=Parada."

    /// A hold the test controls: `asked` is signalled each time the playback asks whether it is held.
    final class Hold: Sendable {
        let asked = DispatchSemaphore(value: 0)
        let released = Atomic<Bool>(false)
        var isHeld: @Sendable () -> Bool {
            { [self] in
                asked.signal()
                return !released.load(ordering: .relaxed)
            }
        }
    }

    /// One second of silence written to a held playback (not paced), `finish` on a thread of its own; returns
    /// once `finish` has asked the hold, i.e. has played every sample and is holding.
    static func holding(_ log: String, _ hold: Hold, done: DispatchSemaphore) throws -> LogPlayback {
        let playback = LogPlayback(path: log, sampleRate: 22_050, realTime: false, isHeld: hold.isHeld)
        try playback.append(Self.begin)
        try [Int16](repeating: 0, count: 22_050).withUnsafeBufferPointer { try playback.write($0) }
        Thread.detachNewThread {
            try? playback.finish()
            done.signal()
        }
        // A hang guard only: finish asks at once.
        if hold.asked.wait(timeout: .now() + 300) == .timedOut { Issue.record("finish never asked the hold") }
        return playback
    }

    @Test func aHeldUtteranceEndsWhenCancelled() throws {
        let log = TemporaryFolder.make("log-sink-hold").appendingPathComponent("audio.log").path
        let hold = Hold()
        let done = DispatchSemaphore(value: 0)
        let playback = try Self.holding(log, hold, done: done)
        // Every sample is played, and it is still playing: no end line.
        #expect(Self.lines(log) == [Self.begin])
        playback.cancel()
        done.wait()
        #expect(Self.lines(log) == [Self.begin, "cancelled samples=22050 seconds=1.00"])
    }

    @Test func aReleasedUtteranceEnds() throws {
        let log = TemporaryFolder.make("log-sink-release").appendingPathComponent("audio.log").path
        let hold = Hold()
        let done = DispatchSemaphore(value: 0)
        let playback = try Self.holding(log, hold, done: done)
        #expect(Self.lines(log) == [Self.begin])
        hold.released.store(true, ordering: .relaxed)
        done.wait()
        #expect(Self.lines(log) == [Self.begin, "end samples=22050 seconds=1.00"])
        playback.cancel()  // after the end: nothing more is written
        #expect(Self.lines(log).count == 2)
    }

    /// The sink's hold is a file: held while it exists. With a hold named, `begin` is logged with the first samples
    /// (or just before the cancel, if none came). No variable (or an empty one) means no hold: `begin` at `open`,
    /// and the utterance ends as soon as its samples are played.
    @Test func theHoldIsAFileAndWithoutItNothingChanges() throws {
        let folder = TemporaryFolder.make("log-sink-file")
        let file = folder.appendingPathComponent("hold").path
        let isHeld = LogAudioSink.heldWhileExists(file)
        #expect(!isHeld())
        try #require(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(isHeld())
        try FileManager.default.removeItem(atPath: file)
        #expect(!isHeld())

        let log = folder.appendingPathComponent("audio.log").path
        #expect(LogAudioSink(path: log, hold: "").hold == nil)
        #expect(LogAudioSink(path: log, hold: nil).hold == nil)
        #expect(LogAudioSink(path: log, hold: file).hold == file)
        // With a hold, the begin line comes with the first samples (the speaker holds the playback by then).
        let held = try LogAudioSink(path: log, realTime: false, hold: file)
            .open(sampleRate: 22_050, text: "Parada.", settings: VoiceSettings(language: .es))
        #expect(Self.lines(log) == [])
        try [Int16](repeating: 0, count: 10).withUnsafeBufferPointer { try held.write($0) }
        #expect(Self.lines(log) == [Self.begin])
        held.cancel()
        // Cancelled before any sample: the begin line still precedes the cancel.
        let early = try LogAudioSink(path: log, realTime: false, hold: file)
            .open(sampleRate: 22_050, text: "Parada.", settings: VoiceSettings(language: .es))
        early.cancel()
        #expect(
            Self.lines(log) == [
                Self.begin, "cancelled samples=10 seconds=0.00", Self.begin, "cancelled samples=0 seconds=0.00",
            ])
        try FileManager.default.removeItem(atPath: log)

        let sink = LogAudioSink(path: log, realTime: false, hold: nil)
        let playback = try sink.open(sampleRate: 22_050, text: "Parada.", settings: VoiceSettings(language: .es))
        #expect(Self.lines(log) == [Self.begin])
        try [Int16](repeating: 0, count: 22_050).withUnsafeBufferPointer { try playback.write($0) }
        try playback.finish()
        #expect(Self.lines(log) == [Self.begin, "end samples=22050 seconds=1.00"])
    }
}
