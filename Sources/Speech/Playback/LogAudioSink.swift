import Foundation
import Synchronization

/// A sink that plays nothing and appends what it would play to a text file, one line per event:
///
///     begin es rate=160 volume=100 chars=57 text=Parada El Ejido. …
///     end samples=48510 seconds=2.20
///     cancelled samples=11025 seconds=0.50
///
/// With `realTime`, writes take as long as the audio would take to play, so a test can interrupt an utterance
/// midway as a passenger would. Tests and `[speech] output = "log"` use it; a kiosk without speakers can too.
///
/// With a `hold` file (`KIOSK_AUDIO_LOG_HOLD` in the environment names it), an utterance does not end while that
/// file exists: once its samples are written it keeps "playing" until it is cancelled or the file is removed.
/// A test that interrupts speech creates the file first, so its keys always arrive while the audio plays, however
/// slow the machine; it removes the file to let the next utterance play to its end. Held, the `begin` line is
/// written with the first samples rather than at `open`: by then the speaker holds the playback and cuts it
/// directly, so a key sent after the line is seen logs this utterance's `cancelled` before any next `begin`.
/// Without the variable nothing changes.
public struct LogAudioSink: AudioSink {
    /// The environment variable that names the hold file (tests only).
    public static let holdVariable = "KIOSK_AUDIO_LOG_HOLD"

    public let path: String
    public let realTime: Bool
    /// While a file exists at this path, utterances stay playing until cancelled (nil: they end as paced).
    public let hold: String?

    public init(
        path: String, realTime: Bool = true,
        hold: String? = ProcessInfo.processInfo.environment[LogAudioSink.holdVariable]
    ) {
        self.path = path
        self.realTime = realTime
        self.hold = hold.flatMap { $0.isEmpty ? nil : $0 }
    }

    public func open(sampleRate: Int, text: String, settings: VoiceSettings) throws -> any AudioPlayback {
        let playback = LogPlayback(
            path: path, sampleRate: sampleRate, realTime: realTime, isHeld: hold.map(Self.heldWhileExists))
        let oneLine = text.replacingOccurrences(of: "\n", with: " ")
        try playback.begin(
            "begin \(settings.language.rawValue) rate=\(settings.rate) volume=\(settings.volume) chars=\(text.count) text=\(oneLine)",
            withFirstSamples: hold != nil)
        return playback
    }

    /// True for as long as a file exists at `path`.
    static func heldWhileExists(_ path: String) -> @Sendable () -> Bool {
        { FileManager.default.fileExists(atPath: path) }
    }
}

final class LogPlayback: AudioPlayback, Sendable {
    let path: String
    let sampleRate: Int
    let realTime: Bool
    /// Asked once the samples are played: true keeps the utterance playing (nil: never held).
    let isHeld: (@Sendable () -> Bool)?
    private let samples = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    /// A `begin` line waiting for the first samples (held playbacks only); written under the lock.
    private let pendingBegin = Mutex<String?>(nil)
    private let started = Date()

    init(path: String, sampleRate: Int, realTime: Bool, isHeld: (@Sendable () -> Bool)? = nil) {
        self.path = path
        self.sampleRate = sampleRate
        self.realTime = realTime
        self.isHeld = isHeld
    }

    /// Logs the utterance's `begin` line now, or with its first samples (or its end, if none come).
    func begin(_ line: String, withFirstSamples: Bool) throws {
        if withFirstSamples {
            pendingBegin.withLock { $0 = line }
        } else {
            try append(line)
        }
    }

    private func writePendingBegin() throws {
        try pendingBegin.withLock { pending in
            guard let line = pending else { return }
            try append(line)
            pending = nil
        }
    }

    func append(_ line: String) throws {
        let data = Data((line + "\n").utf8)
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw SpeechError.playbackFailed("cannot create the audio log \(path)")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw SpeechError.playbackFailed("cannot open the audio log \(path)")
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    func write(_ chunk: UnsafeBufferPointer<Int16>) throws {
        if cancelled.load(ordering: .relaxed) { return }
        try writePendingBegin()
        let total = samples.wrappingAdd(chunk.count, ordering: .relaxed).newValue
        guard realTime, sampleRate > 0 else { return }
        // Play-out pace: wait until the audio written so far would have been played (in small steps, so a
        // cancel is seen within 20 ms).
        let due = started.addingTimeInterval(Double(total) / Double(sampleRate) - 0.2)
        while Date() < due && !cancelled.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: min(0.02, max(0.001, due.timeIntervalSinceNow)))
        }
    }

    func finish() throws {
        if realTime {
            let due = started.addingTimeInterval(Double(samples.load(ordering: .relaxed)) / Double(max(1, sampleRate)))
            while Date() < due && !cancelled.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        // Held: still playing until cancelled or released (checked every 20 ms, like a cancel while paced).
        if let isHeld {
            while !cancelled.load(ordering: .relaxed) && isHeld() {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        try end(cancelled.load(ordering: .relaxed) ? "cancelled" : "end")
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        try? end("cancelled")
    }

    private func end(_ word: String) throws {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        try writePendingBegin()
        let count = samples.load(ordering: .relaxed)
        try append(
            "\(word) samples=\(count) seconds=\(String(format: "%.2f", Double(count) / Double(max(1, sampleRate))))")
    }
}
