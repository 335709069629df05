import CZBar

/// A barcode symbology zbar can decode. Raw values are zbar's `zbar_symbol_type_t` numbers.
public enum Symbology: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case qrCode = 64
    case code128 = 128
    case ean13 = 13
    case ean8 = 8
    case upcA = 12
    case upcE = 9
    case isbn10 = 10
    case isbn13 = 14
    case ean2 = 2
    case ean5 = 5
    case interleaved2of5 = 25
    case dataBar = 34
    case dataBarExpanded = 35
    case codabar = 38
    case code39 = 39
    case code93 = 93
    case pdf417 = 57
    case sqCode = 80

    /// What a stop label or pole sticker carries: QR (the URL) and the two 1D codes of printed stop codes.
    public static let stopLabelDefaults: Set<Symbology> = [.qrCode, .code128, .ean13]

    /// zbar's name for it, as `zbarimg` prints it ("QR-Code", "CODE-128", "EAN-13", …).
    public var name: String { String(cString: zbar_get_symbol_name(zbar_symbol_type_t(UInt32(rawValue)))) }

    public var description: String { name }

    var zbarType: zbar_symbol_type_t { zbar_symbol_type_t(UInt32(rawValue)) }

    /// True for two-dimensional codes (zbar reports their four corners as the location).
    public var isTwoDimensional: Bool { self == .qrCode || self == .sqCode || self == .pdf417 }
}

