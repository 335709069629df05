/// A rational number in a Y4M header (`F30000:1001`, `A1:1`).
public struct Y4MRatio: Sendable, Equatable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator):\(denominator)" }

    static func parse(_ text: Substring) -> Y4MRatio? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n >= 0, d >= 0 else { return nil }
        return Y4MRatio(n, d)
    }
}

/// The chroma layouts of 8-bit YUV4MPEG2 streams. Only the luma plane is read; chroma is skipped (or, when
/// writing, filled with neutral grey).
public enum Y4MColourspace: String, Sendable, Equatable, CaseIterable {
    case c420jpeg = "420jpeg"
    case c420paldv = "420paldv"
    case c420mpeg2 = "420mpeg2"
    case c420 = "420"
    case c422 = "422"
    case c444 = "444"
    case c444alpha = "444alpha"
    case c411 = "411"
    case mono = "mono"

    /// Bytes of chroma (and alpha) that follow the luma plane of a `width`×`height` frame.
    public func chromaBytes(width: Int, height: Int) -> Int {
        switch self {
        case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return 2 * ((width + 1) / 2) * ((height + 1) / 2)
        case .c422: return 2 * ((width + 1) / 2) * height
        case .c411: return 2 * ((width + 3) / 4) * height
        case .c444: return 2 * width * height
        case .c444alpha: return 3 * width * height
        case .mono: return 0
        }
    }
}

/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg`.
public struct Y4MHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `F`: frames per second as a ratio; nil when absent.
    public var frameRate: Y4MRatio?
    /// `A`: pixel aspect ratio; nil when absent.
    public var pixelAspect: Y4MRatio?
    /// `I`: interlacing (`p`, `t`, `b`, `m`, `?`); nil when absent.
    public var interlacing: Character?
    /// `C`: chroma layout; `420jpeg` when absent, as the format defines.
    public var colourspace: Y4MColourspace
    /// `X` parameters, without the `X`.
    public var comments: [String]

    public init(
        width: Int, height: Int, frameRate: Y4MRatio? = Y4MRatio(30, 1), pixelAspect: Y4MRatio? = Y4MRatio(1, 1),
        interlacing: Character? = "p", colourspace: Y4MColourspace = .c420jpeg, comments: [String] = []
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.pixelAspect = pixelAspect
        self.interlacing = interlacing
        self.colourspace = colourspace
        self.comments = comments
    }

    public var framesPerSecond: Double? { frameRate?.value.flatMap { $0 > 0 ? $0 : nil } }
    public var lumaBytes: Int { width * height }
    public var chromaBytes: Int { colourspace.chromaBytes(width: width, height: height) }
    /// Bytes of one frame's planes, not counting its `FRAME` line.
    public var frameBytes: Int { lumaBytes + chromaBytes }

    /// Largest width or height accepted, so that a damaged header cannot ask for gigabytes per frame.
    public static let maximumDimension = 16384
    static let magic = "YUV4MPEG2"

    /// The header line, with its newline.
    public var line: String {
        var parts = [Y4MHeader.magic, "W\(width)", "H\(height)"]
        if let frameRate { parts.append("F\(frameRate)") }
        if let interlacing { parts.append("I\(interlacing)") }
        if let pixelAspect { parts.append("A\(pixelAspect)") }
        parts.append("C\(colourspace.rawValue)")
        parts += comments.map { "X" + $0 }
        return parts.joined(separator: " ") + "\n"
    }

    /// Parses a header line (without its newline).
    public static func parse(_ line: String) throws(Y4MProblem) -> Y4MHeader {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first, first == Substring(magic) else {
            let start = String(
                line.prefix(16).map { $0.isASCII && !$0.isNewline && ($0.asciiValue ?? 0) >= 0x20 ? $0 : "?" })
            throw .badHeader("does not start with \(magic) (starts with \"\(start)\")")
        }
        var width: Int?, height: Int?
        var header = Y4MHeader(width: 0, height: 0, frameRate: nil, pixelAspect: nil, interlacing: nil)
        for field in fields.dropFirst() {
            let tag = field.first!
            let value = field.dropFirst()
            switch tag {
            case "W":
                guard let w = Int(value), w > 0, w <= maximumDimension else {
                    throw .badHeader("bad width \"\(field)\"")
                }
                width = w
            case "H":
                guard let h = Int(value), h > 0, h <= maximumDimension else {
                    throw .badHeader("bad height \"\(field)\"")
                }
                height = h
            case "F":
                guard let rate = Y4MRatio.parse(value) else { throw .badHeader("bad frame rate \"\(field)\"") }
                header.frameRate = rate
            case "A":
                guard let aspect = Y4MRatio.parse(value) else { throw .badHeader("bad pixel aspect \"\(field)\"") }
                header.pixelAspect = aspect
            case "I":
                header.interlacing = value.first
            case "C":
                guard let colourspace = Y4MColourspace(rawValue: String(value)) else {
                    throw .unsupportedColourspace(String(value))
                }
                header.colourspace = colourspace
            case "X":
                header.comments.append(String(value))
            default:
                break  // unknown tags are ignored, as the format asks
            }
        }
        guard let width else { throw .badHeader("no width (W) parameter") }
        guard let height else { throw .badHeader("no height (H) parameter") }
        header.width = width
        header.height = height
        return header
    }
}
