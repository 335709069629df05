import Foundation
import KioskTesting
import StopPresentation
import Testing
import TransitModel
import TransitStore

/// The route map (issue 25): every pattern's path, the main one strongest, stops marked, names that never overlap,
/// the viewer's stop highlighted, and the same content as text.
@Suite struct RouteMapSVGTests {
    /// Boxes of the drawn stop names, measured from the SVG itself with the renderer's own generous width per
    /// character (0.64 em: DejaVu Sans averages about 0.55 em, capitals and wide letters up to 0.7 em).
    static func nameBoxes(_ svg: ParsedSVG) -> [(text: String, minX: Double, minY: Double, maxX: Double, maxY: Double)]
    {
        var inNames = false
        var boxes: [(String, Double, Double, Double, Double)] = []
        for element in svg.elements {
            if element.name == "g" { inNames = element.attributes["class"] == "stop-names" }
            guard inNames, element.name == "text", let x = svg.number(element, "x"), let y = svg.number(element, "y"),
                let size = svg.number(element, "font-size")
            else { continue }
            let width = Double(element.text.count) * 0.64 * size
            let minX =
                switch element.attributes["text-anchor"] {
                case "end": x - width
                case "middle": x - width / 2
                default: x
                }
            boxes.append((element.text, minX, y - size, minX + width, y - size + size * 1.25))
        }
        return boxes
    }

    static func overlapping(
        _ boxes: [(text: String, minX: Double, minY: Double, maxX: Double, maxY: Double)]
    ) -> [String] {
        var pairs: [String] = []
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                // Half a pixel of rounding (coordinates are written to a tenth of a pixel).
                if a.minX < b.maxX - 0.5 && b.minX < a.maxX - 0.5 && a.minY < b.maxY - 0.5 && b.minY < a.maxY - 0.5 {
                    pairs.append("\(a.text) / \(b.text)")
                }
            }
        }
        return pairs
    }

    @Test func aRouteWithAShapeAndTheViewersStop() throws {
        let routes = MapFeed.database
        let map = try routes.routeMap("R1", viewer: try routes.resolveStop(.idOrCode("S2")))
        let text = RouteMapSVG.render(map, language: .en)
        let svg = try ParsedSVG.parse(text)
        let title = try #require(svg.all("title").first?.text)
        #expect(title == "Map of route 1 Uno")
        let paths = svg.all("polyline").filter { $0.attributes["class"] == "main" }
        #expect(paths.count == 1 && paths[0].attributes["stroke-dasharray"] == nil)
        #expect(paths[0].attributes["stroke"] == "#FFD600")
        // The shape's four points, projected where the layout puts them.
        let (projection, _) = RouteMapSVG.layout(for: map)
        let bend = projection.project(Coordinate(latitude: -0.2009, longitude: -78.4995))
        #expect(paths[0].attributes["points"]?.contains("\(SVGText.number(bend.x)),\(SVGText.number(bend.y))") == true)
        // The viewer's stop in red at S2, named in bold; every stop named (three stops, plenty of room).
        let here = try #require(svg.elements.first { $0.name == "circle" && $0.attributes["fill"] == "#D50000" })
        let s2 = projection.project(Coordinate(latitude: -0.2018, longitude: -78.5000))
        #expect(svg.number(here, "cx") == Double(SVGText.number(s2.x)))
        let names = Self.nameBoxes(svg).map(\.text)
        #expect(Set(names) == ["Norte", "Centro <&> \"Plaza\"", "Sur"], "\(names)")
        #expect(text.contains("Your stop: Centro &lt;&amp;&gt; &quot;Plaza&quot;"))
        #expect(
            text.contains("1. Norte [101]")
                && text.contains("2. Centro &lt;&amp;&gt; &quot;Plaza&quot; [102] ◀ you are here"))
        // Without the legend: the same title and description, no list drawn under the map.
        let bare = try ParsedSVG.parse(RouteMapSVG.render(map, language: .en, legend: false))
        #expect(bare.all("desc").first?.text == svg.all("desc").first?.text)
        #expect(!bare.all("g").contains { $0.attributes["class"] == "legend" })
    }

    @Test func aRouteWithoutAShapeIsDashedAndSaysSo() throws {
        let map = try MapFeed.database.routeMap("R2")
        let text = RouteMapSVG.render(map, language: .es)
        let svg = try ParsedSVG.parse(text)
        #expect(svg.all("polyline").contains { $0.attributes["stroke-dasharray"] != nil })
        #expect(text.contains("sin trazado en los datos"))
        #expect(!text.contains("#D50000"))  // asked for from no stop: nothing highlighted
        // The legend fits the picture: its long notice is wrapped, not run off the right edge, and says it all.
        let width = try #require(svg.elements.first { $0.name == "svg" }.flatMap { svg.number($0, "width") })
        var inLegend = false
        var legend: [String] = []
        for element in svg.elements {
            if element.name == "g" { inLegend = element.attributes["class"] == "legend" }
            guard inLegend, element.name == "text", let x = svg.number(element, "x"),
                let size = svg.number(element, "font-size")
            else { continue }
            #expect(x + Double(element.text.count) * 0.64 * size <= width, "\(element.text) runs past \(width) px")
            legend.append(element.text)
        }
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace) }
        let notice = try #require(
            RouteMapSVG.textLines(map, language: .es).first { $0.contains("sin trazado en los datos") })
        #expect(
            words(legend.joined(separator: " ")).joined(separator: " ").contains(words(notice).joined(separator: " ")))
    }

    @Test(.enabled(if: Raster.available, "rsvg-convert (librsvg2-bin) is not installed: kiosk/setup.sh installs it"))
    func theMapDraws() throws {
        let map = try MapFeed.database.routeMap("R1")
        #expect(try Raster.inkShare(RouteMapSVG.render(map, language: .en)) > 0.01)
    }

    /// Stops 40 m apart along a straight street: far more than fit, so names are left out rather than drawn over
    /// each other, the terminals and the viewer's stop are always named, and the rest are spread along the line.
    @Test func crowdedStopsNeverGetOverlappingNames() throws {
        let route = RouteInfo(
            id: "R", shortName: "7", longName: nil, mode: .bus, color: "0057B8", textColor: nil, agency: "A")
        let stops = (0..<120).map { i in
            RouteMap.Stop(
                stop: StopInfo(
                    id: "S\(i)", code: nil, name: "Shyris y calle \(i)", parentStationID: nil,
                    parentStationName: nil, platformCode: nil, wheelchairBoarding: .unknown,
                    latitude: -0.18 - Double(i) * 0.00036, longitude: -78.48 + Double(i % 7) * 0.00005, locationType: 0),
                coordinate: Coordinate(
                    latitude: -0.18 - Double(i) * 0.00036, longitude: -78.48 + Double(i % 7) * 0.00005),
                terminal: i == 0 || i == 119, onMain: true, order: i)
        }
        let pattern = RoutePattern(
            directionID: 0, headsign: "Sur", trips: 10, main: true, stopIDs: stops.map(\.stop.id), shapeID: nil)
        let map = RouteMap(
            route: route, lines: [RouteMap.Line(pattern: pattern, points: stops.map(\.coordinate), fromShape: false)],
            stops: stops, highlighted: ["S57"], viewer: stops[57].stop)
        let svg = try ParsedSVG.parse(RouteMapSVG.render(map, language: .en))
        let boxes = Self.nameBoxes(svg)
        #expect(boxes.count >= 10 && boxes.count < 120, "\(boxes.count) names drawn")
        #expect(Self.overlapping(boxes).isEmpty, "\(Self.overlapping(boxes))")
        let names = Set(boxes.map(\.text))
        #expect(names.isSuperset(of: ["Shyris y calle 0", "Shyris y calle 57", "Shyris y calle 119"]), "\(names)")
        let (projection, height) = RouteMapSVG.layout(for: map)
        let placed = RouteMapSVG.labels(map, projection: projection, height: height).map(\.stop)
        #expect(placed.prefix(3).sorted() == [0, 57, 119], "\(placed.prefix(3))")
        // Spread: named stops are found in every quarter of the line.
        for quarter in 0..<4 { #expect(placed.contains { $0 / 30 == quarter }, "quarter \(quarter)") }
    }
}

