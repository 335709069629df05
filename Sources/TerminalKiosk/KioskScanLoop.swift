import Foundation
import KioskConfiguration
import Logging
import ScanService
import Scanning
import StopCodes
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

#if canImport(Glibc)
import Glibc
import KioskCore
#elseif canImport(Musl)
import Musl
#endif

/// The scanning thread: frames from the camera or the recorded session through the shared `ScanPipeline`
/// (change detection, zbar, debounce, payload parser with signature check, stop lookup), posted as events.
struct KioskScanLoop {
    let input: KioskFrameInput
    let config: KioskConfig
    let queue: RuntimeEventQueue
    let control: ScanControl
    let pacedDemo: Bool
    let frameLimit: Int?
    /// Told of every pass and frame (the watchdog and `/metrics`).
    let health: KioskHealth?
    private let logger = Logger(label: "stopkiosk.scan")

    init(
        input: KioskFrameInput, config: KioskConfig, queue: RuntimeEventQueue, control: ScanControl,
        pacedDemo: Bool = true, frameLimit: Int? = nil, health: KioskHealth? = nil
    ) {
        self.health = health
        self.input = input
        self.config = config
        self.queue = queue
        self.control = control
        self.pacedDemo = pacedDemo
        self.frameLimit = frameLimit
    }

    func run() {
        let source: any FrameSource
        do {
            source = try open()
        } catch {
            logger.error("cannot open the frame source", metadata: ["error": "\(error)"])
            queue.post(.kiosk(.camera(.unavailable(detail: TerminalText.sanitize(error.description, maxLength: 160)))))
            return
        }
        defer { source.close() }
        let demo = source as? DemoReplaySource
        var pipeline: ScanPipeline?
        var generation = -1
        let pipelineConfiguration = (try? ScanPipelineConfiguration(kiosk: config)) ?? ScanPipelineConfiguration()
        var streaming = false
        var frames = 0
        while !control.stopped {
            if let frameLimit, frames >= frameLimit {
                queue.post(.replayEnded)
                return
            }
            if control.paused {
                health?.scanLoopBeat(frame: false)
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            let (database, currentGeneration) = control.database
            if currentGeneration != generation {
                generation = currentGeneration
                pipeline = database.flatMap { db in
                    (try? ScanResolver(config: config, database: db)).map {
                        ScanPipeline(source: nil, resolver: $0, configuration: pipelineConfiguration)
                    }
                }
            }
            let frame: LumaFrame?
            do {
                frame = try source.nextFrame(timeout: .seconds(1))
                health?.scanLoopBeat(frame: frame != nil)
            } catch {
                health?.scanLoopBeat(frame: false)
                if error.isDeviceLoss {
                    // The reconnecting camera reports its state through onStateChange; a stall is worth a word too.
                    if streaming, case .noFrame = error {
                        queue.post(.kiosk(.camera(.unavailable(detail: error.description)))); streaming = false
                    }
                    continue
                }
                logger.error("frame source failed", metadata: ["error": "\(error)"])
                queue.post(
                    .kiosk(.camera(.unavailable(detail: TerminalText.sanitize(error.description, maxLength: 160)))))
                Thread.sleep(forTimeInterval: 1)
                continue
            }
            guard let frame else {
                queue.post(.replayEnded)
                return
            }
            frames += 1
            if !streaming {
                streaming = true
                queue.post(.kiosk(.camera(.streaming)))
            }
            if let demo {
                for key in DemoSession.Step.keys(demo.dueKey) { queue.post(.scriptedKey(key)) }
            }
            guard let pipeline else { continue }
            defer {
                health?.notePipeline(
                    identity: generation, decodedFrames: pipeline.statistics.decodedFrames,
                    zbarHits: pipeline.decoderStatistics.zbarHits, zxingHits: pipeline.decoderStatistics.zxingHits)
            }
            for event in pipeline.process(frame) {
                if case let .scan(result) = event {
                    queue.post(
                        .scanned(
                            ScanOutcome(
                                status: result.status, text: result.text, stop: result.stop,
                                reference: result.reference, detail: result.detail), arrivalNanos: result.arrivalNanos))
                }
            }
        }
    }

    private func open() throws(CaptureError) -> any FrameSource {
        switch input {
        case .none:
            throw .invalidConfiguration("no frame source")
        case let .camera(camera):
            let source = ReconnectingCameraSource(camera)
            let queue = self.queue
            source.onStateChange = { state in
                switch state {
                case .streaming: queue.post(.kiosk(.camera(.streaming)))
                case let .reconnecting(error, _, _):
                    queue.post(
                        .kiosk(.camera(.unavailable(detail: TerminalText.sanitize(error.description, maxLength: 160)))))
                case .idle, .closed: break
                }
            }
            return source
        case let .demo(session, videoPath, loop):
            return try DemoReplaySource(session: session, videoPath: videoPath, loop: loop, paced: pacedDemo)
        case let .replay(spec):
            return try spec.open()
        }
    }
}
