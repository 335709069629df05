import Foundation
import TransitModel

/// Building blocks of the SVG pictures: escaping, numbers, colours, a projection. Feed text is untrusted: it is
/// escaped as XML and stripped of characters XML 1.0 cannot carry, so a name can never close an element, and of
/// bidirectional embeddings, overrides and isolates, so an unterminated right-to-left override in a name cannot
/// reorder the code or the words drawn after it (right-to-left letters keep their natural direction).
public enum SVGText {
    /// `text` for an SVG attribute or element body: control characters and bidirectional formatting characters
    /// (U+202A–U+202E, U+2066–U+2069) dropped, markup characters escaped, at most `maxLength` characters.
    public static func escape(_ text: String, maxLength: Int = 120) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= maxLength {
                out.append("…")
                break
            }
            switch scalar {
            case "&": out.append("&amp;")
            case "<": out.append("&lt;")
            case ">": out.append("&gt;")
            case "\"": out.append("&quot;")
            case "'": out.append("&apos;")
            case "\t", "\n", "\r": out.append(" ")
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFE || v == 0xFFFF || (0xD800...0xDFFF).contains(v)
                    || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// A coordinate with one decimal (a tenth of a pixel), without a trailing ".0".
    public static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}

/// The colours of a route on a picture: its feed colour (a default from a fixed palette when the feed has none),
/// the text colour on it, and an outline that keeps the line visible on a white or a dark background.
struct RouteColors {
    var line: String
    var text: String
    var outline: String

    static let palette = ["1565C0", "C62828", "2E7D32", "6A1B9A", "EF6C00", "00838F", "AD1457", "4E342E"]

    init(_ route: RouteInfo) {
        let base: String
        if let color = route.color, color.count == 6, color.allSatisfy(\.isHexDigit) {
            base = color.uppercased()
        } else {
            var hash: UInt32 = 2_166_136_261
            for byte in route.id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            base = RouteColors.palette[Int(hash % UInt32(RouteColors.palette.count))]
        }
        let luminance = RouteColors.luminance(base)
        line = "#" + base
        outline = luminance > 0.5 ? "#202020" : "#FFFFFF"
        if let text = route.textColor, text.count == 6, text.allSatisfy(\.isHexDigit),
            abs(RouteColors.luminance(text) - luminance) > 0.3
        {
            self.text = "#" + text.uppercased()
        } else {
            self.text = luminance > 0.45 ? "#000000" : "#FFFFFF"
        }
    }

    /// Relative luminance (WCAG) of six hex digits, 0 black … 1 white.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex, radix: 16) ?? 0
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }
}

/// Equirectangular projection around a centre: exact enough over the few kilometres a stop or journey map
/// covers, and cheap. North is up; `scale` is pixels per metre; the centre lands on (`originX`, `originY`).
public struct MapProjection: Sendable, Equatable {
    public var center: Coordinate
    public var scale: Double
    public var originX: Double
    public var originY: Double

    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    public init(center: Coordinate, scale: Double, originX: Double, originY: Double) {
        self.center = center
        self.scale = scale
        self.originX = originX
        self.originY = originY
    }

    /// Where `point` lands on the picture, in pixels.
    public func project(_ point: Coordinate) -> (x: Double, y: Double) {
        let cosLat = cos(center.latitude * .pi / 180)
        let east = (point.longitude - center.longitude) * MapProjection.metresPerDegree * cosLat
        let north = (point.latitude - center.latitude) * MapProjection.metresPerDegree
        return (originX + east * scale, originY - north * scale)
    }
}

