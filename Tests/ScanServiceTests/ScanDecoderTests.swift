import Foundation
import KioskConfiguration
import KioskTesting
import Scanning
import StopCodes
import StopPresentation
import Testing
import TransitModel

@testable import ScanService

/// The second decoder through the kiosk's own paths: the exact payload in JSON, the `[scanner] decoders` key, and
/// a code only zxing-cpp reads, found by `kiosk scan` on the fake camera.
@Suite
struct ScanDecoderTests {
    func pipeline(decoders: [DecoderKind] = DecoderKind.allCases) throws -> ScanPipeline {
        let resolver = try ScanFixtures.resolver(try ScanFixtures.database())
        return ScanPipeline(
            source: nil, resolver: resolver,
            configuration: ScanPipelineConfiguration(changeDetection: nil, decoders: decoders))
    }

    @Test func jsonTextIsTheExactPayloadAndDisplayTextIsSanitised() throws {
        // Control characters, an escape sequence, a zero-width space, and more than the 256-character display limit.
        let payload = "line one\r\nline\ttwo \u{1B}[2J\u{200B}end " + String(repeating: "0123456789", count: 40)
        let scan = try #require(
            try pipeline().process(ScanFixtures.frame(payload, width: 800, height: 800, x: 20, y: 20, module: 4)).scans
                .first)
        #expect(scan.payloadText == payload)
        let json = ScanJSON.line(scan)
        #expect(
            !json.contains("\n") && !json.contains("\u{1B}"), "control characters are JSON-escaped: \(json.prefix(120))"
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["text"] as? String == payload, "nothing replaced, nothing cut")
        let display = try #require(object["display_text"] as? String)
        #expect(display == scan.text)
        #expect(
            !display.contains("\u{1B}") && !display.contains("\n") && display.count <= 257 && display.hasSuffix("…"))
        #expect(object["decoder"] as? String == "zbar")
        #expect(object["found_by"] as? String == "direct")
        #expect(object["status"] as? String == "not_a_stop_code")
        // The terminal line shows only the sanitised form.
        let line = ScanText.line(scan, language: .en)
        #expect(!line.contains("\u{1B}") && !line.contains("\r") && !line.contains("\n"))
    }

    @Test func bothDecodersByDefaultAndFromTheConfigFile() throws {
        #expect(try ScanPipelineConfiguration(kiosk: KioskConfig()).decoders == [.zbar, .zxing])
        let only = try KioskConfigFile.parse(
            """
            [scanner]
            decoders = ["zbar"]
            """, file: "k.toml")
        #expect(only.decoders == ["zbar"])
        #expect(try ScanPipelineConfiguration(kiosk: only).decoders == [.zbar])
        #expect(throws: (any Error).self) {
            try KioskConfigFile.parse(
                """
                [scanner]
                decoders = ["zbar", "quagga"]
                """, file: "k.toml")
        }
        var bad = KioskConfig()
        bad.decoders = []
        #expect(throws: ScanConfigurationError.invalidDecoders(.none)) { try ScanPipelineConfiguration(kiosk: bad) }
    }

    @Test(.enabled(if: ZXingOnlyPhoto.photo != nil, "../shared/data/qr is absent: the zxing-only photo is not there"))
    func aCodeOnlyZXingReadsIsScannedThroughThePipeline() throws {
        let (photo, text) = try #require(ZXingOnlyPhoto.photo)
        let frame = ZXingOnlyPhoto.frame(photo, width: 640, height: 480)
        #expect(
            try pipeline(decoders: [.zbar]).process(frame).scans.isEmpty,
            "zbar alone must miss it for this test to mean anything")
        let scan = try #require(try pipeline().process(frame).scans.first)
        #expect(scan.payloadText == text)
        #expect(scan.foundBy.decoder == .zxing)
    }
}

/// `qrcode-2/fix-traceline.png` from the shared photo set: a worn code zbar's whole ladder misses and zxing-cpp reads.
enum ZXingOnlyPhoto {
    static let photo: (frame: LumaFrame, text: String)? = {
        guard let shared = SharedData.folder else { return nil }
        let base = shared.appendingPathComponent("qr/qrcode-2/fix-traceline").path
        guard let frame = try? ImageFile.load(base + ".png"),
            let expected = FileManager.default.contents(atPath: base + ".txt")
        else { return nil }
        return (frame, String(decoding: expected, as: UTF8.self))
    }()

    /// The photo pasted into the middle of a grey frame, shifted right by `shift` pixels (a hand that moves).
    static func frame(_ photo: LumaFrame, width: Int, height: Int, shift: Int = 0, sequence: Int = 0) -> LumaFrame {
        var pixels = [UInt8](repeating: 128, count: width * height)
        let x = (width - photo.width) / 2 + shift, y = (height - photo.height) / 2
        for row in 0..<photo.height {
            for column in 0..<photo.width where x + column >= 0 && x + column < width {
                pixels[(y + row) * width + x + column] = photo.pixels[row * photo.width + column]
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels, sequence: sequence)
    }
}

@Suite(
    .enabled(
        if: FakeCamera.isAvailable && ZXingOnlyPhoto.photo != nil,
        "needs a C compiler and libqrencode for the fake camera, and ../shared/data/qr for the zxing-only photo"))
struct ScanDecoderCameraTests {
    /// The fake camera shows an empty scene, then the worn code held up (moving a little): `kiosk scan --device`
    /// with the default decoders reports it, read by zxing-cpp, with its exact text.
    @Test func aCodeOnlyZXingReadsIsFoundThroughTheFakeCamera() throws {
        let (photo, text) = try #require(ZXingOnlyPhoto.photo)
        var frames = (0..<4).map { _ in ScanFixtures.frame(nil, seed: 13) }
        frames += (0..<10).map { step in ZXingOnlyPhoto.frame(photo, width: 640, height: 480, shift: step) }
        let directory = TemporaryFolder.make("zxing-camera").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = directory + "/camera.y4m"
        try Y4MWriter.write(frames, to: video)
        let run = try Programs.runKiosk(
            [
                "scan", "--device", FakeCamera.device, "--once", "--json", "--lang", "en",
                "--db", try SampleNetwork.databasePath(),
            ],
            environment: [
                "FAKEV4L2_DEVICE": FakeCamera.device, "FAKEV4L2_FRAMES": video,
                "FAKEV4L2_FORMAT": "YUYV", "FAKEV4L2_FPS": "30",
            ],
            preload: try FakeCamera.library())
        #expect(run.status == 0, "\(run)")
        let line = try #require(run.jsonLines.first, "\(run)")
        #expect(line["text"] as? String == text)
        #expect(line["decoder"] as? String == "zxing")
        #expect((line["found_by"] as? String)?.hasPrefix("zxing") == true, "\(line)")
        #expect(line["status"] as? String == "not_a_stop_code")
        #expect(line["source"] as? String == FakeCamera.device)
    }
}
