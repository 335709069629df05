import Foundation
import KioskTesting
import Scanning
import StopPresentation
import Testing
import TransitModel
import TransitStore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A hand-made network on a north–south street: S1, S2 (the busy stop, with a name full of markup), S3 every
/// 200 m, S4 200 m east of S2, S5 3 km away. Route 1 (yellow) runs S1 → S2 → S3 along a shape that bends
/// east between S1 and S2; route 2 (no colour, no shape) runs S2 → S4.
enum MapFeed {
    static let files: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://a.example,America/Guayaquil\n",
        "stops.txt": """
        stop_id,stop_code,stop_name,stop_lat,stop_lon
        S1,101,Norte,-0.2000,-78.5000
        S2,102,"Centro <&> \"\"Plaza\"\"",-0.2018,-78.5000
        S3,103,Sur,-0.2036,-78.5000
        S4,104,Este,-0.2018,-78.4982
        S5,105,Lejos,-0.2300,-78.5000

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
        R1,A,1,Uno,3,FFD600,000000
        R2,A,2,Dos,3,,

        """,
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign,direction_id,shape_id
        R1,WK,T1,Sur,0,SH1
        R2,WK,T2,Este,0,

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:05:00,08:05:00,S2,2
        T1,08:10:00,08:10:00,S3,3
        T2,08:20:00,08:20:00,S2,1
        T2,08:25:00,08:25:00,S4,2

        """,
        "shapes.txt": """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
        SH1,-0.2000,-78.5000,1
        SH1,-0.2009,-78.4995,2
        SH1,-0.2018,-78.5000,3
        SH1,-0.2036,-78.5000,4

