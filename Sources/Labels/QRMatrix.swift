import CQREncode

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// QR error-correction level: how much of the symbol may be damaged (dirt, a scratch, a staple) and still
/// read, against how large the symbol gets. M (about 15 %) is the default: a label on a pole gets dirty, and
/// H's extra size would make modules smaller on small layouts.
public enum QRErrorCorrection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case low = "L", medium = "M", quartile = "Q", high = "H"

    public var description: String { rawValue }

    var qrencodeLevel: QRecLevel {
        switch self {
        case .low: return QR_ECLEVEL_L
        case .medium: return QR_ECLEVEL_M
        case .quartile: return QR_ECLEVEL_Q
        case .high: return QR_ECLEVEL_H
        }
    }
}

/// The dark and light modules of one QR symbol, from libqrencode, without the quiet zone.
public struct QRMatrix: Sendable, Hashable {
    /// The quiet zone, in modules, that every label leaves white around the symbol. ISO/IEC 18004 asks for 4;
    /// scanners, zbar among them, find the finder patterns by the white around them.
    public static let quietZone = 4

    /// Modules per side (21 for version 1 … 177 for version 40).
    public let size: Int
    /// QR version (1…40), which libqrencode chose as the smallest that holds the payload.
    public let version: Int
    public let errorCorrection: QRErrorCorrection
    /// Row-major, `size * size`, true = dark.
    public let modules: [Bool]

    public subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// Modules per side including the quiet zone on both sides.
    public var sizeWithQuietZone: Int { size + 2 * Self.quietZone }

    /// Encodes `payload` (UTF-8 bytes, byte mode with libqrencode's mode optimisation for digit and
    /// upper-case runs), in the smallest version that holds it.
    public init(encoding payload: String, errorCorrection: QRErrorCorrection) throws(QREncodingError) {
        let bytes = Array(payload.utf8)
        guard !bytes.isEmpty else { throw .empty }
        guard !bytes.contains(0) else { throw .containsNUL }
        errno = 0
        // Case-sensitive: the signature's base64url must not be upper-cased into alphanumeric mode.
        guard let code = QRcode_encodeString(payload, 0, errorCorrection.qrencodeLevel, QR_MODE_8, 1) else {
            let code = errno
            if code == ERANGE { throw .tooLong(bytes: bytes.count, errorCorrection: errorCorrection) }
            throw .encoderFailed(reason: String(cString: strerror(code)))
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        var modules = [Bool](repeating: false, count: width * width)
        for index in 0..<(width * width) {
            modules[index] = code.pointee.data[index] & 1 == 1
        }
        self.size = width
        self.version = Int(code.pointee.version)
        self.errorCorrection = errorCorrection
        self.modules = modules
    }

    /// For tests: a matrix from explicit modules.
    init(size: Int, version: Int, errorCorrection: QRErrorCorrection, modules: [Bool]) {
        self.size = size
        self.version = version
        self.errorCorrection = errorCorrection
        self.modules = modules
    }

    /// The outline of the dark modules: closed polygons through module corners (`x` = column, `y` = row,
    /// 0…size), clockwise around dark areas and anticlockwise around light holes, with only the corners kept.
    ///
    /// Filled with either fill rule this is exactly the dark modules, as one path. A PDF or SVG then holds a
    /// couple of hundred corners per symbol instead of a rectangle per module (a third of the numbers to format
    /// and compress), and no renderer can show a hairline seam between neighbouring modules, because there are
    /// no inner edges at all.
    public var outline: [[(x: Int, y: Int)]] {
        let n = size
        let stride = n + 1
        func dark(_ row: Int, _ column: Int) -> Bool {
            row >= 0 && column >= 0 && row < n && column < n && modules[row * n + column]
        }
        // Boundary edges, directed so the dark module is on the right (y grows downwards), by start corner. A
        // corner starts at most two boundary edges (two where dark modules touch only diagonally).
        var first = [Int32](repeating: -1, count: stride * stride)
        var second = [Int32](repeating: -1, count: stride * stride)
        func add(_ fromX: Int, _ fromY: Int, _ toX: Int, _ toY: Int) {
            let from = fromY * stride + fromX, to = Int32(toY * stride + toX)
            if first[from] < 0 { first[from] = to } else { second[from] = to }
        }
        for row in 0..<n {
            for column in 0..<n where modules[row * n + column] {
                if !dark(row - 1, column) { add(column, row, column + 1, row) }
                if !dark(row, column + 1) { add(column + 1, row, column + 1, row + 1) }
                if !dark(row + 1, column) { add(column + 1, row + 1, column, row + 1) }
                if !dark(row, column - 1) { add(column, row + 1, column, row) }
            }
        }
        func take(_ corner: Int) -> Int? {
            if second[corner] >= 0 { defer { second[corner] = -1 }; return Int(second[corner]) }
            if first[corner] >= 0 { defer { first[corner] = -1 }; return Int(first[corner]) }
            return nil
        }
        var loops: [[(x: Int, y: Int)]] = []
        var points: [Int] = []
        // Start corners in reading order, so the output is deterministic.
        for start in 0..<(stride * stride) {
            while let firstStep = take(start) {
                points.removeAll(keepingCapacity: true)
                points.append(start)
                var current = firstStep
                while current != start {
                    points.append(current)
                    guard let next = take(current) else { break }
                    current = next
                }
                // Keep the corners only: drop points where the direction does not change.
                var corners: [(x: Int, y: Int)] = []
                let count = points.count
                for index in 0..<count {
                    let previous = points[(index + count - 1) % count], point = points[index],
                        next = points[(index + 1) % count]
                    let (px, py) = (previous % stride, previous / stride), (x, y) = (point % stride, point / stride)
                    let (nx, ny) = (next % stride, next / stride)
                    if (x - px) * (ny - y) - (y - py) * (nx - x) != 0 { corners.append((x, y)) }
                }
                loops.append(corners)
            }
        }
        return loops
    }

    /// Dark modules of each row merged into horizontal runs `(row, first column, length)`.
    public var darkRuns: [(row: Int, column: Int, length: Int)] {
        var runs: [(row: Int, column: Int, length: Int)] = []
        for row in 0..<size {
            var column = 0
            while column < size {
                guard modules[row * size + column] else { column += 1; continue }
                let start = column
                while column < size, modules[row * size + column] { column += 1 }
                runs.append((row, start, column - start))
            }
        }
        return runs
    }
}

/// The dark modules of a QR symbol (no quiet zone) as a 1-bit image of one pixel per module, laid out as cairo's
/// `CAIRO_FORMAT_A1` wants it: rows of `stride` bytes, pixels packed into 32-bit words in the platform's bit order.
public struct QRBitmap: Sendable, Hashable {
    public let size: Int
    /// Bytes per row (a multiple of 4).
    public let stride: Int
    /// `size` rows of `stride / 4` words.
    public let words: [UInt32]

