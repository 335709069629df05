import Foundation

/// 8-bit grey test images (row by row, `width × height` bytes): textured scenes for codes to be drawn on
/// (`QRCodes.draw`), and the binary PGM files `kiosk scan --images` and `ImageFile` read without any codec.
public enum GreyImages {
    /// A textured background: gentle gradients with seeded noise, the same for the same seed.
    public static func textured(width: Int, height: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 61) - 3
                pixels[y * width + x] = UInt8(clamping: 90 + (x * 60 / width) + (y * 30 / height) + noise)
            }
        }
        return pixels
    }

    /// A binary PGM (P5, maxval 255) of the pixels.
    public static func pgm(width: Int, height: Int, pixels: [UInt8]) -> Data {
        var data = Data("P5\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        return data
    }
}
