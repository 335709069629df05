import Foundation
import Testing

@testable import Scanning

/// Frames for the second decoder: a photo from the shared set that zbar's whole ladder misses and zxing-cpp
/// reads (a worn code whose timing pattern zbar's tracer loses), and a patch that looks like a code to the
/// region finder but that no decoder reads.
enum HardCodes {
    /// `qrcode-2/fix-traceline.png` and its text, when the shared photo set is present.
    static let photo: (frame: LumaFrame, text: String)? = {
        guard let folder = SharedPhotos.folder,
            let frame = try? ImageFile.load(folder + "/qrcode-2/fix-traceline.png"),
            let expected = try? ImageFile.readFile(folder + "/qrcode-2/fix-traceline.txt")
        else { return nil }
        return (frame, String(decoding: expected, as: UTF8.self))
    }()

    /// The photo pasted into a grey `width × height` frame at (`x`, `y`).
    static func frame(width: Int, height: Int, x: Int, y: Int) -> LumaFrame? {
        guard let photo = photo?.frame else { return nil }
        var pixels = [UInt8](repeating: 128, count: width * height)
        for row in 0..<photo.height where y + row < height {
            for column in 0..<photo.width where x + column < width {
                pixels[(y + row) * width + x + column] = photo.pixels[row * photo.width + column]
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }

    /// A 200×200 patch of random 5-pixel black and white blocks on a grey frame: busy in both directions.
    static func noisePatch(width: Int = 640, height: Int = 480) -> LumaFrame {
        var pixels = [UInt8](repeating: 128, count: width * height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for by in 0..<40 {
            for bx in 0..<40 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let value: UInt8 = state >> 63 == 0 ? 20 : 235
                for dy in 0..<5 { for dx in 0..<5 { pixels[(100 + by * 5 + dy) * width + 200 + bx * 5 + dx] = value } }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }
}

@Suite
struct DecoderChainTests {
    @Test func zxingReadsAFrameInPlaceAndReportsCorners() throws {
        let frame = DecodeFixtures.frame(withQR: "https://transit.example/s/1091", x: 100, y: 80, module: 5)
        let symbols = ZXingDecoder().decode(frame)
        let symbol = try #require(symbols.first)
        #expect(symbols.count == 1)
        #expect(symbol.symbology == .qrCode)
        #expect(symbol.text == "https://transit.example/s/1091")
        #expect(symbol.bytes == Array("https://transit.example/s/1091".utf8))
        #expect(symbol.foundBy == .zxing(.direct))
        #expect(symbol.foundBy.decoder == .zxing && symbol.foundBy.description == "zxing")
        // The code's modules start after the 4-module quiet zone: at (120, 100).
        let box = symbol.boundingBox
        #expect(abs(box.x - 120) <= 6 && abs(box.y - 100) <= 6, "\(box)")
    }

    @Test func zxingReadsARegionThroughTheStrideInFrameCoordinates() throws {
        let frame = DecodeFixtures.frame(withQR: "region", width: 640, height: 480, x: 300, y: 200, module: 4)
        let decoder = ZXingDecoder()
        let inside = decoder.decode(frame, region: FrameRect(x: 280, y: 180, width: 300, height: 280))
        let symbol = try #require(inside.first)
        #expect(symbol.text == "region")
        #expect(symbol.boundingBox.x >= 300 && symbol.boundingBox.y >= 200, "\(symbol.boundingBox)")
        #expect(decoder.decode(frame, region: FrameRect(x: 0, y: 0, width: 250, height: 180)).isEmpty)
        // A region reaching past the frame is clipped, not an error.
        #expect(
            decoder.decode(frame, region: FrameRect(x: 250, y: 150, width: 1000, height: 1000)).first?.text == "region")
    }

    @Test func zxingStepsMapTheirPointsBack() throws {
        let frame = DecodeFixtures.frame(
            withQR: Array("light on dark".utf8), width: 400, height: 400, x: 60, y: 60, module: 5,
            inverted: true)
        let decoder = ZXingDecoder()
        #expect(decoder.decode(frame).isEmpty, "zxing 1.4 does not look for inverted codes itself")
        let symbol = try #require(decoder.decode(frame, step: .inverted).first)
        #expect(symbol.text == "light on dark" && symbol.foundBy.description == "zxing-inverted")
        let halved = try #require(
            decoder.decode(
                DecodeFixtures.frame(withQR: "half", width: 400, height: 400, x: 60, y: 60, module: 6),
                step: .halfScale
            ).first)
        #expect(
            abs(halved.boundingBox.x - 84) <= 8, "points in the original frame's coordinates: \(halved.boundingBox)")
    }

    @Test func kanjiSegmentsKeepZXingsConversion() throws {
        // "阿" in Kanji mode is stored as the Shift_JIS bytes 0x88 0xA2, which the whole-string guess reads as
        // two half-width katakana; zxing converts the segment as Shift_JIS.
        let frame = DecodeFixtures.frame(withQR: Array("AD:阿;".utf8), width: 300, height: 300, x: 40, y: 40, module: 5)
        let symbol = try #require(ZXingDecoder().decode(frame).first)
        #expect(symbol.text == "AD:阿;")
    }

    @Test(.enabled(if: HardCodes.photo != nil, "../shared/data/qr is absent: the zxing-only photo is not there"))
    func aCodeOnlyZXingReadsIsFoundByTheChain() throws {
        let (frame, text) = try #require(HardCodes.photo)
        #expect(
            ZBarDecoder(configuration: .still).decode(frame).isEmpty,
            "zbar's whole ladder must miss it for this test to mean anything")
        let chain = DecoderChain(configuration: .still)
        let symbol = try #require(chain.decode(frame).first)
        #expect(symbol.text == text)
        #expect(symbol.foundBy == .zxing(.direct))
        #expect(chain.statistics.zxingHits == 1)
        #expect(
            DecoderChain(configuration: DecoderChainConfiguration(zbar: .still, decoders: [.zbar])).decode(frame)
                .isEmpty)
    }

    @Test(.enabled(if: HardCodes.photo != nil, "../shared/data/qr is absent: the zxing-only photo is not there"))
    func videoChainReadsTheHardCodeInARegionAndSkipsEmptyScenes() throws {
        let chain = DecoderChain(configuration: .video)
        let empty = DecodeFixtures.sceneWithoutCode(width: 1280, height: 720)
        for _ in 0..<30 { #expect(chain.decode(empty).isEmpty) }
        #expect(chain.statistics.zxingCalls == 0, "nothing code-like in view: zxing never runs")
        #expect(chain.statistics.zxingSkippedNoRegion == 30)

        let frame = try #require(HardCodes.frame(width: 1280, height: 720, x: 700, y: 250))
        let text = try #require(HardCodes.photo?.text)
        let symbols = chain.decode(frame)
        #expect(symbols.map(\.text) == [text], "read on the first frame it is in view")
        #expect(symbols.first?.foundBy == .zxing(.direct))
        // Found in a region, located in frame coordinates.
        #expect((symbols.first?.boundingBox.x ?? 0) >= 700)
        #expect(chain.statistics.zxingCalls == 1)
    }

    @Test func budgetLimitsZXingsAverageTime() throws {
        // Something code-like that no decoder reads; a budget far below one call's time: zxing runs on the first
        // frame, then waits for its credit to recover.
        var configuration = DecoderChainConfiguration.video
        configuration.zxingBudget = .nanoseconds(1)
        configuration.budgetCap = .nanoseconds(1)
        let chain = DecoderChain(configuration: configuration)
        let frame = HardCodes.noisePatch()
        #expect(!CodeRegionFinder().regions(in: frame).isEmpty)
        for _ in 0..<20 { #expect(chain.decode(frame).isEmpty) }
        #expect(chain.statistics.zxingCalls == 1)
        #expect(chain.statistics.zxingSkippedBudget == 19)

        // The default budget: every frame either runs zxing or is counted as over budget (no wall-clock limits
        // in tests: how many of each depends on the machine).
        let defaultChain = DecoderChain(configuration: .video)
        for _ in 0..<20 { _ = defaultChain.decode(frame) }
        #expect(defaultChain.statistics.zxingCalls >= 1)
        #expect(defaultChain.statistics.zxingCalls + defaultChain.statistics.zxingSkippedBudget == 20)
    }

    @Test func regionFinderSeesCodesNotWallsOrPeople() throws {
        let finder = CodeRegionFinder()
        #expect(finder.regions(in: DecodeFixtures.sceneWithoutCode(width: 1280, height: 720)).isEmpty)
        var flat = LumaFrame(width: 640, height: 480, pixels: [UInt8](repeating: 128, count: 640 * 480))
        // A dark block with straight edges: edges in one direction per line, not a code.
        for y in 100..<300 { for x in 200..<400 { flat.pixels[y * 640 + x] = 30 } }
        #expect(finder.regions(in: flat).isEmpty)
        let frame = DecodeFixtures.frame(withQR: "where am i", width: 1280, height: 720, x: 700, y: 300, module: 5)
        let region = try #require(finder.regions(in: frame).first)
        let side = DecodeFixtures.renderedSide(Array("where am i".utf8), module: 5)
        // The region holds the code's modules (inside the quiet zone).
        #expect(region.x <= 720 && region.y <= 320, "\(region)")
        #expect(region.x + region.width >= 700 + side - 20 && region.y + region.height >= 300 + side - 20, "\(region)")
        #expect(region.width * region.height < 1280 * 720 / 4)
    }

    @Test func decoderNamesFromConfigs() throws {
        #expect(try DecoderKind.parse(["zbar", "zxing"]) == [.zbar, .zxing])
        #expect(try DecoderKind.parse(["ZXing", "zbar"]) == [.zbar, .zxing], "zbar runs first whenever it is named")
        #expect(try DecoderKind.parse(["zxing-cpp"]) == [.zxing])
        #expect(throws: DecoderNameError.unknown("quagga")) { try DecoderKind.parse(["zbar", "quagga"]) }
        #expect(throws: DecoderNameError.none) { try DecoderKind.parse([]) }
        #expect(DecoderKind.zbar.libraryVersion.split(separator: ".").count == 3)
        #expect(DecoderKind.zxing.libraryVersion.hasPrefix("1."))
    }

    @Test func zxingAloneReadsEveryFrameWhole() throws {
        let chain = DecoderChain(configuration: DecoderChainConfiguration(zbar: .video, decoders: [.zxing]))
        let frame = DecodeFixtures.frame(withQR: "alone", width: 640, height: 480, x: 100, y: 80, module: 4)
        #expect(chain.decode(frame).first?.foundBy == .zxing(.direct))
        #expect(chain.decode(DecodeFixtures.sceneWithoutCode()).isEmpty)
        #expect(chain.decode(DecodeFixtures.sceneWithoutCode()).isEmpty)
        #expect(chain.statistics.zxingCalls == 3, "one ladder step per frame, on every frame, without a budget")
    }
}
