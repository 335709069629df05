import Foundation
import TransitModel

/// The stop map as SVG: the stop at the centre, the boarding stops within the radius with their codes, the
/// paths of the routes serving the stop in their colours (outlined, and labelled with their short names, never
/// colour alone), a scale bar and a north arrow. Under the map, the same content as a text list; `<title>` and
/// `<desc>` carry it for screen readers.
public enum StopMapSVG {
    /// The map's square drawing area, in pixels.
    public static let mapSize = 800.0

    /// The projection the map uses: the stop at the centre of the drawing area, the radius reaching 85% of the
    /// way to the edge.
    public static func projection(for map: StopMap) -> MapProjection {
        let radius = Double(max(map.radiusMeters, 50))
        return MapProjection(
            center: map.center, scale: (mapSize / 2) * 0.85 / radius, originX: mapSize / 2, originY: mapSize / 2)
    }

    /// The lines of the text equivalent, in the order the picture's legend shows them.
    public static func textLines(
        _ map: StopMap, language: Language, conventions: PassengerLocale = .standard
    ) -> [String] {
        let locale = conventions.speaking(language)
        let say = { (message: Message) in message.text(language) }
        var lines = [say(.routes) + ":"]
        if map.lines.isEmpty { lines.append("  " + say(.noRoutesDrawn)) }
        // Each route once, with where its lines go; a feed without shapes says so once, not per route.
        var routes: [(route: RouteInfo, destinations: [String], fromShape: Bool)] = []
        for line in map.lines {
            let destination = line.headsign ?? line.route.longName ?? line.route.label
            let same = { (entry: (route: RouteInfo, destinations: [String], fromShape: Bool)) in
                entry.route.id == line.route.id && entry.route.feedID == line.route.feedID
            }
            if let at = routes.firstIndex(where: same) {
                if !routes[at].destinations.contains(destination) { routes[at].destinations.append(destination) }
                routes[at].fromShape = routes[at].fromShape && line.fromShape
            } else {
                routes.append((line.route, [destination], line.fromShape))
            }
        }
        let noShapes = routes.count > 1 && routes.allSatisfy { !$0.fromShape }
        for entry in routes {
            let towards = entry.destinations.joined(separator: " / ")
            var text = "  " + say(.routeLineTowards(route: entry.route.label, headsign: towards))
            if !entry.fromShape && !noShapes { text += " (" + say(.drawnStopToStop) + ")" }
            lines.append(text)
        }
        if noShapes { lines.append("  (" + say(.drawnStopToStop) + ")") }
        lines.append(locale.nearbyHeading(meters: map.radiusMeters) + ":")
        if map.nearby.isEmpty { lines.append("  " + locale.noNearbyStops(meters: map.radiusMeters)) }
        for near in map.nearby {
            let code = near.stop.code.map { " [\($0)]" } ?? ""
            let routes = near.routes.isEmpty ? "" : " — " + near.routes.joined(separator: ", ")
            let distance = locale.nearbyDistance(meters: near.distanceMeters, direction: near.direction)
            lines.append("  \(near.stop.name)\(code), \(distance)\(routes)")
        }
        return lines
    }

