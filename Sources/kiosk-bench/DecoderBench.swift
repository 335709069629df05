import ArgumentParser
import Foundation
import KioskConfiguration
import ScanService
import Scanning
import StopPresentation

/// The second decoder (zxing-cpp behind zbar), measured by `kiosk-bench scan --parts decoders survey`:
///
/// - survey: per folder of the shared QR photos, what zbar alone, zxing-cpp alone, the chain on stills, the chain
///   on camera frames (each photo held 15 frames) and the whole scan pipeline (`kiosk scan --images --json`'s
///   path, exact `text`) read;
/// - decoders: frames per second through the whole pipeline at 1280×720 with zbar alone and with both decoders,
///   in the same run, on four scenes: no code, a label zbar reads, a code only zxing reads (a worn photo from the
///   shared set, moving a little), and a code-like patch nothing reads (zxing's worst case: it runs whenever its
///   budget allows); each decoding every frame whole (the worst case) and as the kiosk runs (change detection,
///   tracking); and the time to first decode of the hard code.
extension ScanBench {
    func decoderSurvey(resolver: ScanResolver) throws {
        print(
            "\n== survey per folder of \(shared): exact payloads, zbar \(DecoderKind.zbar.libraryVersion), zxing-cpp \(DecoderKind.zxing.libraryVersion) =="
        )
        let folders = DetectionSurvey.sharedQRFolders
        guard !DetectionSurvey.samples(in: shared, subfolders: folders).isEmpty else {
            print("survey skipped: no samples (image + .txt) under \(shared)")
            return
        }
        let zbar = DetectionSurvey.run(
            folder: shared, subfolders: folders, chain: DecoderChainConfiguration(zbar: .still, decoders: [.zbar]))
        var direct = DecoderChainConfiguration(zbar: DecoderConfiguration(recovery: []), decoders: [.zxing])
        direct.zxingLadder = [.direct]
        let zxingDirect = DetectionSurvey.run(folder: shared, subfolders: folders, chain: direct)
        let zxing = DetectionSurvey.run(
            folder: shared, subfolders: folders, chain: DecoderChainConfiguration(zbar: .still, decoders: [.zxing]))
        let still = DetectionSurvey.run(folder: shared, subfolders: folders, chain: .still)
        let video = DetectionSurvey.run(folder: shared, subfolders: folders, chain: .video, framesPerImage: 15)

        // The scan pipeline as `kiosk scan --images --json` runs it: each image once, exact `text` in the JSON.
        var pipelineHits: [String: Int] = [:]
        var configuration = try ScanPipelineConfiguration(kiosk: KioskConfig())
        configuration.decoder.recoveryBudget = nil
        configuration.changeDetection = nil
        configuration.debounceInterval = .zero
        let pipeline = ScanPipeline(source: nil, resolver: resolver, configuration: configuration)
        for result in still.results {
            guard let frame = try? ImageFile.load(result.sample.imagePath) else { continue }
            let texts = pipeline.process(frame).compactMap { event -> String? in
                guard case .scan(let scan) = event,
                    let object = try? JSONSerialization.jsonObject(with: Data(ScanJSON.line(scan).utf8))
                        as? [String: Any]
                else { return nil }
                return object["text"] as? String
            }
            if texts.contains(where: { Array($0.utf8) == result.sample.expected }) {
                pipelineHits[String(result.sample.name.prefix { $0 != "/" }), default: 0] += 1
            }
        }

        func row(_ label: String, _ report: DetectionSurvey.Report) -> String {
            let cells = folders.map { name in
                String(format: "%6d", report.hitsByFolder.first { $0.folder == name }?.hits ?? 0)
            }
            return
                "  \(label.padding(toLength: 44, withPad: " ", startingAt: 0))\(cells.joined())  \(String(format: "%6d", report.ladderHits))"
        }
        let totals = folders.map { name in still.hitsByFolder.first { $0.folder == name }?.total ?? 0 }
        let union = zip(zbar.results, zxing.results).filter { $0.hit || $1.hit }.count
        print(
            "  \("".padding(toLength: 44, withPad: " ", startingAt: 0))\(folders.map { "     " + $0.suffix(1) }.joined())   all  (qrcode-N)"
        )
        print(
            "  \("samples".padding(toLength: 44, withPad: " ", startingAt: 0))\(totals.map { String(format: "%6d", $0) }.joined())  \(String(format: "%6d", totals.reduce(0, +)))"
        )
        print(row("zbar alone (its recovery ladder)", zbar))
        print(row("zxing-cpp alone, one call per image", zxingDirect))
        print(row("zxing-cpp alone, with its ladder", zxing))
        print(row("chain on stills (kiosk scan --images)", still))
        print(row("chain on camera frames, 15 frames held", video))
        let pipelineCells = folders.map { String(format: "%6d", pipelineHits[$0] ?? 0) }.joined()
        print(
            "  \("scan pipeline, exact JSON text".padding(toLength: 44, withPad: " ", startingAt: 0))\(pipelineCells)  \(String(format: "%6d", pipelineHits.values.reduce(0, +)))"
        )
        print(
            "  either library alone (zbar or zxing-cpp, with their ladders): \(union); target for the pipeline: ≥ 94 (and ≥ that union)"
        )
        let missed = still.results.filter { !$0.hit }.map(\.sample.name)
        print("  not read by the chain: \(missed.joined(separator: ", "))")
        let zxingReads = still.results.filter { $0.foundBy?.decoder == .zxing }.compactMap { $0.foundBy?.description }
        print(
            "  read by zxing in the chain: \(zxingReads.count) (\(Dictionary(grouping: zxingReads, by: { $0 }).map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")))"
        )
    }

    func decoderFrameRate(resolver: ScanResolver) throws {
        let width = 1280, height = 720, count = 150
        print(
            "\n== frames per second at \(width)x\(height), zbar alone against zbar + zxing-cpp (budget \(DecoderChainConfiguration.videoBudget) per frame), \(count) frames per scene =="
        )
        let url = KioskConfig().urlTemplate.replacingOccurrences(of: "{stop_code}", with: "1091")

        // The hard code: a worn photo zbar's whole ladder misses, held in front of the wall, moving a little.
        let hardPath = shared + "/qrcode-2/fix-traceline"
        let hard = (try? ImageFile.load(hardPath + ".png")).flatMap { photo in
            FileManager.default.contents(atPath: hardPath + ".txt").map { (photo, String(decoding: $0, as: UTF8.self)) }
        }
        var scenes: [(name: String, frames: [LumaFrame], expected: String?)] = []
        func scene(_ draw: (inout LumaFrame, Int) -> Void) -> [LumaFrame] {
            (0..<count).map { index in
                var frame = BenchScene.background(width: width, height: height, seed: 2, noiseSeed: UInt64(500 + index))
                BenchScene.drawPerson(
                    &frame, x: width / 2 - width / 10, y: height / 6, width: width / 4, height: height)
                draw(&frame, index)
                return LumaFrame(width: width, height: height, pixels: frame.pixels, sequence: index)
            }
        }
        scenes.append(("no code", scene { _, _ in }, nil))
        scenes.append(
            (
                "a label zbar reads",
                scene { frame, index in
                    BenchScene.drawLabel(&frame, payload: url, x: 480 + index % 5, y: 200, module: 7)
                }, url
            ))
        if let (photo, text) = hard {
            scenes.append(
                (
                    "a worn code only zxing reads",
                    scene { frame, index in
                        let x = 500 + index % 7, y = 220
                        for row in 0..<photo.height {
                            for column in 0..<photo.width {
                                frame.pixels[(y + row) * width + x + column] = photo.pixels[row * photo.width + column]
                            }
                        }
                    }, text
                ))
        } else {
            print("  (the worn-code scene needs \(hardPath).png: skipped)")
        }
        scenes.append(
            (
                "a code-like patch nothing reads",
                scene { frame, index in
                    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                    for by in 0..<50 {
                        for bx in 0..<50 {
                            state = state &* 6364136223846793005 &+ 1442695040888963407
                            let value: UInt8 = state >> 63 == 0 ? 30 : 220
                            for dy in 0..<6 {
                                for dx in 0..<6 {
                                    frame.pixels[(180 + by * 6 + dy) * width + 450 + index % 5 + bx * 6 + dx] = value
                                }
                            }
                        }
                    }
                }, nil
            ))

        struct Figures {
            var fps: Double; var firstFrame: Int?; var firstMs: Double?; var zxingCalls: Int; var zxingMs: Double
        }
        func measure(_ frames: [LumaFrame], expected: String?, decoders: [DecoderKind], kioskMode: Bool) -> Figures {
            var configuration = ScanPipelineConfiguration(
                decoder: .video, debounceInterval: .seconds(3), decoders: decoders)
            configuration.timeline = .frames(perSecond: 30)
            if !kioskMode { configuration.changeDetection = nil; configuration.trackingInterval = 1 }
            let pipeline = ScanPipeline(source: nil, resolver: resolver, configuration: configuration)
            var firstFrame: Int?, firstMs: Double?
            let start = DispatchTime.now().uptimeNanoseconds
            for frame in frames {
                for case .scan(let scan) in pipeline.process(frame)
                where firstFrame == nil && scan.payloadText == expected {
                    firstFrame = frame.sequence
                    firstMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let stats = pipeline.decoderStatistics
            return Figures(
                fps: Double(frames.count) / seconds, firstFrame: firstFrame, firstMs: firstMs,
                zxingCalls: stats.zxingCalls, zxingMs: Double(stats.zxingNanos) / 1e6)
        }
        for kioskMode in [false, true] {
            print(
                kioskMode
                    ? "  as the kiosk runs (change detection, tracking a held code):"
                    : "  every frame decoded whole (no change detection, no tracking), the worst case:")
            for scene in scenes {
                var zbarOnly: [Figures] = [], both: [Figures] = []
                for run in 0...runs {
                    let a = measure(scene.frames, expected: scene.expected, decoders: [.zbar], kioskMode: kioskMode)
                    let b = measure(
                        scene.frames, expected: scene.expected, decoders: [.zbar, .zxing], kioskMode: kioskMode)
                    if run > 0 { zbarOnly.append(a); both.append(b) }
                }
                func fps(_ figures: [Figures]) -> String {
                    String(
                        format: "min %5.1f  median %5.1f", figures.map(\.fps).min()!, Measure.median(figures.map(\.fps))
                    )
                }
                func first(_ figures: [Figures]) -> String {
                    guard scene.expected != nil else { return "" }
                    guard let frame = figures[0].firstFrame else { return "; never read" }
                    return String(
                        format: "; first read at frame %d, %.1f ms after the first frame (median)", frame,
                        Measure.median(figures.compactMap(\.firstMs)))
                }
                let ratio = Measure.median(both.map(\.fps)) / Measure.median(zbarOnly.map(\.fps))
                print(
                    """
                      \(scene.name):
                        zbar alone:    fps \(fps(zbarOnly))\(first(zbarOnly))
                        zbar + zxing:  fps \(fps(both))\(first(both)); zxing \(both[0].zxingCalls) calls, \(String(format: "%.1f", both[0].zxingMs / Double(count))) ms per frame on average
                        ratio of medians (both / zbar alone): \(String(format: "%.2f", ratio))  (target: ≥ 30 fps with both)
                    """)
            }
        }
    }
}
