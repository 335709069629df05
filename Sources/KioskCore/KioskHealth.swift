import Foundation
import Realtime
import Synchronization
import SystemSupport
import TransitModel
import TransitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a running kiosk reports about itself, for `/metrics` (`[metrics] listen`) and systemd's watchdog.
///
/// The main loop, the scanning thread and the speaker note what happens here (each call is a lock and a few
/// additions); `snapshot(now:)` reads it from any thread. The watchdog: `loopIteration()` is called by the main
/// loop once per pass and sends `WATCHDOG=1` (at most every quarter of `WatchdogSec`) only while the scanning
/// thread also made progress within the watchdog interval, so a hung screen loop or a hung camera thread stops
/// the pings and systemd restarts the kiosk.
public final class KioskHealth: Sendable {
    /// The camera as the screen shows it.
    public enum Camera: String, Sendable {
        case starting, streaming, unavailable, none
    }

    /// Counters and gauges at one moment.
    public struct Snapshot: Sendable {
        public var camera: Camera
        /// Seconds since the frame source gave a frame (nil: none yet).
        public var secondsSinceLastFrame: Double?
        public var frames: Int
        /// Frames the decoders ran on; the rest were unchanged scenes the change detector skipped.
        public var decodedFrames: Int
        /// Frames in which each decoder found a code ("zbar", "zxing").
        public var decoderHits: [String: Int]
        /// The decoders configured, in order.
        public var decoders: [String]
        /// Scans by `ScanStatus` raw value.
        public var scans: [String: Int]
        public var speechErrors: Int
        public var redraws: Int
        public var databaseGeneration: Int
        public var databaseHealthy: Bool
        /// The database in service: when it was imported, and its service period's last day with the days left
        /// until it (0 on the last day, negative after it), in the agency's time zone.
        public var importedAt: String?
        public var daysLeft: Int?
        /// The live data the boards use (nil: no feeds configured).
        public var live: LiveData?
        /// Since when live data was expected (the kiosk started polling).
        public var livePollingSince: Date?
    }

    private struct State {
        var camera = Camera.starting
        var lastFrame: Date?
        var frames = 0
        var pipelineBase = (decoded: 0, zbar: 0, zxing: 0)
        var pipelineCurrent = (decoded: 0, zbar: 0, zxing: 0)
        var pipelineIdentity = -1
        var decoders: [String] = []
        var scans: [String: Int] = [:]
        var speechErrors = 0
        var redraws = 0
        var database: RouteDatabase?
        var liveDatabase: LiveRouteDatabase?
        var scanThreadRunning = false
        var scanThreadBeat = ContinuousClock.now
        var pollingSince: Date?
    }

    private let state = Mutex(State())
    /// In a struct, not as a bare closure: a closure read out of a generic container (`withLock { $0 }`) comes back
    /// wrapped in reabstraction thunks, written back each time, so every report made the source one call deeper.
    private struct LiveSource { let read: @Sendable () -> LiveData? }
    private let live = Mutex<LiveSource?>(nil)
    /// systemd's notification socket (nil outside systemd, or in tests that pass none).
    public let notifier: SystemdNotifier?
    /// Test hook (`KIOSK_TEST_HANG_FILE`): while this file exists the main loop stops in `loopIteration()`, as a
    /// hung loop would; it writes "hung" into the file once it stopped there.
    private let hangFile: String?

