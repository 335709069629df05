import Foundation

/// Data the program ships in `assets/`: the Quito sample network that every command falls back on when no
/// database is configured (the README's demo, tests, a kiosk on its first boot).
public enum SampleData {
    /// The sample GTFS feed, as a directory of `.txt` files.
    public static var sampleNetworkFeed: URL {
        Bundle.module.url(forResource: "sample-network", withExtension: nil)!
    }
}

extension SampleData {
    /// The sample network's live scenario: a GTFS-Realtime feed (trip updates and an alert) as the agency would
    /// publish it on 2026-11-25 at 07:59:40 -05:00 (`realtimeScenarioInstant`). Text source and how it was made:
    /// `assets/realtime/`.
    public static var realtimeScenario: URL {
        Bundle.module.url(forResource: "realtime", withExtension: nil)!.appendingPathComponent("quito-scenario.pb")
    }

    /// The local date-time the scenario is live at, and the demo's clock starts from.
    public static let realtimeScenarioInstant = "2026-11-25T08:00"
}
