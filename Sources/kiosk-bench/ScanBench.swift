import ArgumentParser
import Foundation
import KioskConfiguration
import Labels
import Logging
import ScanService
import Scanning
import StopCodes
import StopPresentation
import TerminalKiosk
import TransitStore
import TripPlanning

/// The scanner against zbar's own tool and the limits the kiosk needs:
///
/// 1. decode time per frame, with a code and without, at 640×480 and 1280×720: `zbarimg` on image files (a
///    process per image, and all images in one process) against our load + decode of the same files in process,
///    `kiosk scan --images` as a process, and our in-process decode alone;
/// 2. sustained frames per second through the whole pipeline (Y4M source → change detection → decode → debounce →
///    parse → resolve) on a 1280×720 replay of passengers walking up with stop labels, and the CPU it takes;
/// 3. latency from frame arrival to resolved stop in that replay (p95 limit 50 ms);
/// 4. detection on the shared photo set (`../shared/data/qr/qrcode-*`): exact reads, ours and zbarimg's;
/// 5. the second decoder (zxing-cpp): the survey per folder and the frame rate with it on (`DecoderBench.swift`).
///
/// Every figure is a min/median over `--runs` runs after a warm-up, in the same process and on the same files.
struct ScanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Scanner speed and detection against zbarimg.")

    enum Part: String, ExpressibleByArgument, CaseIterable {
        case decode, pipeline, detection, survey, decoders
    }

    @Option(help: "A route database (default: the repository's sample network, imported into a temporary file).")
    var db: String?

    @Option(help: "Measured runs of each figure (after one warm-up).")
    var runs = 5

    @Option(help: "Images per set (size × with/without code) in the decode comparison.")
    var images = 8

    @Option(help: "Passengers walking up in the pipeline replay (150 frames, 5 s, each).")
    var passengers = 6

    @Option(help: "The shared photo set for the detection figure.")
    var shared = "../shared/data/qr"

    @Option(
        parsing: .upToNextOption,
        help: "Which parts to run: decode, pipeline, detection, survey, decoders (default all).")
    var parts: [Part] = Part.allCases

    @Option(parsing: .upToNextOption, help: "Decoders of the pipeline replay: zbar, zxing (default both, zbar first).")
    var decoders: [String] = ["zbar", "zxing"]

    @Flag(help: "Keep the generated files (printed at the end).")
    var keep = false

    func validate() throws {
        guard runs >= 1, images >= 1, passengers >= 1 else {
            throw ValidationError("--runs, --images and --passengers must be at least 1")
        }
    }

    func run() throws {
        guard let zbarimg = Measure.which("zbarimg") else {
            throw ValidationError("zbarimg is not installed (apt-get install zbar-tools)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-scan-\(getpid())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: work) } }

        let databasePath = try db ?? importSample(into: work)
        let routes = try RouteDatabase(path: databasePath)
        let resolver = try ScanResolver(config: KioskConfig(), database: routes)
        let codes = try routes.boardingStopCodes(limit: 64)
        guard codes.count >= 2 else {
            throw ValidationError("\(databasePath) has fewer than two stops with a stop_code")
        }
        print(
            "kiosk-bench scan: zbar \(Self.zbarVersion(zbarimg)), \(ProcessInfo.processInfo.activeProcessorCount) cores, database \(databasePath) (feed \(routes.feedID))"
        )

        if parts.contains(.decode) {
            try decodeComparison(zbarimg: zbarimg, codes: codes, work: work, databasePath: databasePath)
        }
        if parts.contains(.pipeline) { try pipelineThroughput(resolver: resolver, codes: codes, work: work) }
        if parts.contains(.detection) { try detection(zbarimg: zbarimg) }
        if parts.contains(.survey) { try decoderSurvey(resolver: resolver) }
        if parts.contains(.decoders) { try decoderFrameRate(resolver: resolver) }
        if keep { print("files kept in \(work)") }
    }

    // MARK: - 1. Decode time per frame against zbarimg

    private func decodeComparison(zbarimg: String, codes: [String], work: String, databasePath: String) throws {
        print(
            "\n== decode time per frame: ours against zbarimg \(zbarSymbologyArguments.joined(separator: " ")) on the same files =="
        )
        let kiosk = Measure.siblingKiosk()
        let haveKiosk = FileManager.default.isExecutableFile(atPath: kiosk)
        var worst = (process: 0.0, batch: 0.0, direct: 0.0)
        for (width, height) in [(640, 480), (1280, 720)] {
            for withCode in [true, false] {
                let label = "\(width)x\(height) \(withCode ? "with a code" : "no code")"
                // The frames a camera would give: a textured scene with noise, a stop label at a different place and
                // size in each, slightly out of focus.
                var frames: [LumaFrame] = []
                for index in 0..<images {
                    var frame = BenchScene.background(
                        width: width, height: height, seed: UInt64(index + 1), noiseSeed: UInt64(100 + index))
                    if withCode {
                        let module = width >= 1280 ? 6 + index % 3 : 4 + index % 2
                        BenchScene.drawLabel(
                            &frame,
                            payload: KioskConfig().urlTemplate.replacingOccurrences(
                                of: "{stop_code}", with: codes[index % codes.count]),
                            x: 40 + (index * 97) % (width / 2), y: 30 + (index * 53) % (height / 3), module: module)
                    } else {
                        BenchScene.drawPerson(
                            &frame, x: 60 + index * 70, y: height / 5, width: width / 5, height: height * 3 / 4)
                    }
                    frames.append(frame)
                }
                let directory = work + "/decode-\(width)x\(height)-\(withCode ? "code" : "empty")"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                var pgms: [String] = [], pngs: [String] = []
                for (index, frame) in frames.enumerated() {
                    pgms.append(directory + "/frame\(index).pgm")
                    pngs.append(directory + "/frame\(index).png")
                    try ImageWriters.pgm(frame).write(to: URL(fileURLWithPath: pgms.last!))
                    try ImageWriters.png(frame).write(to: URL(fileURLWithPath: pngs.last!))
                }

                // Our decoder as the kiosk runs it (video preset: recovery spread over frames), one per set.
                let decoder = ZBarDecoder(configuration: .video)
                var found = 0
                for frame in frames where !decoder.decode(frame).isEmpty { found += 1 }

                var zbarProcess: [Double] = [], zbarBatch: [Double] = [], oursLoadDecode: [Double] = [],
                    oursDecode: [Double] = []
                var oursLoadDecodePNG: [Double] = [], zbarProcessPNG: [Double] = [], kioskProcess: [Double] = [],
                    oursLoadDirect: [Double] = []
                var zbarFound = 0
                for run in 0...runs {
                    var zp: [Double] = [], zpPNG: [Double] = [], ol: [Double] = [], olPNG: [Double] = [],
                        od: [Double] = [], kp: [Double] = []
                    var direct: [Double] = []
                    for index in 0..<frames.count {
                        let child = try ChildProcess.run(
                            zbarimg, ["-q"] + zbarSymbologyArguments + [pgms[index]], captureOutput: run == 0)
                        zp.append(child.seconds)
                        if run == 0, child.status == 0, !child.output.isEmpty { zbarFound += 1 }
                        zpPNG.append(
                            try ChildProcess.run(zbarimg, ["-q"] + zbarSymbologyArguments + [pngs[index]]).seconds)
                        ol.append(try Measure.seconds { decoder.decode(try ImageFile.load(pgms[index])).count }.1)
                        olPNG.append(try Measure.seconds { decoder.decode(try ImageFile.load(pngs[index])).count }.1)
                        od.append(Measure.seconds { decoder.decode(frames[index]).count }.1)
                        direct.append(
                            try Measure.seconds { decoder.run(.direct, on: try ImageFile.load(pgms[index])).count }.1)
                        if haveKiosk {
                            kp.append(
                                try ChildProcess.run(
                                    kiosk, ["scan", "--images", pgms[index], "--db", databasePath, "--json"]
                                ).seconds)
                        }
                    }
                    let batch =
                        try ChildProcess.run(zbarimg, ["-q"] + zbarSymbologyArguments + pgms).seconds
                        / Double(frames.count)
                    if run == 0 { continue }  // warm-up: page cache, lazy binding, first-touch allocation
                    zbarProcess.append(Measure.median(zp)); zbarProcessPNG.append(Measure.median(zpPNG))
                    // Ours: the mean per frame, so that recovery spread unevenly over frames is counted in full.
                    oursLoadDecode.append(Measure.mean(ol)); oursLoadDecodePNG.append(Measure.mean(olPNG))
                    oursDecode.append(Measure.mean(od)); zbarBatch.append(batch);
                    oursLoadDirect.append(Measure.median(direct))
                    if haveKiosk { kioskProcess.append(Measure.median(kp)) }
                }
                if !withCode {
                    // Where our time goes on a frame without a code: each pass on its own (transform + scan).
                    var passes: [String] = []
                    for pass in [DecodePass.direct] + RecoveryStep.defaultLadder.map({ DecodePass.recovery($0) }) {
                        var times: [Double] = []
                        for frame in frames { times.append(Measure.seconds { decoder.run(pass, on: frame).count }.1) }
                        passes.append("\(pass) \(Measure.ms(Measure.median(times)))")
                    }
                    print("  \(label), each pass alone (median): \(passes.joined(separator: ", "))")
                }
                let ratio = Measure.median(oursLoadDecode) / Measure.median(zbarProcess)
                let batchRatio = Measure.median(oursLoadDecode) / Measure.median(zbarBatch)
                let directRatio = Measure.median(oursLoadDirect) / Measure.median(zbarBatch)
                worst = (max(worst.process, ratio), max(worst.batch, batchRatio), max(worst.direct, directRatio))
                print(
                    """
                    \(label): \(frames.count) images, codes found: ours \(found), zbarimg \(zbarFound)
                      zbarimg, one process per image (PGM):     \(Self.minMedian(zbarProcess))
                      zbarimg, one process per image (PNG):     \(Self.minMedian(zbarProcessPNG))
                      zbarimg, all images in one process, per image (PGM): \(Self.minMedian(zbarBatch))
                      kiosk scan --images, one process per image:  \(haveKiosk ? Self.minMedian(kioskProcess) : "not measured (build kiosk beside kiosk-bench)")
                      ours in process, load + decode (PGM), mean per frame: \(Self.minMedian(oursLoadDecode))
                      ours in process, load + decode (PNG), mean per frame: \(Self.minMedian(oursLoadDecodePNG))
                      ours in process, decode only, mean per frame:         \(Self.minMedian(oursDecode))
                      ours in process, load + direct pass only (zbarimg's work, no recovery): \(Self.minMedian(oursLoadDirect))
                      ratios of medians over runs: ours load+decode / zbarimg process per image \(String(format: "%.2f", ratio)); / zbarimg per image in one process \(String(format: "%.2f", batchRatio)); ours load+direct / zbarimg in one process \(String(format: "%.2f", directRatio))\(haveKiosk ? String(format: "; kiosk scan process / zbarimg process %.2f", Measure.median(kioskProcess) / Measure.median(zbarProcess)) : "")
                    """)
            }
        }
        print(
            """
            decode, worst of the four sets (limit 1.0: not slower than zbar's own tool):
              ours load + decode / zbarimg -q, a process per image:          \(String(format: "%.2f", worst.process))
              ours load + decode / zbarimg, all images in one process:       \(String(format: "%.2f", worst.batch))
              ours load + direct pass / zbarimg, all images in one process:  \(String(format: "%.2f", worst.direct))  (the same work: one zbar scan)
            """)
    }

    /// zbarimg restricted to what the kiosk scans for, so both sides do the same work, and without its D-Bus
    /// notification (which costs it a failed connection per process on a machine without a system bus).
    private var zbarSymbologyArguments: [String] {
        ["--nodbus", "-Sdisable"]
            + Symbology.stopLabelDefaults.map { "-S\(ScanSymbologies.name(of: $0)).enable" }.sorted()
    }

    // MARK: - 2 and 3. Whole pipeline: frames per second, CPU, latency

    private func pipelineThroughput(resolver: ScanResolver, codes: [String], work: String) throws {
        let width = 1280, height = 720
        print(
            "\n== whole pipeline on a \(width)x\(height) replay: \(passengers) passengers walking up with a label, 150 frames (5 s at 30 fps) each; decoders \(decoders.joined(separator: ", ")) =="
        )
        let path = work + "/walk-up.y4m"
        let script = try WalkUpReplay.write(
            to: path, width: width, height: height, passengers: passengers,
            codes: codes, template: KioskConfig().urlTemplate)
        let frameCount = script.frames
        print(
            "replay: \(path), \(frameCount) frames, \(script.codeFrames) with a label wholly in view (\(String(format: "%.0f", Double(script.codeFrames) * 100 / Double(frameCount)))%), \(String(format: "%.0f", Double(frameCount * width * height) / 1e6)) MB of luma"
        )

        struct RunFigures {
            var fps: Double
            var cpuShare: Double
            var framesPerCPUSecond: Double
            var decoded: Int
            var regionDecodes: Int
            var latencies: [Double]
            var framesToResolve: [Int]
            var stops: [String]
        }

        func replay(changeDetection: Bool, debounce: Duration, tracking: Bool = true) throws -> RunFigures {
            let source = try Y4MFileSource(path: path)
            var configuration = try ScanPipelineConfiguration(kiosk: KioskConfig())
            configuration.decoders = try DecoderKind.parse(decoders)
            configuration.timeline = .frames(perSecond: 30)
            configuration.debounceInterval = debounce
            if !changeDetection { configuration.changeDetection = nil }
            if !tracking { configuration.trackingInterval = 1 }
            let pipeline = ScanPipeline(source: source, resolver: resolver, configuration: configuration)
            defer { pipeline.close() }
            var latencies: [Double] = [], framesToResolve: [Int] = [], stops: [String] = []
            let cpuBefore = CPUTime.seconds()
            let (_, wall) = try Measure.seconds {
                try pipeline.run { event in
                    if case .scan(let scan) = event, scan.status == .stop, !scan.carriedOver {
                        latencies.append(Double(scan.latencyNanos) / 1e9)
                        stops.append(scan.stop?.stop.code ?? "?")
                        if let frames = script.framesSinceInView(scan.frame) { framesToResolve.append(frames) }
                    }
                    return .proceed
                }
            }
            let cpu = CPUTime.seconds() - cpuBefore
            let frames = pipeline.statistics.frames
            return RunFigures(
                fps: Double(frames) / wall, cpuShare: cpu / wall, framesPerCPUSecond: Double(frames) / cpu,
                decoded: pipeline.statistics.decodedFrames, regionDecodes: pipeline.statistics.regionDecodes,
                latencies: latencies, framesToResolve: framesToResolve, stops: stops)
        }

        var kiosk: [RunFigures] = [], everyFrame: [RunFigures] = []
        for run in 0...runs {
            let a = try replay(changeDetection: true, debounce: .seconds(3))
            let b = try replay(changeDetection: false, debounce: .seconds(3), tracking: false)
            if run == 0 { continue }
            kiosk.append(a); everyFrame.append(b)
        }
        let expected = script.passengerCodes
        let scanned = kiosk.first?.stops ?? []
        print(
            """
            as the kiosk runs it (change detection, 3 s debounce): each run reported \(scanned.count) stops for \(expected.count) passengers\(scanned == expected ? " (every passenger's stop, in order)" : ": \(scanned) expected \(expected)")
              frames per second:      min \(String(format: "%.1f", kiosk.map(\.fps).min()!))  median \(String(format: "%.1f", Measure.median(kiosk.map(\.fps))))  (target ≥ 30 on one core, goal ≥ 60)
              CPU (user+sys / wall):  median \(String(format: "%.0f", Measure.median(kiosk.map(\.cpuShare)) * 100))% of one core; frames per CPU-second: median \(String(format: "%.1f", Measure.median(kiosk.map(\.framesPerCPUSecond))))
              frames decoded:         \(kiosk.first!.decoded) of \(frameCount) (the rest unchanged since the last decode), \(kiosk.first!.regionDecodes) of them only around the code held in view
            decoding every frame whole (no change detection, no tracking of a held code), the worst case:
              frames per second:      min \(String(format: "%.1f", everyFrame.map(\.fps).min()!))  median \(String(format: "%.1f", Measure.median(everyFrame.map(\.fps))))
              CPU (user+sys / wall):  median \(String(format: "%.0f", Measure.median(everyFrame.map(\.cpuShare)) * 100))% of one core; frames per CPU-second: median \(String(format: "%.1f", Measure.median(everyFrame.map(\.framesPerCPUSecond))))
            """)

        // Latency: every scan that resolved a stop, in every run; and, for many more samples, every decoded frame
        // with a label (debounce off, frames carried over without decoding left out).
        let scans = kiosk.flatMap(\.latencies).sorted()
        var perFrame: [Double] = []
        for _ in 0..<max(1, runs / 2) { perFrame += try replay(changeDetection: true, debounce: .zero).latencies }
        perFrame.sort()
        let toResolve = kiosk.flatMap(\.framesToResolve).map(Double.init).sorted()
        print(
            """
            latency, frame arrival → resolved stop, \(width)x\(height):
              the passengers' scans (\(scans.count)):  p50 \(Measure.ms(Measure.percentile(scans, 50)))  p95 \(Measure.ms(Measure.percentile(scans, 95)))  max \(Measure.ms(scans.last ?? .nan))  (limit p95 ≤ 50 ms)
              every decoded frame with a label (\(perFrame.count)):  p50 \(Measure.ms(Measure.percentile(perFrame, 50)))  p95 \(Measure.ms(Measure.percentile(perFrame, 95)))  max \(Measure.ms(perFrame.last ?? .nan))
              frames from the label wholly in view to its scan: p50 \(String(format: "%.0f", Measure.percentile(toResolve, 50)))  p95 \(String(format: "%.0f", Measure.percentile(toResolve, 95)))  max \(String(format: "%.0f", toResolve.last ?? .nan)) (at 30 fps, a frame is 33 ms)
            """)
    }

    // MARK: - 4. Detection on the shared photo set

    private func detection(zbarimg: String) throws {
        print(
            "\n== detection on \(shared)/{\(DetectionSurvey.sharedQRFolders.joined(separator: ","))}: exact payloads =="
        )
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: shared, isDirectory: &isFolder), isFolder.boolValue else {
            print("detection skipped: \(shared) is absent (the shared photo set sits beside the repository)")
            return
        }
        let samples = DetectionSurvey.samples(in: shared, subfolders: DetectionSurvey.sharedQRFolders)
        guard !samples.isEmpty else {
            print("detection skipped: no samples (image + .txt) under \(shared)")
            return
        }
        let still = DetectionSurvey.run(folder: shared, subfolders: DetectionSurvey.sharedQRFolders)
        let direct = DetectionSurvey.run(
            folder: shared, subfolders: DetectionSurvey.sharedQRFolders,
            configuration: DecoderConfiguration(recovery: []))
        var video = 0
        do {
            // The kiosk's camera decoder sees each photo as a held code for half a second (15 frames at 30 fps):
            // long enough for its recovery credit to go once through the whole ladder.
            let decoder = ZBarDecoder(configuration: .video)
            for sample in samples {
                guard let frame = try? ImageFile.load(sample.imagePath) else { continue }
                for _ in 0..<15 where decoder.decode(frame).contains(where: { $0.matches(sample.expected) }) {
                    video += 1
                    break
                }
            }
        }
        var zbarDefault = 0, zbarBinary = 0, zbarEither = 0
        for sample in samples {
            let plain = try ChildProcess.run(
                zbarimg, ["-q", "--nodbus", "--raw", sample.imagePath], captureOutput: true)
            let binary = try ChildProcess.run(
                zbarimg, ["-q", "--nodbus", "--raw", "-Sbinary", sample.imagePath], captureOutput: true)
            // Text mode ends each symbol with a newline; binary mode writes the bytes alone.
            let a = Self.rawOutput(plain.output, contains: sample.expected)
            let b =
                binary.output == sample.expected || Self.rawOutput(binary.output + [0x0A], contains: sample.expected)
            if a { zbarDefault += 1 }
            if b { zbarBinary += 1 }
            if a || b { zbarEither += 1 }
        }
        let time = still.results.map { $0.duration.seconds }.sorted()
        print(
            """
            \(samples.count) photos with their expected payload:
              ours, still-image decoder (full recovery ladder): \(still.ladderHits) exact  (target ≥ 75, goal ≥ 85); per image p50 \(Measure.ms(Measure.percentile(time, 50))) max \(Measure.ms(time.last ?? 0))
              ours, the kiosk's video decoder, 15 frames of each: \(video) exact
              ours, direct pass only:                           \(direct.ladderHits) exact
              zbarimg --raw (its charset conversion):           \(zbarDefault) exact; with -Sbinary (bytes as stored) \(zbarBinary); either \(zbarEither)
              ours − zbarimg (best of its modes):               \(still.ladderHits - zbarEither)
            """)
    }

    /// zbarimg --raw prints each symbol's data followed by a newline.
    static func rawOutput(_ output: [UInt8], contains expected: [UInt8]) -> Bool {
        let needle = expected + [0x0A]
        guard output.count >= needle.count else { return false }
        for start in 0...(output.count - needle.count) where start == 0 || output[start - 1] == 0x0A {
            if output[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    // MARK: - Helpers

    static func minMedian(_ seconds: [Double]) -> String {
        guard let min = seconds.min() else { return "n/a" }
        return "min \(Measure.ms(min))  median \(Measure.ms(Measure.median(seconds)))"
    }

    static func zbarVersion(_ zbarimg: String) -> String {
        guard let child = try? ChildProcess.run(zbarimg, ["--version"], captureOutput: true) else { return "?" }
        return String(decoding: child.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The repository's sample network (found from this source file), imported into `work`.
    private func importSample(into work: String) throws -> String {
        let feed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("assets/sample-network").path
        guard FileManager.default.fileExists(atPath: feed + "/stops.txt") else {
            throw ValidationError("no --db given and the sample network is not at \(feed)")
        }
        let path = work + "/sample.sqlite"
        _ = try GTFSImporter(feedPath: feed, databasePath: path, logger: Measure.quietLogger).run()
        return path
    }
}

extension RouteDatabase {
    /// Stop codes of boarding stops, for labels in the benchmark.
    fileprivate func boardingStopCodes(limit: Int) throws -> [String] {
        var codes: [String] = []
        for id in try boardingStopIDs() where codes.count < limit {
            if let code = try resolveStop(.id(id)).stop.code, !code.isEmpty, !codes.contains(code) {
                codes.append(code)
            }
        }
        return codes
    }
}

/// A replay of passengers walking up to the kiosk: each comes into view (no code), brings a stop label up to the
/// camera (it slides in), holds it for three seconds with a slightly shaking hand, and takes it away.
enum WalkUpReplay {
    struct Script {
        var frames: Int
        var codeFrames: Int
        /// Per passenger: the first frame in which the whole code (its modules, not all of its quiet zone) is in view.
        var fullyInView: [Int]
        var passengerCodes: [String]

        /// Frames from the code of the passenger at `frame` coming wholly into view to `frame`.
        func framesSinceInView(_ frame: Int) -> Int? {
            let passenger = frame / WalkUpReplay.framesPerPassenger
            return passenger < fullyInView.count ? frame - fullyInView[passenger] : nil
        }
    }

    static let framesPerPassenger = 150

    static func write(
        to path: String, width: Int, height: Int, passengers: Int, codes: [String], template: String
    ) throws -> Script {
        let writer = try Y4MWriter(
            path: path, width: width, height: height, colourspace: .mono, frameRate: Y4MRatio(30, 1))
        var rng = SplitMix64(seed: 7)
        var frames = 0, codeFrames = 0
        var fullyInView: [Int] = [], passengerCodes: [String] = []
        for passenger in 0..<passengers {
            let code = codes[passenger % codes.count]
            passengerCodes.append(code)
            let payload = template.replacingOccurrences(of: "{stop_code}", with: code)
            let matrix = QRRender.matrix(payload)
            let module = 7 + passenger % 3
            let side = (matrix.width + 8) * module
            let restX = width / 2 - side / 2 + Int(rng.next() % 200) - 100,
                restY = height / 2 - side / 2 + Int(rng.next() % 80) - 40
            var x = restX, y = restY
            for step in 0..<framesPerPassenger {
                var frame = BenchScene.background(
                    width: width, height: height, seed: UInt64(passenger % 3 + 1), noiseSeed: rng.next())
                // The passenger: walks in from the right over 30 frames, then stands in front of the camera.
                let personX = step < 30 ? width - step * (width / 2) / 30 : width / 2 - width / 10
                BenchScene.drawPerson(&frame, x: personX, y: height / 6, width: width / 4, height: height)
                switch step {
                case 30..<40:
                    // The label comes up from below.
                    y = height - (step - 29) * (height - restY) / 10
                    x = restX
                case 40..<130:
                    // Held: the hand shakes by a pixel now and then.
                    if rng.next() % 3 == 0 { x += Int(rng.next() % 3) - 1; y += Int(rng.next() % 3) - 1 }
                case 130..<140:
                    y = restY + (step - 129) * (height - restY) / 10
                default:
                    break
                }
                if (30..<140).contains(step) {
                    BenchScene.drawLabel(&frame, matrix: matrix, x: x, y: y, module: module)
                    if y + side - 4 * module <= height && y >= 0 {
                        codeFrames += 1
                        if fullyInView.count == passenger { fullyInView.append(frames) }
                    }
                }
                try writer.write(frame)
                frames += 1
            }
        }
        try writer.close()
        return Script(frames: frames, codeFrames: codeFrames, fullyInView: fullyInView, passengerCodes: passengerCodes)
    }
}

/// Synthetic camera frames: a textured wall with sensor noise, a person (a dark soft shape), a printed label.
enum BenchScene {
    static func background(width: Int, height: Int, seed: UInt64, noiseSeed: UInt64) -> LumaFrame {
        var pixels = [UInt8](repeating: 0, count: width * height)
        var state = noiseSeed | 1
        let tileX = 31 + Int(seed % 17), tileY = 23 + Int(seed % 11)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let row = y * width
                let vertical = y * 50 / height
                for x in 0..<width {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Int(truncatingIfNeeded: state >> 61) - 3
                    let tile = ((x / tileX + y / tileY) & 1) * 14
                    buffer[row + x] = UInt8(clamping: 70 + x * 90 / width + vertical + tile + noise)
                }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }

    /// A dark rounded shape (head and shoulders) whose left edge is at `x`.
    static func drawPerson(_ frame: inout LumaFrame, x: Int, y: Int, width: Int, height: Int) {
        let frameWidth = frame.width, frameHeight = frame.height
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            for py in max(0, y)..<min(frameHeight, y + height) {
                let relative = py - y
                let halfWidth = relative < height / 4 ? width / 4 : width / 2
                let centre = x + width / 2
                for px in max(
                    0, centre - halfWidth)..<max(max(0, centre - halfWidth), min(frameWidth, centre + halfWidth))
                {
                    let value = Int(buffer[py * frameWidth + px])
                    buffer[py * frameWidth + px] = UInt8(value * 2 / 5 + 10)
                }
            }
        }
    }

    static func drawLabel(_ frame: inout LumaFrame, payload: String, x: Int, y: Int, module: Int) {
        drawLabel(&frame, matrix: QRRender.matrix(payload), x: x, y: y, module: module)
    }

    /// The code with its quiet zone on white paper, ink not quite black, edges softened by a 3×3 blur (focus).
    static func drawLabel(_ frame: inout LumaFrame, matrix: (width: Int, dark: [Bool]), x: Int, y: Int, module: Int) {
        let side = (matrix.width + 8) * module
        let frameWidth = frame.width, frameHeight = frame.height
        let x0 = max(0, x), y0 = max(0, y), x1 = min(frameWidth, x + side), y1 = min(frameHeight, y + side)
        guard x1 > x0, y1 > y0 else { return }
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            for py in y0..<y1 {
                for px in x0..<x1 {
                    let mx = (px - x) / module - 4, my = (py - y) / module - 4
                    let dark =
                        mx >= 0 && my >= 0 && mx < matrix.width && my < matrix.width
                        && matrix.dark[my * matrix.width + mx]
                    let shade = (px - x) * 25 / side  // uneven light across the label
                    buffer[py * frameWidth + px] = dark ? UInt8(35 + shade / 2) : UInt8(215 - shade)
                }
            }
            // Focus blur over the label.
            let copy = Array(buffer[0..<buffer.count])
            for py in max(1, y0)..<min(frameHeight - 1, y1) {
                for px in max(1, x0)..<min(frameWidth - 1, x1) {
                    var sum = 0
                    for dy in -1...1 { for dx in -1...1 { sum += Int(copy[(py + dy) * frameWidth + px + dx]) } }
                    buffer[py * frameWidth + px] = UInt8(sum / 9)
                }
            }
        }
    }
}

/// QR matrices as labels print them (byte mode, error correction M), from the label generator's encoder.
enum QRRender {
    static func matrix(_ payload: String) -> (width: Int, dark: [Bool]) {
        guard let matrix = try? QRMatrix(encoding: payload, errorCorrection: .medium) else {
            fatalError("cannot encode \(payload.utf8.count) bytes as QR")
        }
        return (matrix.size, matrix.modules)
    }
}

/// Image files for zbarimg: binary PGM, and PNG.
enum ImageWriters {
    static func pgm(_ frame: LumaFrame) -> Data {
        var data = Data("P5\n\(frame.width) \(frame.height)\n255\n".utf8)
        data.append(contentsOf: frame.pixels)
        return data
    }

    static func png(_ frame: LumaFrame) -> Data { Data(PNGWriter.grey(frame)) }
}

/// zbarimg and friends, timed as whole processes: the exit status is returned rather than checked (zbarimg exits
/// with 4 when it finds nothing), and standard output optionally captured.
enum ChildProcess {
    struct Result {
        var seconds: Double
        var status: Int32
        var output: [UInt8]
    }

    static func run(_ executable: String, _ arguments: [String], captureOutput: Bool = false) throws -> Result {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiosk-bench-scan-out-\(getpid())"
        ).path
        defer { if captureOutput { unlink(outputPath) } }
        let run = try Measure.spawn(
            executable, arguments, stdoutPath: captureOutput ? outputPath : "/dev/null", stderrPath: "/dev/null")
        guard run.status == 0 || run.status == 4 else {
            throw ValidationError(
                "\(executable) \(arguments.prefix(4).joined(separator: " ")) failed (status \(run.status))")
        }
        let output = captureOutput ? Array((try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()) : []
        return Result(seconds: run.seconds, status: run.status, output: output)
    }
}

enum CPUTime {
    /// User + system CPU time of this process so far.
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        func value(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
