import Foundation
import TransitModel

/// A journey option on a map: rides along their shapes in the route's colour, walks dashed, and the points
/// numbered in the order of the text plan's lines (board, get off, walk to …), listed under the map.
public enum JourneyMapSVG {
    public static let mapSize = 800.0

    /// One numbered point: the text plan line it stands for and where it is.
    public struct Point: Equatable, Sendable {
        public var number: Int
        public var text: String
        public var coordinate: Coordinate?
    }

    /// The numbered points in text plan order: a ride gives two (where to board, where to get off), a walk one
    /// (where it ends).
    public static func points(
        _ map: JourneyMap, language: Language, conventions: PassengerLocale = .standard
    ) -> [Point] {
        let zone = TimeZone(identifier: map.plan.timeZone) ?? .current
        let clock = { (date: Date) in conventions.speaking(language).clock(date, in: zone) }
        let say = { (message: Message) in message.text(language) }
        let code = { (stop: StopInfo) in stop.code.map { " [\($0)]" } ?? "" }
        var result: [Point] = []
        for leg in map.legs {
            let step = leg.step
            switch step.kind {
            case .walk:
                result.append(
                    Point(
                        number: result.count + 1,
                        text: "\(clock(step.departure))  "
                            + say(.walkTo(minutes: step.minutes, stop: step.to.name)) + code(step.to),
                        coordinate: step.to.coordinate))
            case .ride:
                var board =
                    "\(clock(step.departure))  "
                    + say(
                        .take(
                            route: step.routeAndTripNumber ?? "?", headsign: step.shownDestination,
                            stop: step.from.name + code(step.from)))
                if !leg.fromShape { board += " (" + say(.drawnStopToStop) + ")" }
                result.append(Point(number: result.count + 1, text: board, coordinate: step.from.coordinate))
                result.append(
                    Point(
                        number: result.count + 1,
                        text: "\(clock(step.arrival))  "
                            + say(.getOffAt(stop: step.to.name + code(step.to), stops: step.stops ?? 0)),
                        coordinate: step.to.coordinate))
            }
        }
        return result
    }

    /// The projection that fits every leg into the drawing area with a margin.
    public static func projection(for map: JourneyMap) -> MapProjection {
        let all = map.legs.flatMap(\.points) + [map.plan.from.coordinate, map.plan.to.coordinate].compactMap { $0 }
        guard let first = all.first else {
            return MapProjection(
                center: Coordinate(latitude: 0, longitude: 0), scale: 1, originX: mapSize / 2, originY: mapSize / 2)
        }
        var minLat = first.latitude, maxLat = first.latitude, minLon = first.longitude, maxLon = first.longitude
        for p in all {
            minLat = min(minLat, p.latitude); maxLat = max(maxLat, p.latitude)
            minLon = min(minLon, p.longitude); maxLon = max(maxLon, p.longitude)
        }
        let center = Coordinate(latitude: (minLat + maxLat) / 2, longitude: (minLon + maxLon) / 2)
        let unit = MapProjection(center: center, scale: 1, originX: 0, originY: 0)
        let corner = unit.project(Coordinate(latitude: maxLat, longitude: maxLon))
        let extent = max(abs(corner.x), abs(corner.y), 100)  // metres from the centre to the farthest side
        return MapProjection(
            center: center, scale: (mapSize / 2 - 60) / extent, originX: mapSize / 2, originY: mapSize / 2)
    }

