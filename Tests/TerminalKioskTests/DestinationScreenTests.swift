import Foundation
import KioskTesting
import ScanService
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import TerminalKiosk

/// The terminal kiosk on a feed like Renfe's (no trip_headsign, train numbers, no shapes): the board and the
/// plan name each train's last stop.
@Suite struct DestinationScreenTests {
    static let database = Result { () throws -> RouteDatabase in
        let path = TemporaryFolder.make("headsignless-screen").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: HeadsignlessFeed.folder().path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    func state(at stopID: String) throws -> KioskState {
        let db = try Self.database.get()
        let now = try #require(LocalTime.parse(HeadsignlessFeed.morning, in: db.timeZone))
        var state = KioskState(language: .en, idleTimeout: 60, hasHomeStop: false, now: now)
        _ = state.handle(
            .databaseStatus(
                .ready(
                    feedName: db.feedName, timeZone: db.timeZone.identifier,
                    serviceStart: db.serviceStart?.description, serviceEnd: db.serviceEnd?.description)), now: now)
        let stop = try db.resolveStop(.id(stopID))
        _ = state.handle(.scan(ScanOutcome(status: .stop, text: stopID, stop: stop)), now: now)
        let board = KioskStopBoard(stop: stop, view: try db.stopView(for: stop, at: now, windowMinutes: 120))
        _ = state.handle(.stopLoaded(.success(board)), now: now)
        return state
    }

    @Test func theBoardNamesEachTrainsLastStop() throws {
        let state = try state(at: "MAD")
        for (width, height) in [(80, 24), (120, 40)] {
            let context = ScreenContext(demo: false)
            let text = KioskScreenBuilder.build(state, width: width, height: height, context: context).text
            #expect(text.contains("Barcelona-Sants"), "\(width)×\(height):\n\(text)")
            #expect(text.contains("Zaragoza-Delicias"), "\(width)×\(height):\n\(text)")
            #expect(text.contains("Barcelona por Zaragoza"), "\(width)×\(height):\n\(text)")
        }
        let bus = KioskScreenBuilder.build(
            try self.state(at: "LV1"), width: 80, height: 24, context: ScreenContext(demo: false)
        ).text
        #expect(bus.contains("Maryland Pkwy Northbound") && !bus.contains("109 Maryland"), "\(bus)")
    }

    @Test func speechSaysWhereEachLineGoes() throws {
        let db = try Self.database.get()
        let now = try #require(LocalTime.parse(HeadsignlessFeed.morning, in: db.timeZone))
        let view = try db.stopView(for: try db.resolveStop(.id("MAD")), at: now, windowMinutes: 120)
        let spoken = StopViewSpeech.text(view, language: .en)
        #expect(spoken.contains("Route AVE to Barcelona-Sants"), "\(spoken)")
        #expect(spoken.contains("Route ALVIA to Zaragoza-Delicias"), "\(spoken)")
        let plan = try db.plan(from: db.resolveEndpoint("MAD"), to: db.resolveEndpoint("BCN"), at: now)
        let said = JourneyPlanSpeech.text(plan, language: .en)
        #expect(said.contains("Take route AVE 03083 to Barcelona-Sants"), "\(said)")
    }

    @Test func thePlanScreenTakesTheTrainToItsLastStop() throws {
        let db = try Self.database.get()
        let now = try #require(LocalTime.parse(HeadsignlessFeed.morning, in: db.timeZone))
        var state = try state(at: "MAD")
        for c in "barcelona" { _ = state.handle(.key(.character(c)), now: now) }
        let matches = try db.searchStops("barcelona").map(\.stop)
        _ = state.handle(.matchesLoaded(query: "barcelona", matches: matches), now: now)
        _ = state.handle(.key(.enter), now: now)
        let plan = try db.plan(from: db.resolveEndpoint("MAD"), to: db.resolveEndpoint("BCN"), at: now)
        _ = state.handle(.planLoaded(.success(plan)), now: now)
        let text = KioskScreenBuilder.build(state, width: 100, height: 30, context: ScreenContext(demo: false)).text
        #expect(text.contains("03083 to Barcelona-Sants"), "\(text)")
    }
}
