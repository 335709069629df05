import CQREncode

/// QR module matrices made with libqrencode (the label generator's encoder), for drawing test frames.
public enum QRCodes {
    public enum Correction: Int32, Sendable { case low = 0, medium = 1, quartile = 2, high = 3 }

    /// A QR code's modules: `width × width`, row by row, true = dark.
    public typealias Matrix = (width: Int, dark: [Bool])

    /// The quiet zone `draw` leaves around a code, in modules (what the QR specification asks for).
    public static let quietZone = 4

    /// The module matrix of `bytes` in byte mode: `width × width`, true = dark.
    public static func matrix(_ bytes: [UInt8], correction: Correction = .medium) -> Matrix {
        guard
            let code = bytes.withUnsafeBufferPointer({
                QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QRecLevel(rawValue: UInt32(correction.rawValue)))
            })
        else {
            fatalError("QRcode_encodeData failed for \(bytes.count) bytes")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        return (width, (0..<width * width).map { code.pointee.data[$0] & 1 == 1 })
    }

    /// The side in pixels of a drawn code, quiet zone included.
    public static func side(_ matrix: Matrix, module: Int) -> Int { (matrix.width + 2 * quietZone) * module }

    /// Draws `matrix` with its quiet zone into 8-bit grey `pixels` (`width × height`, row by row), its top left
    /// corner at (`x`, `y`), `module` pixels a module; what falls outside the image is left out.
    public static func draw(
        _ matrix: Matrix, into pixels: inout [UInt8], width: Int, height: Int, x: Int, y: Int, module: Int,
        ink: UInt8 = 25, paper: UInt8 = 230
    ) {
        let side = Self.side(matrix, module: module)
        for py in 0..<side where y + py >= 0 && y + py < height {
            for px in 0..<side where x + px >= 0 && x + px < width {
                let mx = px / module - quietZone, my = py / module - quietZone
                let dark =
                    mx >= 0 && my >= 0 && mx < matrix.width && my < matrix.width && matrix.dark[my * matrix.width + mx]
                pixels[(y + py) * width + x + px] = dark ? ink : paper
            }
        }
    }
}
