import Foundation
import TransitModel

/// A route on a map: every stop pattern's path in the route's colour (the main pattern of each direction thick
/// and opaque, variants thinner and lighter), every stop it serves as a dot (terminals larger), as many stop names
/// as fit without two labels overlapping (the viewer's stop and the terminals first, then spread evenly along the
/// line), the viewer's stop in red, a scale bar and a north arrow. Under the map, and in `<title>`/`<desc>`, the
/// same content as text.
public enum RouteMapSVG {
    public static let width = 800.0
    static let maxHeight = 1000.0
    static let minHeight = 420.0
    static let margin = 56.0
    static let labelSize = 13.0
    /// Width of a character at `labelSize`, generous for DejaVu Sans (capitals and wide letters included), so that
    /// estimated boxes never understate a drawn label.
    static let characterWidth = 0.64 * labelSize
    static let maxLabelCharacters = 28

    /// The projection and picture height that fit every path and stop with a margin (north up; the height follows
    /// the route's shape, between `minHeight` and `maxHeight`).
    public static func layout(for map: RouteMap) -> (projection: MapProjection, height: Double) {
        let all = map.lines.flatMap(\.points) + map.stops.map(\.coordinate)
        guard let first = all.first else {
            return (
                MapProjection(
                    center: Coordinate(latitude: 0, longitude: 0), scale: 1, originX: width / 2, originY: minHeight / 2),
                minHeight
            )
        }
        var minLat = first.latitude, maxLat = first.latitude, minLon = first.longitude, maxLon = first.longitude
        for p in all {
            minLat = min(minLat, p.latitude)
            maxLat = max(maxLat, p.latitude)
            minLon = min(minLon, p.longitude)
            maxLon = max(maxLon, p.longitude)
        }
        let center = Coordinate(latitude: (minLat + maxLat) / 2, longitude: (minLon + maxLon) / 2)
        let unit = MapProjection(center: center, scale: 1, originX: 0, originY: 0)
        let corner = unit.project(Coordinate(latitude: maxLat, longitude: maxLon))
        let halfWidth = max(abs(corner.x), 50), halfHeight = max(abs(corner.y), 50)  // metres
        let scale = min((width / 2 - margin) / halfWidth, (maxHeight / 2 - margin) / halfHeight)
        let height = min(maxHeight, max(minHeight, 2 * (halfHeight * scale + margin)))
        return (MapProjection(center: center, scale: scale, originX: width / 2, originY: height / 2), height)
    }

    /// A placed stop name: its text and the box it covers, in pixels.
    public struct Label: Equatable, Sendable {
        public var text: String
        public var x: Double
        public var y: Double
        public var anchor: String
        public var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)

        public static func == (a: Label, b: Label) -> Bool {
            a.text == b.text && a.x == b.x && a.y == b.y && a.anchor == b.anchor
        }

