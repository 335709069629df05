import ArgumentParser
import Foundation
import KioskConfiguration
import Speech
import StopPresentation
import SystemSupport
import TransitModel

/// `--speak`, `--speak-to FILE.wav` and `--speech short|full`, shared by `lookup` and `plan`: the answer said by
/// espeak-ng in the language of `--lang`, at the config's `[speech]` rate and volume.
struct SpeechOptions: ParsableArguments {
    @Flag(help: "Also say the answer on the sound device (through aplay, paplay or pw-play).")
    var speak = false

    @Option(
        name: .customLong("speak-to"),
        help: ArgumentHelp(
            "Also write the spoken answer to a WAV file (16-bit mono; the name ends in .wav).", valueName: "file.wav"))
    var speakTo: String?

    @Option(help: "How much to say: short (the next departures) or full (station, more times, first and last).")
    var speech: SpeechDetail = .short

    @Flag(
        name: .customLong("print-speech"),
        help: "Print the text that --speak says instead of the usual answer (no audio unless asked for).")
    var printSpeech = false

    var wanted: Bool { speak || speakTo != nil || printSpeech }

    /// Refuses a `--speak-to` that is not a WAV file this user may write (a device, a FIFO, a read-only file), before
    /// any work: exit 2, nothing written. Standard output holds the printed answer, so `-` is refused too.
    func check() throws {
        guard let speakTo else { return }
        try OutputFile.check(
            speakTo, option: "--speak-to", format: "a WAV file", extensions: ["wav"],
            standardOutput: .refused(why: "the answer is printed there"))
    }

    /// Says or writes `text`. A missing sound device or a failed write (a full disk) is a runtime failure (exit 1)
    /// with one message naming the cause; a refused --speak-to is bad input (exit 2).
    func perform(_ text: String, language: Language, config: KioskConfig) throws {
        let settings = VoiceSettings(language: language, rate: config.speech.rate, volume: config.speech.volume)
        if printSpeech { print(text) }
        do {
            if let speakTo {
                let wav = try SpeechAudio.wav(for: text, settings: settings)
                do {
                    try AtomicFile.write(Array(wav), to: speakTo, purpose: "wav", rule: .writableByMode)
                } catch {
                    throw OutputFile.failure(error, option: "--speak-to")
                }
            }
            if speak { try play(text, settings: settings, config: config) }
        } catch let error as SpeechError {
            let hint = speakTo == nil ? " (--speak-to FILE.wav writes the audio to a file instead)" : ""
            printError("error: \(error)\(hint)")
            throw ExitCode(ExitStatus.failure)
        }
    }

    private func play(_ text: String, settings: VoiceSettings, config: KioskConfig) throws {
        let sink: any AudioSink
        switch config.speech.output {
        case let .player(program): sink = try PlayerAudioSink(program: program)
        case let .log(path): sink = LogAudioSink(path: path, realTime: false)
        }
        let rate = try EspeakSynthesizer.shared.sampleRate()
        let playback = try sink.open(sampleRate: rate, text: text, settings: settings)
        var failure: Error?
        try EspeakSynthesizer.shared.synthesize(text, settings: settings) { samples in
            do { try playback.write(samples) } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        try playback.finish()
    }
}

extension SpeechDetail: ExpressibleByArgument {}