    /// The picture; with `legend` false, only the map (the stop page lists the routes and nearby stops in its own
    /// text, readable on a phone); `<title>` and `<desc>` are the same either way.
    /// `conventions`: the passenger locale, whose units the scale bar and the distances are in.
    public static func render(
        _ map: StopMap, language: Language, legend: Bool = true, conventions: PassengerLocale = .standard
    ) -> String {
        let say = { (message: Message) in message.text(language) }
        let projection = projection(for: map)
        let list = textLines(map, language: language, conventions: conventions)
        let legendHeight = legend ? 24.0 * Double(list.count) + 24 : 0
        var svg = SVGWriter(width: mapSize, height: mapSize + legendHeight)
        svg.raw(
            "<rect x=\"0\" y=\"0\" width=\"\(SVGText.number(mapSize))\" height=\"\(SVGText.number(mapSize))\" fill=\"#F4F1EA\"/>\n"
        )
        // The walking radius.
        let radiusPixels = Double(map.radiusMeters) * projection.scale
        svg.raw(
            "<circle cx=\"\(SVGText.number(mapSize / 2))\" cy=\"\(SVGText.number(mapSize / 2))\" r=\"\(SVGText.number(radiusPixels))\" fill=\"none\" stroke=\"#9E9E9E\" stroke-width=\"1.5\" stroke-dasharray=\"6 6\"/>\n"
        )

        // Route lines: all outlines first, then the colours, so crossings stay readable.
        let margin = 20.0
        var projected: [(line: RouteLine, pieces: [[(x: Double, y: Double)]])] = []
        for line in map.lines {
            let points = line.points.map(projection.project)
            let pieces = clipPolyline(
                points, minX: -margin, minY: -margin, maxX: mapSize + margin, maxY: mapSize + margin)
            projected.append((line, pieces))
        }
        svg.raw(
            "<clipPath id=\"map-area\"><rect x=\"0\" y=\"0\" width=\"\(SVGText.number(mapSize))\" height=\"\(SVGText.number(mapSize))\"/></clipPath>\n<g clip-path=\"url(#map-area)\">\n"
        )
        svg.raw("<g class=\"route-outlines\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        for (line, pieces) in projected {
            let colors = RouteColors(line.route)
            for piece in pieces {
                svg.raw(
                    "<polyline points=\"\(SVGWriter.points(piece))\" stroke=\"\(colors.outline)\" stroke-width=\"9\"/>\n"
                )
            }
        }
        svg.raw("</g>\n<g class=\"routes\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        for (line, pieces) in projected {
            let colors = RouteColors(line.route)
            let dash = line.fromShape ? "" : " stroke-dasharray=\"14 6\""
            for piece in pieces {
                svg.raw(
                    "<polyline points=\"\(SVGWriter.points(piece))\" stroke=\"\(colors.line)\" stroke-width=\"5\"\(dash)><title>\(SVGText.escape(say(.routeLineTowards(route: line.route.label, headsign: line.headsign ?? "?"))))</title></polyline>\n"
                )
            }
        }
        svg.raw("</g>\n</g>\n")

        // Nearby stops with their codes.
        svg.raw("<g class=\"nearby-stops\">\n")
        for near in map.nearby {
            guard let coordinate = near.stop.coordinate else { continue }
            let p = projection.project(coordinate)
            svg.raw(
                "<circle cx=\"\(SVGText.number(p.x))\" cy=\"\(SVGText.number(p.y))\" r=\"6\" fill=\"#FFFFFF\" stroke=\"#263238\" stroke-width=\"2.5\"/>\n"
            )
            svg.text(
                near.stop.code ?? near.stop.name, x: p.x + 9, y: p.y - 7, size: 13, fill: "#263238", halo: true,
                maxLength: 24)
        }
        svg.raw("</g>\n")

        // Route badges: where each line is about half the radius from the stop (or its nearest point).
        var placed: [(x: Double, y: Double)] = []
        svg.raw("<g class=\"route-labels\">\n")
        let middle = mapSize / 2
        let target = radiusPixels * 0.55
        func offTarget(_ p: (x: Double, y: Double)) -> Double {
            let distance: Double = hypot(p.x - middle, p.y - middle)
            return abs(distance - target)
        }
        func isInside(_ p: (x: Double, y: Double)) -> Bool {
            let low = 30.0, high: Double = mapSize - 30
            return p.x > low && p.x < high && p.y > low && p.y < high
        }
        func isFree(_ p: (x: Double, y: Double)) -> Bool {
            placed.allSatisfy { (q: (x: Double, y: Double)) -> Bool in hypot(q.x - p.x, q.y - p.y) > 34 }
        }
        for (line, pieces) in projected {
            let candidates: [(x: Double, y: Double)] = pieces.flatMap { $0 }.filter(isInside)
            guard !candidates.isEmpty else { continue }
            let ranked = candidates.sorted { offTarget($0) < offTarget($1) }
            let spot = ranked.prefix(40).first(where: isFree) ?? ranked[0]
            placed.append(spot)
            svg.badge(line.route, x: spot.x, y: spot.y)
        }
        svg.raw("</g>\n")

        // The stop itself, at the centre.
        let c = mapSize / 2
        svg.raw(
            "<g class=\"this-stop\"><circle cx=\"\(SVGText.number(c))\" cy=\"\(SVGText.number(c))\" r=\"13\" fill=\"#D50000\" stroke=\"#FFFFFF\" stroke-width=\"4\"/><circle cx=\"\(SVGText.number(c))\" cy=\"\(SVGText.number(c))\" r=\"4\" fill=\"#FFFFFF\"/></g>\n"
        )
        let stopLabel = map.stop.name + (map.stop.code.map { " [\($0)]" } ?? "")
        // At most 40 characters of the name under the dot (an 800-pixel map holds about 80 at this size).
        let drawnName = map.stop.name.count > 40 ? String(map.stop.name.prefix(39)) + "…" : map.stop.name
        svg.text(
            drawnName + (map.stop.code.map { " [\($0)]" } ?? ""), x: c, y: c + 34, size: 17, anchor: "middle",
            weight: "bold", halo: true, maxLength: 60)

        drawNorthArrow(&svg, x: mapSize - 44, y: 56, label: say(.north))
        drawScaleBar(
            &svg, scale: projection.scale, x: 24, y: mapSize - 28, maxWidth: mapSize / 4,
            locale: conventions.speaking(language))

        // The text equivalent, visible under the map.
        if legend {
            svg.raw("<g class=\"legend\">\n")
            var y = mapSize + 28
            for line in list {
                svg.text(line, x: 20, y: y, size: 15, weight: line.hasPrefix("  ") ? nil : "bold")
                y += 24
            }
            svg.raw("</g>\n")
        }

        let title = say(.stopMapTitle(stop: stopLabel))
        let description =
            say(
                .stopMapDescription(
                    stop: stopLabel, routes: map.lines.count, stops: map.nearby.count,
                    within: conventions.distance(meters: map.radiusMeters)))
            + " " + list.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        return svg.document(title: title, description: description, language: language)
    }