        """,
    ]

    /// The imported database, built once per test process.
    static let database: RouteDatabase = {
        let feed = TemporaryFolder.make("mapfeed", files: files)
        let path = TemporaryFolder.make("mapdb").appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try! RouteDatabase(path: path)
    }()

    static var databasePath: String { database.path }
}

/// An SVG parsed with Foundation's XMLParser: every element with its attributes and text, in document order.
final class ParsedSVG: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    var elements: [Element] = []
    private var open: [Int] = []
    var error: Error?

    static func parse(_ svg: String) throws -> ParsedSVG {
        let result = ParsedSVG()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = result
        let ok = parser.parse()
        try #require(ok, "not well-formed XML: \(String(describing: parser.parserError ?? result.error))")
        return result
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes, text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let last = open.last { elements[last].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
    func texts() -> [String] { all("text").map(\.text) }
    func number(_ element: Element, _ attribute: String) -> Double? {
        element.attributes[attribute].flatMap(Double.init)
    }
}

enum Raster {
    static let reason = "rsvg-convert (librsvg2-bin) is not installed: kiosk/setup.sh installs it"
    static var available: Bool { Programs.which("rsvg-convert") != nil }

    /// Rasterises with rsvg-convert and returns the share of pixels that are not near white.
    static func inkShare(_ svg: String) throws -> Double {
        let folder = TemporaryFolder.make("raster")
        let input = folder.appendingPathComponent("picture.svg"), output = folder.appendingPathComponent("picture.png")
        try Data(svg.utf8).write(to: input)
        let result = try Programs.run(
            try #require(Programs.which("rsvg-convert")), ["-o", output.path, input.path])
        try #require(result.status == 0, "\(result)")
        let frame = try ImageFile.load(output.path)
        let ink = frame.pixels.reduce(0) { $0 + ($1 < 200 ? 1 : 0) }
        return Double(ink) / Double(frame.pixels.count)
    }
}

@Suite struct StopMapTests {
    let routes = MapFeed.database

    func map(_ stop: String = "S2", radius: Int = 400) throws -> StopMap {
        try routes.stopMap(for: try routes.resolveStop(.id(stop)), radiusMeters: radius)
    }

    @Test func theStoreGivesShapesAndStopToStopLines() throws {
        let map = try map()
        #expect(map.nearby.map(\.stop.id).sorted() == ["S1", "S3", "S4"])  // S5 is 3 km away
        let byRoute = Dictionary(uniqueKeysWithValues: map.lines.map { ($0.route.id, $0) })
        #expect(byRoute["R1"]?.fromShape == true)
        #expect(byRoute["R1"]?.points.count == 4)  // the bend is more than a metre off the straight line: kept
        #expect(byRoute["R2"]?.fromShape == false)
        #expect(byRoute["R2"]?.points.map(\.longitude) == [-78.5, -78.4982])
    }

    @Test func theStopIsAtTheCentreAndKnownCoordinatesLandWhereTheProjectionSays() throws {
        let map = try map()
        let svg = try ParsedSVG.parse(StopMapSVG.render(map, language: .en))
        let circles = svg.all("circle")
        // The stop: the first circle of the this-stop group, at the centre of the 800 × 800 map.
        #expect(
            circles.contains {
                svg.number($0, "cx") == 400 && svg.number($0, "cy") == 400 && $0.attributes["r"] == "13"
            })
        // S1 is 0.0018° north: 200.2 m, at 0.85 × 400/400 px per metre.
        let projection = StopMapSVG.projection(for: map)
        #expect(abs(projection.scale - 0.85) < 1e-9)
        let north = projection.project(Coordinate(latitude: -0.2000, longitude: -78.5000))
        #expect(abs(north.x - 400) < 0.05)
        #expect(abs(north.y - (400 - 200.15 * 0.85)) < 0.2)
        let east = projection.project(Coordinate(latitude: -0.2018, longitude: -78.4982))
        #expect(abs(east.x - (400 + 200.15 * 0.85)) < 0.2 && abs(east.y - 400) < 0.05)
        for point in [north, east] {
            #expect(
                circles.contains {
                    abs((svg.number($0, "cx") ?? 0) - point.x) < 0.06
                        && abs((svg.number($0, "cy") ?? 0) - point.y) < 0.06
                }, "no stop marker at \(point)")
        }
        // The bend of route 1's shape is drawn where the projection puts it.
        let bend = projection.project(Coordinate(latitude: -0.2009, longitude: -78.4995))
        let yellow = try #require(svg.all("polyline").first { $0.attributes["stroke"] == "#FFD600" })
        #expect(yellow.attributes["points"]?.contains("\(SVGText.number(bend.x)),\(SVGText.number(bend.y))") == true)
    }

    @Test func routesAreColouredOutlinedAndLabelled() throws {
        let svg = try ParsedSVG.parse(StopMapSVG.render(try map(), language: .en))
        let strokes = svg.all("polyline").compactMap { $0.attributes["stroke"] }
        #expect(strokes.contains("#FFD600"))
        #expect(strokes.contains("#202020"))  // a dark outline around the light yellow
        let texts = svg.texts()
        #expect(texts.contains("1") && texts.contains("2"))  // short names on badges: never colour alone
        #expect(texts.contains("101") && texts.contains("103") && texts.contains("104"))  // nearby codes
        #expect(texts.contains("N"))
        #expect(texts.contains { $0.hasSuffix(" m") })  // the scale bar
        #expect(svg.elements.contains { $0.attributes["class"] == "scale-bar" })
        #expect(svg.elements.contains { $0.attributes["class"] == "north-arrow" })
    }

    @Test func textEquivalentAndEscaping() throws {
        let map = try map()
        let text = StopMapSVG.render(map, language: .en)
        #expect(!text.contains("<&>"))
        let svg = try ParsedSVG.parse(text)
        let title = try #require(svg.all("title").first)
        #expect(title.text == "Map of the stop Centro <&> \"Plaza\" [102]")
        let desc = try #require(svg.all("desc").first).text
        #expect(desc.contains("Route 1 to Sur"))
        #expect(desc.contains("Route 2 to Este (no shape in the feed: drawn as straight lines from stop to stop)"))
        #expect(desc.contains("Norte [101], 200 m N — 1"))
        #expect(
            StopMapSVG.textLines(map, language: .es).contains(
                "  Línea 2 hacia Este (sin trazado en los datos: dibujada en línea recta de parada a parada)"))
        #expect(SVGText.escape("a\u{1B}[31m<b>&'\"\u{0}") == "a[31m&lt;b&gt;&amp;&apos;&quot;")
    }

    @Test(.enabled(if: Raster.available, "rsvg-convert (librsvg2-bin) is not installed: kiosk/setup.sh installs it"))
    func rasterisesToAPictureThatIsNotBlank() throws {
        let share = try Raster.inkShare(StopMapSVG.render(try map(), language: .es))
        #expect(share > 0.01, "only \(share * 100)% of the pixels are drawn")
    }
}

@Suite struct RouteDiagramTests {
    let routes = MapFeed.database

    @Test func diagramFollowsTravelOrderWithTheViewerAndTransfers() throws {
        let diagram = try routes.routeDiagram(route: "1", viewer: try routes.resolveStop(.id("S2")))
        #expect(diagram.stops.map(\.stop.id) == ["S1", "S2", "S3"])
        #expect(diagram.highlighted == 1)
        #expect(diagram.stops.map { $0.transfers.map(\.id) } == [[], ["R2"], []])
        #expect(
            RouteDiagramRendering.textLines(diagram, language: .en) == [
                "Route 1 to Sur: stops",
                "  ┬ Norte [101]",
                "  ● Centro <&> \"Plaza\" [102]  ◀ you are here  ⇄ 2",
                "  ┴ Sur [103]",
            ])
        let svg = try ParsedSVG.parse(RouteDiagramRendering.svg(diagram, language: .en))
        #expect(svg.all("title").first?.text == "Route 1 to Sur: stops")
        #expect(svg.elements.contains { $0.attributes["class"] == "you-are-here" })
        #expect(svg.texts().contains("Centro <&> \"Plaza\" [102]"))
    }

    @Test func unknownRouteOrDirectionIsNamed() throws {
        #expect(throws: LabelSelectionError.self) { try routes.routeDiagram(route: "9") }
        let error = #expect(throws: LookupError.self) { try routes.routeDiagram(route: "2", direction: 1) }
        #expect(error?.description.contains("has no trips in direction 1 (directions: 0)") == true)
    }

    @Test(.enabled(if: Raster.available, "rsvg-convert (librsvg2-bin) is not installed: kiosk/setup.sh installs it"))
    func rasterisesToAPictureThatIsNotBlank() throws {
        let diagram = try routes.routeDiagram(route: "R1")
        #expect(try Raster.inkShare(RouteDiagramRendering.svg(diagram, language: .es)) > 0.01)
    }
}

@Suite struct JourneyMapTests {
    let routes = MapFeed.database

    func plan() throws -> JourneyPlan {
        let s1 = try routes.resolveStop(.id("S1")).stop, s2 = try routes.resolveStop(.id("S2")).stop
        let s4 = try routes.resolveStop(.id("S4")).stop
        let day = Date(timeIntervalSince1970: 1_795_000_000)
        let route = try routes.routeDiagram(route: "R1").route
        return JourneyPlan(
            from: s1, to: s4, at: day, timeZone: "America/Guayaquil", maxTransfers: 3, walkRadiusMeters: 400,
            options: [
                JourneyOption(
                    departure: day, arrival: day.addingTimeInterval(600), durationMinutes: 10, transfers: 0,
                    legs: [
                        JourneyStep(
                            kind: .ride, from: s1, to: s2, departure: day, arrival: day.addingTimeInterval(300),
                            minutes: 5,
                            route: route, headsign: "Sur", tripID: "T1", stops: 1),
                        JourneyStep(
                            kind: .walk, from: s2, to: s4, departure: day.addingTimeInterval(300),
                            arrival: day.addingTimeInterval(600), minutes: 5),
                    ])
            ], routesAtOrigin: [], routesAtDestination: [])
    }

    @Test func ridesFollowTheirShapeAndPointsAreNumberedAsInTheText() throws {
        let map = try routes.journeyMap(try plan(), option: 0)
        #expect(map.legs[0].fromShape)
        #expect(map.legs[0].points.map(\.latitude) == [-0.2, -0.2, -0.2009, -0.2018, -0.2018])
        #expect(map.legs[1].points.count == 2)
        let points = JourneyMapSVG.points(map, language: .en)
        #expect(points.map(\.number) == [1, 2, 3])
        #expect(points[0].text.contains("Take 1 to Sur at Norte [101]"))
        #expect(points[2].text.contains("Walk 5 min to Este [104]"))
        let svg = try ParsedSVG.parse(JourneyMapSVG.render(map, language: .en))
        #expect(
            svg.all("polyline").contains {
                $0.attributes["class"] == "walk" && $0.attributes["stroke-dasharray"] != nil
            })
        #expect(
            svg.all("polyline").contains { $0.attributes["class"] == "ride" && $0.attributes["stroke"] == "#FFD600" })
        let labels = svg.texts()
        #expect(labels.contains("1") && labels.contains("2") && labels.contains("3"))
        #expect(svg.all("title").first?.text == "Option 1: from Norte to Este")
        #expect(try #require(svg.all("desc").first).text.contains("3. "))
    }

    @Test(.enabled(if: Raster.available, "rsvg-convert (librsvg2-bin) is not installed: kiosk/setup.sh installs it"))
    func rasterisesToAPictureThatIsNotBlank() throws {
        let map = try routes.journeyMap(try plan(), option: 0)
        #expect(try Raster.inkShare(JourneyMapSVG.render(map, language: .es)) > 0.01)
    }
}

@Suite struct MapCommandTests {
    @Test func mapDiagramAndPlanWriteSVGFiles() throws {
        let folder = TemporaryFolder.make("cli")
        let db = MapFeed.databasePath
        let mapFile = folder.appendingPathComponent("stop.svg").path
        var result = try Programs.runKiosk(["map", "102", "--db", db, "--out", mapFile, "--lang", "en"])
        #expect(result.status == 0, "\(result)")
        let svg = try ParsedSVG.parse(try String(contentsOfFile: mapFile, encoding: .utf8))
        #expect(svg.all("title").first?.text == "Map of the stop Centro <&> \"Plaza\" [102]")

        result = try Programs.runKiosk(["diagram", "1", "--stop", "102", "--db", db, "--lang", "en"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("● Centro <&> \"Plaza\" [102]  ◀ you are here  ⇄ 2"))
        let diagramFile = folder.appendingPathComponent("line.svg").path
        result = try Programs.runKiosk(["diagram", "R1", "--direction", "0", "--db", db, "--out", diagramFile])
        #expect(result.status == 0, "\(result)")
        _ = try ParsedSVG.parse(try String(contentsOfFile: diagramFile, encoding: .utf8))

        let planFile = folder.appendingPathComponent("plan.svg").path
        result = try Programs.runKiosk([
            "plan", "101", "103", "--db", db, "--at", "2026-11-25T07:55", "--map", planFile, "--lang", "en",
        ])
        #expect(result.status == 0, "\(result)")
        let plan = try ParsedSVG.parse(try String(contentsOfFile: planFile, encoding: .utf8))
        #expect(plan.all("title").first?.text == "Option 1: from Norte to Sur")
    }

    @Test func badInputIsRefusedWithTheCause() throws {
        let db = MapFeed.databasePath
        let out = TemporaryFolder.make("cli").appendingPathComponent("x.svg").path
        var result = try Programs.runKiosk(["map", "nope", "--db", db, "--out", out])
        #expect(result.status == 2 && result.stderr.contains("no such stop: 'nope'"), "\(result)")
        result = try Programs.runKiosk(["diagram", "9", "--db", db])
        #expect(result.status == 2 && result.stderr.contains("no route '9'"), "\(result)")
        result = try Programs.runKiosk(["map", "102", "--db", db, "--out", "/nonexistent/folder/x.svg"])
        #expect(result.status == 2 && result.stderr.contains("there is no folder /nonexistent/folder"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// The shared public feeds: the busiest stop's map stays within the size budget and draws.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
struct SharedFeedMapTests {
    @Test(arguments: ["carta", "vilnius"])
    func busiestStopMapWithinBudget(_ name: String) throws {
        let feed = try #require(SharedData.folder).appendingPathComponent("gtfs/\(name).zip")
        let path = TemporaryFolder.make("shared-\(name)").appendingPathComponent("routes.sqlite").path
        let summary = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        #expect(summary.count("shapes") > 0)
        let routes = try RouteDatabase(path: path)
        let busiest = try #require(try routes.busiestStopIDs(limit: 1).first)
        let map = try routes.stopMap(for: try routes.resolveStop(.id(busiest)), radiusMeters: 400)
        #expect(!map.lines.isEmpty)
        #expect(map.lines.allSatisfy { $0.fromShape })
        let svg = StopMapSVG.render(map, language: .en)
        #expect(svg.utf8.count <= 300_000, "\(name) stop \(busiest): \(svg.utf8.count) bytes")
        _ = try ParsedSVG.parse(svg)
        try #require(Raster.available, Comment(rawValue: Raster.reason))
        #expect(try Raster.inkShare(svg) > 0.01)
    }
}

/// The map network split into two operators' feeds (issue 24): `a` runs route 1 (S1 → S2 → S3, with its shape),
/// `b` route 2 (S2 → S4); both feeds have stop S2 at the same place, one interchange.
@Suite struct MultiFeedMapTests {
    static let database: RouteDatabase = {
        func only(_ file: String, _ keep: (String) -> Bool) -> String {
            let lines = MapFeed.files[file]!.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            return ([lines[0]] + lines.dropFirst().filter(keep)).joined(separator: "\n") + "\n"
        }
        var a = MapFeed.files, b = MapFeed.files
        a["routes.txt"] = only("routes.txt") { $0.hasPrefix("R1,") }
        a["trips.txt"] = only("trips.txt") { $0.hasPrefix("R1,") }
        a["stop_times.txt"] = only("stop_times.txt") { $0.hasPrefix("T1,") }
        a["stops.txt"] = only("stops.txt") { !$0.hasPrefix("S4,") && !$0.hasPrefix("S5,") }
        b["routes.txt"] = only("routes.txt") { $0.hasPrefix("R2,") }
        b["trips.txt"] = only("trips.txt") { $0.hasPrefix("R2,") }
        b["stop_times.txt"] = only("stop_times.txt") { $0.hasPrefix("T2,") }
        b["stops.txt"] = only("stops.txt") { $0.hasPrefix("S2,") || $0.hasPrefix("S4,") }
        b["shapes.txt"] = nil
        let feeds = [("a", a), ("b", b)].map { id, files in
            FeedInput(id: id, path: TemporaryFolder.make("mapfeed-\(id)", files: files).path)
        }
        let path = TemporaryFolder.make("mapdb-two").appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feeds: feeds, databasePath: path).run()
        return try! RouteDatabase(path: path)
    }()

    @Test func anInterchangeMapDrawsEveryOperatorsLines() throws {
        let db = Self.database
        for stop in ["a:S2", "b:S2"] {
            let map = try db.stopMap(for: try db.resolveStop(.id(stop)), radiusMeters: 400)
            #expect(Set(map.lines.map(\.route.id)) == ["a:R1", "b:R2"], "\(stop)")
            #expect(map.lines.first { $0.route.id == "a:R1" }?.fromShape == true)
            // The other feed's copy of the stop is this stop, not a nearby one.
            #expect(map.nearby.map(\.stop.id).sorted() == ["a:S1", "a:S3", "b:S4"], "\(stop)")
            let svg = try ParsedSVG.parse(StopMapSVG.render(map, language: .en))
            #expect(svg.all("polyline").contains { $0.attributes["stroke"] == "#FFD600" })
        }
        let diagram = try db.routeDiagram(route: "b:R2", viewer: try db.resolveStop(.id("a:S2")))
        #expect(diagram.stops.map(\.stop.id) == ["b:S2", "b:S4"] && diagram.highlighted == 0)
        #expect(diagram.stops.first?.transfers.map(\.id) == ["a:R1"])
    }
}
