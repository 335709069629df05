import Foundation

/// Where spoken audio goes: the sound device (through a player program), or, in tests, a log of what would
/// have been played. One `open` per utterance.
public protocol AudioSink: Sendable {
    /// Starts playing one utterance of 16-bit mono PCM at `sampleRate`. Throws `SpeechError.noSoundDevice` when
    /// there is nothing to play on.
    func open(sampleRate: Int, text: String, settings: VoiceSettings) throws -> any AudioPlayback
}

/// One utterance being played. `write` may block while the device catches up; `cancel` may be called from any
/// thread and makes a blocked `write` return.
public protocol AudioPlayback: AnyObject, Sendable {
    func write(_ samples: UnsafeBufferPointer<Int16>) throws
    /// Every sample is written: returns when they have been played (or the playback was cancelled).
    func finish() throws
    /// Stops at once, dropping what was not yet played.
    func cancel()
}
