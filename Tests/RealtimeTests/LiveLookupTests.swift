import Foundation
import KioskTesting
import Testing

/// `kiosk lookup --realtime` on the sample network with its live scenario (assets/realtime): what the passenger
/// reads and what an integrator parses, fresh, stale and in online mode; bad feeds; the plan's note.
@Suite struct LiveLookupTests {
    static let scenario = Repository.root.appendingPathComponent("assets/realtime/quito-scenario.pb").path

    static func lookup(_ extra: [String], at: String = "2026-11-25T08:00") throws -> ProcessResult {
        try Programs.runKiosk(["lookup", "MQ09", "--at", at, "--window", "30"] + extra)
    }

    @Test func textMarksEveryDepartureLiveOrScheduled() throws {
        let result = try Self.lookup(["--realtime", Self.scenario, "--lang", "en"])
        #expect(result.status == 0, "\(result)")
        let out = result.stdout
        // the 08:03 to La Y runs 4 minutes late: shown at 08:07 with the delay and the timetable time
        #expect(out.contains("08:07  TB     La Y"), "\(out)")
        #expect(out.contains("● live +4 min (scheduled 08:03)"), "\(out)")
        // cancelled: kept on the board with the word (no terminal here, so no strike-through escape)
        let canceled = try #require(out.split(separator: "\n").first { $0.contains("✕ cancelled") })
        #expect(canceled.contains("08:14") && canceled.contains("El Recreo"), "\(out)")
        #expect(!out.contains("\u{1B}["))
        // skipped: the 08:11 to La Y does not stop here and is left out
        #expect(!out.contains("08:11  TB"), "\(out)")
        #expect(!out.contains("08:12  TB     La Y"), "\(out)")
        // added trip with its own time
        #expect(out.contains("08:16  TB     La Y") && out.contains("● live, extra service"), "\(out)")
        // departures without a prediction say they are the timetable's
        #expect(out.contains("○ timetable"), "\(out)")
        // the alert, in English
        #expect(out.contains("Service alerts\n  ⚠ Trolleybus: delays due to roadworks on Av. 10 de Agosto"), "\(out)")
        #expect(!out.contains("Live information unavailable"))
    }

    @Test func spanishUsesTheFeedsSpanishText() throws {
        let result = try Self.lookup(["--realtime", Self.scenario, "--lang", "es"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("● en vivo +4 min (programado 08:03)"), "\(result.stdout)")
        #expect(result.stdout.contains("✕ cancelado"))
        #expect(result.stdout.contains("● en vivo, servicio adicional"))
        #expect(result.stdout.contains("Avisos\n  ⚠ Trolebús: demoras por obras en la Av. 10 de Agosto"))
    }

    @Test func jsonCarriesTheRealtimeStateOfEachDeparture() throws {
        let result = try Self.lookup(["--realtime", Self.scenario, "--json"])
        #expect(result.status == 0, "\(result)")
        let view = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(view["realtime_age_seconds"] as? Int == 20)
        #expect(view["realtime_status"] as? String == "live")
        let departures = try #require(view["departures"] as? [[String: Any]])
        func realtime(_ trip: String) -> [String: Any]? {
            departures.first { $0["trip_id"] as? String == trip }?["realtime"] as? [String: Any]
        }
        #expect(realtime("TB-LAB-0-0740")?["state"] as? String == "updated")
        #expect(realtime("TB-LAB-0-0740")?["delay_seconds"] as? Int == 240)
        #expect(realtime("TB-LAB-0-0740")?["predicted_time"] as? String == "2026-11-25T08:07:00-05:00")
        #expect(realtime("TB-LAB-1-0756")?["state"] as? String == "canceled")
        #expect(realtime("TB-LAB-0-0748")?["state"] as? String == "skipped")
        #expect(realtime("TB-EXTRA-0816")?["state"] as? String == "added")
        #expect(realtime("TB-LAB-1-0804")?["state"] as? String == "scheduled")
        #expect(departures.allSatisfy { $0["realtime"] != nil })
        let alerts = try #require(view["alerts"] as? [[String: Any]])
        #expect(alerts.count == 1)
        #expect(alerts.first?["header"] as? String == "Trolebús: demoras por obras en la Av. 10 de Agosto")
        #expect(alerts.first?["effect"] as? String == "significant_delays")
        #expect(alerts.first?["scope"] as? String == "route")
    }

    @Test func staleDataFallsBackToTheTimetableAndSaysSince() throws {
        // ten minutes after the feed's header time: more than three 30 s polls
        let result = try Self.lookup(["--realtime", Self.scenario, "--lang", "en"], at: "2026-11-25T08:10")
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("  Live information unavailable since 07:59. Showing the timetable."),
            "\(result.stdout)")
        #expect(!result.stdout.contains("● live") && !result.stdout.contains("cancelled"))
        #expect(result.stdout.contains("08:14  TB     El Recreo"))  // the cancelled trip: the timetable knows nothing
        #expect(!result.stdout.contains("Service alerts"))
        let json = try Self.lookup(["--realtime", Self.scenario, "--json"], at: "2026-11-25T08:10")
        #expect(json.stdout.contains("\"realtime_status\" : \"stale\""))
        #expect(json.stdout.contains("\"realtime_unavailable_since\" : \"2026-11-25T07:59:40-05:00\""))
    }

