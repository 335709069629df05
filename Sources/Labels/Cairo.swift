import CCairo
import Foundation
import SystemSupport

/// The two faces labels are set in: DejaVu Sans (book and bold), through cairo's toy font API, which asks
/// fontconfig for the family and draws with FreeType. DejaVu covers Latin with every accent, Greek, Cyrillic,
/// Armenian, Georgian, Hebrew and Arabic letters; the toy API does no shaping or bidirectional reordering, so
/// Arabic prints as isolated letters in logical order, and scripts DejaVu lacks (CJK) print as empty boxes —
/// `TextMeasurer.missingCharacters` finds those, and `kiosk labels` warns about them.
enum LabelFont: Int, CaseIterable, Sendable {
    case regular, bold

    static let family = "DejaVu Sans"
}

/// Cairo font faces and options shared by every context of one renderer.
///
/// Metric hinting is off everywhere: text is then measured once (at a reference size, scaled linearly) and
/// lands at exactly the same place in the PDF, the SVG, the PNG and the read-back raster.
final class FontSet {
    let faces: [OpaquePointer]
    let options: OpaquePointer

    init() {
        faces = LabelFont.allCases.map { font in
            cairo_toy_font_face_create(
                LabelFont.family, CAIRO_FONT_SLANT_NORMAL,
                font == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        }
        options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    }

    deinit {
        faces.forEach { cairo_font_face_destroy($0) }
        cairo_font_options_destroy(options)
    }

    func face(_ font: LabelFont) -> OpaquePointer { faces[font.rawValue] }
}

/// A cairo context in points (1/72 inch), with the few drawing operations a label needs.
final class Canvas {
    let context: OpaquePointer
    let fonts: FontSet
    /// An SVG page: QR symbols are drawn as vector outlines there (sign makers cut from them), as 1-bit masks
    /// everywhere else.
    let isSVG: Bool
    /// A raster (the PNG pages, the read-back frames).
    let isImage: Bool
    private var currentFont: (LabelFont, Double)?

    init(surface: OpaquePointer, fonts: FontSet) {
        context = cairo_create(surface)
        self.fonts = fonts
        isSVG = cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_SVG
        isImage = cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE
        cairo_set_font_options(context, fonts.options)
    }

    deinit { cairo_destroy(context) }

    var status: cairo_status_t { cairo_status(context) }

    func save() { cairo_save(context) }
    func restore() { cairo_restore(context); currentFont = nil }
    func translate(_ x: Double, _ y: Double) { cairo_translate(context, x, y) }
    func scale(_ factor: Double) { cairo_scale(context, factor, factor) }

    func setColor(_ color: RGBColor) { cairo_set_source_rgb(context, color.red, color.green, color.blue) }

    func paint(_ color: RGBColor) {
        setColor(color)
        cairo_paint(context)
    }

    func fill(_ rect: Rect, _ color: RGBColor) {
        setColor(color)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(context)
    }

    /// Adds a rectangle to the current path (filled later in one go).
    func addRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        cairo_rectangle(context, x, y, width, height)
    }

    func fillPath(_ color: RGBColor) {
        setColor(color)
        cairo_fill(context)
    }