/// The busiest route of a large real feed: every pattern drawn, names never overlapping, a file of sensible size.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
struct SharedFeedRouteMapTests {
    @Test func vilniusRouteWithTheMostStops() throws {
        let feed = try #require(SharedData.folder).appendingPathComponent("gtfs/vilnius.zip")
        let path = TemporaryFolder.make("route-map-vilnius").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        let routes = try RouteDatabase(path: path)
        var best: (id: String, stops: Int) = ("", 0)
        for entry in try routes.routeCatalog().agencies.flatMap(\.routes) {
            let count = try routes.routePatterns(entry.id).stops.count
            if count > best.stops { best = (entry.id, count) }
        }
        let map = try routes.routeMap(best.id)
        #expect(map.lines.contains { $0.fromShape })
        let text = RouteMapSVG.render(map, language: .en, legend: false)
        #expect(text.utf8.count <= 300_000, "\(best.id): \(text.utf8.count) bytes")
        let svg = try ParsedSVG.parse(text)
        let boxes = RouteMapSVGTests.nameBoxes(svg)
        #expect(boxes.count >= 8, "\(best.id): \(boxes.count) of \(best.stops) stops named")
        #expect(RouteMapSVGTests.overlapping(boxes).isEmpty, "\(RouteMapSVGTests.overlapping(boxes))")
        try #require(Raster.available, Comment(rawValue: Raster.reason))
        #expect(try Raster.inkShare(text) > 0.01)
    }
}
