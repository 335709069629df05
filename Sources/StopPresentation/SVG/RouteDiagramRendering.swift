import Foundation
import TransitModel

/// A route's line diagram (strip map): one direction's stops top to bottom in travel order, the viewer's stop
/// highlighted, and at each transfer stop the badges of the other routes. As SVG, and as text for the terminal.
public enum RouteDiagramRendering {
    /// The text form: a vertical list with marks (┬ first, ├ on the way, ┴ last, ● the viewer's stop), each
    /// stop with its code and the routes to change to. Feed text is made safe for a terminal.
    public static func textLines(_ diagram: RouteDiagram, language: Language) -> [String] {
        let say = { (message: Message) in message.text(language) }
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 50) }
        var lines = [
            say(.routeDiagramTitle(route: clean(diagram.route.label), headsign: clean(diagram.headsign)))
        ]
        for (i, stop) in diagram.stops.enumerated() {
            let mark: String
            if i == diagram.highlighted {
                mark = "●"
            } else if i == 0 {
                mark = "┬"
            } else if i == diagram.stops.count - 1 {
                mark = "┴"
            } else {
                mark = "├"
            }
            var line = "  \(mark) \(clean(stop.stop.name))"
            if let code = stop.stop.code { line += " [\(TerminalText.sanitize(code, maxLength: 20))]" }
            if i == diagram.highlighted { line += "  ◀ " + say(.youAreHere) }
            if !stop.transfers.isEmpty {
                line +=
                    "  ⇄ "
                    + stop.transfers.map { TerminalText.sanitize($0.label, maxLength: 12) }.joined(separator: " ")
            }
            lines.append(line)
        }
        return lines
    }

    public static func text(_ diagram: RouteDiagram, language: Language) -> String {
        textLines(diagram, language: language).joined(separator: "\n")
    }

    /// The SVG form: the route's colour as a thick vertical line, a circle per stop (a larger ring for the
    /// viewer's stop), names and codes to the right, transfer badges after them.
    public static func svg(_ diagram: RouteDiagram, language: Language) -> String {
        let say = { (message: Message) in message.text(language) }
        let rowHeight = 40.0, top = 96.0, lineX = 70.0
        let width = 760.0
        let height = top + rowHeight * Double(max(diagram.stops.count, 1)) + 30
        var svg = SVGWriter(width: width, height: height)
        let colors = RouteColors(diagram.route)
        svg.badge(diagram.route, x: 50, y: 40, size: 20)
        svg.text(say(.towards(diagram.headsign)), x: 100, y: 47, size: 20, weight: "bold", maxLength: 54)
        if diagram.stops.count >= 2 {
            let y0 = top, y1 = top + rowHeight * Double(diagram.stops.count - 1)
            svg.raw(
                "<line x1=\"\(SVGText.number(lineX))\" y1=\"\(SVGText.number(y0))\" x2=\"\(SVGText.number(lineX))\" y2=\"\(SVGText.number(y1))\" stroke=\"\(colors.outline)\" stroke-width=\"14\" stroke-linecap=\"round\"/>\n"
                    + "<line x1=\"\(SVGText.number(lineX))\" y1=\"\(SVGText.number(y0))\" x2=\"\(SVGText.number(lineX))\" y2=\"\(SVGText.number(y1))\" stroke=\"\(colors.line)\" stroke-width=\"10\" stroke-linecap=\"round\"/>\n"
            )
        }
        for (i, stop) in diagram.stops.enumerated() {
            let y = top + rowHeight * Double(i)
            let here = i == diagram.highlighted
            if here {
                svg.raw(
                    "<rect class=\"you-are-here\" x=\"\(SVGText.number(lineX - 26))\" y=\"\(SVGText.number(y - rowHeight / 2 + 2))\" width=\"\(SVGText.number(width - lineX + 16))\" height=\"\(SVGText.number(rowHeight - 4))\" rx=\"8\" fill=\"#FFF3C4\" stroke=\"#D50000\" stroke-width=\"2\"/>\n"
                )
            }
            let radius = here ? 11.0 : (stop.transfers.isEmpty ? 6.0 : 8.0)
            svg.raw(
                "<circle cx=\"\(SVGText.number(lineX))\" cy=\"\(SVGText.number(y))\" r=\"\(SVGText.number(radius))\" fill=\"\(here ? "#D50000" : "#FFFFFF")\" stroke=\"#000000\" stroke-width=\"\(stop.transfers.isEmpty ? 2 : 3)\"/>\n"
            )
            // The row has room for about 40 characters of name before "◀ you are here" and the transfers.
            var name = stop.stop.name.count > 40 ? String(stop.stop.name.prefix(39)) + "…" : stop.stop.name
            if let code = stop.stop.code { name += " [\(code)]" }
            svg.text(name, x: lineX + 26, y: y + 5, size: 16, weight: here ? "bold" : nil, maxLength: 56)
            var x = lineX + 26 + min(Double(name.count), 40) * 9.2 + 18
            if here {
                svg.text("◀ " + say(.youAreHere), x: x, y: y + 5, size: 14, weight: "bold", fill: "#B71C1C")
                x += Double(say(.youAreHere).count) * 8.4 + 30
            }
            for route in stop.transfers.prefix(8) where x < width - 30 {
                svg.badge(route, x: x + 14, y: y, size: 13)
                x += Double(min(route.label.count, 12)) * 8.1 + 22
            }
        }
        let title = say(.routeDiagramTitle(route: diagram.route.label, headsign: diagram.headsign))
        let description = textLines(diagram, language: language).dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        return svg.document(title: title, description: description, language: language)
    }
}

extension RouteDiagram {
    public func svg(language: Language) -> String { RouteDiagramRendering.svg(self, language: language) }
}

/// The route line diagram as SVG — the library call per picture for every surface.
public func routeDiagramSVG(for diagram: RouteDiagram, language: Language) -> String {
    RouteDiagramRendering.svg(diagram, language: language)
}