    func roundedRect(_ rect: Rect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(context)
        cairo_arc(context, rect.x + rect.width - r, rect.y + r, r, -Double.pi / 2, 0)
        cairo_arc(context, rect.x + rect.width - r, rect.y + rect.height - r, r, 0, Double.pi / 2)
        cairo_arc(context, rect.x + r, rect.y + rect.height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, rect.x + r, rect.y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    func fillPreserve(_ color: RGBColor) {
        setColor(color)
        cairo_fill_preserve(context)
    }

    func stroke(_ color: RGBColor, width: Double) {
        setColor(color)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    func line(from: (Double, Double), to: (Double, Double), color: RGBColor, width: Double) {
        cairo_move_to(context, from.0, from.1)
        cairo_line_to(context, to.0, to.1)
        stroke(color, width: width)
    }

    func text(_ text: String, x: Double, baseline: Double, font: LabelFont, size: Double, color: RGBColor) {
        guard !text.isEmpty else { return }
        if currentFont?.0 != font || currentFont?.1 != size {
            cairo_set_font_face(context, fonts.face(font))
            cairo_set_font_size(context, size)
            currentFont = (font, size)
        }
        setColor(color)
        cairo_move_to(context, x, baseline)
        cairo_show_text(context, text)
    }
}

/// Measures text for layout. Widths are taken once per string and font at a reference size and scaled:
/// with metric hinting off, advances are linear in the size, and the toy API neither kerns nor shapes, so a
/// line's width is the sum of its words' widths.
final class TextMeasurer {
    private static let referenceSize = 100.0
    private let surface: OpaquePointer
    private let canvas: Canvas
    private var widths: [LabelFont: [String: Double]] = [:]
    private var metrics: [LabelFont: FontMetrics] = [:]

    struct FontMetrics {
        /// Per point of font size.
        var ascent: Double, descent: Double, capHeight: Double
    }

    init(fonts: FontSet) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        canvas = Canvas(surface: surface, fonts: fonts)
        cairo_set_font_size(canvas.context, Self.referenceSize)
    }

    deinit { cairo_surface_destroy(surface) }

    private func select(_ font: LabelFont) {
        cairo_set_font_face(canvas.context, canvas.fonts.face(font))
        cairo_set_font_size(canvas.context, Self.referenceSize)
    }

    /// Advance width of `text` at font size 1.
    func width(_ text: String, _ font: LabelFont) -> Double {
        if let known = widths[font]?[text] { return known }
        select(font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(canvas.context, text, &extents)
        let width = extents.x_advance / Self.referenceSize
        if text.utf8.count <= 64 { widths[font, default: [:]][text] = width }
        return width
    }

    /// Ink extents of `text` at font size 1: (top above the baseline, bottom below it), both positive downwards
    /// from the top.
    func inkHeight(_ text: String, _ font: LabelFont) -> (above: Double, below: Double) {
        select(font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(canvas.context, text, &extents)
        return (-extents.y_bearing / Self.referenceSize, (extents.height + extents.y_bearing) / Self.referenceSize)
    }

    func metrics(_ font: LabelFont) -> FontMetrics {
        if let known = metrics[font] { return known }
        select(font)
        var extents = cairo_font_extents_t()
        cairo_font_extents(canvas.context, &extents)
        let cap = inkHeight("H", font).above
        let result = FontMetrics(
            ascent: extents.ascent / Self.referenceSize, descent: extents.descent / Self.referenceSize, capHeight: cap)
        metrics[font] = result
        return result
    }

    /// Characters of `text` the font has no glyph for (they would print as empty boxes), without repeats.
    func missingCharacters(_ text: String, _ font: LabelFont) -> [Character] {
        select(font)
        guard let scaled = cairo_get_scaled_font(canvas.context) else { return [] }
        var missing: [Character] = []
        for character in text where !character.isWhitespace && !missing.contains(character) {
            var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
            var count: Int32 = 0
            let string = String(character)
            let status = cairo_scaled_font_text_to_glyphs(
                scaled, 0, 0, string, Int32(string.utf8.count), &glyphs, &count, nil, nil, nil)
            defer { if let glyphs { cairo_glyph_free(glyphs) } }
            guard status == CAIRO_STATUS_SUCCESS, let glyphs else { continue }
            for index in 0..<Int(count) where glyphs[index].index == 0 {
                // A combining mark without a glyph of its own still prints if DejaVu composes it; count the
                // character as missing only when its first scalar has no glyph.
                missing.append(character)
                break
            }
        }
        return missing
    }
}

/// A rectangle in points.
struct Rect: Sendable, Hashable {
    var x: Double, y: Double, width: Double, height: Double

    var maxX: Double { x + width }
    var maxY: Double { y + height }

    func insetBy(_ dx: Double, _ dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
    func intersects(_ other: Rect) -> Bool { x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY }
}

/// Millimetres to points.
@inline(__always) func mm(_ value: Double) -> Double { value * 72 / 25.4 }
/// Points to millimetres.
@inline(__always) func toMM(_ points: Double) -> Double { points * 25.4 / 72 }

/// Where cairo's stream-writing surfaces (PDF, SVG, PNG) put their bytes: an atomically replaced file, with the
/// first error kept so the caller can report it (cairo only says "write error").
final class FileSink {
    let file: AtomicFileWriter
    private(set) var failure: String?

    init(file: AtomicFileWriter) { self.file = file }

    func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        do {
            try file.write(buffer)
            return true
        } catch {
            failure = error.reason
            return false
        }
    }

    /// cairo's write callback; `closure` is an unretained `FileSink`.
    static let callback: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<FileSink>.fromOpaque(closure).takeUnretainedValue()
        guard length == 0 || data != nil else { return CAIRO_STATUS_WRITE_ERROR }
        let ok = length == 0 || sink.write(UnsafeRawBufferPointer(start: data, count: Int(length)))
        return ok ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }
}

/// Collects bytes cairo writes (PNG encoding) in memory.
final class MemorySink {
    var bytes: [UInt8] = []

    static let callback: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<MemorySink>.fromOpaque(closure).takeUnretainedValue()
        if length > 0, let data { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
        return CAIRO_STATUS_SUCCESS
    }
}

extension cairo_status_t {
    var message: String { String(cString: cairo_status_to_string(self)) }
}