        func overlaps(_ other: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
            box.minX < other.maxX && other.minX < box.maxX && box.minY < other.maxY && other.minY < box.maxY
        }
    }

    /// The order stops are offered a label: the viewer's stop, the terminals, then main-pattern stops spread
    /// evenly (halving the gaps: 0, ½, ¼, ¾, …), then the variants' own stops.
    static func labelOrder(_ map: RouteMap) -> [Int] {
        let indexes = Array(map.stops.indices)
        func priority(_ i: Int) -> Int {
            let stop = map.stops[i]
            if map.highlighted.contains(stop.stop.id) { return 0 }
            if stop.terminal { return 1 }
            return stop.onMain ? 2 : 3
        }
        func spread(_ order: Int) -> Double {
            // Position in the van der Corput sequence of its order along the line: evenly spaced picks first.
            var n = order + 1, denominator = 1.0, value = 0.0
            while n > 0 {
                denominator *= 2
                value += Double(n % 2) / denominator
                n /= 2
            }
            return value
        }
        return indexes.sorted { a, b in
            let pa = priority(a), pb = priority(b)
            if pa != pb { return pa < pb }
            let sa = spread(map.stops[a].order), sb = spread(map.stops[b].order)
            if sa != sb { return sa < sb }
            return a < b
        }
    }

    /// Stop names placed greedily in `labelOrder`: each tries eight spots around its dot and takes the first whose
    /// box stays on the map and overlaps no other label and no other stop's dot; a stop with no free spot, or whose
    /// name is already drawn within 120 px (the other direction's stop across the street), is left unnamed on the
    /// map (every stop is in the text list).
    public static func labels(
        _ map: RouteMap, projection: MapProjection, height: Double
    ) -> [(stop: Int, label: Label)] {
        let points = map.stops.map { projection.project($0.coordinate) }
        let dot = 6.0
        var placed: [(stop: Int, label: Label)] = []
        // Dots in a coarse grid, so each candidate box only checks the dots near it.
        let cell = 40.0
        var grid: [Int: [Int]] = [:]
        func cellKey(_ x: Double, _ y: Double) -> Int {
            Int((y / cell).rounded(.down)) * 10_000 + Int((x / cell).rounded(.down))
        }
        for (i, p) in points.enumerated() { grid[cellKey(p.x, p.y), default: []].append(i) }
        // A name already drawn near by (the other direction's platform, a station's platforms) is not drawn again.
        var namedAt: [String: [(x: Double, y: Double)]] = [:]
        for i in labelOrder(map) {
            let p = points[i]
            let name = map.stops[i].stop.name
            if namedAt[name, default: []].contains(where: { hypot($0.x - p.x, $0.y - p.y) < 120 }) { continue }
            var text = name
            if text.count > maxLabelCharacters { text = String(text.prefix(maxLabelCharacters - 1)) + "…" }
            let w = Double(text.count) * characterWidth, h = labelSize * 1.25
            let gap = 8.0
            // (x, baseline y, anchor) for E, W, NE, NW, SE, SW, N, S.
            let spots: [(Double, Double, String)] = [
                (p.x + gap, p.y + labelSize * 0.35, "start"), (p.x - gap, p.y + labelSize * 0.35, "end"),
                (p.x + gap * 0.7, p.y - gap * 0.7, "start"), (p.x - gap * 0.7, p.y - gap * 0.7, "end"),
                (p.x + gap * 0.7, p.y + gap * 0.7 + labelSize * 0.8, "start"),
                (p.x - gap * 0.7, p.y + gap * 0.7 + labelSize * 0.8, "end"),
                (p.x, p.y - gap - 2, "middle"), (p.x, p.y + gap + labelSize, "middle"),
            ]
            for (x, y, anchor) in spots {
                let minX = anchor == "start" ? x : anchor == "end" ? x - w : x - w / 2
                let box = (minX: minX, minY: y - labelSize, maxX: minX + w, maxY: y - labelSize + h)
                guard box.minX >= 4, box.maxX <= width - 4, box.minY >= 4, box.maxY <= height - 4 else { continue }
                let label = Label(text: text, x: x, y: y, anchor: anchor, box: box)
                if placed.contains(where: { $0.label.overlaps(box) }) { continue }
                var hitsDot = false
                let cx0 = Int(((box.minX - dot) / cell).rounded(.down)),
                    cx1 = Int(((box.maxX + dot) / cell).rounded(.down))
                let cy0 = Int(((box.minY - dot) / cell).rounded(.down)),
                    cy1 = Int(((box.maxY + dot) / cell).rounded(.down))
                search: for cy in cy0...cy1 {
                    for cx in cx0...cx1 {
                        for j in grid[cy * 10_000 + cx] ?? [] where j != i {
                            let q = points[j]
                            if q.x + dot > box.minX && q.x - dot < box.maxX && q.y + dot > box.minY
                                && q.y - dot < box.maxY
                            {
                                hitsDot = true
                                break search
                            }
                        }
                    }
                }
                if hitsDot { continue }
                placed.append((i, label))
                namedAt[name, default: []].append(p)
                break
            }
        }
        return placed
    }

    /// The text equivalent: each path, then the stops of each main path in order (the viewer's stop marked).
    public static func textLines(_ map: RouteMap, language: Language) -> [String] {
        let say = { (message: Message) in message.text(language) }
        let browse = { (message: BrowseMessage) in message.text(language) }
        var lines: [String] = []
        if let viewer = map.viewer {
            let onRoute = map.stops.contains { map.highlighted.contains($0.stop.id) }
            lines.append(onRoute ? browse(.viewerStop(viewer.name)) : browse(.viewerNotOnRoute(viewer.name)))
        }
        // A feed without shapes says so once, not on every path.
        let noShapes = map.lines.count > 1 && map.lines.allSatisfy { !$0.fromShape }
        for line in map.lines {
            var text = say(.routeLineTowards(route: map.route.label, headsign: line.pattern.headsign)) + " — "
            text += line.pattern.main ? browse(.mainPath) : browse(.variantPath(trips: line.pattern.trips))
            if !line.fromShape && !noShapes { text += " (" + say(.drawnStopToStop) + ")" }
            lines.append(text)
        }
        if noShapes { lines.append("(" + say(.drawnStopToStop) + ")") }
        let names = Dictionary(map.stops.map { ($0.stop.id, $0.stop) }, uniquingKeysWith: { a, _ in a })
        for line in map.lines where line.pattern.main {
            lines.append(
                browse(
                    .stopsTowards(
                        direction: line.pattern.directionID, headsign: line.pattern.headsign,
                        stops: line.pattern.stopIDs.count)) + ":")
            for (number, id) in line.pattern.stopIDs.enumerated() {
                let stop = names[id]
                var text = "  \(number + 1). \(stop?.name ?? id)" + (stop?.code.map { " [\($0)]" } ?? "")
                if map.highlighted.contains(id) { text += " ◀ " + say(.youAreHere) }
                lines.append(text)
            }
        }
        return lines
    }

    /// The picture; with `legend` false, only the map (the route page lists the stops as text beside it).
    /// `conventions`: the passenger locale, whose units the scale bar is in.
    public static func render(
        _ map: RouteMap, language: Language, legend: Bool = true, conventions: PassengerLocale = .standard
    ) -> String {
        let browse = { (message: BrowseMessage) in message.text(language) }
        let (projection, mapHeight) = layout(for: map)
        let list = textLines(map, language: language)
        let drawnLegend = legend ? legendLines(list) : []
        let legendHeight = legend ? 22.0 * Double(drawnLegend.count) + 24 : 0
        var svg = SVGWriter(width: width, height: mapHeight + legendHeight)
        svg.raw(
            "<rect x=\"0\" y=\"0\" width=\"\(SVGText.number(width))\" height=\"\(SVGText.number(mapHeight))\" fill=\"#F4F1EA\"/>\n"
        )
        let colors = RouteColors(map.route)
        // Variants under the main paths, outlines under the colours.
        let ordered = map.lines.filter { !$0.pattern.main } + map.lines.filter(\.pattern.main)
        let projected = ordered.map { (line: $0, points: SVGWriter.points($0.points.map(projection.project))) }
        svg.raw("<g class=\"route-outlines\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        for (line, points) in projected {
            svg.raw(
                "<polyline points=\"\(points)\" stroke=\"\(colors.outline)\" stroke-width=\"\(line.pattern.main ? 11 : 7)\"/>\n"
            )
        }
        svg.raw("</g>\n<g class=\"route-paths\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        for (line, points) in projected {
            let say = Message.routeLineTowards(route: map.route.label, headsign: line.pattern.headsign).text(language)
            let kind = line.pattern.main ? browse(.mainPath) : browse(.variantPath(trips: line.pattern.trips))
            let dash = line.fromShape ? "" : " stroke-dasharray=\"14 6\""
            let style =
                line.pattern.main
                ? "stroke-width=\"6\"" : "stroke-width=\"3\" stroke-opacity=\"0.55\""
            svg.raw(
                "<polyline class=\"\(line.pattern.main ? "main" : "variant")\" points=\"\(points)\" stroke=\"\(colors.line)\" \(style)\(dash)><title>\(SVGText.escape(say + " — " + kind))</title></polyline>\n"
            )
        }
        svg.raw("</g>\n")

        // Stops: dots, terminals larger; the viewer's stop on top in red.
        svg.raw("<g class=\"stops\">\n")
        var viewerPoint: (x: Double, y: Double)?
        for stop in map.stops {
            let p = projection.project(stop.coordinate)
            if map.highlighted.contains(stop.stop.id) {
                viewerPoint = p
                continue
            }
            let r = stop.terminal ? 7.0 : 4.5
            svg.raw(
                "<circle cx=\"\(SVGText.number(p.x))\" cy=\"\(SVGText.number(p.y))\" r=\"\(SVGText.number(r))\" fill=\"#FFFFFF\" stroke=\"#263238\" stroke-width=\"\(stop.terminal ? 3 : 2)\"/>\n"
            )
        }
        svg.raw("</g>\n")
        if let p = viewerPoint {
            svg.raw(
                "<g class=\"this-stop\"><circle cx=\"\(SVGText.number(p.x))\" cy=\"\(SVGText.number(p.y))\" r=\"11\" fill=\"#D50000\" stroke=\"#FFFFFF\" stroke-width=\"4\"/><circle cx=\"\(SVGText.number(p.x))\" cy=\"\(SVGText.number(p.y))\" r=\"3.5\" fill=\"#FFFFFF\"/></g>\n"
            )
        }

        svg.raw("<g class=\"stop-names\">\n")
        for (index, label) in labels(map, projection: projection, height: mapHeight) {
            let viewer = map.highlighted.contains(map.stops[index].stop.id)
            let terminal = map.stops[index].terminal
            svg.text(
                label.text, x: label.x, y: label.y, size: labelSize, anchor: label.anchor,
                weight: viewer || terminal ? "bold" : nil, fill: viewer ? "#B00000" : "#1B1B1B", halo: true,
                maxLength: maxLabelCharacters)
        }
        svg.raw("</g>\n")

        // The route's badge near the start of the first main path.
        if let main = map.lines.first(where: \.pattern.main), let start = main.points.first {
            let p = projection.project(start)
            svg.badge(map.route, x: min(max(p.x, 40), width - 40), y: min(max(p.y - 26, 20), mapHeight - 20))
        }
        StopMapSVG.drawNorthArrow(&svg, x: width - 44, y: 56, label: Message.north.text(language))
        StopMapSVG.drawScaleBar(
            &svg, scale: projection.scale, x: 24, y: mapHeight - 24, maxWidth: width / 4,
            locale: conventions.speaking(language))

        if legend {
            svg.raw("<g class=\"legend\">\n")
            var y = mapHeight + 26
            for line in drawnLegend {
                svg.text(line.text, x: 20, y: y, size: Self.legendSize, weight: line.bold ? "bold" : nil)
                y += 22
            }
            svg.raw("</g>\n")
        }
        let label = map.route.label + (map.route.shortName != nil ? map.route.longName.map { " " + $0 } ?? "" : "")
        let description =
            browse(.routeMapDescription(route: map.route.label, paths: map.lines.count, stops: map.stops.count)) + " "
            + list.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        return svg.document(title: browse(.routeMapTitle(route: label)), description: description, language: language)
    }
}

