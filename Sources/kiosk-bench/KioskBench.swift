import ArgumentParser
import Foundation
import KioskConfiguration
import SampleData
import ScanService
import Scanning
import StopPresentation
import TerminalKiosk
import TransitModel
import TransitStore
import TripPlanning

/// The kiosk program as a passenger meets it: scan-to-screen latency on a large network, resident memory over a
/// long run, and CPU while the camera streams an empty scene.
struct KioskBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Scan-to-screen latency, a memory soak and idle CPU of the kiosk program."
    )

    enum Part: String, ExpressibleByArgument, CaseIterable { case latency, soak, idle }

    @Option(help: "Parts to run: latency, soak, idle (default: all).")
    var part: [Part] = Part.allCases

    @Option(help: "The large route database for the latency part (e.g. vilnius.zip scaled ×3).")
    var db: String?

    @Option(help: "Frames through the demo pipeline in the soak.")
    var soakFrames = 200_000

    @Option(help: "Seconds of camera streaming for the idle-CPU part.")
    var idleSeconds = 20

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-kiosk-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let sample = work.appendingPathComponent("sample.sqlite").path
        _ = try GTFSImporter(
            feedPath: SampleData.sampleNetworkFeed.path, databasePath: sample, logger: Measure.quietLogger
        ).run()

        if part.contains(.latency) {
            guard let db else {
                throw ValidationError("the latency part needs --db (a large network, e.g. vilnius.zip scaled ×3)")
            }
            try latency(database: db, work: work)
        }
        if part.contains(.soak) { try soak(sample: sample) }
        if part.contains(.idle) { try idleCPU(sample: sample, work: work) }
    }

    // MARK: - Scan to screen

    /// Passengers walk up to a 1280×720 camera (paced at 30 fps) holding the labels of the network's busiest
    /// stops; the kiosk program (scan thread, state machine, stop view on the large database, screen) runs as in
    /// production. The figure is the kiosk's own: frame arrival → the screen showing that stop written.
    private func latency(database: String, work: URL) throws {
        let routes = try RouteDatabase(path: database)
        let stops = try routes.busiestStopIDs(limit: 10)
        let video = work.appendingPathComponent("walk-up-720p.y4m").path
        let script = try WalkUpReplay.write(
            to: video, width: 1280, height: 720, passengers: stops.count, codes: stops,
            template: "https://transit.example/s/{stop_code}")
        var config = KioskConfig()
        config.urlTemplate = "https://transit.example/s/{stop_id}"  // this network's stops have no codes
        config.idleTimeoutSeconds = 1
        config.databasePath = database
        var options = KioskRunOptions(
            config: config, databasePath: database,
            input: .replay(.video(path: video, loop: false, pacing: .framesPerSecond(30))))
        options.plainText = true
        options.plainSize = (120, 40)
        options.once = true
        // The kiosk's clock: the network's busiest day at 08:00.
        if let day = routes.busiestServiceDate() {
            options.clockOffset =
                day.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(8 * 3600).timeIntervalSinceNow
        }
        let app = KioskApp(options: options)
        let (status, seconds) = Measure.seconds { StandardOutput.discarding { app.run() } }
        guard status == 0 else { throw ValidationError("the kiosk exited with \(status)") }
        let latencies = app.scanToScreenNanos.map { Double($0) / 1e9 }.sorted()
        guard !latencies.isEmpty else { throw ValidationError("no scan reached the screen") }
        print(
            """
            scan to screen: \(script.frames) frames of 1280×720 at 30 fps (\(String(format: "%.1f", seconds)) s), \(stops.count) passengers at the busiest stops of \(database)
              \(latencies.count) scans drawn: p50 \(Measure.ms(Measure.percentile(latencies, 50)))  p95 \(Measure.ms(Measure.percentile(latencies, 95)))  max \(Measure.ms(latencies.last!))  (limit p95 ≤ 100 ms)
            """)
    }

    // MARK: - Memory soak

    /// The recorded demo session replayed unpaced through the whole kiosk program (scan thread, decoder, payload
    /// parser, lookups, state machine, screen builder) for `soakFrames` frames, sampling resident memory.
    private func soak(sample: String) throws {
        guard
            let sessionPath = DemoSessionLocator.find(
                resourceDirectory: SampleData.sampleNetworkFeed.deletingLastPathComponent())
        else {
            throw ValidationError("the demo session (assets/demo/session.json) is not installed")
        }
        let session = try DemoSession.load(sessionPath)
        let video = URL(fileURLWithPath: sessionPath).deletingLastPathComponent().appendingPathComponent(session.video)
            .path
        var config = KioskConfig()
        config.homeStop = session.homeStop
        config.idleTimeoutSeconds = 1
        // Unpaced, a pass takes about a second: a short debounce lets every pass's scans through to the lookups.
        config.debounceSeconds = 0.05
        config.databasePath = sample
        var options = KioskRunOptions(
            config: config, databasePath: sample, input: .demo(session, videoPath: video, loop: true),
            context: ScreenContext(demo: true))
        options.plainText = true
        options.once = true
        options.unpacedDemo = true
        options.frameLimit = soakFrames
        if let start = ServiceDate(yyyymmdd: 20261125) {
            options.clockOffset =
                start.serviceDayOrigin(in: TimeZone(identifier: "America/Guayaquil")!).addingTimeInterval(8 * 3600)
                .timeIntervalSinceNow
        }
        let app = KioskApp(options: options)
        let sampler = MemorySampler()
        sampler.start()
        let (_, seconds) = Measure.seconds { StandardOutput.discarding { app.run() } }
        let samples = sampler.stop()
        // Warm: after the first tenth of the run (database pages, decoder buffers, caches filled once).
        let warm = samples.first { $0.seconds >= seconds / 10 }?.residentMB ?? samples.first?.residentMB ?? 0
        let last = samples.last?.residentMB ?? 0
        let peak = samples.map(\.residentMB).max() ?? 0
        let stats = app.statistics
        print(
            """
            memory soak: \(soakFrames) frames of the demo session through the kiosk in \(String(format: "%.0f", seconds)) s (\(stats.scans) scans, \(stats.plans) plans, \(stats.frames) screens)
              resident memory: \(String(format: "%.1f", warm)) MB warm → \(String(format: "%.1f", last)) MB at the end (peak \(String(format: "%.1f", peak)) MB); growth \(String(format: "%.2f", last - warm)) MB (limit 5 MB)
            """)
    }

    // MARK: - Idle CPU

    /// `kiosk run` on a camera (the fake V4L2 device, 1280×720 YUYV at 30 fps, through the real capture code)
    /// that sees an empty, noisy scene; the process's CPU over the run, less the fake camera's own producer thread.
    private func idleCPU(sample: String, work: URL) throws {
        let kiosk = Measure.siblingKiosk()
        guard FileManager.default.isExecutableFile(atPath: kiosk) else {
            print("idle CPU skipped: build the kiosk product beside kiosk-bench (swift build -c release)")
            return
        }
        guard let cc = ["cc", "gcc", "clang"].lazy.compactMap(Measure.which).first else {
            print("idle CPU skipped: no C compiler to build the fake camera")
            return
        }
        let shimSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/fakev4l2/fakev4l2.c").path
        let shim = work.appendingPathComponent("libfakev4l2.so").path
        try Measure.runProcess(cc, ["-shared", "-fPIC", "-O2", "-o", shim, shimSource, "-ldl", "-lpthread"])

        let frames = work.appendingPathComponent("empty-720p.y4m").path
        let writer = try Y4MWriter(
            path: frames, width: 1280, height: 720, colourspace: .mono, frameRate: Y4MRatio(30, 1))
        for i in 0..<30 {
            try writer.write(BenchScene.background(width: 1280, height: 720, seed: 1, noiseSeed: UInt64(i + 1)))
        }
        try writer.close()
        let config = work.appendingPathComponent("kiosk.toml").path
        try """
        home_stop = "1091"
        [camera]
        device = "/dev/video42"
        width = 1280
        height = 720
        frames_per_second = 30
        [database]
        path = "\(sample)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let stderrPath = work.appendingPathComponent("kiosk.stderr").path
        let environment = [
            "LD_PRELOAD=\(shim)", "FAKEV4L2_DEVICE=/dev/video42", "FAKEV4L2_FRAMES=\(frames)", "FAKEV4L2_FORMAT=YUYV",
            "FAKEV4L2_FPS=30", "FAKEV4L2_STATS=1",
        ]
        let run = try Measure.spawn(
            kiosk, ["run", "--config", config, "--log", "/dev/null"], stderrPath: stderrPath,
            environment: environment, stopAfter: Double(idleSeconds))
        let producer = (try? String(contentsOfFile: stderrPath, encoding: .utf8))?
            .split(separator: "\n").compactMap { line -> Double? in
                guard line.contains("\"fakev4l2\":\"stats\""), let range = line.range(of: "\"producerCpuSeconds\":")
                else { return nil }
                return Double(line[range.upperBound...].prefix { "0123456789.".contains($0) })
            }.last
        let kioskCPU = run.cpuSeconds - (producer ?? 0)
        print(
            """
            idle CPU: kiosk run on a 1280×720 YUYV camera at 30 fps seeing no code, \(String(format: "%.1f", run.seconds)) s
              \(String(format: "%.1f", 100 * kioskCPU / run.seconds))% of one core\(producer.map { " (the fake camera's own \(String(format: "%.1f", 100 * $0 / run.seconds))% left out)" } ?? " (including the fake camera's producer thread)")  (limit 15%)
            """)
    }
}

/// Samples this process's resident memory (VmRSS) every half second on a background thread.
final class MemorySampler: @unchecked Sendable {
    struct Sample { var seconds: Double; var residentMB: Double }
    private let lock = NSLock()
    private var samples: [Sample] = []
    private var running = true

    func start() {
        let started = DispatchTime.now().uptimeNanoseconds
        Thread {
            while true {
                self.lock.lock()
                let go = self.running
                if go {
                    self.samples.append(
                        Sample(
                            seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                            residentMB: Self.residentMB()))
                }
                self.lock.unlock()
                if !go { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }.start()
    }

    func stop() -> [Sample] {
        lock.lock()
        defer { lock.unlock() }
        running = false
        samples.append(Sample(seconds: samples.last?.seconds ?? 0, residentMB: Self.residentMB()))
        return samples
    }

    static func residentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
    }
}

/// The kiosk in plain-text mode prints every screen; a benchmark wants the work, not the output.
enum StandardOutput {
    static func discarding<T>(_ body: () -> T) -> T {
        fflush(nil)  // every C stream: stdout cannot be named under strict concurrency
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, STDOUT_FILENO)
        close(null)
        defer {
            fflush(nil)  // every C stream: stdout cannot be named under strict concurrency
            dup2(saved, STDOUT_FILENO)
            close(saved)
        }
        return body()
    }
}
