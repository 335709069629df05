import Foundation
import Logging
import Synchronization

/// Says one text at a time, off the caller's thread: `say` stops whatever is being said and starts the new text
/// at once; `stop` interrupts. Synthesis and playback run on a thread of their own (espeak-ng is serialised by
/// `EspeakSynthesizer`), so a screen or a scanner that calls `say` never waits for audio.
///
/// Problems (no sound device, no voice) are reported once through `onProblem` and logged; later utterances
/// that fail the same way stay quiet, so a kiosk without speakers does not fill its log.
public final class Speaker: Sendable {
    /// What happened to an utterance, for the kiosk's log and the benchmark.
    public enum Event: Sendable {
        /// The first PCM samples of utterance `id` reached the sink.
        case firstAudio(id: Int)
        case finished(id: Int)
        case interrupted(id: Int)
        case failed(id: Int, SpeechError)
    }

    private struct Current {
        var id: Int
        var cancellation: SpeechCancellation
        var playback: (any AudioPlayback)?
    }

    private struct State {
        var nextID = 1
        var current: Current?
        var reported: Set<String> = []
    }

    private let sink: any AudioSink
    private let synthesizer: EspeakSynthesizer
    private let logger: Logger
    private let state = Mutex(State())
    private let onEvent: @Sendable (Event) -> Void
    private let onProblem: @Sendable (SpeechError) -> Void

    public init(
        sink: any AudioSink, synthesizer: EspeakSynthesizer = .shared,
        logger: Logger = Logger(label: "stopkiosk.speech"),
        onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        onProblem: @escaping @Sendable (SpeechError) -> Void = { _ in }
    ) {
        self.sink = sink
        self.synthesizer = synthesizer
        self.logger = logger
        self.onEvent = onEvent
        self.onProblem = onProblem
    }

    /// Stops what is being said and starts saying `text`. Returns the utterance's id at once.
    @discardableResult
    public func say(_ text: String, settings: VoiceSettings) -> Int {
        let cancellation = SpeechCancellation()
        let (id, previous) = state.withLock { state -> (Int, Current?) in
            let previous = state.current
            let id = state.nextID
            state.nextID += 1
            state.current = Current(id: id, cancellation: cancellation, playback: nil)
            return (id, previous)
        }
        if let previous { interrupt(previous) }
        Thread.detachNewThread { [self] in
            self.run(id: id, text: text, settings: settings, cancellation: cancellation)
        }
        return id
    }

    /// Interrupts what is being said (nothing happens when silent).
    public func stop() {
        let previous = state.withLock { state -> Current? in
            defer { state.current = nil }
            return state.current
        }
        if let previous { interrupt(previous) }
    }

    public var isSpeaking: Bool { state.withLock { $0.current != nil } }

    private func interrupt(_ utterance: Current) {
        utterance.cancellation.cancel()
        utterance.playback?.cancel()
    }

    private func run(id: Int, text: String, settings: VoiceSettings, cancellation: SpeechCancellation) {
        var playback: (any AudioPlayback)?
        do {
            let sampleRate = try synthesizer.sampleRate()
            if cancellation.isCancelled { return finish(id, interrupted: true) }
            let opened = try sink.open(sampleRate: sampleRate, text: text, settings: settings)
            playback = opened
            let stillCurrent = state.withLock { state -> Bool in
                guard state.current?.id == id else { return false }
                state.current?.playback = opened
                return true
            }
            if !stillCurrent || cancellation.isCancelled {
                opened.cancel()
                return finish(id, interrupted: true)
            }
            var first = true
            var writeError: Error?
            try synthesizer.synthesize(text, settings: settings, cancellation: cancellation) { samples in
                do {
                    try opened.write(samples)
                } catch {
                    writeError = error
                    return false
                }
                if first {
                    first = false
                    onEvent(.firstAudio(id: id))
                }
                return !cancellation.isCancelled
            }
            if let writeError { throw writeError }
            if cancellation.isCancelled { return finish(id, interrupted: true) }
            try opened.finish()
            finish(id, interrupted: cancellation.isCancelled)
        } catch {
            playback?.cancel()
            if cancellation.isCancelled { return finish(id, interrupted: true) }
            let problem = error as? SpeechError ?? .playbackFailed("\(error)")
            let isNew = state.withLock { state -> Bool in
                if state.current?.id == id { state.current = nil }
                return state.reported.insert(problem.description).inserted
            }
            if isNew {
                logger.error("speech: \(problem)")
                onProblem(problem)
            }
            onEvent(.failed(id: id, problem))
        }
    }

    private func finish(_ id: Int, interrupted: Bool) {
        state.withLock { state in
            if state.current?.id == id { state.current = nil }
        }
        onEvent(interrupted ? .interrupted(id: id) : .finished(id: id))
    }
}
