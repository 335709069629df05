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
public struct LogAudioSink: AudioSink {
    public let path: String
    public let realTime: Bool

    public init(path: String, realTime: Bool = true) {
        self.path = path
        self.realTime = realTime
    }

    public func open(sampleRate: Int, text: String, settings: VoiceSettings) throws -> any AudioPlayback {
        let playback = LogPlayback(path: path, sampleRate: sampleRate, realTime: realTime)
        let oneLine = text.replacingOccurrences(of: "\n", with: " ")
        try playback.append(
            "begin \(settings.language.rawValue) rate=\(settings.rate) volume=\(settings.volume) chars=\(text.count) text=\(oneLine)"
        )
        return playback
    }
}

final class LogPlayback: AudioPlayback, Sendable {
    let path: String
    let sampleRate: Int
    let realTime: Bool
    private let samples = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    private let started = Date()

    init(path: String, sampleRate: Int, realTime: Bool) {
        self.path = path
        self.sampleRate = sampleRate
        self.realTime = realTime
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
        try end(cancelled.load(ordering: .relaxed) ? "cancelled" : "end")
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        try? end("cancelled")
    }

    private func end(_ word: String) throws {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        let count = samples.load(ordering: .relaxed)
        try append(
            "\(word) samples=\(count) seconds=\(String(format: "%.2f", Double(count) / Double(max(1, sampleRate))))")
    }
}
