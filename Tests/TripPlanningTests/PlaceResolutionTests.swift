import Foundation
import KioskTesting
import Testing
import TransitStore
import TripPlanning

/// A journey end typed by a passenger (issue 37): a stop only when the text names one place, else the stops to
/// choose from — on the plan page a list, in `kiosk plan` the candidates and exit 2, never a silent pick.
@Suite struct PlaceResolutionTests {
    static let sample = Result { try RouteDatabase(path: try SampleNetwork.databasePath()) }

    @Test func aCodeAnIDOrAWholeNameIsOneStop() throws {
        let database = try Self.sample.get()
        for text in ["1091", "MQ09A", "Cumbayá", "cumbaya"] {
            guard case .stop = try database.resolvePlace(text) else {
                Issue.record("\(text) did not resolve to one stop")
                continue
            }
        }
    }

    @Test func aPartialOrSharedNameIsAChoiceWithRoutes() throws {
        let database = try Self.sample.get()
        guard case .choose(let candidates) = try database.resolvePlace("El") else {
            Issue.record("'El' picked one stop")
            return
        }
        #expect(candidates.count > 2)
        #expect(candidates.contains { $0.stop.name == "El Batán" && $0.routes.map(\.label) == ["A1"] })
        #expect(throws: LookupError.self) { try database.resolveJourneyEnd("El") }
    }

    @Test func kioskPlanListsTheCandidatesAndExitsTwo() throws {
        let environment = ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path]
        let result = try Programs.runKiosk(
            ["plan", "1091", "El", "--at", "2026-11-25T08:00", "--lang", "en"], environment: environment)
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("'El' matches several stops"), "\(result.stderr)")
        #expect(result.stderr.contains("El Batán [5002]"), "\(result.stderr)")
    }
}