    @Test func onlineModeShowsNothingRatherThanStaleData() throws {
        let stale = try Self.lookup(
            ["--realtime", Self.scenario, "--realtime-mode", "online", "--lang", "en"], at: "2026-11-25T08:10")
        #expect(stale.status == 0, "\(stale)")
        #expect(
            stale.stdout.contains(
                "Live information unavailable since 07:59. This kiosk shows live departures only, and none are available now."
            ), "\(stale.stdout)")
        #expect(!stale.stdout.contains("  08:"), "\(stale.stdout)")
        #expect(!stale.stdout.contains("No departures in the next"))
        let fresh = try Self.lookup(["--realtime", Self.scenario, "--realtime-mode", "online", "--lang", "en"])
        #expect(fresh.stdout.contains("● live +4 min"))
        let offline = try Self.lookup(["--realtime", Self.scenario, "--realtime-mode", "offline", "--lang", "en"])
        #expect(!offline.stdout.contains("● live") && !offline.stdout.contains("○"))
    }

    @Test func aFeedFileThatIsNotAFeedIsBadInput() throws {
        let folder = TemporaryFolder.make("live-lookup")
        let html = folder.appendingPathComponent("feed.html")
        try Data("<!doctype html><title>502 Bad Gateway</title>".utf8).write(to: html)
        let result = try Self.lookup(["--realtime", html.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(html.path), "\(result.stderr)")
        let missing = try Self.lookup(["--realtime", folder.appendingPathComponent("none.pb").path])
        #expect(missing.status == 2 && missing.stderr.contains("none.pb"), "\(missing)")
    }

    @Test func aFeedServerThatIsDownLeavesTheTimetable() throws {
        // a port nothing listens on: bound, then closed
        let port = try LocalPorts.unused()
        let result = try Self.lookup(["--realtime", "http://127.0.0.1:\(port)/trip-updates", "--lang", "en"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("warning: live data from http://127.0.0.1:\(port)/trip-updates unavailable"))
        #expect(result.stdout.contains("Live information unavailable. Showing the timetable."), "\(result.stdout)")
        #expect(result.stdout.contains("○ timetable"))
    }

    @Test func configuredFeedsAreUsedByTheLookupAndThePlan() throws {
        let folder = TemporaryFolder.make("live-config")
        let config = folder.appendingPathComponent("kiosk.toml")
        try Data("[realtime]\ntrip_updates = \"\(Self.scenario)\"\n".utf8).write(to: config)
        let lookup = try Self.lookup(["--config", config.path, "--lang", "en"])
        #expect(lookup.status == 0, "\(lookup)")
        #expect(lookup.stdout.contains("● live +4 min"), "\(lookup.stdout)")
        let plan = try Programs.runKiosk([
            "plan", "MQ09", "La Y", "--at", "2026-11-25T08:00", "--config", config.path, "--lang", "en",
        ])
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("● Journeys are planned on live times."), "\(plan.stdout)")
        let json = try Programs.runKiosk([
            "plan", "MQ09", "La Y", "--at", "2026-11-25T08:00", "--config", config.path, "--json",
        ])
        #expect(json.stdout.contains("\"live_times_used\" : true"))
    }
}
