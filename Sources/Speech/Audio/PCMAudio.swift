import Foundation
import TransitModel

/// Mono 16-bit PCM audio in memory.
public struct PCMAudio: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var durationSeconds: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }
}

/// RIFF/WAVE files: 16-bit little-endian mono PCM, the format every player and browser reads.
public enum WAVFile {
    /// The 44-byte header for `sampleCount` samples.
    public static func header(sampleRate: Int, sampleCount: Int) -> Data {
        let dataBytes = UInt32(clamping: sampleCount * 2)
        var data = Data()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(dataBytes &+ 36)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)  // fmt chunk size
        append16(1)  // PCM
        append16(1)  // mono
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 2))  // bytes per second
        append16(2)  // block align
        append16(16)  // bits per sample
        data.append(contentsOf: Array("data".utf8))
        append32(dataBytes)
        return data
    }

    public static func encode(_ audio: PCMAudio) -> Data {
        var data = header(sampleRate: audio.sampleRate, sampleCount: audio.samples.count)
        audio.samples.withUnsafeBufferPointer { buffer in
            for sample in buffer {
                withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }
}

/// The one call a surface needs to turn text into a playable file (the CLI's `--speak-to`, later the web
/// server's speech endpoint): synthesise with espeak-ng and wrap as WAV.
public enum SpeechAudio {
    public static func wav(for text: String, settings: VoiceSettings) throws -> Data {
        WAVFile.encode(try EspeakSynthesizer.shared.pcm(for: text, settings: settings))
    }

    public static func wav(for text: String, language: Language, rate: Int = 160, volume: Int = 100) throws -> Data {
        try wav(for: text, settings: VoiceSettings(language: language, rate: rate, volume: volume))
    }
}