    public init(_ matrix: QRMatrix) {
        let n = matrix.size
        let wordsPerRow = (n + 31) / 32
        var words = [UInt32](repeating: 0, count: wordsPerRow * n)
        for row in 0..<n {
            for column in 0..<n where matrix.modules[row * n + column] {
                words[row * wordsPerRow + column / 32] |= Self.bit(column: column)
            }
        }
        size = n
        stride = wordsPerRow * 4
        self.words = words
    }

    /// Whether the module at `row`, `column` is dark, read from the packed bits.
    public func isDark(row: Int, column: Int) -> Bool {
        words[row * (stride / 4) + column / 32] & Self.bit(column: column) != 0
    }

    /// The bit of `column` within its 32-bit word, in the platform's bit order (cairo's A1 layout).
    private static func bit(column: Int) -> UInt32 {
        #if _endian(little)
        UInt32(1) << UInt32(column % 32)
        #else
        UInt32(1) << UInt32(31 - column % 32)
        #endif
    }
}

/// Why a payload could not become a QR symbol.
public enum QREncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case containsNUL
    /// More than version 40 holds at this error-correction level.
    case tooLong(bytes: Int, errorCorrection: QRErrorCorrection)
    case encoderFailed(reason: String)

    public var description: String {
        switch self {
        case .empty: return "the payload is empty"
        case .containsNUL: return "the payload contains a NUL byte"
        case .tooLong(let bytes, let level):
            return
                "a \(bytes)-byte payload does not fit in a QR code at error correction \(level) (version 40 is the largest)"
        case .encoderFailed(let reason): return "libqrencode failed: \(reason)"
        }
    }
}