    static func drawNorthArrow(_ svg: inout SVGWriter, x: Double, y: Double, label: String) {
        svg.raw(
            "<g class=\"north-arrow\"><circle cx=\"\(SVGText.number(x))\" cy=\"\(SVGText.number(y))\" r=\"26\" fill=\"#FFFFFF\" stroke=\"#263238\" stroke-width=\"1.5\"/>"
                + "<path d=\"M \(SVGText.number(x)) \(SVGText.number(y - 20)) L \(SVGText.number(x + 9)) \(SVGText.number(y + 10)) L \(SVGText.number(x)) \(SVGText.number(y + 4)) L \(SVGText.number(x - 9)) \(SVGText.number(y + 10)) Z\" fill=\"#263238\"/></g>\n"
        )
        svg.text(label, x: x, y: y + 24 + 20, size: 16, anchor: "middle", weight: "bold", halo: true)
    }

    /// A scale bar of a round length (10, 20, 50, 100, 200, 500 m, 1, 2, 5 km …; in feet and miles where the
    /// locale reads them: 50, 100, 200, 500, 1000 ft, ¼, ½, 1, 2, 5 mi …) no longer than `maxWidth`.
    static func drawScaleBar(
        _ svg: inout SVGWriter, scale: Double, x: Double, y: Double, maxWidth: Double,
        locale: PassengerLocale = .standard
    ) {
        let (length, label) =
            locale.units == .imperial
            ? scaleBarImperial(scale: scale, maxWidth: maxWidth, language: locale.language)
            : metricScaleBar(scale: scale, maxWidth: maxWidth)
        let width = length * scale
        svg.raw(
            "<g class=\"scale-bar\"><rect x=\"\(SVGText.number(x - 6))\" y=\"\(SVGText.number(y - 26))\" width=\"\(SVGText.number(width + 12))\" height=\"36\" fill=\"#FFFFFF\" fill-opacity=\"0.85\"/>"
                + "<path d=\"M \(SVGText.number(x)) \(SVGText.number(y - 6)) V \(SVGText.number(y)) H \(SVGText.number(x + width)) V \(SVGText.number(y - 6))\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2.5\"/></g>\n"
        )
        svg.text(label, x: x + width / 2, y: y - 10, size: 13, anchor: "middle")
    }

    static func metricScaleBar(scale: Double, maxWidth: Double) -> (meters: Double, label: String) {
        let meters = scaleBarMeters(scale: scale, maxWidth: maxWidth)
        return (Double(meters), meters >= 1000 ? "\(meters / 1000) km" : "\(meters) m")
    }

    /// The longest round length in feet or miles that fits, in metres, and its label ("500 ft", "0.5 mi").
    static func scaleBarImperial(
        scale: Double, maxWidth: Double, language: Language
    ) -> (meters: Double, label: String) {
        let foot = 0.3048, mile = 1609.344
        var best = (meters: 10 * foot, label: "10 ft")
        for feet in [10, 20, 50, 100, 200, 500, 1000] where Double(feet) * foot * scale <= maxWidth {
            best = (Double(feet) * foot, "\(feet) ft")
        }
        let decimal = language == .es ? "," : "."
        let miles: [(Double, String)] = [
            (0.25, "0\(decimal)25"), (0.5, "0\(decimal)5"), (1, "1"), (2, "2"), (5, "5"), (10, "10"), (20, "20"),
            (50, "50"),
        ]
        for (length, text) in miles where length * mile * scale <= maxWidth {
            best = (length * mile, "\(text) mi")
        }
        return best
    }

    static func scaleBarMeters(scale: Double, maxWidth: Double) -> Int {
        var best = 10
        for magnitude in [1, 10, 100, 1000, 10000, 100_000] {
            for step in [1, 2, 5] where Double(step * magnitude) * scale <= maxWidth {
                best = step * magnitude
            }
        }
        return best
    }
}

extension StopMap {
    /// The stop map as an SVG document (what `kiosk map` writes and the server can send).
    public func svg(language: Language) -> String { StopMapSVG.render(self, language: language) }
}

/// The stop map of `map` as SVG — the library call per picture for every surface.
public func stopMapSVG(
    for map: StopMap, language: Language, legend: Bool = true, conventions: PassengerLocale = .standard
) -> String {
    StopMapSVG.render(map, language: language, legend: legend, conventions: conventions)
}