/// A point in frame coordinates (pixels, origin top-left).
public struct FramePoint: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in frame coordinates.
public struct FrameRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest rectangle holding all the points (empty at the origin for no points).
    public init(enclosing points: [FramePoint]) {
        guard let first = points.first else { self.init(x: 0, y: 0, width: 0, height: 0); return }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for point in points.dropFirst() {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

/// One symbol found in a frame.
public struct DecodedSymbol: Sendable, Hashable {
    public var symbology: Symbology
    /// The payload bytes as zbar returned them. With the default `QRTextMode.guessEncoding` these are the bytes
    /// stored in the code (Kanji-mode segments as Shift_JIS); with `.zbar` they are zbar's UTF-8 conversion.
    public var bytes: [UInt8]
    /// The payload as text, or nil when the bytes are not valid in any encoding tried (binary content).
    /// Untrusted: sanitise before display.
    public var text: String?
    /// The encoding `text` was read in.
    public var encoding: PayloadEncoding
    /// Location polygon in frame coordinates: the four corners of a 2D code, points along the scan lines for 1D.
    public var points: [FramePoint]
    /// zbar's quality figure: for 1D codes the number of scan lines that agreed; 1 for QR codes.
    public var quality: Int
    /// The pass that found it (`.direct` or a recovery step).
    public var foundBy: DecodePass

    public init(
        symbology: Symbology, bytes: [UInt8], text: String?, encoding: PayloadEncoding,
        points: [FramePoint], quality: Int, foundBy: DecodePass
    ) {
        self.symbology = symbology
        self.bytes = bytes
        self.text = text
        self.encoding = encoding
        self.points = points
        self.quality = quality
        self.foundBy = foundBy
    }

    /// The payload as text, invalid sequences replaced by U+FFFD. Untrusted: sanitise before display.
    public var lossyText: String { text ?? String(decoding: bytes, as: UTF8.self) }

    /// True when the payload could not be read as text (`text` is nil).
    public var isBinary: Bool { text == nil }

    /// Bounding box of `points`.
    public var boundingBox: FrameRect { FrameRect(enclosing: points) }

    /// True when the payload is exactly `expected`, compared as UTF-8 text or as raw bytes.
    public func matches(_ expected: [UInt8]) -> Bool {
        if bytes == expected { return true }
        guard let text else { return false }
        return text.utf8.elementsEqual(expected)
    }
}

/// How the content of QR codes becomes text.
public enum QRTextMode: Sendable, Hashable {
    /// zbar returns the stored bytes (ZBAR_CFG_BINARY) and `PayloadText` guesses UTF-8 / Shift_JIS / ISO-8859-1,
    /// as phone scanners do. The default: it reads UTF-8 and Japanese codes that zbar's conversion gets wrong.
    case guessEncoding
    /// zbar's own conversion to UTF-8 (what `zbarimg` prints).
    case zbar
}

/// One attempt at a frame: zbar on the frame as it is or on a recovery transform of it, or zxing-cpp.
public enum DecodePass: Sendable, Hashable, CustomStringConvertible {
    case direct
    case recovery(RecoveryStep)
    /// zxing-cpp, the second decoder (see `DecoderChain`).
    case zxing(ZXingStep)

    /// What `kiosk scan --json` prints as `found_by`: zbar's passes keep their names (`direct`, `half-scale`, …),
    /// zxing's are `zxing` (whole frame) and `zxing-region`.
    public var description: String {
        switch self {
        case .direct: return "direct"
        case .recovery(let step): return step.rawValue
        case .zxing(let step): return step.rawValue
        }
    }

    /// The library that ran the pass.
    public var decoder: DecoderKind {
        if case .zxing = self { return .zxing }
        return .zbar
    }
}

/// How a `ZBarDecoder` scans.
public struct DecoderConfiguration: Sendable, Hashable {
    /// Symbologies to look for; every other one is disabled (each enabled 1D decoder costs time on every line).
    public var symbologies: Set<Symbology>
    /// Tried in order, each on the original frame, only while nothing has been found (see `RecoveryStep`).
    public var recovery: [RecoveryStep]
    /// How QR content becomes text.
    public var qrText: QRTextMode
    /// zbar's scan density: scan every n-th row and column (1 = every line, zbar's default).
    public var scanDensity: Int
    /// nil: every recovery step on every frame that needs it (stills, label checks, surveys).
    /// A number: recovery work per frame on average, in units of one direct pass (see `RecoveryStep.relativeCost`).
    /// Each frame that finds nothing earns this much credit (kept up to the costliest step's cost) and runs the
    /// ladder's next steps while the credit covers them, continuing on the next frame where this one stopped.
    /// For video: a code held up is seen on many frames, so every step gets its turn within a few frames, while
    /// an empty scene costs `1 + budget` direct passes per frame on average — less than zbar's own tool spends.
    public var recoveryBudget: Double?

    /// For still images: the whole ladder on every image.
    public static let still = DecoderConfiguration()
    /// For camera frames: the ladder spread over frames, 0.3 direct passes of recovery per frame on average (the
    /// whole default ladder, about 3.9 passes, every 13 frames: under half a second at 30 fps, while a passenger
    /// holds a label up for several seconds).
    public static let video = DecoderConfiguration(recoveryBudget: 0.3)

    public init(
        symbologies: Set<Symbology> = Symbology.stopLabelDefaults,
        recovery: [RecoveryStep] = RecoveryStep.defaultLadder,
        qrText: QRTextMode = .guessEncoding,
        scanDensity: Int = 1,
        recoveryBudget: Double? = nil
    ) {
        self.symbologies = symbologies
        self.recovery = recovery
        self.qrText = qrText
        self.scanDensity = max(1, scanDensity)
        self.recoveryBudget = recoveryBudget.map { max(0, $0) }
    }
}

/// Finds barcodes in luma frames with zbar.
///
/// One decoder owns one zbar image scanner, reused for every frame. zbar's scanner is not thread-safe, so
/// the decoder is deliberately not `Sendable`: create it inside the loop (task or actor) that decodes and
/// keep it there. Frames are handed to zbar without copying (a Y800 image pointing at `LumaFrame.pixels`
/// for the duration of the scan). Recovery passes work on transformed copies.
///
/// ```swift
/// let decoder = ZBarDecoder()
/// for frame in frames {
///     for symbol in decoder.decode(frame) { print(symbol.symbology, symbol.lossyText) }
/// }
/// ```
public final class ZBarDecoder {
    public let configuration: DecoderConfiguration
    private let scanner: OpaquePointer
    /// Where the next frame's recovery starts in the ladder (rotating schedule only).
    private var recoveryCursor = 0
    /// Recovery work earned and not yet spent, in direct passes (see `DecoderConfiguration.recoveryBudget`).
    private var recoveryCredit = 0.0

    public init(configuration: DecoderConfiguration = DecoderConfiguration()) {
        self.configuration = configuration
        guard let scanner = zbar_image_scanner_create() else {
            fatalError("zbar_image_scanner_create failed (out of memory)")
        }
        self.scanner = scanner
        // Disable every symbology, then enable the configured ones.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in configuration.symbologies {
            zbar_image_scanner_set_config(scanner, symbology.zbarType, ZBAR_CFG_ENABLE, 1)
        }
        if configuration.qrText == .guessEncoding, configuration.symbologies.contains(.qrCode) {
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        }
        let density = Int32(clamping: configuration.scanDensity)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, density)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, density)
        zbar_image_scanner_enable_cache(scanner, 0)
    }

    deinit {
        zbar_image_scanner_destroy(scanner)
    }

    /// Decodes a frame: a direct pass, then the configured recovery steps in order until one finds something
    /// (all of them, or those within `recoveryBudget`). Returns every symbol the successful pass found.
    public func decode(_ frame: LumaFrame) -> [DecodedSymbol] {
        let direct = run(.direct, on: frame)
        if !direct.isEmpty { return direct }
        let ladder = configuration.recovery
        guard !ladder.isEmpty else { return [] }
        guard let budget = configuration.recoveryBudget else {
            return decode(frame, passes: ladder.map { .recovery($0) })
        }
        let costliest = ladder.map(\.relativeCost).max() ?? 1
        recoveryCredit = min(recoveryCredit + budget, max(budget, costliest))
        var tried = 0
        defer { recoveryCursor = (recoveryCursor + tried) % ladder.count }
        while tried < ladder.count {
            let step = ladder[(recoveryCursor + tried) % ladder.count]
            guard recoveryCredit >= step.relativeCost else { break }
            recoveryCredit -= step.relativeCost
            tried += 1
            let found = run(.recovery(step), on: frame)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Decodes with an explicit list of passes (stopping at the first that finds a symbol), for measurements.
    public func decode(_ frame: LumaFrame, passes: [DecodePass]) -> [DecodedSymbol] {
        for pass in passes {
            let found = run(pass, on: frame)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Runs exactly one pass on a frame.
    /// zxing passes find nothing here (see `DecoderChain.run(_:on:)`).
    public func run(_ pass: DecodePass, on frame: LumaFrame) -> [DecodedSymbol] {
        switch pass {
        case .zxing:
            return []
        case .direct:
            return frame.pixels.withUnsafeBufferPointer { buffer in
                scan(buffer, width: frame.width, height: frame.height, pass: pass, mapping: .identity)
            }
        case .recovery(let step):
            guard let transformed = step.apply(to: frame) else { return [] }
            return transformed.pixels.withUnsafeBufferPointer { buffer in
                scan(
                    buffer, width: transformed.width, height: transformed.height, pass: pass,
                    mapping: transformed.mapping)
            }
        }
    }

    /// Scans one Y800 buffer. The zbar image points at `pixels` only while this call runs.
    private func scan(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, pass: DecodePass,
        mapping: PointMapping
    ) -> [DecodedSymbol] {
        guard width > 0, height > 0, pixels.count >= width * height, let base = pixels.baseAddress,
            let image = zbar_image_create()
        else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, CZBAR_FOURCC_Y800)
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        // No cleanup handler: zbar never frees or writes the buffer, and the image is destroyed before return.
        zbar_image_set_data(image, UnsafeRawPointer(base), UInt(width * height), nil)
        let count = zbar_scan_image(scanner, image)
        guard count > 0 else { return [] }
        var symbols: [DecodedSymbol] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            defer { symbol = zbar_symbol_next(current) }
            let rawType = Int32(bitPattern: zbar_symbol_get_type(current).rawValue)
            guard let symbology = Symbology(rawValue: rawType) else { continue }
            let length = Int(zbar_symbol_get_data_length(current))
            var bytes: [UInt8] = []
            if length > 0, let data = zbar_symbol_get_data(current) {
                bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    Array(UnsafeBufferPointer(start: $0, count: length))
                }
            }
            let pointCount = zbar_symbol_get_loc_size(current)
            var points: [FramePoint] = []
            points.reserveCapacity(Int(pointCount))
            for index in 0..<pointCount {
                let x = Int(zbar_symbol_get_loc_x(current, index))
                let y = Int(zbar_symbol_get_loc_y(current, index))
                points.append(mapping.map(FramePoint(x: x, y: y)))
            }
            let text: String?
            let encoding: PayloadEncoding
            if symbology == .qrCode && configuration.qrText == .zbar {
                text = String(validating: bytes, as: UTF8.self)
                encoding = text == nil ? .unknown : .zbar
            } else {
                let decoded = PayloadText.decode(bytes)
                text = decoded.encoding == .unknown ? nil : decoded.text
                encoding = decoded.encoding
            }
            symbols.append(
                DecodedSymbol(
                    symbology: symbology, bytes: bytes, text: text, encoding: encoding,
                    points: points, quality: Int(zbar_symbol_get_quality(current)),
                    foundBy: pass))
        }
        return symbols
    }
}

/// Maps a point found in a transformed image back to the original frame.
struct PointMapping: Sendable {
    var scale: Double
    var offsetX: Int
    var offsetY: Int

    static let identity = PointMapping(scale: 1, offsetX: 0, offsetY: 0)

    func map(_ point: FramePoint) -> FramePoint {
        if scale == 1 && offsetX == 0 && offsetY == 0 { return point }
        return FramePoint(
            x: offsetX + Int((Double(point.x) + 0.5) * scale),
            y: offsetY + Int((Double(point.y) + 0.5) * scale))
    }
}
