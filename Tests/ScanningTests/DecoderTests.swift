import Testing

@testable import Scanning

@Suite struct DecoderTests {
    static let url = "https://transit.example/s/2201?k=0011223344556677&s=abc"

    @Test func findsARenderedCodeDirectly() throws {
        let frame = DecodeFixtures.frame(withQR: Self.url, x: 150, y: 60)
        let symbols = ZBarDecoder().decode(frame)
        let symbol = try #require(symbols.first)
        #expect(symbols.count == 1)
        #expect(symbol.symbology == .qrCode && symbol.symbology.name == "QR-Code")
        #expect(symbol.text == Self.url && symbol.bytes == Array(Self.url.utf8))
        #expect(symbol.encoding == .ascii)
        #expect(symbol.foundBy == .direct)
        #expect(symbol.points.count == 4)
        // The box lies inside the drawn code (quiet zone excluded: 4 modules of 5 pixels).
        let side = DecodeFixtures.renderedSide(Array(Self.url.utf8))
        let box = symbol.boundingBox
        #expect(box.x >= 150 + 15 && box.y >= 60 + 15)
        #expect(box.x + box.width <= 150 + side - 15 && box.y + box.height <= 60 + side - 15)
        #expect(box.width > side / 2)
    }

    @Test func theSameDecoderIsReusedAcrossFrames() {
        let decoder = ZBarDecoder()
        for index in 0..<5 {
            let text = "stop-\(index)"
            let symbols = decoder.decode(DecodeFixtures.frame(withQR: text, x: 40 + 30 * index, y: 50))
            #expect(symbols.map(\.text) == [text])
            #expect(decoder.decode(DecodeFixtures.sceneWithoutCode(seed: UInt64(index))).isEmpty)
        }
    }

    @Test func invertedCodeNeedsTheInversionStep() throws {
        let frame = DecodeFixtures.frame(withQR: "light on dark", inverted: true)
        let withoutRecovery = ZBarDecoder(configuration: DecoderConfiguration(recovery: []))
        #expect(withoutRecovery.decode(frame).isEmpty)
        let onlyInversion = ZBarDecoder(configuration: DecoderConfiguration(recovery: [.inverted]))
        let symbol = try #require(onlyInversion.decode(frame).first)
        #expect(symbol.text == "light on dark")
        #expect(symbol.foundBy == .recovery(.inverted))
        // The default ladder includes it too.
        #expect(ZBarDecoder().decode(frame).first?.foundBy == .recovery(.inverted))
    }

    @Test func frameWithoutCodeIsEmpty() {
        let decoder = ZBarDecoder()
        #expect(decoder.decode(DecodeFixtures.sceneWithoutCode()).isEmpty)
        #expect(decoder.decode(LumaFrame(width: 64, height: 64, pixels: Array(repeating: 128, count: 64 * 64))).isEmpty)
        #expect(decoder.decode(LumaFrame(width: 1, height: 1, pixels: [0])).isEmpty)
    }

    @Test func recoveryStepsMapLocationsBackToTheFrame() throws {
        let frame = DecodeFixtures.frame(withQR: "scaled", width: 800, height: 600, x: 300, y: 200, module: 8)
        let side = DecodeFixtures.renderedSide(Array("scaled".utf8), module: 8)
        let decoder = ZBarDecoder()
        for step in [
            RecoveryStep.halfScale, .quietZone, .binarize, .doubleScale, .contrastStretch, .blur, .boldHalfScale,
        ] {
            let symbols = decoder.run(.recovery(step), on: frame)
            guard let symbol = symbols.first else {
                // Contrast stretch skips frames that already span the range.
                #expect(step == .contrastStretch, "\(step) found nothing")
                continue
            }
            let box = symbol.boundingBox
            #expect(abs(box.x - (300 + 32)) <= 6 && abs(box.y - (200 + 32)) <= 6, "\(step): \(box)")
            #expect(abs(box.width - (side - 64)) <= 8, "\(step): \(box)")
        }
    }

