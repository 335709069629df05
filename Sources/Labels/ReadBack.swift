import CCairo
import Scanning

/// A label whose codes did not read back as written.
public struct ReadBackFailure: Sendable, Hashable, CustomStringConvertible {
    public var stopID: String
    public var stopName: String
    /// "QR code" or "Code 128".
    public var symbol: String
    public var expected: String
    /// What the decoder found instead (empty: nothing).
    public var found: [String]

    public var description: String {
        let got =
            found.isEmpty
            ? "nothing decoded" : "decoded " + found.map { "\"\(Terminal.clean($0, 80))\"" }.joined(separator: ", ")
        return
            "stop \(Terminal.clean(stopID, 40)) (\(Terminal.clean(stopName, 50))): \(symbol) does not read back as \"\(Terminal.clean(expected, 160))\" (\(got))"
    }
}

/// Rasterises each label in memory and decodes it with the kiosk's own decoder (`ZBarDecoder`), the check
/// that stands between a rendering bug and a thousand useless stickers on poles.
///
/// The QR symbol is rasterised at 4 pixels per module over its box, quiet zone included — the whole label is
/// drawn, clipped to that box, with the same 1-bit symbol the page prints: anything drawn into the quiet zone, a
/// module missing or a wrong payload fails. The frame is then the very image the bare libqrencode + zbar floor
/// decodes (`kiosk-bench labels`), pixel for pixel when nothing intrudes. The barcode is rasterised at 3 pixels
/// per bar module. zbar runs its direct pass only, with no recovery: a label
/// that needs image repair to read on a clean raster will not read on a dirty pole.
final class ReadBackChecker {
    let fonts: FontSet
    private let qrDecoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.qrCode], recovery: []))
    private let barDecoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.code128], recovery: []))

    static let pixelsPerQRModule = 4.0
    static let pixelsPerBarModule = 3.0

    init(fonts: FontSet) { self.fonts = fonts }

    func check(_ label: ComposedLabel) -> [ReadBackFailure] {
        var failures: [ReadBackFailure] = []
        let g = label.geometry
        let bounds = Rect(x: 0, y: 0, width: g.width, height: g.height)
        let qrRegion = clip(g.qrBox, to: bounds)
        let qrFrame = rasterise(label, region: qrRegion, pixelsPerPoint: Self.pixelsPerQRModule / label.module)
        let payload = Array(label.prepared.payload.utf8)
        let symbols = qrDecoder.decode(qrFrame).filter { $0.symbology == .qrCode }
        if symbols.count != 1 || !symbols[0].matches(payload) {
            failures.append(
                failure(label, symbol: "QR code", expected: label.prepared.payload, found: symbols.map(\.lossyText)))
        }
        if label.prepared.barcode != nil, let box = label.barcodeBox {
            let region = clip(box.insetBy(-2 * label.barModule, -mm(1)), to: bounds)
            let frame = rasterise(label, region: region, pixelsPerPoint: Self.pixelsPerBarModule / label.barModule)
            let bars = barDecoder.decode(frame).filter { $0.symbology == .code128 }
            let expected = Array(label.prepared.value.utf8)
            if bars.isEmpty || !bars.allSatisfy({ $0.matches(expected) }) {
                failures.append(
                    failure(label, symbol: "Code 128", expected: label.prepared.value, found: bars.map(\.lossyText)))
            }
        }
        return failures
    }

    private func failure(_ label: ComposedLabel, symbol: String, expected: String, found: [String]) -> ReadBackFailure {
        ReadBackFailure(
            stopID: label.prepared.stop.id, stopName: label.prepared.stop.name, symbol: symbol, expected: expected,
            found: found)
    }

    private func clip(_ rect: Rect, to bounds: Rect) -> Rect {
        let x = max(rect.x, bounds.x), y = max(rect.y, bounds.y)
        return Rect(x: x, y: y, width: min(rect.maxX, bounds.maxX) - x, height: min(rect.maxY, bounds.maxY) - y)
    }

    /// Draws the whole label onto a white image covering `region` (points, label coordinates) and converts it
    /// to luma.
    func rasterise(_ label: ComposedLabel, region: Rect, pixelsPerPoint: Double) -> LumaFrame {
        let width = max(1, Int((region.width * pixelsPerPoint).rounded(.up)))
        let height = max(1, Int((region.height * pixelsPerPoint).rounded(.up)))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        do {
            let canvas = Canvas(surface: surface, fonts: fonts)
            canvas.paint(.white)
            canvas.scale(pixelsPerPoint)
            canvas.translate(-region.x, -region.y)
            canvas.draw(label)
        }
        cairo_surface_flush(surface)
        return Self.luma(of: surface, width: width, height: height)
    }

    /// BT.601 luma of an RGB24 image surface (the weights zbar's own converters use).
    static func luma(of surface: OpaquePointer, width: Int, height: Int) -> LumaFrame {
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels = [UInt8](repeating: 255, count: width * height)
        guard let data = cairo_image_surface_get_data(surface) else {
            return LumaFrame(width: width, height: height, pixels: pixels)
        }
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let pixel = row[x]
                    let r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF
                    out[y * width + x] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }
}
