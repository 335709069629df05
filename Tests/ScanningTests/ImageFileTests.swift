import Foundation
import KioskTesting
import Testing

@testable import Scanning

@Suite struct ImageFileTests {
    let directory = DecodeFixtures.temporaryDirectory()

    func save(_ bytes: [UInt8], _ name: String) -> String {
        let path = directory + "/" + name
        DecodeFixtures.write(bytes, to: path)
        return path
    }

    // MARK: PNG

    @Test func loadsEightBitGreyPNG() throws {
        let rows: [[UInt8]] = [[0, 64, 128], [255, 10, 20]]
        let frame = try ImageFile.load(
            save(PNGFiles.encode(width: 3, height: 2, bitDepth: 8, colour: .grey, rows: rows), "g.png"))
        #expect(frame.width == 3 && frame.height == 2)
        #expect(frame.pixels == [0, 64, 128, 255, 10, 20])
    }

    @Test func loadsOneBitAndSixteenBitGrey() throws {
        // 1 bit: 8 pixels in one byte, MSB first: 1010 0000.
        let bits = PNGFiles.encode(width: 4, height: 1, bitDepth: 1, colour: .grey, rows: [[0b1010_0000]])
        #expect(try ImageFile.load(save(bits, "b.png")).pixels == [255, 0, 255, 0])
        let wide = PNGFiles.encode(width: 2, height: 1, bitDepth: 16, colour: .grey, rows: [[0xFF, 0xFF, 0x80, 0x00]])
        #expect(try ImageFile.load(save(wide, "w.png")).pixels == [255, 128])
    }

    @Test func convertsRGBToLuma() throws {
        let rows: [[UInt8]] = [[255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0]]
        let frame = try ImageFile.load(
            save(PNGFiles.encode(width: 4, height: 1, bitDepth: 8, colour: .rgb, rows: rows), "c.png"))
        #expect(frame.pixels[0] == 255 && frame.pixels[1] == 0)
        // Rec. 709 weights: red ≈ 54, green ≈ 182.
        #expect(abs(Int(frame.pixels[2]) - 54) <= 2)
        #expect(abs(Int(frame.pixels[3]) - 182) <= 2)
    }

    @Test func compositesAlphaOntoWhite() throws {
        // Black opaque, black fully transparent, black half transparent.
        let rows: [[UInt8]] = [[0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 128]]
        let frame = try ImageFile.load(
            save(PNGFiles.encode(width: 3, height: 1, bitDepth: 8, colour: .rgba, rows: rows), "a.png"))
        #expect(frame.pixels[0] == 0 && frame.pixels[1] == 255)
        #expect(abs(Int(frame.pixels[2]) - 127) <= 1)
        let greyAlpha = PNGFiles.encode(width: 2, height: 1, bitDepth: 8, colour: .greyAlpha, rows: [[0, 255, 0, 0]])
        #expect(try ImageFile.load(save(greyAlpha, "ga.png")).pixels == [0, 255])
    }

    @Test func expandsPaletteWithTransparency() throws {
        let palette: [UInt8] = [0, 0, 0, 255, 255, 255, 0, 0, 0]
        let png = PNGFiles.encode(
            width: 3, height: 1, bitDepth: 8, colour: .palette, rows: [[0, 1, 2]],
            chunks: [("PLTE", palette), ("tRNS", [255, 255, 0])])
        #expect(try ImageFile.load(save(png, "p.png")).pixels == [0, 255, 255])
    }

    @Test func truncatedAndCorruptPNGAreErrorsNamingTheFile() throws {
        let good = PNGFiles.encode(
            width: 64, height: 64, bitDepth: 8, colour: .grey,
            rows: Array(repeating: Array(repeating: 7, count: 64), count: 64))
        let truncatedPath = save(Array(good.prefix(good.count / 2)), "t.png")
        #expect(throws: ImageFile.LoadError.self) { try ImageFile.load(truncatedPath) }
        do {
            _ = try ImageFile.load(truncatedPath)
        } catch {
            guard case .truncated(let path, .png, _) = error else { Issue.record("\(error)"); return }
            #expect(path == truncatedPath)
            #expect(error.description.hasPrefix(truncatedPath + ": truncated PNG"))
        }
        var badCRC = good
        badCRC[29] ^= 0xFF  // IHDR's CRC
        let corruptPath = save(badCRC, "c.png")
        do {
            _ = try ImageFile.load(corruptPath)
            Issue.record("loaded a PNG with a bad header CRC")
        } catch {
            guard case .corrupt(corruptPath, .png, let detail) = error else { Issue.record("\(error)"); return }
            #expect(!detail.isEmpty)
        }
        // Header claiming an absurd size is refused before allocating.
        let huge = PNGFiles.encode(width: 100_000, height: 100_000, bitDepth: 8, colour: .grey, rows: [[0]])
        #expect(throws: ImageFile.LoadError.self) { try ImageFile.load(save(huge, "h.png")) }
    }

