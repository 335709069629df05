import Foundation
import KioskTesting
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import TerminalKiosk

/// F3 on a stop board: the line diagram of each of its routes in turn, the viewer's stop marked, Esc back.
@Suite struct RouteDiagramScreenTests {
    func diagramState() throws -> (KioskState, [KioskEffect]) {
        var state = KioskFixtures.stopState("2010")
        let effects = state.handle(.key(.function(3)), now: KioskFixtures.morning)
        return (state, effects)
    }

    @Test func f3AsksForTheFirstRoutesDiagramAndShowsIt() throws {
        var (state, effects) = try diagramState()
        guard case let .diagram(screen) = state.screen else {
            Issue.record("F3 did not open the diagram: \(state.screen.name)")
            return
        }
        let board = KioskFixtures.board("2010")
        let first = try #require(board.view.routes.first).route.id
        #expect(effects == [.loadDiagram(routeID: first, stop: board.stop)])
        let diagram = try KioskFixtures.database.routeDiagram(route: first, viewer: board.stop)
        _ = state.handle(.diagramLoaded(routeID: screen.routeID, .success(diagram)), now: KioskFixtures.morning)
        let text = KioskFixtures.text(KioskScreenBuilder.build(state, width: 100, height: 30))
        #expect(text.contains("● Colón [2010]  ◀ usted está aquí"), "\(text)")
        #expect(text.contains("F3 →: otra línea"))
        // Esc: back to the stop board.
        effects = state.handle(.key(.escape), now: KioskFixtures.morning)
        #expect(state.screen.name == "stop")
        #expect(effects == [.loadStop(.resolved(board.stop))])
    }

    @Test func anAnswerForAnotherRouteIsIgnoredAndFailuresAreShown() throws {
        var (state, _) = try diagramState()
        let diagram = try KioskFixtures.database.routeDiagram(route: "TB")
        _ = state.handle(.diagramLoaded(routeID: "not-this-one", .success(diagram)), now: KioskFixtures.morning)
        guard case let .diagram(screen) = state.screen else { return }
        #expect(screen.diagram == nil)
        _ = state.handle(
            .diagramLoaded(routeID: screen.routeID, .failure(KioskFailureBox(.other(detail: "broken")))),
            now: KioskFixtures.morning)
        let text = KioskFixtures.text(KioskScreenBuilder.build(state, width: 80, height: 24))
        #expect(text.contains(Message.lookupFailed.text(.es)), "\(text)")
    }

    @Test func theStopBoardOffersTheKey() {
        let text = KioskFixtures.text(KioskScreenBuilder.build(KioskFixtures.stopState("2010"), width: 120, height: 30))
        #expect(text.contains("F3: paradas de cada línea"), "\(text)")
    }
}