    public init(
        notifier: SystemdNotifier? = nil,
        hangFile: String? = ProcessInfo.processInfo.environment["KIOSK_TEST_HANG_FILE"]
    ) {
        self.notifier = notifier
        self.hangFile = hangFile.flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: - Noted by the kiosk

    package func setLiveSource(_ source: @escaping @Sendable () -> LiveData?) {
        live.withLock { $0 = LiveSource(read: source) }
        state.withLock { $0.pollingSince = Date() }
    }

    package func noteCamera(_ camera: Camera) { state.withLock { $0.camera = camera } }

    package func noteScan(_ status: String) { state.withLock { $0.scans[status, default: 0] += 1 } }
    package func noteSpeechError() { state.withLock { $0.speechErrors += 1 } }
    package func noteRedraw() { state.withLock { $0.redraws += 1 } }

    /// The database the screen uses now, and the file it was opened through (its generation and health).
    package func noteDatabase(_ database: RouteDatabase?, live: LiveRouteDatabase?) {
        state.withLock {
            $0.database = database
            $0.liveDatabase = live
        }
    }

    /// The scanning thread: one pass of its loop (a frame, a timeout or a retry), and its pipeline's counters
    /// (`identity` changes when a new pipeline starts counting from zero).
    package func scanLoopBeat(frame: Bool) {
        state.withLock {
            $0.scanThreadBeat = .now
            if frame {
                $0.frames += 1
                $0.lastFrame = Date()
            }
        }
    }

    package func noteScanThread(running: Bool, decoders: [String]) {
        state.withLock {
            $0.scanThreadRunning = running
            $0.scanThreadBeat = .now
            if !decoders.isEmpty { $0.decoders = decoders }
        }
    }

    package func notePipeline(identity: Int, decodedFrames: Int, zbarHits: Int, zxingHits: Int) {
        state.withLock {
            if $0.pipelineIdentity != identity {
                $0.pipelineBase.decoded += $0.pipelineCurrent.decoded
                $0.pipelineBase.zbar += $0.pipelineCurrent.zbar
                $0.pipelineBase.zxing += $0.pipelineCurrent.zxing
                $0.pipelineIdentity = identity
            }
            $0.pipelineCurrent = (decodedFrames, zbarHits, zxingHits)
        }
    }

    // MARK: - systemd

    /// Start-up is over: the database is open and the first screen drawn.
    package func ready() { notifier?.ready(status: "kiosk screen running") }

    /// Leaving on a signal.
    package func stopping() { notifier?.stopping() }

    /// Called by the main loop on every pass: stops here while the test hook's file exists, then pings the
    /// watchdog when the scanning thread is alive too.
    package func loopIteration() {
        if let hangFile, FileManager.default.fileExists(atPath: hangFile) {
            try? "hung\n".write(toFile: hangFile, atomically: false, encoding: .utf8)
            while FileManager.default.fileExists(atPath: hangFile) { usleep(20_000) }
        }
        guard let notifier, let interval = notifier.watchdogInterval else { return }
        let scanning = state.withLock { !$0.scanThreadRunning || ContinuousClock.now - $0.scanThreadBeat < interval }
        if scanning { notifier.watchdogIfDue() }
    }

    // MARK: - Read

    public func snapshot(now: Date = Date()) -> Snapshot {
        let copy = state.withLock { $0 }
        let source = live.withLock { $0?.read }
        var daysLeft: Int?
        if let database = copy.database, let end = database.serviceEnd {
            let today = ServiceDate.containing(now, in: database.timeZone)
            daysLeft = end.dayNumber - today.dayNumber
        }
        return Snapshot(
            camera: copy.camera, secondsSinceLastFrame: copy.lastFrame.map { now.timeIntervalSince($0) },
            frames: copy.frames, decodedFrames: copy.pipelineBase.decoded + copy.pipelineCurrent.decoded,
            decoderHits: [
                "zbar": copy.pipelineBase.zbar + copy.pipelineCurrent.zbar,
                "zxing": copy.pipelineBase.zxing + copy.pipelineCurrent.zxing,
            ],
            decoders: copy.decoders, scans: copy.scans, speechErrors: copy.speechErrors, redraws: copy.redraws,
            databaseGeneration: copy.liveDatabase?.generation ?? 0,
            databaseHealthy: copy.database != nil && (copy.liveDatabase?.health.isHealthy ?? true),
            importedAt: copy.database?.importedAt, daysLeft: daysLeft, live: source?(),
            livePollingSince: copy.pollingSince)
    }
}
