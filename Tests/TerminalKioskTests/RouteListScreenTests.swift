import Foundation
import KioskTesting
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import TerminalKiosk

/// F4 on a stop board (issue 25): the stop's routes, ↑↓ to choose, Enter for the chosen route's stops (the line
/// diagram F3 shows), Esc back to the list and then to the board; drawn and spoken from the same state.
@Suite struct RouteListScreenTests {
    /// A stop served by several routes: El Ejido station (MQ09: the metro L1 and the trolleybus TB).
    static let station = "MQ09"

    /// The kiosk showing the station's board (a scan of one of its labels shows the same board).
    static func stationState() -> KioskState {
        var state = KioskFixtures.idleState()
        let board = KioskFixtures.board(station)
        state.screen = .stop(KioskStopScreen(stop: board.stop, board: board))
        return state
    }

    func listState() throws -> (KioskState, KioskStopBoard) {
        var state = Self.stationState()
        let effects = state.handle(.key(.function(4)), now: KioskFixtures.morning)
        #expect(effects.isEmpty)
        return (state, KioskFixtures.board(Self.station))
    }

    @Test func theBoardOffersTheKeyAndF4ListsTheStopsRoutes() throws {
        let board = KioskFixtures.text(KioskScreenBuilder.build(Self.stationState(), width: 120, height: 30))
        #expect(board.contains("F4: líneas de la parada"), "\(board)")
        let (state, stop) = try listState()
        #expect(state.screen.name == "routes")
        try #require(stop.view.routes.count >= 2, "El Ejido should have several routes")
        let text = KioskFixtures.text(KioskScreenBuilder.build(state, width: 100, height: 30))
        #expect(text.contains("Líneas en El Ejido"), "\(text)")
        for entry in stop.view.routes {
            #expect(text.contains(entry.route.label), "\(entry.route.label) missing:\n\(text)")
        }
        #expect(text.contains("Intro: sus paradas") && text.contains("Esc: volver"), "\(text)")
        // In English after Tab.
        var english = state
        _ = english.handle(.key(.tab), now: KioskFixtures.morning)
        let en = KioskFixtures.text(KioskScreenBuilder.build(english, width: 100, height: 30))
        #expect(en.contains("Routes at El Ejido") && en.contains("Enter: its stops"), "\(en)")
    }

    @Test func enterShowsTheChosenRoutesStopsAndEscComesBack() throws {
        var (state, stop) = try listState()
        // The chosen row moves with ↓ and stays within the list.
        for _ in 0..<20 { _ = state.handle(.key(.down), now: KioskFixtures.morning) }
        guard case let .routeList(list) = state.screen else {
            Issue.record("not the route list: \(state.screen.name)")
            return
        }
        #expect(list.selected == stop.view.routes.count - 1)
        _ = state.handle(.key(.up), now: KioskFixtures.morning)
        let chosen = stop.view.routes[stop.view.routes.count - 2].route
        // The chosen row is drawn in reverse video.
        let canvas = KioskScreenBuilder.build(state, width: 100, height: 30)
        let row = try #require(canvas.text.split(separator: "\n").firstIndex { $0.contains(" \(chosen.label) ") })
        #expect(canvas.text.split(separator: "\n")[row].contains(chosen.label))

        let effects = state.handle(.key(.enter), now: KioskFixtures.morning)
        #expect(effects == [.loadDiagram(routeID: chosen.id, stop: stop.stop)])
        guard case let .diagram(screen) = state.screen else {
            Issue.record("Enter did not open the route's stops: \(state.screen.name)")
            return
        }
        #expect(screen.fromRouteList && screen.routeID == chosen.id)
        let diagram = try KioskFixtures.database.routeDiagram(route: chosen.id, viewer: stop.stop)
        _ = state.handle(.diagramLoaded(routeID: chosen.id, .success(diagram)), now: KioskFixtures.morning)
        let text = KioskFixtures.text(KioskScreenBuilder.build(state, width: 100, height: 30))
        #expect(text.contains("●") && text.contains("◀ usted está aquí"), "\(text)")
        // Esc: back to the list, the same route still chosen; Esc again: the board.
        #expect(state.handle(.key(.escape), now: KioskFixtures.morning).isEmpty)
        guard case let .routeList(back) = state.screen else {
            Issue.record("Esc did not return to the route list: \(state.screen.name)")
            return
        }
        #expect(back.selected == stop.view.routes.count - 2)
        let toBoard = state.handle(.key(.escape), now: KioskFixtures.morning)
        #expect(state.screen.name == "stop" && toBoard == [.loadStop(.resolved(stop.stop))])
    }

    @Test func theListIsSpokenAndGoesIdleLikeAnyScreen() throws {
        var (state, stop) = try listState()
        let spoken = KioskSpeech.text(for: state, detail: .short)
        #expect(spoken.hasPrefix("Líneas en El Ejido."), "\(spoken)")
        #expect(spoken.contains("Línea \(stop.view.routes[0].route.label) hacia"), "\(spoken)")
        let later = KioskFixtures.morning.addingTimeInterval(state.idleTimeout + 1)
        _ = state.handle(.tick, now: later)
        #expect(state.screen == .idle)
    }

    @Test func aBoardWithoutRoutesHasNoList() {
        var state = Self.stationState()
        guard case var .stop(screen) = state.screen, var board = screen.board else {
            Issue.record("no board")
            return
        }
        board.view.routes = []
        screen.board = board
        state.screen = .stop(screen)
        #expect(state.handle(.key(.function(4)), now: KioskFixtures.morning).isEmpty)
        #expect(state.screen.name == "stop")
        let text = KioskFixtures.text(KioskScreenBuilder.build(state, width: 120, height: 30))
        #expect(!text.contains("F4"))
    }
}
