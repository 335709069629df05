import KioskConfiguration
import Testing
import TransitModel

/// `[realtime] alerts` names one source or several (the agency's feed and the staff messages file, issue 26).
@Suite struct RealtimeAlertsConfigTests {
    @Test func alertsTakeOneSourceOrAList() throws {
        let one = try KioskConfigFile.parse("[realtime]\nalerts = \"/var/lib/a.pb\"\n", file: "k.toml").realtime
        #expect(one.alertFeeds == ["/var/lib/a.pb"] && one.alerts == "/var/lib/a.pb")
        let two = try KioskConfigFile.parse(
            """
            [realtime]
            trip_updates = "https://agency.example/tu.pb"
            alerts = ["https://agency.example/alerts.pb", "/var/lib/stopkiosk/messages.pb"]
            """, file: "k.toml"
        ).realtime
        #expect(two.alertFeeds == ["https://agency.example/alerts.pb", "/var/lib/stopkiosk/messages.pb"])
        #expect(two.sources.map(\.key) == ["trip_updates", "alerts", "alerts"] && two.problems.isEmpty)
    }

    @Test func badListsAreRefusedNamingTheEntry() {
        for (text, message) in [
            ("alerts = []", "k.toml: realtime.alerts: is an empty list"),
            ("alerts = [\"/a.pb\", 3]", "k.toml: realtime.alerts[1]: must be a string"),
            ("alerts = [\"/a.pb\", \"ftp://x/b.pb\"]", "k.toml: realtime.alerts[1]: \"ftp://x/b.pb\" is neither"),
            ("alerts = [\"/a.pb\", \" \"]", "k.toml: realtime.alerts[1]: is empty"),
            ("alerts = [\"/a.pb\", \"/a.pb\"]", "k.toml: realtime.alerts[1]: \"/a.pb\" is already in the list"),
        ] {
            do {
                _ = try KioskConfigFile.parse("[realtime]\n\(text)\n", file: "k.toml")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(text): got \(error.description)")
            }
        }
        #expect(
            RealtimeSettings(alerts: "/a.pb", moreAlerts: ["/a.pb"]).problems == [
                "[realtime] alerts names '/a.pb' twice"
            ])
    }
}