/// An SVG document being written: elements are appended as text (no DOM: a map is drawn in well under a
/// millisecond, so the server can draw one per request).
struct SVGWriter {
    var body = ""
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
        body.reserveCapacity(32 * 1024)
    }

    mutating func raw(_ text: String) { body += text }

    /// A polyline's points attribute.
    static func points(_ points: [(x: Double, y: Double)]) -> String {
        var out = ""
        out.reserveCapacity(points.count * 12)
        for (i, p) in points.enumerated() {
            if i > 0 { out += " " }
            out += SVGText.number(p.x) + "," + SVGText.number(p.y)
        }
        return out
    }

    /// A line of text; feed text longer than `maxLength` characters is cut with an ellipsis (the whole text is in
    /// the picture's `<title>`/`<desc>`), so a name of ten thousand characters cannot run across the picture.
    mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 14, anchor: String = "start", weight: String? = nil,
        fill: String = "#000000", halo: Bool = false, maxLength: Int = 120
    ) {
        body += "<text x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y))\" font-size=\"\(SVGText.number(size))\""
        if anchor != "start" { body += " text-anchor=\"\(anchor)\"" }
        if let weight { body += " font-weight=\"\(weight)\"" }
        if halo { body += " stroke=\"#FFFFFF\" stroke-width=\"3\" paint-order=\"stroke\" stroke-linejoin=\"round\"" }
        body += " fill=\"\(fill)\">\(SVGText.escape(content, maxLength: maxLength))</text>\n"
    }

    /// A route's short-name badge: a rounded box in the route colour with an outline, the name in the text colour.
    mutating func badge(_ route: RouteInfo, x: Double, y: Double, size: Double = 14) {
        let colors = RouteColors(route)
        let label = SVGText.escape(route.label, maxLength: 12)
        let labelLength = min(route.label.count, 12)
        let width = Double(max(2, labelLength)) * size * 0.62 + size * 0.8
        let height = size * 1.45
        body +=
            "<g class=\"badge\"><rect x=\"\(SVGText.number(x - width / 2))\" y=\"\(SVGText.number(y - height / 2))\" width=\"\(SVGText.number(width))\" height=\"\(SVGText.number(height))\" rx=\"\(SVGText.number(height / 4))\" fill=\"\(colors.line)\" stroke=\"\(colors.outline)\" stroke-width=\"1.5\"/>"
        body +=
            "<text x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y + size * 0.36))\" font-size=\"\(SVGText.number(size))\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"\(colors.text)\">\(label)</text></g>\n"
    }

    /// The whole document: `title` and `desc` first (what screen readers announce), then the drawing.
    func document(title: String, description: String, language: Language) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(SVGText.number(width))" height="\(SVGText.number(height))" \
        viewBox="0 0 \(SVGText.number(width)) \(SVGText.number(height))" role="img" aria-labelledby="title desc" \
        xml:lang="\(language.rawValue)" font-family="DejaVu Sans, Verdana, sans-serif">
        <title id="title">\(SVGText.escape(title, maxLength: 300))</title>
        <desc id="desc">\(SVGText.escape(description, maxLength: 20_000))</desc>
        <rect width="100%" height="100%" fill="#FFFFFF"/>

        """ + body + "</svg>\n"
    }
}

/// Clips a projected polyline to a rectangle (with a margin), keeping the pieces inside: shapes run for
/// kilometres beyond a stop map, and drawing them whole would only make the file bigger.
func clipPolyline(
    _ points: [(x: Double, y: Double)], minX: Double, minY: Double, maxX: Double, maxY: Double
) -> [[(x: Double, y: Double)]] {
    func inside(_ p: (x: Double, y: Double)) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    var pieces: [[(x: Double, y: Double)]] = []
    var current: [(x: Double, y: Double)] = []
    for (i, p) in points.enumerated() {
        if inside(p) {
            if current.isEmpty, i > 0 { current.append(points[i - 1]) }  // enter from outside: keep the segment
            current.append(p)
        } else if !current.isEmpty {
            current.append(p)  // leave: keep the segment that crosses the edge
            pieces.append(current)
            current = []
        } else if i > 0 {
            // Both ends outside: the segment may still cross the rectangle (a long straight stop-to-stop line).
            let a = points[i - 1]
            if segmentCrosses(a, p, minX: minX, minY: minY, maxX: maxX, maxY: maxY) { pieces.append([a, p]) }
        }
    }
    if current.count >= 2 { pieces.append(current) }
    return pieces.filter { $0.count >= 2 }
}

private func segmentCrosses(
    _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), minX: Double, minY: Double, maxX: Double, maxY: Double
) -> Bool {
    // Liang–Barsky: is any part of the segment inside the rectangle?
    var t0 = 0.0, t1 = 1.0
    let dx = b.x - a.x, dy = b.y - a.y
    for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
        if p == 0 {
            if q < 0 { return false }
        } else {
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return false }
        }
    }
    return true
}
