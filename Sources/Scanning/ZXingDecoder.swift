import CZXing

/// How hard zxing-cpp looks at an image.
public struct ZXingConfiguration: Sendable, Hashable {
    /// Symbologies to look for (those zxing-cpp reads; `sqCode`, `isbn10`, `isbn13`, `ean2` and `ean5` have no
    /// zxing equivalent and are ignored).
    public var symbologies: Set<Symbology>
    /// zxing's `tryHarder`: more scan lines and finder-pattern candidates. Reads worn and glared codes that the
    /// fast mode misses, at about twice the time.
    public var tryHarder: Bool
    /// zxing's `tryRotate`: 1D codes turned by 90°.
    public var tryRotate: Bool
    /// zxing's `tryDownscale`: also reads downscaled copies of large images (codes with blurry, wide modules).
    public var tryDownscale: Bool

    public init(
        symbologies: Set<Symbology> = Symbology.stopLabelDefaults, tryHarder: Bool = true,
        tryRotate: Bool = true, tryDownscale: Bool = true
    ) {
        self.symbologies = symbologies
        self.tryHarder = tryHarder
        self.tryRotate = tryRotate
        self.tryDownscale = tryDownscale
    }
}

/// What zxing-cpp is run on: the image as it is, or one of the recovery transforms zxing 1.4 does not do itself.
public enum ZXingStep: String, Sendable, Hashable, CaseIterable {
    /// The image (or region) as it is.
    case direct = "zxing"
    /// Light on dark: 255 − luma (zxing 1.4 has no inverted search).
    case inverted = "zxing-inverted"
    /// ½ size, 2×2 box filter: blurry or noisy codes under zxing's own downscale threshold (500 px).
    case halfScale = "zxing-half-scale"
    /// A white margin: codes cropped without their quiet zone, and codes nested in other codes.
    case quietZone = "zxing-quiet-zone"

    /// The recovery transform, nil for `.direct`.
    var transform: RecoveryStep? {
        switch self {
        case .direct: return nil
        case .inverted: return .inverted
        case .halfScale: return .halfScale
        case .quietZone: return .quietZone
        }
    }

    /// Pixels zxing reads relative to `.direct`.
    public var relativeCost: Double { transform?.relativeCost ?? 1 }

    /// The steps a `DecoderChain` tries on stills, in order (each one only while nothing new was found).
    /// On the shared photo set each adds images that neither zbar's ladder nor the steps before it read.
    public static let defaultLadder: [ZXingStep] = [.direct, .inverted, .halfScale, .quietZone]
}

/// Finds barcodes in luma frames with zxing-cpp (Debian's libzxing-dev 1.4), through the `CZXing` shim.
///
/// The frame (or a rectangle of it, through the row stride) is read in place: nothing is copied on the way in,
/// and only each symbol's bytes, text and corners on the way out. Like `ZBarDecoder`, one decoder belongs to
/// the loop that uses it (it is not `Sendable`), although zxing itself keeps no state between calls.
///
/// Text: `bytes` are the stored bytes, as zbar gives them (so a code has the same debounce key whichever decoder
/// read it), and `text` is `PayloadText`'s guess unless zxing's own conversion differs (Kanji-mode segments,
/// a declared charset), in which case zxing's is taken (`PayloadEncoding.zxing`).
public final class ZXingDecoder {
    public let configuration: ZXingConfiguration
    private var options: CZXingOptions

    /// The zxing-cpp version the program was built against.
    public static var version: String { String(cString: czxing_version()) }

    public init(configuration: ZXingConfiguration = ZXingConfiguration()) {
        self.configuration = configuration
        var formats: Int32 = 0
        for symbology in configuration.symbologies { formats |= symbology.zxingFormat }
        options = CZXingOptions(
            formats: formats, try_harder: configuration.tryHarder ? 1 : 0,
            try_rotate: configuration.tryRotate ? 1 : 0,
            try_downscale: configuration.tryDownscale ? 1 : 0, max_symbols: 0)
    }

    /// True when none of the configured symbologies is one zxing reads (the decoder would find nothing).
    public var readsNothing: Bool { options.formats == 0 }

    /// Decodes `frame`, or the part of it inside `region` (clipped to the frame), after the step's transform.
    /// The direct step reads the frame in place (a region through the row stride); the others transform a copy
    /// of the region. Locations are in frame coordinates.
    public func decode(_ frame: LumaFrame, region: FrameRect? = nil, step: ZXingStep = .direct) -> [DecodedSymbol] {
        guard !readsNothing else { return [] }
        let bounds = region ?? FrameRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let left = max(0, bounds.x), top = max(0, bounds.y)
        let right = min(frame.width, bounds.x + bounds.width), bottom = min(frame.height, bounds.y + bounds.height)
        guard right - left >= 8, bottom - top >= 8 else { return [] }
        guard let transform = step.transform else {
            return read(
                frame, left: left, top: top, width: right - left, height: bottom - top, step: step,
                mapping: .identity)
        }
        let whole = left == 0 && top == 0 && right == frame.width && bottom == frame.height
        let source =
            whole ? frame : ImageOps.cropped(frame, left: left, top: top, width: right - left, height: bottom - top)
        guard let transformed = transform.apply(to: source) else { return [] }
        let image = LumaFrame(width: transformed.width, height: transformed.height, pixels: transformed.pixels)
        let mapping = transformed.mapping
        return read(
            image, left: 0, top: 0, width: image.width, height: image.height, step: step,
            mapping: PointMapping(scale: mapping.scale, offsetX: mapping.offsetX + left, offsetY: mapping.offsetY + top)
        )
    }

