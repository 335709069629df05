import CCairo
import Foundation
import Scanning

/// The check every poster passes before it is written: each text's ink (cairo's text extents) lies inside its
/// box and inside the page, no two texts' inks overlap, no text touches a QR code, and each QR code, rasterised
/// at 4 pixels a module with its quiet zone and what surrounds it, decodes with zbar to exactly its payload.
final class PosterChecker {
    let fonts: FontSet
    let measurer: InkMeasurer
    private let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: [.qrCode], recovery: []))

    /// Ink may touch its box's edge by this much (rounding in the extents).
    static let tolerance = 0.05

    init(fonts: FontSet) {
        self.fonts = fonts
        measurer = InkMeasurer(fonts: fonts)
    }

    /// Every problem of the page, described with the page number and the text concerned.
    func check(_ page: PosterPage, number: Int) -> [String] {
        var problems: [String] = []
        let bounds = Rect(x: 0, y: 0, width: page.width, height: page.height)
        let t = Self.tolerance
        var inks: [(rect: Rect, index: Int)] = []
        inks.reserveCapacity(page.texts.count)
        for (index, text) in page.texts.enumerated() {
            guard let ink = measurer.ink(text) else { continue }
            let box = text.box
            if ink.x < box.x - t || ink.y < box.y - t || ink.maxX > box.maxX + t || ink.maxY > box.maxY + t {
                problems.append(
                    "page \(number): \"\(Terminal.clean(text.text, 60))\" leaves its box (ink \(Self.describe(ink)), box \(Self.describe(box)))"
                )
            }
            if ink.x < bounds.x || ink.y < bounds.y || ink.maxX > bounds.maxX || ink.maxY > bounds.maxY {
                problems.append("page \(number): \"\(Terminal.clean(text.text, 60))\" leaves the page")
            }
            for code in page.codes where ink.intersects(code.box) {
                problems.append("page \(number): \"\(Terminal.clean(text.text, 60))\" overlaps the QR code")
            }
            inks.append((ink, index))
        }
        // Overlaps: sweep the inks top to bottom, comparing each with those still open at its top.
        inks.sort { $0.rect.y < $1.rect.y }
        var open: [(rect: Rect, index: Int)] = []
        var reported = 0
        for item in inks {
            open.removeAll { $0.rect.maxY <= item.rect.y }
            for other in open where other.rect.intersects(item.rect) && reported < 20 {
                reported += 1
                problems.append(
                    "page \(number): \"\(Terminal.clean(page.texts[other.index].text, 40))\" and \"\(Terminal.clean(page.texts[item.index].text, 40))\" overlap"
                )
            }
            open.append(item)
        }
        for code in page.codes {
            let margin = 2 * code.module
            let region = code.box.insetBy(-margin, -margin)
            let frame = rasterise(page, region: region, pixelsPerPoint: ReadBackChecker.pixelsPerQRModule / code.module)
            let symbols = decoder.decode(frame).filter { $0.symbology == .qrCode }
            if symbols.count != 1 || !symbols[0].matches(Array(code.payload.utf8)) {
                let found = symbols.isEmpty ? "nothing" : symbols.map { "\"\(Terminal.clean($0.lossyText, 80))\"" }.joined(separator: ", ")
                problems.append(
                    "page \(number): the QR code does not read back as \"\(Terminal.clean(code.payload, 160))\" (decoded \(found))")
            }
        }
        return problems
    }

    static func describe(_ rect: Rect) -> String {
        String(format: "%.1f,%.1f %.1f×%.1f pt", rect.x, rect.y, rect.width, rect.height)
    }

    /// The page's drawing over `region` (points) on a white image, as luma.
    func rasterise(_ page: PosterPage, region: Rect, pixelsPerPoint: Double) -> LumaFrame {
        let width = max(1, Int((region.width * pixelsPerPoint).rounded(.up)))
        let height = max(1, Int((region.height * pixelsPerPoint).rounded(.up)))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        do {
            let canvas = Canvas(surface: surface, fonts: fonts)
            canvas.paint(.white)
            canvas.scale(pixelsPerPoint)
            canvas.translate(-region.x, -region.y)
            canvas.draw(page, only: region)
        }
        cairo_surface_flush(surface)
        return ReadBackChecker.luma(of: surface, width: width, height: height)
    }
}
