import Foundation
import KioskConfiguration
import KioskTesting
import Scanning
import StopCodes
import Testing
import TransitStore

@testable import ScanService

/// The scan pipeline on synthetic frames and the sample network: what each kind of payload becomes, debouncing,
/// change detection, replays and a camera that comes and goes. No test depends on how fast anything runs.
@Suite struct ScanPipelineTests {
    static let second: UInt64 = 1_000_000_000

    /// A pipeline without a source, decoding every frame it is given.
    func pipeline(
        policy: SignaturePolicy = .prefer, keys: [KeyPair] = [ScanFixtures.labelKey], debounce: Duration = .seconds(3),
        changeDetection: FrameChangeDetector.Configuration? = nil
    ) throws -> ScanPipeline {
        let resolver = try ScanFixtures.resolver(try ScanFixtures.database(), policy: policy, keys: keys)
        return ScanPipeline(
            source: nil, resolver: resolver,
            configuration: ScanPipelineConfiguration(debounceInterval: debounce, changeDetection: changeDetection))
    }

    /// Scans `payload` alone in a fresh pipeline and returns the one scan.
    func scan(
        _ payload: [UInt8], policy: SignaturePolicy = .prefer, width: Int = 640, height: Int = 480, module: Int = 4
    ) throws -> ScanResult {
        let events = try pipeline(policy: policy).process(
            ScanFixtures.frame(payload, width: width, height: height, x: 20, y: 20, module: module))
        #expect(events.scans.count == 1, "\(events)")
        return try #require(events.scans.first)
    }

    func scan(_ text: String, policy: SignaturePolicy = .prefer) throws -> ScanResult {
        try scan(Array(text.utf8), policy: policy)
    }

    // MARK: Stops