    /// zxing on a rectangle of `image`, read in place; points mapped back with `mapping`.
    private func read(
        _ image: LumaFrame, left: Int, top: Int, width: Int, height: Int, step: ZXingStep,
        mapping: PointMapping
    ) -> [DecodedSymbol] {
        let frame = image
        return frame.pixels.withUnsafeBufferPointer { buffer -> [DecodedSymbol] in
            guard let base = buffer.baseAddress else { return [] }
            var results: OpaquePointer?
            var options = self.options
            let status = czxing_read(
                base + top * frame.width + left, Int32(width), Int32(height),
                Int32(frame.width), &options, &results)
            guard status == CZXING_OK, let results else { return [] }
            defer { czxing_results_free(results) }
            var symbols: [DecodedSymbol] = []
            for index in 0..<czxing_results_count(results) {
                let found = czxing_results_symbol(results, index)
                guard let symbology = Symbology(zxingFormat: found.format) else { continue }
                let bytes =
                    found.byte_count > 0 && found.bytes != nil
                    ? Array(UnsafeBufferPointer(start: found.bytes, count: Int(found.byte_count))) : []
                // zxing's text when it differs from our guess: it converts segment by segment (Kanji mode,
                // ECI), which the whole-string guess cannot.
                let guess = PayloadText.decode(bytes)
                var text: String? = guess.encoding == .unknown ? nil : guess.text
                var encoding = guess.encoding
                if found.text_length > 0, let raw = found.text {
                    let converted = raw.withMemoryRebound(to: UInt8.self, capacity: Int(found.text_length)) {
                        String(validating: UnsafeBufferPointer(start: $0, count: Int(found.text_length)), as: UTF8.self)
                    }
                    if let converted, converted != text, found.has_eci != 0 || guess.encoding != .ascii {
                        text = converted
                        encoding = .zxing
                    }
                }
                let (x, y) = (found.x, found.y)
                let points = [(x.0, y.0), (x.1, y.1), (x.2, y.2), (x.3, y.3)].map {
                    mapping.map(FramePoint(x: Int($0.0) + left, y: Int($0.1) + top))
                }
                symbols.append(
                    DecodedSymbol(
                        symbology: symbology, bytes: bytes, text: text, encoding: encoding,
                        points: points, quality: 1, foundBy: .zxing(step)))
            }
            return symbols
        }
    }
}

extension Symbology {
    /// zxing-cpp's `BarcodeFormat` bit for this symbology; 0 when zxing has none.
    var zxingFormat: Int32 {
        switch self {
        case .qrCode: return Int32(CZXING_FORMAT_QR_CODE)
        case .code128: return Int32(CZXING_FORMAT_CODE128)
        case .ean13: return Int32(CZXING_FORMAT_EAN13)
        case .ean8: return Int32(CZXING_FORMAT_EAN8)
        case .upcA: return Int32(CZXING_FORMAT_UPCA)
        case .upcE: return Int32(CZXING_FORMAT_UPCE)
        case .interleaved2of5: return Int32(CZXING_FORMAT_ITF)
        case .dataBar: return Int32(CZXING_FORMAT_DATABAR)
        case .dataBarExpanded: return Int32(CZXING_FORMAT_DATABAR_EXPANDED)
        case .codabar: return Int32(CZXING_FORMAT_CODABAR)
        case .code39: return Int32(CZXING_FORMAT_CODE39)
        case .code93: return Int32(CZXING_FORMAT_CODE93)
        case .pdf417: return Int32(CZXING_FORMAT_PDF417)
        case .isbn10, .isbn13, .ean2, .ean5, .sqCode: return 0
        }
    }

    init?(zxingFormat: Int32) {
        guard zxingFormat != 0,
            let match = Symbology.allCases.first(where: { $0.zxingFormat == zxingFormat })
        else { return nil }
        self = match
    }

    /// True when zxing-cpp can read this symbology.
    public var isReadByZXing: Bool { zxingFormat != 0 }
}

extension ImageOps {
    /// A copy of a rectangle of `frame` (which must lie inside it).
    static func cropped(_ frame: LumaFrame, left: Int, top: Int, width: Int, height: Int) -> LumaFrame {
        var pixels = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                for row in 0..<height {
                    UnsafeMutableRawPointer(destination.baseAddress! + row * width)
                        .copyMemory(from: source.baseAddress! + (top + row) * frame.width + left, byteCount: width)
                }
            }
        }
        return LumaFrame(
            width: width, height: height, pixels: pixels, sequence: frame.sequence,
            arrivalNanos: frame.arrivalNanos)
    }
}
