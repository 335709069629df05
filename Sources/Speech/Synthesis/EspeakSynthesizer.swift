import Foundation
import LibEspeakNG
import Synchronization
import TransitModel

/// How a text is spoken: the voice's language, speed and loudness.
public struct VoiceSettings: Sendable, Equatable {
    public var language: Language
    /// Words per minute, 80–450 (espeak-ng's range); 160 is a calm public-address pace.
    public var rate: Int
    /// 0–200; 100 is espeak-ng's normal loudness.
    public var volume: Int

    public static let rateRange = 80...450
    public static let volumeRange = 0...200

    public init(language: Language, rate: Int = 160, volume: Int = 100) {
        self.language = language
        self.rate = min(max(rate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        self.volume = min(max(volume, Self.volumeRange.lowerBound), Self.volumeRange.upperBound)
    }

    /// The espeak-ng voice for a language: Latin American Spanish (the Quito design) and American English.
    public var voiceName: String { language == .es ? "es-419" : "en-us" }
}

/// Why speech could not be made or played. Each case names the cause a person can fix.
public enum SpeechError: Error, CustomStringConvertible, Equatable {
    /// espeak-ng would not start (its data folder is missing or unreadable).
    case synthesizerUnavailable(String)
    /// espeak-ng has no voice of this name.
    case voiceUnavailable(String)
    case synthesisFailed(String)
    /// No program or device to play sound on.
    case noSoundDevice(String)
    case playbackFailed(String)

    public var description: String {
        switch self {
        case let .synthesizerUnavailable(cause): return "speech synthesis unavailable: \(cause)"
        case let .voiceUnavailable(voice):
            return "espeak-ng has no voice '\(voice)' (is espeak-ng-data installed? `espeak-ng --voices` lists them)"
        case let .synthesisFailed(cause): return "speech synthesis failed: \(cause)"
        case let .noSoundDevice(cause): return "no sound device: \(cause)"
        case let .playbackFailed(cause): return "sound playback failed: \(cause)"
        }
    }
}

/// A flag a speaker sets to stop a synthesis or a playback in progress; checked between audio chunks.
public final class SpeechCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func cancel() { flag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// espeak-ng through its C library, synthesising to 16-bit mono PCM in memory (AUDIO_OUTPUT_SYNCHRONOUS with a
/// synth callback): no audio device is touched. espeak-ng keeps global state and is not thread-safe, so every
/// call goes through one lock (`shared` is the only instance); a synthesis delivers its audio in chunks of
/// about 50 ms as it is made, so playback can start before the whole text is synthesised.
public final class EspeakSynthesizer: Sendable {
    public static let shared = EspeakSynthesizer()

    /// State only touched while `engine` is held.
    private struct Engine {
        var sampleRate: Int?
        var voice: String?
        var rate: Int?
        var volume: Int?
    }

    private let engine = Mutex(Engine())

    /// What the C callback reports to: set for the duration of one `espeak_Synth` call, under the engine lock.
    nonisolated(unsafe) private static var delivery: ((UnsafeBufferPointer<Int16>) -> Bool)?

    private init() {}

    /// The sample rate of the audio this synthesiser makes (22,050 Hz for espeak-ng's voices).
    public func sampleRate() throws -> Int {
        try engine.withLock { try Self.start(&$0) }
    }

    /// Synthesises `text` (plain text: markup is not interpreted), calling `chunk` with the PCM samples as they
    /// are made, on the calling thread. Returns false from `chunk` (or cancel) to stop early. Returns the sample
    /// rate. Blocks while another synthesis runs.
    @discardableResult
    public func synthesize(
        _ text: String, settings: VoiceSettings, cancellation: SpeechCancellation? = nil,
        chunk: (UnsafeBufferPointer<Int16>) -> Bool
    ) throws -> Int {
        try withoutActuallyEscaping(chunk) { chunk in
            try engine.withLock { state in
                let rate = try Self.start(&state)
                if state.voice != settings.voiceName {
                    guard espeak_SetVoiceByName(settings.voiceName) == EE_OK else {
                        throw SpeechError.voiceUnavailable(settings.voiceName)
                    }
                    state.voice = settings.voiceName
                    state.rate = nil
                    state.volume = nil
                }
                if state.rate != settings.rate {
                    _ = espeak_SetParameter(espeakRATE, Int32(settings.rate), 0)
                    state.rate = settings.rate
                }
                if state.volume != settings.volume {
                    _ = espeak_SetParameter(espeakVOLUME, Int32(settings.volume), 0)
                    state.volume = settings.volume
                }
                Self.delivery = { samples in
                    if cancellation?.isCancelled == true { return false }
                    return chunk(samples)
                }
                defer { Self.delivery = nil }
                let bytes = Array(text.utf8) + [0]
                let status = bytes.withUnsafeBufferPointer { buffer in
                    espeak_Synth(
                        buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                        UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil, nil)
                }
                guard status == EE_OK else {
                    throw SpeechError.synthesisFailed("espeak_Synth returned \(status.rawValue)")
                }
                return rate
            }
        }
    }

    /// The whole text as PCM in memory.
    public func pcm(for text: String, settings: VoiceSettings) throws -> PCMAudio {
        var samples: [Int16] = []
        let rate = try synthesize(text, settings: settings) { chunk in
            samples.append(contentsOf: chunk)
            return true
        }
        return PCMAudio(samples: samples, sampleRate: rate)
    }

    private static func start(_ state: inout Engine) throws -> Int {
        if let rate = state.sampleRate { return rate }
        // 50 ms chunks; DONT_EXIT: a missing data folder is an error code, not exit().
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 50, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else {
            throw SpeechError.synthesizerUnavailable(
                "espeak_Initialize failed (\(rate)): is the espeak-ng-data package installed?")
        }
        espeak_SetSynthCallback { samples, count, _ in
            guard let delivery = EspeakSynthesizer.delivery else { return 1 }
            guard let samples, count > 0 else { return 0 }
            return delivery(UnsafeBufferPointer(start: samples, count: Int(count))) ? 0 : 1
        }
        state.sampleRate = Int(rate)
        return Int(rate)
    }
}