    /// The picture; with `legend` false, only the map (a page lists the numbered points in its own text under
    /// it, where a phone shows them at a readable size); `<title>` and `<desc>` are the same either way.
    /// `conventions`: the passenger locale, whose clock the times and whose units the scale bar are in.
    public static func render(
        _ map: JourneyMap, language: Language, legend showLegend: Bool = true,
        conventions: PassengerLocale = .standard
    ) -> String {
        let locale = conventions.speaking(language)
        let say = { (message: Message) in message.text(language) }
        let projection = projection(for: map)
        let numbered = points(map, language: language, conventions: conventions)
        let legend = numbered.map { "\($0.number). \($0.text)" }
        let legendHeight = showLegend ? 24.0 * Double(legend.count + 1) + 24 : 0
        var svg = SVGWriter(width: mapSize, height: mapSize + legendHeight)
        svg.raw(
            "<rect x=\"0\" y=\"0\" width=\"\(SVGText.number(mapSize))\" height=\"\(SVGText.number(mapSize))\" fill=\"#F4F1EA\"/>\n"
        )
        svg.raw("<g class=\"legs\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        for leg in map.legs where leg.points.count >= 2 {
            let points = SVGWriter.points(leg.points.map(projection.project))
            switch leg.step.kind {
            case .walk:
                svg.raw(
                    "<polyline class=\"walk\" points=\"\(points)\" stroke=\"#424242\" stroke-width=\"4\" stroke-dasharray=\"2 8\"/>\n"
                )
            case .ride:
                let colors = RouteColors(
                    leg.step.route
                        ?? RouteInfo(
                            id: "?", shortName: nil, longName: nil, mode: .other, color: nil, textColor: nil, agency: ""
                        ))
                svg.raw(
                    "<polyline points=\"\(points)\" stroke=\"\(colors.outline)\" stroke-width=\"11\"/>\n"
                        + "<polyline class=\"ride\" points=\"\(points)\" stroke=\"\(colors.line)\" stroke-width=\"7\"\(leg.fromShape ? "" : " stroke-dasharray=\"16 5\"")/>\n"
                )
            }
        }
        svg.raw("</g>\n")
        // Route badges halfway along each ride.
        for leg in map.legs where leg.step.kind == .ride && leg.points.count >= 2 {
            guard let route = leg.step.route else { continue }
            let middle = projection.project(leg.points[leg.points.count / 2])
            svg.badge(route, x: middle.x + 26, y: middle.y, size: 14)
        }
        // Numbered points; points at the same place share one marker ("2·3").
        var markers: [(x: Double, y: Double, label: String)] = []
        for point in numbered {
            guard let coordinate = point.coordinate else { continue }
            let p = projection.project(coordinate)
            if let index = markers.firstIndex(where: { hypot($0.x - p.x, $0.y - p.y) < 4 }) {
                markers[index].label += "·\(point.number)"
            } else {
                markers.append((p.x, p.y, String(point.number)))
            }
        }
        svg.raw("<g class=\"points\">\n")
        for marker in markers {
            let radius = 13.0 + Double(max(0, marker.label.count - 1)) * 3.5
            svg.raw(
                "<circle cx=\"\(SVGText.number(marker.x))\" cy=\"\(SVGText.number(marker.y))\" r=\"\(SVGText.number(radius))\" fill=\"#FFFFFF\" stroke=\"#000000\" stroke-width=\"3\"/>\n"
            )
            svg.text(marker.label, x: marker.x, y: marker.y + 5, size: 14, anchor: "middle", weight: "bold")
        }
        svg.raw("</g>\n")
        StopMapSVG.drawNorthArrow(&svg, x: mapSize - 44, y: 56, label: say(.north))
        StopMapSVG.drawScaleBar(
            &svg, scale: projection.scale, x: 24, y: mapSize - 28, maxWidth: mapSize / 4, locale: locale)

        let option: JourneyOption? =
            map.plan.options.indices.contains(map.optionNumber - 1) ? map.plan.options[map.optionNumber - 1] : nil
        let title = say(.journeyMapTitle(option: map.optionNumber, from: map.plan.from.name, to: map.plan.to.name))
        if showLegend {
            var y = mapSize + 28
            svg.text(title, x: 20, y: y, size: 15, weight: "bold")
            y += 24
            for line in legend {
                svg.text(line, x: 20, y: y, size: 15)
                y += 24
            }
        }
        var description = legend.joined(separator: "; ")
        if let option {
            let zone = TimeZone(identifier: map.plan.timeZone) ?? .current
            description =
                "\(locale.clock(option.departure, in: zone)) → \(locale.clock(option.arrival, in: zone)) (\(option.durationMinutes) min). "
                + description
        }
        if map.legs.contains(where: { $0.step.kind == .walk }) { description += ". " + say(.walkDashed) }
        return svg.document(title: title, description: description, language: language)
    }
}

extension JourneyMap {
    public func svg(language: Language) -> String { JourneyMapSVG.render(self, language: language) }
}

/// A plan option's journey map as SVG — the library call per picture for every surface.
public func journeyMapSVG(
    for map: JourneyMap, language: Language, legend: Bool = true, conventions: PassengerLocale = .standard
) -> String {
    JourneyMapSVG.render(map, language: language, legend: legend, conventions: conventions)
}
