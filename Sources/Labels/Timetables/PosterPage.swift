import CCairo
import Foundation

/// A page of a timetable poster as a display list: every text with the box it must stay inside, the fills and
/// rules, and the QR code. The same list is drawn into the PDF, the SVG, the PNG and the read-back raster, and
/// checked before any of them is written (`PosterChecker`).
struct PosterPage {
    struct Text {
        var text: String
        var font: LabelFont
        var size: Double
        var color: RGBColor
        var x: Double
        var baseline: Double
        /// Where the text must stay (its cell, its line).
        var box: Rect
    }

    struct Fill {
        var rect: Rect
        var color: RGBColor
        var radius: Double = 0
    }

    struct Rule {
        var from: (x: Double, y: Double)
        var to: (x: Double, y: Double)
        var width: Double
        var color: RGBColor
    }

    struct Code {
        var matrix: QRMatrix
        var payload: String
        /// The symbol with its quiet zone.
        var box: Rect
        var module: Double { box.width / Double(matrix.sizeWithQuietZone) }
    }

    /// A named region, reported to callers (tests crop the PDF's text to a column with it).
    struct Region {
        var kind: String
        var section: Int
        var column: Int
        var rect: Rect
    }

    var width: Double
    var height: Double
    var texts: [Text] = []
    var fills: [Fill] = []
    var rules: [Rule] = []
    var codes: [Code] = []
    var regions: [Region] = []
}

extension PosterPage {
    /// Adds `string`, cut to fit `boxWidth`, on the line whose top is `top`, placed by `align` (0 left, 0.5 centred,
    /// 1 right) by its ink; its box is what the checker keeps it inside. Returns the line's height.
    mutating func addText(
        _ string: String, _ font: LabelFont, _ size: Double, x: Double, top: Double, width boxWidth: Double,
        color: RGBColor = .black, align: Double = 0, measurer: InkMeasurer
    ) -> Double {
        let line = PosterType.line(top: top, size: size)
        let shown = measurer.fit(string, font, size, width: boxWidth)
        let advance = measurer.width(shown, font, size) + measurer.overhang(shown, font, size)
        texts.append(
            Text(
                text: shown, font: font, size: size, color: color,
                x: x + measurer.overhang(shown, font, size) + (boxWidth - advance) * align,
                baseline: line.baseline, box: Rect(x: x - 1, y: top, width: boxWidth + 2, height: line.height)))
        return line.height
    }
}

extension PosterPage {
    /// Marks a proof copy: a red frame in the page margin and `words` across the top margin, above the content
    /// (which starts 10 mm or more from the edge).
    mutating func markProof(_ words: String, measurer: InkMeasurer) {
        let inset = mm(3)
        let corners = [(inset, inset), (width - inset, inset), (width - inset, height - inset), (inset, height - inset)]
        for (index, corner) in corners.enumerated() {
            rules.append(Rule(from: corner, to: corners[(index + 1) % 4], width: 1.5, color: ProofMark.color))
        }
        // 9 points on A4, larger on larger pages (the line still ends above a 12 mm margin on A3).
        let size = 9 * max(1, min(width, height) / mm(210))
        _ = addText(
            words, .bold, size, x: mm(12), top: mm(4.2), width: width - mm(24), color: ProofMark.color, align: 0.5,
            measurer: measurer)
    }
}

extension Canvas {
    /// Draws a poster page (or the part of it the surface covers).
    func draw(_ page: PosterPage, only region: Rect? = nil) {
        for fill in page.fills where region.map({ fill.rect.intersects($0) }) ?? true {
            if fill.radius > 0 {
                roundedRect(fill.rect, radius: fill.radius)
                fillPath(fill.color)
            } else {
                self.fill(fill.rect, fill.color)
            }
        }
        for rule in page.rules {
            line(from: rule.from, to: rule.to, color: rule.color, width: rule.width)
        }
        for text in page.texts where region.map({ text.box.insetBy(-2, -2).intersects($0) }) ?? true {
            self.text(text.text, x: text.x, baseline: text.baseline, font: text.font, size: text.size, color: text.color)
        }
        for code in page.codes {
            drawQR(outline: code.matrix.outline, size: code.matrix.size, at: code.box, module: code.module)
        }
    }
}

/// Ink extents of texts, measured once per string and font at a reference size and scaled (metric hinting is
/// off, so extents are linear in the size), plus advance widths for layout.
final class InkMeasurer {
    private static let referenceSize = 100.0
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private let fonts: FontSet
    private var cache: [LabelFont: [String: cairo_text_extents_t]] = [:]

    init(fonts: FontSet) {
        self.fonts = fonts
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        context = cairo_create(surface)
        cairo_set_font_options(context, fonts.options)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    private func extents(_ text: String, _ font: LabelFont) -> cairo_text_extents_t {
        if let known = cache[font]?[text] { return known }
        cairo_set_font_face(context, fonts.face(font))
        cairo_set_font_size(context, Self.referenceSize)
        var result = cairo_text_extents_t()
        cairo_text_extents(context, text, &result)
        if text.utf8.count <= 80 { cache[font, default: [:]][text] = result }
        return result
    }

    /// Advance width at `size`.
    func width(_ text: String, _ font: LabelFont, _ size: Double) -> Double {
        extents(text, font).x_advance / Self.referenceSize * size
    }

    /// How far the ink of `text` starts left of its origin at `size` (0 when it starts right of it: most glyphs;
    /// a "J" reaches left).
    func overhang(_ text: String, _ font: LabelFont, _ size: Double) -> Double {
        max(0, -extents(text, font).x_bearing / Self.referenceSize * size)
    }

    /// The ink rectangle of `text` drawn at (x, baseline) in `size` (empty text: nil).
    func ink(_ text: PosterPage.Text) -> Rect? {
        let e = extents(text.text, text.font)
        guard e.width > 0 || e.height > 0 else { return nil }
        let scale = text.size / Self.referenceSize
        return Rect(
            x: text.x + e.x_bearing * scale, y: text.baseline + e.y_bearing * scale, width: e.width * scale,
            height: e.height * scale)
    }

    /// `text` cut with "…" to fit `width` at `size` (unchanged when it fits).
    func fit(_ text: String, _ font: LabelFont, _ size: Double, width: Double) -> String {
        if self.width(text, font, size) + overhang(text, font, size) <= width { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            let candidate = String(characters).trimmingCharacters(in: .whitespaces) + "…"
            if self.width(candidate, font, size) + overhang(candidate, font, size) <= width { return candidate }
        }
        return ""
    }

    /// `text` in at most `maxLines` lines of `width`, broken between words only: at `size`, else at the largest
    /// smaller size (down to `minimum`, in half points) where it fits. Only when even `minimum` does not is the
    /// rest wrapped beyond `maxLines` (and a single word wider than the line cut with "…").
    func wrapWords(_ text: String, _ font: LabelFont, size: Double, minimum: Double, width: Double, maxLines: Int)
        -> (lines: [String], size: Double)
    {
        var current = size
        while true {
            let words = text.split(separator: " ")
            let lines = wrap(text, font, current, width: width)
            let whole = words.allSatisfy { self.width(String($0), font, current) <= width }
            if (lines.count <= maxLines && whole) || current <= minimum { return (lines, current) }
            current = max(minimum, current - 0.5)
        }
    }

    /// Words of `text` in lines no wider than `width`; a word wider than a line is cut with "…".
    func wrap(_ text: String, _ font: LabelFont, _ size: Double, width: Double) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if self.width(candidate, font, size) <= width {
                current = candidate
            } else {
                if !current.isEmpty { lines.append(current) }
                current = fit(String(word), font, size, width: width)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
