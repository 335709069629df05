import Scanning
import Testing

@testable import Labels

/// Draws symbols straight into pixels (no cairo), so these tests check the encoders alone against zbar.
enum Raster {
    static func frame(_ matrix: QRMatrix, pixelsPerModule: Int = 4) -> LumaFrame {
        let side = matrix.sizeWithQuietZone * pixelsPerModule
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<matrix.size {
            for column in 0..<matrix.size where matrix[row, column] {
                for y in 0..<pixelsPerModule {
                    for x in 0..<pixelsPerModule {
                        let py = (row + QRMatrix.quietZone) * pixelsPerModule + y
                        let px = (column + QRMatrix.quietZone) * pixelsPerModule + x
                        pixels[py * side + px] = 0
                    }
                }
            }
        }
        return LumaFrame(width: side, height: side, pixels: pixels)
    }

    static func frame(_ code: Code128, pixelsPerModule: Int = 3, height: Int = 60) -> LumaFrame {
        let width = (code.moduleCount + 2 * Code128.quietZone) * pixelsPerModule
        var pixels = [UInt8](repeating: 255, count: width * height)
        for bar in code.bars {
            let start = (Code128.quietZone + bar.start) * pixelsPerModule
            for y in 0..<height {
                for x in start..<(start + bar.width * pixelsPerModule) { pixels[y * width + x] = 0 }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }
}

@Suite("Code 128")
struct Code128Tests {
    @Test("every pattern spans 11 modules (the stop pattern 13), and no two are alike")
    func patternTable() {
        #expect(Code128.patterns.count == 107)
        for (value, pattern) in Code128.patterns.enumerated() {
            let modules = pattern.reduce(0) { $0 + Int(String($1))! }
            #expect(modules == (value == 106 ? 13 : 11), "pattern \(value)")
        }
        #expect(Set(Code128.patterns).count == 107)
    }

    @Test("check symbol: start value plus position-weighted values, modulo 103")
    func checksum() throws {
        // "PJJ123C" in code set B: 104 + 48·1 + 42·2 + 42·3 + 17·4 + 18·5 + 19·6 + 35·7 = 879; 879 mod 103 = 55.
        let code = try Code128(encoding: "PJJ123C")
        #expect(code.symbols == [104, 48, 42, 42, 17, 18, 19, 35, 55, 106])
        // All digits, even length: code set C, pairs. 105 + 22·1 + 1·2 = 129; 129 mod 103 = 26.
        #expect(try Code128(encoding: "2201").symbols == [105, 22, 1, 26, 106])
        // Odd digit count: pairs in C, then CODE B (100) for the last digit ("5" = 21).
        // 105 + 12·1 + 34·2 + 100·3 + 21·4 = 569; 569 mod 103 = 54.
        #expect(try Code128(encoding: "12345").symbols == [105, 12, 34, 100, 21, 54, 106])
    }

    @Test(
        "zbar reads back what we encode",
        arguments: ["2201", "0701", "7", "12345", "TB-EJIDO-N", "MQ01A", "a/b:c.d (x)", "~ !", "00"])
    func zbarReadsBack(value: String) throws {
        let code = try Code128(encoding: value)
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.code128], recovery: []))
        let symbols = decoder.decode(Raster.frame(code))
        #expect(symbols.map(\.lossyText) == [value])
    }

    @Test("refuses what Code 128 sets B and C cannot carry")
    func refusesNonASCII() {
        #expect(throws: Code128Error.unencodable(character: "Ñ")) { try Code128(encoding: "AÑ1") }
        #expect(throws: Code128Error.unencodable(character: "\t")) { try Code128(encoding: "1\t2") }
        #expect(throws: Code128Error.empty) { try Code128(encoding: "") }
    }
}

@Suite("QR matrix (libqrencode)")
struct QRMatrixTests {
    @Test("the smallest version that holds the payload, 17 + 4·version modules across")
    func sizes() throws {
        let matrix = try QRMatrix(encoding: "https://transit.example/s/1011", errorCorrection: .medium)
        #expect(matrix.size == 17 + 4 * matrix.version)
        #expect(matrix.version == 3)
        #expect(matrix.modules.count == matrix.size * matrix.size)
        #expect(matrix.sizeWithQuietZone == matrix.size + 8)
        let high = try QRMatrix(encoding: "https://transit.example/s/1011", errorCorrection: .high)
        #expect(high.version > matrix.version)
    }

    @Test("zbar reads back the matrix at every error-correction level", arguments: QRErrorCorrection.allCases)
    func readsBack(level: QRErrorCorrection) throws {
        let payload = "https://transit.example/s/2201?k=3fa28c0d5e1b7a90&s=" + String(repeating: "A", count: 86)
        let matrix = try QRMatrix(encoding: payload, errorCorrection: level)
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.qrCode], recovery: []))
        #expect(decoder.decode(Raster.frame(matrix)).map(\.lossyText) == [payload])
    }

    @Test("a payload beyond version 40 is a clear error")
    func tooLong() {
        let payload = String(repeating: "x", count: 2000)
        #expect(throws: QREncodingError.tooLong(bytes: 2000, errorCorrection: .high)) {
            try QRMatrix(encoding: payload, errorCorrection: .high)
        }
    }

    @Test("dark runs cover exactly the dark modules")
    func runs() throws {
        let matrix = try QRMatrix(encoding: "1011", errorCorrection: .medium)
        var rebuilt = [Bool](repeating: false, count: matrix.modules.count)
        for run in matrix.darkRuns {
            for column in run.column..<(run.column + run.length) { rebuilt[run.row * matrix.size + column] = true }
        }
        #expect(rebuilt == matrix.modules)
    }
}

@Suite("QR outline")
struct QROutlineTests {
    /// Even-odd point-in-polygon at each module's centre.
    static func filled(_ loops: [[(x: Int, y: Int)]], row: Int, column: Int) -> Bool {
        let (px, py) = (Double(column) + 0.5, Double(row) + 0.5)
        var inside = false
        for loop in loops {
            for index in loop.indices {
                let a = loop[index], b = loop[(index + 1) % loop.count]
                let (ax, ay, bx, by) = (Double(a.x), Double(a.y), Double(b.x), Double(b.y))
                if (ay > py) != (by > py), px < ax + (py - ay) / (by - ay) * (bx - ax) { inside.toggle() }
            }
        }
        return inside
    }

    @Test(
        "the outline encloses exactly the dark modules, with fewer corners than run rectangles have",
        arguments: [
            "1", "https://transit.example/s/1011",
            "https://transit.example/s/2201?k=3fa28c0d5e1b7a90&s=" + String(repeating: "Zz9-", count: 21) + "xy",
        ])
    func outlineMatchesModules(payload: String) throws {
        let matrix = try QRMatrix(encoding: payload, errorCorrection: .medium)
        let loops = matrix.outline
        for row in 0..<matrix.size {
            for column in 0..<matrix.size {
                #expect(Self.filled(loops, row: row, column: column) == matrix[row, column], "module \(row),\(column)")
            }
        }
        #expect(loops.allSatisfy { $0.count >= 4 && $0.count % 2 == 0 })
        #expect(loops.reduce(0) { $0 + $1.count } < 4 * matrix.darkRuns.count)
    }
}