    @Test func recoveryCreditSpreadsTheLadderOverFrames() {
        let frame = DecodeFixtures.frame(withQR: "inverted, found on the third frame", inverted: true)
        let decoder = ZBarDecoder(
            configuration: DecoderConfiguration(recovery: [.halfScale, .inverted], recoveryBudget: 0.6))
        // Frame 1 earns 0.6 passes: the half-scale step (0.25) runs, the inversion (1) must wait. Frame 2 has 0.95,
        // still short; frame 3 reaches the cap (1, the costliest step) and runs the inversion.
        #expect(decoder.decode(frame).isEmpty)
        #expect(decoder.decode(frame).isEmpty)
        #expect(decoder.decode(frame).first?.foundBy == .recovery(.inverted))
    }

    @Test func zeroBudgetMeansDirectPassesOnly() {
        let frame = DecodeFixtures.frame(withQR: "inverted", inverted: true)
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(recovery: [.inverted], recoveryBudget: 0))
        for _ in 0..<5 { #expect(decoder.decode(frame).isEmpty) }
    }

    @Test func disabledSymbologiesAreNotReported() {
        let frame = DecodeFixtures.frame(withQR: "qr only")
        #expect(
            ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.ean13, .code128])).decode(frame).isEmpty)
        #expect(ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.qrCode])).decode(frame).count == 1)
    }

    // MARK: text

    @Test func utf8ContentIsExact() throws {
        let text = "Parada Bijūnų g. — 東京駅 🚏"
        let symbol = try #require(ZBarDecoder().decode(DecodeFixtures.frame(withQR: Array(text.utf8), module: 4)).first)
        #expect(symbol.text == text)
        #expect(symbol.encoding == .utf8)
        #expect(symbol.bytes == Array(text.utf8))
    }

    @Test func shiftJISAndLatin1ContentAreConverted() throws {
        // "ﾃﾞｻﾞｲﾝQR" in Shift_JIS half-width katakana, and "Café niño" in ISO-8859-1.
        let shiftJIS: [UInt8] = [0xC3, 0xDE, 0xBB, 0xDE, 0xB2, 0xDD, 0x51, 0x52]
        let sjis = try #require(ZBarDecoder().decode(DecodeFixtures.frame(withQR: shiftJIS)).first)
        #expect(sjis.text == "ﾃﾞｻﾞｲﾝQR" && sjis.encoding == .shiftJIS)
        #expect(sjis.bytes == shiftJIS)
        let latin1: [UInt8] = [0x43, 0x61, 0x66, 0xE9, 0x20, 0x6E, 0x69, 0xF1, 0x6F]
        let symbol = try #require(ZBarDecoder().decode(DecodeFixtures.frame(withQR: latin1)).first)
        #expect(symbol.text == "Café niño" && symbol.encoding == .latin1)
    }

    @Test func binaryContentIsFlagged() throws {
        let junk: [UInt8] = [0x80, 0x81, 0x00, 0xFF, 0x1B, 0x9B, 0xFE]
        let symbol = try #require(ZBarDecoder().decode(DecodeFixtures.frame(withQR: junk)).first)
        #expect(symbol.bytes == junk)
        #expect(symbol.isBinary && symbol.text == nil && symbol.encoding == .unknown)
        #expect(!symbol.lossyText.isEmpty)
    }

    @Test func encodingGuess() {
        #expect(PayloadText.decode(Array("plain".utf8)) == ("plain", .ascii))
        #expect(PayloadText.decode(Array("año".utf8)).encoding == .utf8)
        // Kanji mode comes out of zbar as Shift_JIS double-byte characters: 今度 = 8d a1 93 78.
        #expect(PayloadText.decode([0x8D, 0xA1, 0x93, 0x78, 0x82, 0xCC]) == ("今度の", .shiftJIS))
        #expect(PayloadText.decode([0x41, 0xE9]) == ("Aé", .latin1))
    }
}
