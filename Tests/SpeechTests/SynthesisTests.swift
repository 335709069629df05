import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import Speech

/// espeak-ng through the library: PCM in memory, both voices, rate and volume, WAV framing, cancellation.
@Suite struct SynthesisTests {
    static let spanish = "Parada El Ejido. Línea L1 hacia El Labrador, en 3 minutos, luego en 7 minutos."
    static let english = "Stop El Ejido. Route L1 to El Labrador, in 3 minutes, then in 7 minutes."

    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    @Test func bothVoicesMakeAudioThatGrowsWithTheText() throws {
        for (language, text) in [(Language.es, Self.spanish), (.en, Self.english)] {
            let short = try EspeakSynthesizer.shared.pcm(for: "Parada.", settings: VoiceSettings(language: language))
            let long = try EspeakSynthesizer.shared.pcm(for: text, settings: VoiceSettings(language: language))
            #expect(long.sampleRate == 22_050)
            #expect(short.durationSeconds > 0.2 && short.durationSeconds < 2)
            // About 12–20 characters a second at 160 words a minute.
            let charactersPerSecond = Double(text.count) / long.durationSeconds
            #expect((8...25).contains(charactersPerSecond), "\(language): \(charactersPerSecond) characters/s")
            #expect(Self.rms(long.samples) > 1000)
        }
    }

    @Test func rateAndVolumeChangeTheAudio() throws {
        let normal = try EspeakSynthesizer.shared.pcm(for: Self.english, settings: VoiceSettings(language: .en))
        let fast = try EspeakSynthesizer.shared.pcm(
            for: Self.english, settings: VoiceSettings(language: .en, rate: 320))
        let quiet = try EspeakSynthesizer.shared.pcm(
            for: Self.english, settings: VoiceSettings(language: .en, volume: 30))
        #expect(fast.durationSeconds < normal.durationSeconds * 0.7)
        #expect(Self.rms(quiet.samples) < Self.rms(normal.samples) * 0.5)
        #expect(
            VoiceSettings(language: .es, rate: 9999, volume: -5) == VoiceSettings(language: .es, rate: 450, volume: 0))
    }

    @Test func cancellingStopsSynthesisEarly() throws {
        let cancellation = SpeechCancellation()
        var chunks = 0
        try EspeakSynthesizer.shared.synthesize(
            String(repeating: Self.spanish + " ", count: 20), settings: VoiceSettings(language: .es),
            cancellation: cancellation
        ) { _ in
            chunks += 1
            if chunks == 3 { cancellation.cancel() }
            return true
        }
        #expect(chunks <= 4)
    }

    @Test func wavHeaderDescribesTheSamples() {
        let data = WAVFile.encode(PCMAudio(samples: [0, 1, -1, 32767], sampleRate: 22_050))
        #expect(data.count == 44 + 8)
        #expect(String(decoding: data.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(data[40] == 8 && data[41] == 0)  // data chunk size
        #expect(data[24] == 0x22 && data[25] == 0x56)  // 22050 = 0x5622
    }

    @Test func controlCharactersAndMarkupAreNotInterpreted() throws {
        // Markup is read as text (no SSML): a feed cannot change the voice or insert audio.
        let audio = try EspeakSynthesizer.shared.pcm(
            for: "<speak><audio src=\"/etc/passwd\"/>Hola</speak>", settings: VoiceSettings(language: .es))
        #expect(audio.durationSeconds > 0.5)
    }
}