    // MARK: JPEG

    @Test func loadsGreyAndColourJPEG() throws {
        let grey = try ImageFile.load(save(DecodeFixtures.greyJPEG, "g.jpg"))
        #expect(grey.width == 16 && grey.height == 8)
        #expect(grey.pixels[0] < 20 && grey.pixels[15] > 235)
        let colour = try ImageFile.load(save(DecodeFixtures.colourJPEG, "c.jpeg"))
        #expect(colour.width == 16 && colour.height == 16)
        #expect(colour.pixels[0] < 20 && colour.pixels[15] > 235)
        let blue = Int(colour.pixels[15 * 16 + 0]), yellow = Int(colour.pixels[15 * 16 + 15])
        #expect(abs(blue - 29) < 12 && abs(yellow - 226) < 12)
    }

    @Test func truncatedAndCorruptJPEGAreErrors() throws {
        for cut in [40, DecodeFixtures.greyJPEG.count / 2, DecodeFixtures.greyJPEG.count - 30] {
            let path = save(Array(DecodeFixtures.greyJPEG.prefix(cut)), "t\(cut).jpg")
            do {
                _ = try ImageFile.load(path)
                Issue.record("loaded a JPEG cut at \(cut) bytes")
            } catch {
                guard case .truncated(path, .jpeg, _) = error else { Issue.record("cut \(cut): \(error)"); continue }
            }
        }
        var garbage = DecodeFixtures.greyJPEG
        for index in 20..<120 { garbage[index] = 0x5A }
        let path = save(garbage, "g.jpg")
        #expect(throws: ImageFile.LoadError.self) { try ImageFile.load(path) }
    }

    // MARK: PGM

    @Test func loadsBinaryAndPlainPGM() throws {
        let p5 = Array("P5\n# a comment\n3 2\n255\n".utf8) + [0, 1, 2, 253, 254, 255]
        #expect(try ImageFile.load(save(p5, "a.pgm")).pixels == [0, 1, 2, 253, 254, 255])
        let p5wide = Array("P5 2 1 65535\n".utf8) + [0xFF, 0xFF, 0x00, 0x00]
        #expect(try ImageFile.load(save(p5wide, "w.pgm")).pixels == [255, 0])
        let p2 = Array("P2\n2 2\n# max\n15\n0 15\n 8 # c\n 15\n".utf8)
        #expect(try ImageFile.load(save(p2, "p.pgm")).pixels == [0, 255, 136, 255])
    }