extension RouteMapSVG {
    static let legendSize = 14.0

    /// The legend's lines wrapped to the picture's width (at the renderer's generous 0.64 em a character, 20 px
    /// margins), a continuation indented under its line; headings (lines not indented) bold.
    static func legendLines(_ list: [String]) -> [(text: String, bold: Bool)] {
        let limit = Int((width - 40) / (0.64 * legendSize))
        var lines: [(String, Bool)] = []
        for line in list {
            let indent = String(line.prefix { $0 == " " })
            var prefix = indent
            var words = ""
            for word in line.dropFirst(indent.count).split(separator: " ") {
                if words.isEmpty {
                    words = String(word)
                } else if prefix.count + words.count + 1 + word.count <= limit {
                    words += " " + word
                } else {
                    lines.append((String((prefix + words).prefix(limit)), indent.isEmpty))
                    prefix = indent + "  "
                    words = String(word)
                }
            }
            lines.append((String((prefix + words).prefix(limit)), indent.isEmpty))
        }
        return lines
    }
}

/// The route map of `map` as SVG — the library call every surface uses (`/api/v1/routes/{id}/map.svg`).
public func routeMapSVG(
    for map: RouteMap, language: Language, legend: Bool = true, conventions: PassengerLocale = .standard
) -> String {
    RouteMapSVG.render(map, language: language, legend: legend, conventions: conventions)
}