    @Test func stopURLResolvesToTheStop() throws {
        let pipeline = try pipeline()
        let frame = ScanFixtures.frame(ScanFixtures.url("1011"), sequence: 7, arrivalNanos: 5 * Self.second)
        let scan = try #require(pipeline.process(frame, sourceName: "cam").scans.first)
        #expect(scan.status == .stop)
        #expect(scan.source == "cam" && scan.frame == 7)
        #expect(scan.symbology == .qrCode)
        #expect(scan.text == "https://transit.example/s/1011")
        #expect(scan.stop?.stop.id == "MQ01A" && scan.stop?.stop.code == "1011" && scan.stop?.stop.name == "Quitumbe")
        // The default template is `{stop}` (the code, else the ID): an unsigned value is looked up as either.
        #expect(scan.reference?.kind == .codeOrID && scan.reference?.signature == .unsigned)
        #expect(scan.detail == nil && !scan.carriedOver)
        #expect(scan.arrivalNanos == 5 * Self.second && scan.resolvedNanos >= scan.arrivalNanos)
        #expect(
            pipeline.statistics.frames == 1 && pipeline.statistics.decodedFrames == 1 && pipeline.statistics.scans == 1)
    }

    @Test func bareCodeAndBareStopIDResolve() throws {
        let byCode = try scan("2002")
        #expect(byCode.status == .stop && byCode.stop?.stop.id == "TB-VILLAFLORA")
        // Not a stop_code: the bare value is then tried as a stop_id.
        let byID = try scan("TB-VILLAFLORA")
        #expect(byID.status == .stop && byID.stop?.stop.code == "2002")
    }

    @Test func validSignatureIsAcceptedAndRequiredWhenThePolicySaysSo() throws {
        let signed = try scan(ScanFixtures.signedURL("1012"), policy: .require)
        #expect(signed.status == .stop && signed.stop?.stop.id == "MQ01B")
        #expect(signed.reference?.signature == .verified(keyID: ScanFixtures.labelKey.keyID))

        let unsigned = try scan(ScanFixtures.url("1012"), policy: .require)
        #expect(unsigned.status == .signatureRequired && unsigned.stop == nil)
        #expect(unsigned.text == "https://transit.example/s/1012")
    }

    // MARK: Bad payloads: each has a clear status, and the pipeline goes on

    @Test func rightPrefixWrongStopIsAnUnknownStop() throws {
        let wrong = try scan(ScanFixtures.url("99999"))
        #expect(wrong.status == .unknownStop && wrong.stop == nil)
        #expect(wrong.text == "https://transit.example/s/99999")
        #expect(wrong.detail?.contains("99999") == true)
        let bare = try scan("ZZZ-404")
        #expect(bare.status == .unknownStop && bare.text == "ZZZ-404")
    }

    @Test func foreignURLAndPlainTextAreNotStopCodes() throws {
        for payload in ["https://example.com/s/1011", "WIFI:S:kiosk;T:WPA;P:secret;;", "hola, ¿qué tal?"] {
            let result = try scan(payload)
            #expect(result.status == .notAStopCode, "\(payload)")
            #expect(result.stop == nil)
            #expect(result.text == payload)
        }
    }

    @Test func whitespaceOnlyAndEmptyPayloadsAreNotStopCodes() throws {
        let blank = try scan("  \n ")
        #expect(blank.status == .notAStopCode)
        #expect(!blank.text.contains("\n"))
        // zbar cannot hand over an empty code; the resolver behind the pipeline still has an answer for one.
        let resolver = try ScanFixtures.resolver(try ScanFixtures.database())
        let empty = resolver.resolve("")
        #expect(empty.status == .notAStopCode && empty.text == "" && empty.detail == "empty payload")
        #expect(resolver.resolve(bytes: []).status == .notAStopCode)
    }

    @Test func escapeSequencesAreStrippedFromTheText() throws {
        let payload = "\u{1B}[2J\u{1B}]0;pwned\u{07}https://transit.example/s/1011\u{1B}[31m\r\nrm -rf"
        let result = try scan(payload)
        #expect(result.status == .notAStopCode)
        #expect(
            !result.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "\(result.text.debugDescription)")
        #expect(result.text.hasPrefix("https://transit.example/s/1011"))
        #expect(!result.text.contains("pwned"))
    }

    @Test func binaryPayloadIsNotAStopCode() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0x80, 0x1B, 0x9B, 0x32, 0x4A, 0xC3, 0x28, 0xFE, 0x07, 0x85, 0x00, 0x41]
        let result = try scan(bytes)
        #expect(result.status == .notAStopCode)
        #expect(
            !result.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "\(result.text.debugDescription)")
        let direct = try ScanFixtures.resolver(try ScanFixtures.database()).resolve(bytes: bytes)
        #expect(direct.status == .notAStopCode)
    }

    /// A 2 KB payload fills a version-40 QR code; 4 KB fits no QR code, so it goes to the resolver directly.
    @Test func oversizedPayloadsAreNotStopCodesAndTheirTextIsCapped() throws {
        let long = ScanFixtures.url("1011") + "?" + String(repeating: "x", count: 2000)
        let result = try scan(Array(long.utf8), width: 1280, height: 720, module: 3)
        #expect(result.status == .notAStopCode)
        #expect(result.text.count <= 257 && result.text.hasSuffix("…"))

        let resolver = try ScanFixtures.resolver(try ScanFixtures.database())
        let huge = resolver.resolve(String(repeating: "1011", count: 1024))
        #expect(huge.status == .notAStopCode && huge.text.count <= 257)
        let hugeURL = resolver.resolve(ScanFixtures.url(String(repeating: "9", count: 4096)))
        #expect(hugeURL.status == .notAStopCode)
    }

    @Test func damagedSignaturesAreForged() throws {
        let good = ScanFixtures.signedURL("1011")
        // Truncated: the last characters of the signature are missing (a torn label).
        let truncated = String(good.dropLast(6))
        // Bit-flipped: one character of the signature changed.
        var flipped = Array(good)
        let index = flipped.count - 10
        flipped[index] = flipped[index] == "A" ? "B" : "A"
        // Signed by a key the kiosk does not trust, or by another key under the trusted key's id.
        let untrusted = ScanFixtures.signedURL("1011", key: ScanFixtures.otherKey)
        let otherSignature = ScanFixtures.signedURL("1011", key: ScanFixtures.otherKey)
            .replacingOccurrences(of: "k=\(ScanFixtures.otherKey.keyID)", with: "k=\(ScanFixtures.labelKey.keyID)")
        // A genuine signature of another stop pasted onto this one, and one for another network.
        let otherStop = ScanFixtures.url("1011") + "?" + String(ScanFixtures.signedURL("1012").split(separator: "?")[1])
        let otherFeed = ScanFixtures.signedURL("1011", feedID: "other.example")

        let cases: [(String, String)] = [
            (truncated, "malformed"), (String(flipped), "does not verify"), (untrusted, "unknown key"),
            (otherSignature, "does not verify"), (otherStop, "does not verify"), (otherFeed, "does not verify"),
        ]
        let pipeline = try pipeline()
        for (sequence, (payload, reason)) in cases.enumerated() {
            let events = pipeline.process(ScanFixtures.frame(payload, x: 20, y: 20, sequence: sequence))
            let scan = try #require(events.scans.first, "\(payload)")
            #expect(scan.status == .forged, "\(payload)")
            #expect(scan.stop == nil)
            #expect(scan.detail?.contains(reason) == true, "\(scan.detail ?? "no detail") for \(payload)")
        }
        #expect(pipeline.statistics.scans == cases.count)
    }

    /// One pipeline sees every kind of bad payload in turn, then a good code: it reports each and carries on.
    @Test func pipelineKeepsRunningThroughBadPayloads() throws {
        let pipeline = try pipeline()
        let payloads: [[UInt8]] = [
            Array(" ".utf8), [0x00, 0xFF, 0xFE, 0x80], Array("\u{1B}[6n\u{1B}P+q\u{1B}\\".utf8),
            Array(ScanFixtures.url("0").utf8),
            Array(String(ScanFixtures.signedURL("1011").dropLast(3)).utf8),
            Array(String(repeating: "z", count: 1500).utf8),
            Array(ScanFixtures.url("1031").utf8),
        ]
        var statuses: [ScanStatus] = []
        for (sequence, payload) in payloads.enumerated() {
            let frame = ScanFixtures.frame(
                payload, width: 1280, height: 720, x: 20, y: 20, module: 3, sequence: sequence)
            statuses += pipeline.process(frame).scans.map(\.status)
        }
        #expect(statuses == [.notAStopCode, .notAStopCode, .notAStopCode, .unknownStop, .forged, .notAStopCode, .stop])
    }

    // MARK: Debouncing

    @Test func sameCodeWithinTheIntervalTriggersOnceAndADifferentCodeAtOnce() throws {
        let pipeline = try pipeline(debounce: .seconds(3))
        var scans: [ScanResult] = []
        // 1011 for one second at 10 frames a second, then 1012, then 1011 again 2 s after it was last seen.
        for tick in 0..<10 {
            scans +=
                pipeline.process(
                    ScanFixtures.frame(
                        ScanFixtures.url("1011"), sequence: tick,
                        arrivalNanos: Self.second + UInt64(tick) * Self.second / 10)
                ).scans
        }
        for tick in 10..<15 {
            scans +=
                pipeline.process(
                    ScanFixtures.frame(
                        ScanFixtures.url("1012"), sequence: tick,
                        arrivalNanos: Self.second + UInt64(tick) * Self.second / 10)
                ).scans
        }
        scans +=
            pipeline.process(
                ScanFixtures.frame(
                    ScanFixtures.url("1011"), sequence: 30, arrivalNanos: 3 * Self.second + Self.second / 2)
            ).scans
        #expect(scans.map { $0.stop?.stop.code } == ["1011", "1012"])
        #expect(scans.map(\.frame) == [0, 10])
        #expect(pipeline.statistics.debounced == 9 + 4 + 1)
        // Shown again after the interval (last seen at 1.9 s): it triggers.
        let again = pipeline.process(
            ScanFixtures.frame(ScanFixtures.url("1011"), sequence: 60, arrivalNanos: 7 * Self.second)
        ).scans
        #expect(again.map { $0.stop?.stop.code } == ["1011"])
    }

    @Test func zeroDebounceReportsEveryFrame() throws {
        let pipeline = try pipeline(debounce: .zero)
        var count = 0
        for tick in 0..<4 {
            count +=
                pipeline.process(
                    ScanFixtures.frame(ScanFixtures.url("1011"), sequence: tick, arrivalNanos: UInt64(tick + 1))
                ).scans.count
        }
        #expect(count == 4)
    }

    /// With change detection, a code held still is decoded on a few frames only; the frames in between count as
    /// seeing it (so it does not trigger again however long it is held), and a new code triggers at once.
    @Test func heldCodeIsDecodedOnceAndTriggersOnce() throws {
        let pipeline = try pipeline(debounce: .seconds(2), changeDetection: FrameChangeDetector.Configuration())
        var scans: [ScanResult] = []
        let held = ScanFixtures.frame(ScanFixtures.url("1021"))
        // Held for 10 s at 30 frames a second.
        for tick in 0..<300 {
            var frame = held
            frame.sequence = tick
            frame.arrivalNanos = Self.second + UInt64(tick) * Self.second / 30
            scans += pipeline.process(frame).scans
        }
        #expect(scans.map { $0.stop?.stop.code } == ["1021"])
        #expect(pipeline.statistics.decodedFrames < 30, "\(pipeline.statistics)")
        let next = ScanFixtures.frame(ScanFixtures.url("1022"), sequence: 300, arrivalNanos: 12 * Self.second)
        #expect(pipeline.process(next).scans.map { $0.stop?.stop.code } == ["1022"])
    }

    /// A code held in a shaking hand is decoded around where it was (most frames), the whole frame every
    /// `trackingInterval` decodes; a second code elsewhere is reported within that many frames.
    @Test func heldCodeIsTrackedAndASecondCodeIsStillSeen() throws {
        let pipeline = try pipeline(debounce: .seconds(3), changeDetection: FrameChangeDetector.Configuration())
        let a = ScanFixtures.qrMatrix(Array(ScanFixtures.url("1011").utf8))
        let b = ScanFixtures.qrMatrix(Array(ScanFixtures.url("1012").utf8))
        var scans: [ScanResult] = []
        for tick in 0..<60 {
            // Code A shakes by a few pixels every frame (every frame changes); code B comes into view at frame 30.
            var frame = ScanFixtures.frame(
                nil, seed: 3, sequence: tick, arrivalNanos: Self.second + UInt64(tick) * Self.second / 30)
            ScanFixtures.draw(a, into: &frame, x: 40 + (tick * 7) % 9, y: 40 + (tick * 5) % 7, module: 3)
            if tick >= 30 { ScanFixtures.draw(b, into: &frame, x: 420, y: 300, module: 3) }
            scans += pipeline.process(frame).scans
        }
        #expect(scans.map { $0.stop?.stop.code } == ["1011", "1012"], "\(scans.map(\.frame))")
        #expect(scans.first?.frame == 0)
        let second = try #require(scans.last?.frame)
        #expect(second >= 30 && second < 30 + pipeline.configuration.trackingInterval, "\(second)")
        #expect(pipeline.statistics.decodedFrames == 60)
        // Alone, code A was decoded around where it was on 9 frames out of 10 (were the region's coordinates mapped
        // back wrongly, it would be lost every frame); with two codes far apart the whole frame is decoded.
        #expect(
            pipeline.statistics.regionDecodes >= 24 && pipeline.statistics.regionDecodes <= 30, "\(pipeline.statistics)"
        )
    }

    /// Frames on the video's own clock: the same replay gives the same scans however fast it is read.
    @Test func frameTimelineDebouncesOnTheVideosClock() throws {
        let resolver = try ScanFixtures.resolver(try ScanFixtures.database())
        let pipeline = ScanPipeline(
            source: nil, resolver: resolver,
            configuration: ScanPipelineConfiguration(
                debounceInterval: .seconds(1), changeDetection: nil,
                timeline: .frames(perSecond: 10)))
        var frames: [Int] = []
        for sequence in [0, 5, 9, 20, 25] {
            // Arrival stamps all the same instant: only the sequence numbers tell time.
            frames += pipeline.process(
                ScanFixtures.frame(ScanFixtures.url("1011"), sequence: sequence, arrivalNanos: 42)
            ).scans.map(\.frame)
        }
        #expect(frames == [0, 20])
    }

    // MARK: Sources

    @Test func replaysAY4MVideoToTheEnd() throws {
        let directory = TemporaryFolder.make("y4m").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/walk-up.y4m"
        var frames: [LumaFrame] = []
        for _ in 0..<3 { frames.append(ScanFixtures.frame(nil, seed: 5)) }
        for index in 0..<4 { frames.append(ScanFixtures.frame(ScanFixtures.url("1031"), x: 100 + index, seed: 5)) }
        for _ in 0..<3 { frames.append(ScanFixtures.frame(nil, seed: 6)) }
        for _ in 0..<3 { frames.append(ScanFixtures.frame("https://elsewhere.example/", x: 300, seed: 6)) }
        try Y4MWriter.write(frames, to: path)

        let source = try FrameSourceSpec.video(path: path).open()
        let pipeline = ScanPipeline(
            source: source, resolver: try ScanFixtures.resolver(try ScanFixtures.database()),
            configuration: ScanPipelineConfiguration(timeline: .frames(perSecond: 30)))
        var scans: [ScanResult] = []
        try pipeline.run { event in
            if case .scan(let scan) = event { scans.append(scan) }
            return .proceed
        }
        #expect(scans.map(\.status) == [.stop, .notAStopCode])
        #expect(scans.map(\.frame) == [3, 10])
        #expect(scans.allSatisfy { $0.source == path })
        #expect(scans.first?.stop?.stop.id == "MQ03A")
        #expect(pipeline.statistics.frames == frames.count)
        #expect(try pipeline.next() == nil)
    }

    @Test func onEventCanStopTheLoop() throws {
        let directory = TemporaryFolder.make("images").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var files: [String] = []
        for (index, code) in ["1011", "1012", "1021"].enumerated() {
            let path = directory + "/label-\(index).pgm"
            try ScanFixtures.pgm(ScanFixtures.frame(ScanFixtures.url(code), seed: UInt64(index))).write(
                to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let pipeline = ScanPipeline(
            source: try FrameSourceSpec.imageFiles(files).open(),
            resolver: try ScanFixtures.resolver(try ScanFixtures.database()))
        var scans: [ScanResult] = []
        try pipeline.run { event in
            if case .scan(let scan) = event { scans.append(scan) }
            return scans.count == 2 ? .stop : .proceed
        }
        // Each scan names the image it came from.
        #expect(scans.map(\.source) == Array(files.prefix(2)))
        #expect(scans.map { $0.stop?.stop.code } == ["1011", "1012"])
        #expect(pipeline.statistics.frames == 2)
    }

    @Test func corruptReplayIsThrownNamingTheFile() throws {
        let directory = TemporaryFolder.make("corrupt").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/broken.y4m"
        let pixels = ScanFixtures.frame(nil, width: 64, height: 48).pixels
        var data = Data("YUV4MPEG2 W64 H48 F30:1 Cmono\nFRAME\n".utf8)
        data.append(contentsOf: pixels)
        data.append(contentsOf: Array("FRAME\n".utf8) + pixels.prefix(100))
        try data.write(to: URL(fileURLWithPath: path))
        let pipeline = ScanPipeline(
            source: try FrameSourceSpec.video(path: path).open(),
            resolver: try ScanFixtures.resolver(try ScanFixtures.database()))
        #expect(try pipeline.next() == [])
        let error = #expect(throws: CaptureError.self) { _ = try pipeline.next() }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
        #expect(error?.kind == "corruptVideo")
    }

    /// A reconnecting camera (scripted: no device needed) is unplugged after a few frames and comes back: the
    /// pipeline reports the outage and the return as events, keeps going, and decodes the code again afterwards.
    @Test func cameraOutageIsReportedAndScanningResumes() throws {
        let opened = Counter()
        let frame = ScanFixtures.frame(ScanFixtures.url("1011"))
        let camera = ReconnectingCameraSource(
            CameraConfiguration(device: "/dev/video-scripted"),
            policy: ReconnectPolicy(
                initialDelay: .milliseconds(1), maximumDelay: .milliseconds(2), restartAfterStall: nil),
            open: { _ throws(CaptureError) in
                opened.value += 1
                if opened.value == 2 { throw CaptureError.noSuchDevice(device: "/dev/video-scripted") }
                return ScriptedCamera(frame: frame, framesBeforeLoss: opened.value == 1 ? 3 : 1000)
            })
        let pipeline = ScanPipeline(
            source: camera, resolver: try ScanFixtures.resolver(try ScanFixtures.database()),
            configuration: ScanPipelineConfiguration(debounceInterval: .zero, frameTimeout: .seconds(30)))
        var log: [String] = []
        var scans = 0
        try pipeline.run { event in
            switch event {
            case .scan(let scan):
                #expect(scan.status == .stop && scan.source == "/dev/video-scripted")
                scans += 1
                log.append("scan")
            case .camera(let source, let state):
                #expect(source == "/dev/video-scripted")
                log.append(state.isStreaming ? "streaming" : "unavailable")
            case .cameraProblem:
                log.append("problem")
            }
            return scans == 6 ? .stop : .proceed
        }
        let collapsed = log.enumerated().filter { $0.offset == 0 || log[$0.offset - 1] != $0.element }.map(\.element)
        #expect(collapsed == ["streaming", "scan", "unavailable", "streaming", "scan"], "\(log)")
        #expect(camera.reconnections == 1)
        #expect(pipeline.statistics.cameraErrors >= 1)
    }

    // MARK: Configuration

    @Test func symbologyNamesFromConfigs() throws {
        #expect(try ScanSymbologies.parse(["qrcode", "CODE-128", "ean13"]) == [.qrCode, .code128, .ean13])
        #expect(
            try ScanSymbologies.parse(["QR", "i25", "DataBar-Exp", "upca"]) == [
                .qrCode, .interleaved2of5, .dataBarExpanded, .upcA,
            ])
        #expect(ScanSymbologies.name(of: .code128) == "code128")
        #expect(throws: ScanConfigurationError.self) { try ScanSymbologies.parse(["aztec"]) }
        #expect(throws: ScanConfigurationError.noSymbologies) { try ScanSymbologies.parse([]) }
        var config = KioskConfig()
        config.debounceSeconds = 1.5
        config.symbologies = ["qrcode"]
        let configuration = try ScanPipelineConfiguration(kiosk: config)
        #expect(configuration.debounceInterval == .milliseconds(1500))
        #expect(configuration.decoder.symbologies == [.qrCode])
        #expect(configuration.decoder.recoveryBudget == DecoderConfiguration.video.recoveryBudget)
        config.debounceSeconds = -1
        #expect(throws: ScanConfigurationError.invalidDebounce(-1)) { try ScanPipelineConfiguration(kiosk: config) }
    }

    @Test func renderingsAreOneSanitisedLine() throws {
        let pipeline = try pipeline()
        let stop = try #require(
            pipeline.process(ScanFixtures.frame(ScanFixtures.url("1011")), sourceName: "cam\u{1B}[2J").scans.first)
        let json = ScanJSON.line(stop)
        #expect(!json.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "stop")
        #expect(object["symbology"] as? String == "QR-Code")
        #expect((object["stop"] as? [String: Any])?["id"] as? String == "MQ01A")
        #expect(object["source"] as? String == "cam\u{1B}[2J")  // JSON escapes it; the text rendering drops it
        let text = ScanText.line(stop, language: .en)
        #expect(text.contains("stop: Quitumbe [1011] (MQ01A)") && !text.contains("\u{1B}"), "\(text)")
        #expect(ScanText.line(stop, language: .es).contains("parada: Quitumbe"))
    }
}

/// A camera that serves the same frame and is "unplugged" after some frames.
private final class ScriptedCamera: FrameSource {
    let name = "/dev/video-scripted"
    let frame: LumaFrame
    var remaining: Int
    var sequence = 0

    init(frame: LumaFrame, framesBeforeLoss: Int) {
        self.frame = frame
        self.remaining = framesBeforeLoss
    }

    func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame? {
        guard remaining > 0 else { throw .deviceLost(device: name, reason: "scripted unplug") }
        remaining -= 1
        var next = frame
        next.sequence = sequence
        next.arrivalNanos = DispatchTime.now().uptimeNanoseconds
        sequence += 1
        return next
    }

    func close() {}
}

private final class Counter: @unchecked Sendable {
    var value = 0
}
