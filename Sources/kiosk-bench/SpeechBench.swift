import ArgumentParser
import Foundation
import KioskConfiguration
import SampleData
import ScanService
import Speech
import StopPresentation
import Synchronization
import TerminalKiosk
import TransitModel
import TransitStore

/// Spoken departures: time from the speak key to the first audio sample, and the screen's frame rate while the
/// kiosk speaks against while it is silent.
struct SpeechBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speech",
        abstract: "Speak-key-to-first-sample latency and the screen's frame rate while speaking."
    )

    @Option(help: "Speak-key presses to time (each a new utterance, the previous one interrupted).")
    var runs = 9

    @Option(help: "Seconds of redrawing to count frames over, speaking and silent (each).")
    var frameSeconds = 3.0

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-speech-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let sample = work.appendingPathComponent("sample.sqlite").path
        _ = try GTFSImporter(
            feedPath: SampleData.sampleNetworkFeed.path, databasePath: sample, logger: Measure.quietLogger
        ).run()
        let database = try RouteDatabase(path: sample)
        let stop = try database.resolveStop(.idOrCode("1091"))
        let at = LocalTime.parse("2026-11-25T08:00", in: database.timeZone)!
        let board = KioskStopBoard(stop: stop, view: try database.stopView(for: stop, at: at))

        // The kiosk's state machine on El Ejido's board, with the speech keys; the speaker plays into a sink
        // paced like a loudspeaker (a log file), so an utterance lasts as long as it would be heard.
        var state = KioskState(language: .es, idleTimeout: 600, hasHomeStop: true, now: at)
        _ = state.handle(
            .databaseStatus(
                .ready(
                    feedName: database.feedName, timeZone: database.timeZone.identifier, serviceStart: nil,
                    serviceEnd: nil)), now: at)
        _ = state.handle(.homeLoaded(.success(board)), now: at)
        _ = state.handle(.scan(ScanOutcomeShim.stop(stop)), now: at)
        _ = state.handle(.stopLoaded(.success(board)), now: at)
        state.speech = KioskSpeechControls()

        let firstAudio = SharedTimes()
        let speaker = Speaker(
            sink: LogAudioSink(path: work.appendingPathComponent("audio.log").path, realTime: true),
            onEvent: { event in
                if case let .firstAudio(id) = event {
                    let now = DispatchTime.now().uptimeNanoseconds
                    firstAudio.times.withLock { $0[id] = now }
                }
            })

        func press(_ key: KioskKey) -> (id: Int, pressed: UInt64)? {
            let pressed = DispatchTime.now().uptimeNanoseconds
            for effect in state.handle(.key(key), now: at) {
                switch effect {
                case let .speak(utterance):
                    let id = speaker.say(
                        utterance.text,
                        settings: VoiceSettings(language: utterance.language, volume: utterance.volume))
                    return (id, pressed)
                case .stopSpeaking: speaker.stop()
                default: break
                }
            }
            return nil
        }

        func waitForFirstAudio(_ id: Int) -> UInt64? {
            for _ in 0..<2000 {
                if let t = firstAudio.times.withLock({ $0[id] }) { return t }
                Thread.sleep(forTimeInterval: 0.001)
            }
            return nil
        }

        var latencies: [Double] = []
        var cold: Double?
        for run in 0...runs {
            guard let (id, pressed) = press(.function(5)), let first = waitForFirstAudio(id) else {
                throw ValidationError("no audio within 2 s of the speak key")
            }
            let ms = Double(first - pressed) / 1e6
            if run == 0 { cold = ms } else { latencies.append(ms) }
            Thread.sleep(forTimeInterval: 0.6)  // mid-utterance: the next press interrupts and repeats
        }
        speaker.stop()
        let sorted = latencies.sorted()
        print("speech: speak key → first PCM chunk at the sink (F5 on El Ejido's stop screen, es, 160 wpm)")
        print(
            String(
                format:
                    "  first press (espeak-ng starting): %.1f ms; then %d presses: min %.1f ms, median %.1f ms, max %.1f ms (limit 300 ms: median/limit %.3f)",
                cold ?? .nan, sorted.count, sorted.first ?? .nan, Measure.median(sorted), sorted.last ?? .nan,
                Measure.median(sorted) / 300))

        // Frames: build and write the stop screen (120×40) as fast as the main loop would, for `frameSeconds`,
        // silent and then while the speaker synthesises and plays the full form in a loop.
        func countFrames() -> Int {
            var writer = TerminalFrameWriter(colorMode: .trueColor)
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(frameSeconds * 1e9)
            var frames = 0
            var bytes = 0
            while DispatchTime.now().uptimeNanoseconds < deadline {
                writer.invalidate()
                bytes &+= writer.update(to: KioskScreenBuilder.build(state, width: 120, height: 40)).count
                frames += 1
            }
            return frames + (bytes == 0 ? 1 : 0)
        }
        var silent: [Double] = []
        var speaking: [Double] = []
        for _ in 0..<3 {
            silent.append(Double(countFrames()) / frameSeconds)
            let keepTalking = SharedFlag()
            let fullText = StopViewSpeech.text(board.view, language: .es, detail: .full)
            let talker = Thread {
                while keepTalking.value.load(ordering: .relaxed) {
                    let id = speaker.say(fullText, settings: VoiceSettings(language: .es))
                    _ = id
                    Thread.sleep(forTimeInterval: 1.0)
                }
            }
            talker.start()
            speaking.append(Double(countFrames()) / frameSeconds)
            keepTalking.value.store(false, ordering: .relaxed)
            speaker.stop()
            Thread.sleep(forTimeInterval: 1.2)
        }
        print("speech: full stop screens drawn per second (build + diff, 120×40, 3 runs of \(frameSeconds) s each)")
        print(
            String(
                format:
                    "  silent min %.0f, median %.0f; speaking min %.0f, median %.0f; ratio speaking/silent median %.2f",
                silent.min() ?? .nan, Measure.median(silent), speaking.min() ?? .nan, Measure.median(speaking),
                Measure.median(speaking) / Measure.median(silent)))
    }
}

enum ScanOutcomeShim {
    static func stop(_ stop: ResolvedStop) -> ScanOutcome {
        ScanOutcome(status: .stop, text: "https://transit.example/s/1091", stop: stop)
    }
}

final class SharedTimes: Sendable {
    let times = Mutex([Int: UInt64]())
}

final class SharedFlag: Sendable {
    let value = Atomic<Bool>(true)
}
