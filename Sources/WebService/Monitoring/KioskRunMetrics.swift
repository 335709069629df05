import Foundation
import Hummingbird
import Logging
import Prometheus
import ScanService
import ServiceLifecycle
import Synchronization
import KioskCore

/// `kiosk run`'s `/metrics` (`[metrics] listen`): what `KioskHealth` saw, in Prometheus's text format, under the
/// names `kiosk serve` uses where they mean the same thing (`stopkiosk_scans_total{status,source}`,
/// `stopkiosk_database_generation`, `stopkiosk_database_healthy`, `stopkiosk_feed_age_seconds`, and the
/// `SharedGauges`), and these of its own:
///
/// - `stopkiosk_camera_up`: 1 while the camera streams, else 0; `stopkiosk_camera_state{state}`: 1 for the state
///   the screen shows (starting, streaming, unavailable, none), 0 for the others;
/// - `stopkiosk_camera_last_frame_age_seconds`: since the last frame (absent before the first);
/// - `stopkiosk_frames_total{result}`: frames read, `decoded` (the decoders ran) or `unchanged` (skipped by the
///   change detector); `stopkiosk_decoder_hits_total{decoder}`: frames in which zbar or zxing found a code;
///   `stopkiosk_decoder_enabled{decoder}`: 1 for each decoder in use;
/// - `stopkiosk_speech_errors_total`, `stopkiosk_screen_redraws_total`.
public final class KioskRunMetrics: Sendable {
    public let health: KioskHealth
    let registry = PrometheusCollectorRegistry()
    /// What each counter already shows (Prometheus counters only go up by increments; the kiosk keeps totals).
    private let shown = Mutex<[String: Int]>([:])
    private let render = Mutex(())

    public init(health: KioskHealth) {
        self.health = health
    }

    /// The exposition text at `now`.
    public func text(now: Date = Date()) -> String {
        render.withLock { _ in
            update(health.snapshot(now: now), now: now)
            return registry.emitToString()
        }
    }

    private func count(_ name: String, _ labels: [(String, String)], help: String, total: Int) {
        let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
        let added = shown.withLock { shown in
            defer { shown[key] = max(shown[key] ?? 0, total) }
            return max(0, total - (shown[key] ?? 0))
        }
        registry.namedCounter(name, labels: labels, help: help).increment(by: Int64(added))
    }

    private func gauge(_ name: String, _ labels: [(String, String)] = [], help: String, _ value: Double) {
        registry.namedGauge(name, labels: labels, help: help).set(value)
    }

    private func update(_ snapshot: KioskHealth.Snapshot, now: Date) {
        gauge("stopkiosk_camera_up", help: "1 while the camera streams, else 0", snapshot.camera == .streaming ? 1 : 0)
        for state in [KioskHealth.Camera.starting, .streaming, .unavailable, .none] {
            gauge(
                "stopkiosk_camera_state", [("state", state.rawValue)], help: "1 for the camera state the screen shows",
                snapshot.camera == state ? 1 : 0)
        }
        if let age = snapshot.secondsSinceLastFrame {
            gauge("stopkiosk_camera_last_frame_age_seconds", help: "Seconds since the camera's last frame", age)
        }
        let framesHelp = "Frames read: decoded, or unchanged (skipped by the change detector)"
        count("stopkiosk_frames_total", [("result", "decoded")], help: framesHelp, total: snapshot.decodedFrames)
        count(
            "stopkiosk_frames_total", [("result", "unchanged")], help: framesHelp,
            total: max(0, snapshot.frames - snapshot.decodedFrames))
        for decoder in ["zbar", "zxing"] {
            count(
                "stopkiosk_decoder_hits_total", [("decoder", decoder)], help: "Frames in which the decoder found a code",
                total: snapshot.decoderHits[decoder] ?? 0)
            gauge(
                "stopkiosk_decoder_enabled", [("decoder", decoder)], help: "1 for each decoder in use",
                snapshot.decoders.contains(decoder) ? 1 : 0)
        }
        for status in ScanStatus.allCases {
            // The same counter, name and labels as `kiosk serve` (`WebMetrics.recordScan`).
            count(
                "stopkiosk_scans_total", [("status", status.rawValue), ("source", "camera")],
                help: "Scanned payloads resolved, by outcome and where they came from",
                total: snapshot.scans[status.rawValue] ?? 0)
        }
        count("stopkiosk_speech_errors_total", [], help: "Utterances that failed to synthesise or play", total: snapshot.speechErrors)
        count("stopkiosk_screen_redraws_total", [], help: "Screens written to the terminal", total: snapshot.redraws)
        gauge(
            "stopkiosk_database_generation", help: "Times the route database was replaced under the running kiosk",
            Double(snapshot.databaseGeneration))
        gauge(
            "stopkiosk_database_healthy", help: "1 while every read of the route database in service succeeds, 0 once one failed",
            snapshot.databaseHealthy ? 1 : 0)
        if let importedAt = snapshot.importedAt, let date = ISO8601DateFormatter().date(from: importedAt) {
            gauge(
                "stopkiosk_feed_age_seconds", help: "Seconds since the route database in service was imported",
                now.timeIntervalSince(date))
        }
        if let daysLeft = snapshot.daysLeft {
            gauge(
                "stopkiosk_timetable_days_left",
                help: "Days from today to the last day of the route database's service period (negative: past it)",
                Double(daysLeft))
        }
        SharedGauges.realtime(registry, live: snapshot.live, expectedSince: snapshot.livePollingSince, now: now)
    }

    /// The HTTP listener: `GET /metrics` only, on `host:port`; `onListening` gets the address it listens on.
    public func application(
        host: String, port: Int, logger: Logger, onListening: @escaping @Sendable (String, Int) -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { [self] _, _ in
            var response = Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text())))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        return Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "stopkiosk"),
            onServerRunning: { channel in
                onListening(channel.localAddress?.ipAddress ?? host, channel.localAddress?.port ?? port)
            }, logger: logger)
    }
}
