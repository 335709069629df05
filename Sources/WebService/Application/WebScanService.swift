import Foundation
import Logging
import ScanService
import Scanning
import ServiceLifecycle
import StopPresentation
import Synchronization
import SystemSupport
import TransitModel

/// The scan service behind `/kiosk`: reads frames from the configured camera, a replay or the recorded demo
/// session, runs them through the kiosk's `ScanPipeline` (the same decoders, parser, keys and signature policy),
/// and publishes each scan to the `/kiosk` pages. Frames are read on a thread of its own (capture blocks); the
/// pipeline is rebuilt when the route database is replaced. Ends on graceful shutdown.
public final class WebScanService: Service, Sendable {
    public enum Source: Sendable {
        case camera(CameraConfiguration)
        case replay(FrameSourceSpec)
        case demo(DemoSession, videoPath: String)
    }

    let source: Source
    let web: WebService

    public init(source: Source, web: WebService) {
        self.source = source
        self.web = web
    }

    public func run() async throws {
        let stop = Mutex(false)
        // The capture loop is a thread of its own (blocking reads); it ends on graceful shutdown (SIGTERM) and on
        // cancellation (a service group torn down, a test's server stopped) — else the process could not exit.
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    let thread = Thread { [self] in
                        ThreadName.setCurrent("kiosk-serve-scan")
                        loop(stopped: { stop.withLock { $0 } })
                        done.resume()
                    }
                    thread.start()
                }
            } onGracefulShutdown: {
                stop.withLock { $0 = true }
            }
        } onCancel: {
            stop.withLock { $0 = true }
        }
    }

    private func open() throws(CaptureError) -> any FrameSource {
        switch source {
        case .camera(let camera):
            let source = ReconnectingCameraSource(camera)
            let web = self.web
            source.onStateChange = { state in
                switch state {
                case .streaming: web.scans.publish(event: "camera", json: #"{"state":"streaming"}"#)
                case .reconnecting:
                    web.scans.publish(
                        event: "camera",
                        json: Self.json([
                            "state": "unavailable",
                            "message": [
                                "es": Message.cameraUnavailable.text(.es), "en": Message.cameraUnavailable.text(.en),
                            ],
                        ]))
                case .idle, .closed: break
                }
            }
            return source
        case .replay(let spec):
            return try spec.open()
        case .demo(let session, let videoPath):
            return try DemoReplaySource(session: session, videoPath: videoPath, loop: true, paced: true)
        }
    }

    private func loop(stopped: () -> Bool) {
        let logger = web.logger
        let frames: any FrameSource
        do {
            frames = try open()
        } catch {
            logger.error("kiosk serve: cannot open the scan source: \(error)")
            return
        }
        defer { frames.close() }
        let configuration = (try? ScanPipelineConfiguration(kiosk: web.config)) ?? ScanPipelineConfiguration()
        var pipeline: ScanPipeline?
        var generation = -1
        while !stopped() {
            let currentGeneration = web.databases.generation
            if currentGeneration != generation || pipeline == nil {
                generation = currentGeneration
                pipeline = (try? ScanResolver(config: web.config, database: web.databases.current())).map {
                    ScanPipeline(source: nil, resolver: $0, configuration: configuration)
                }
            }
            let frame: LumaFrame?
            do {
                frame = try frames.nextFrame(timeout: .seconds(1))
            } catch {
                if error.isDeviceLoss { continue }
                logger.error("kiosk serve: the scan source failed: \(error)")
                Thread.sleep(forTimeInterval: 1)
                continue
            }
            guard let frame else {
                logger.info("kiosk serve: the scan replay ended")
                return
            }
            guard let pipeline else { continue }
            for event in pipeline.process(frame, sourceName: frames.name) {
                guard case .scan(let scan) = event, !scan.carriedOver else { continue }
                web.metrics.recordScan(status: scan.status.rawValue, source: "camera")
                web.scans.publish(event: "scan", json: Self.json(Self.describe(scan)))
            }
        }
    }

    /// A scan as the page reads it: the stop to show, or a message in both languages.
    static func describe(_ scan: ScanResult) -> [String: Any] {
        var object: [String: Any] = ["status": scan.status.rawValue]
        if let stop = scan.stop {
            object["stop_id"] = stop.stop.id
            object["name"] = stop.stop.name
            if let code = stop.stop.code { object["code"] = code }
        } else {
            let message: Message =
                switch scan.status {
                case .forged: .forged
                case .signatureRequired: .signatureRequired
                case .unknownStop: .unknownStop(scan.reference?.value ?? "")
                default: .notAStopCode
                }
            object["message"] = ["es": message.text(.es), "en": message.text(.en)]
        }
        return object
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
