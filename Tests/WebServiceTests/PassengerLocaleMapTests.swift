import Foundation
import KioskTesting
import Testing
import TransitStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SVG maps on an English US feed: scale bars and nearby distances in feet and miles, the journey map's
/// times on the 12-hour clock; the sample (Quito) keeps metres.
@Suite struct PassengerLocaleMapTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("maps-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }


    /// The scale bar's label (the text after the bar's group).
    static func scaleLabel(_ svg: String) -> String? {
        guard let bar = svg.range(of: "class=\"scale-bar\"") else { return nil }
        let rest = svg[bar.upperBound...]
        guard let text = rest.range(of: "<text"), let open = rest[text.upperBound...].range(of: ">"),
            let close = rest[open.upperBound...].range(of: "</text>")
        else { return nil }
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func mapsOnAUSFeedAreInFeetAndMiles() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", try Self.database.get(), "--at", EnglishUSFeed.afternoon])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        let stop = try await TestSupport.page(base + "/api/v1/stops/MAIN/map.svg")
        let label = try #require(Self.scaleLabel(stop), "\(stop)")
        #expect(label.hasSuffix(" ft") || label.hasSuffix(" mi"), "\(label)")
        #expect(stop.contains("520 ft N"), "\(stop)")
        #expect(stop.contains("Nearby stops (within 0.2 mi)"), "\(stop)")
        // The description a screen reader gives for the picture says the radius in the same units.
        #expect(stop.contains("stops within 0.2 mi. North is up."), "\(stop)")
        let journey = try await TestSupport.page(base + "/api/v1/plan/map.svg?from=101&to=103")
        let journeyLabel = try #require(Self.scaleLabel(journey), "\(journey)")
        #expect(journeyLabel.hasSuffix(" ft") || journeyLabel.hasSuffix(" mi"), "\(journeyLabel)")
        #expect(journey.contains("3:07 PM → 3:20 PM"), "\(journey)")
        let route = try await TestSupport.page(base + "/api/v1/routes/R4/map.svg")
        let routeLabel = try #require(Self.scaleLabel(route), "\(route)")
        #expect(routeLabel.hasSuffix(" ft") || routeLabel.hasSuffix(" mi"), "\(routeLabel)")
    }

    @Test func theSampleMapsStayInMetres() throws {
        let output = TemporaryFolder.make("map-quito").appendingPathComponent("stop.svg").path
        let result = try Programs.runKiosk(
            ["map", "1091", "--out", output], environment: ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        let label = try #require(Self.scaleLabel(svg), "\(svg.prefix(400))")
        #expect(label.hasSuffix(" m") || label.hasSuffix(" km"), "\(label)")
        #expect(!svg.contains(" ft "), "\(svg.prefix(400))")
    }
}