    @Test func badPGMsAreErrors() throws {
        let short = save(Array("P5\n4 4\n255\n".utf8) + [1, 2, 3], "s.pgm")
        #expect(
            throws: ImageFile.LoadError.truncated(
                path: short, format: .pgmBinary, detail: "3 of 16 pixel bytes present")
        ) {
            try ImageFile.load(short)
        }
        let overMax = save(Array("P2 1 1 10 11".utf8), "o.pgm")
        #expect(throws: ImageFile.LoadError.self) { try ImageFile.load(overMax) }
        let noSize = save(Array("P5\n".utf8), "n.pgm")
        guard case .truncated = try #require(throwing(try ImageFile.load(noSize))) else {
            Issue.record("not truncated"); return
        }
        let zeroWidth = save(Array("P5 0 1 255\n".utf8), "z.pgm")
        guard case .corrupt = try #require(throwing(try ImageFile.load(zeroWidth))) else {
            Issue.record("not corrupt"); return
        }
    }

    // MARK: files and formats

    @Test func missingUnsupportedEmptyAndDirectory() throws {
        let missing = directory + "/nope.png"
        #expect(throws: ImageFile.LoadError.notFound(path: missing)) { try ImageFile.load(missing) }
        #expect(ImageFile.LoadError.notFound(path: missing).description == "\(missing): no such file")
        let gif = save(Array("GIF89a....".utf8), "x.png")
        #expect(throws: ImageFile.LoadError.unsupportedFormat(path: gif, signature: "47 49 46 38 39 61 2e 2e")) {
            try ImageFile.load(gif)
        }
        let empty = save([], "e.jpg")
        #expect(throws: ImageFile.LoadError.unsupportedFormat(path: empty, signature: "")) { try ImageFile.load(empty) }
        guard case .unreadable(directory, _) = try #require(throwing(try ImageFile.load(directory))) else {
            Issue.record("a directory is not unreadable"); return
        }
    }

    @Test func sniffsByContentNotName() throws {
        // A PNG named .jpg loads as PNG.
        let png = PNGFiles.encode(width: 1, height: 1, bitDepth: 8, colour: .grey, rows: [[42]])
        #expect(try ImageFile.load(save(png, "really-a-png.jpg")).pixels == [42])
        #expect(ImageFile.sniff(DecodeFixtures.greyJPEG) == .jpeg)
        #expect(ImageFile.sniff(Array("P2 ".utf8)) == .pgmPlain)
        #expect(ImageFile.sniff(Array("P6 ".utf8)) == nil)
    }

    /// A few hundred bytes of header can claim gigapixels; the claim is refused before any pixel memory is
    /// allocated, with the dimensions in the message.
    @Test func absurdPixelCountsAreRefusedFromTheHeader() throws {
        let png = save(PNGFiles.encode(width: 20000, height: 20000, bitDepth: 8, colour: .grey, rows: []), "huge.png")
        #expect(
            throws: ImageFile.LoadError.tooLarge(
                path: png, format: .png, width: 20000, height: 20000, limit: 50_000_000)
        ) { try ImageFile.load(png) }
        #expect(
            ImageFile.LoadError.tooLarge(path: png, format: .png, width: 20000, height: 20000, limit: 50_000_000)
                .description
                == "\(png): PNG image of 20000×20000 pixels (400 megapixels) is larger than the 50 megapixels a photo needs; refused before decoding"
        )
        let maxed = save(
            PNGFiles.encode(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, bitDepth: 8, colour: .grey, rows: []), "max.png")
        guard case .tooLarge(_, _, 0xFFFF_FFFF, 0xFFFF_FFFF, _) = try #require(throwing(try ImageFile.load(maxed)))
        else { Issue.record("not refused as too large"); return }

        var jpeg = DecodeFixtures.greyJPEG
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)...(sof + 8), with: [0x17, 0x70, 0x27, 0x10])  // height 6000, width 10000
        let bigJPEG = save(jpeg, "huge.jpg")
        #expect(
            throws: ImageFile.LoadError.tooLarge(
                path: bigJPEG, format: .jpeg, width: 10000, height: 6000, limit: 50_000_000)
        ) { try ImageFile.load(bigJPEG) }

        let pgm = save(Array("P5 8000 8000 255\n".utf8), "huge.pgm")
        #expect(
            throws: ImageFile.LoadError.tooLarge(
                path: pgm, format: .pgmBinary, width: 8000, height: 8000, limit: 50_000_000)
        ) { try ImageFile.load(pgm) }
        // Just under the cap the header is believed, and the missing pixels are what is reported.
        let fine = save(Array("P5 7000 7000 255\n".utf8), "fine.pgm")
        guard case .truncated = try #require(throwing(try ImageFile.load(fine))) else {
            Issue.record("not truncated"); return
        }
    }

    @Test func randomBytesNeverCrashTheDecoders() {
        var state: UInt64 = 99
        for trial in 0..<200 {
            let length = 8 + trial * 7
            var bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            // Keep a valid signature so the codec itself is exercised.
            let signature: [UInt8] =
                trial % 2 == 0 ? [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] : [0xFF, 0xD8, 0xFF]
            bytes.replaceSubrange(0..<signature.count, with: signature)
            #expect(throws: ImageFile.LoadError.self) { try ImageFile.decode(bytes, path: "fuzz") }
        }
    }
}

/// The error a throwing expression threw, or nil.
func throwing<T>(_ body: @autoclosure () throws(ImageFile.LoadError) -> T) -> ImageFile.LoadError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
