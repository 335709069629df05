import Foundation
import KioskTesting
import ScanService
import TransitModel
import TransitStore
import TripPlanning

@testable import TerminalKiosk

/// The sample network imported once per test process, and helpers to build kiosk states from it.
enum KioskFixtures {
    static let database: RouteDatabase = try! RouteDatabase(path: SampleNetwork.databasePath())

    /// Wednesday 2026-11-25 08:00 in Quito: the instant the sample's README documents departures for.
    static let morning: Date = LocalTime.parse("2026-11-25T08:00", in: database.timeZone)!

    static func board(_ query: String, at: Date = morning) -> KioskStopBoard {
        let stop = try! database.resolveStop(.idOrCode(query))
        return KioskStopBoard(stop: stop, view: try! database.stopView(for: stop, at: at))
    }

    static var readyStatus: KioskDatabaseStatus {
        .ready(
            feedName: database.feedName, timeZone: database.timeZone.identifier,
            serviceStart: database.serviceStart?.description, serviceEnd: database.serviceEnd?.description)
    }

    /// A kiosk that stands at El Ejido, database ready, home board loaded.
    static func idleState(language: Language = .es, idleTimeout: TimeInterval = 60) -> KioskState {
        var state = KioskState(language: language, idleTimeout: idleTimeout, hasHomeStop: true, now: morning)
        _ = state.handle(.databaseStatus(readyStatus), now: morning)
        _ = state.handle(.homeLoaded(.success(board("MQ09"))), now: morning)
        _ = state.handle(.camera(.streaming), now: morning)
        return state
    }

    static func scan(_ code: String) -> ScanOutcome {
        let stop = try! database.resolveStop(.code(code))
        return ScanOutcome(status: .stop, text: "https://transit.example/s/\(code)", stop: stop)
    }

    /// The state after a scan of `code` and its board arriving.
    static func stopState(_ code: String, language: Language = .es) -> KioskState {
        var state = idleState(language: language)
        _ = state.handle(.scan(scan(code)), now: morning)
        _ = state.handle(.stopLoaded(.success(board(code))), now: morning)
        return state
    }

    static func plan(from: String, to: String) -> JourneyPlan {
        try! database.plan(from: database.resolveEndpoint(from), to: database.resolveEndpoint(to), at: morning)
    }

    /// The text of a canvas (what `tmux capture-pane -p` would show).
    static func text(_ canvas: ScreenCanvas) -> String { canvas.text }

    /// Staff import, in place over `database`, the agency's new timetable in which the home stop (1091) is renamed
    /// "El Ejido Renovado" (the sample network, copied into `folder`); returns the import's exit status.
    static func importRenamedHomeStop(over database: String, in folder: String) throws -> Int32 {
        let feed = folder + "/feed"
        try FileManager.default.copyItem(atPath: SampleNetwork.feed.path, toPath: feed)
        let stops = try String(contentsOfFile: feed + "/stops.txt", encoding: .utf8)
        try stops.replacingOccurrences(of: "MQ09A,1091,El Ejido,", with: "MQ09A,1091,El Ejido Renovado,")
            .write(toFile: feed + "/stops.txt", atomically: true, encoding: .utf8)
        return try Programs.runKiosk(["import", feed, "--db", database]).status
    }
}
