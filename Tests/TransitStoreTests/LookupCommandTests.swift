import Foundation
import KioskTesting
import Testing

/// `kiosk lookup` as an integrator runs it: exit codes and the messages on standard error.
@Suite struct LookupCommandTests {
    /// Each run gets its own cache, so the bundled sample is imported where the test can see it.
    let environment = ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path]

    func lookup(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(["lookup"] + arguments, environment: environment)
    }

    @Test func textAndJSONOnTheBundledSample() throws {
        let text = try lookup(["1091", "--at", "2026-11-25T08:00", "--window", "30", "--lang", "en"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("El Ejido  [1091]"))
        #expect(text.stdout.contains("Departures in the next 30 min"))
        #expect(text.stdout.contains("08:03  L1     El Labrador"))
        let spanish = try lookup(["1091", "--at", "2026-11-25T08:00", "--window", "30"])
        #expect(spanish.stdout.contains("Salidas en los próximos 30 min"))

        let json = try lookup(["1091", "--at", "2026-11-25T08:00", "--window", "30", "--json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["at"] as? String == "2026-11-25T08:00:00-05:00")
        let departures = try #require(object["departures"] as? [[String: Any]])
        #expect(departures.count == 7)
        #expect(departures.first?["time"] as? String == "2026-11-25T08:03:30-05:00")
        #expect(departures.first?["minutes_from_now"] as? Int == 3)
        #expect((object["stop"] as? [String: Any])?["code"] as? String == "1091")
        for key in ["routes", "service_spans", "nearby", "platforms", "window_minutes", "time_zone", "service_date"] {
            #expect(object[key] != nil, "JSON field \(key)")
        }
    }

    @Test func unknownStopExitsTwoWithSuggestions() throws {
        let result = try lookup(["1019"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no such stop: '1019'; did you mean:"))
        #expect(result.stderr.contains("[1011]") || result.stderr.contains("[1091]"))
        #expect(!result.stderr.contains("Fatal") && result.stdout.isEmpty)
    }

    @Test(arguments: [
        ([""], "the stop query is empty"),
        ([String(repeating: "x", count: 10_240)], "the stop query is 10240 characters long"),
        (["10\u{1B}[2J91"], "the stop query contains control characters"),
        (
            ["1091", "--at", "2030-01-01T08:00"],
            "2030-01-01 is outside the timetable: it covers 2026-01-01 to 2027-12-31"
        ),
        (["1091", "--at", "tomorrow"], "cannot read the time 'tomorrow'"),
        (["1091", "--window", "0"], "--window must be between 1 and 1440 minutes"),
        (["1091", "--lang", "fr"], "--lang"),
    ])
    func badInputExitsTwoWithAClearMessage(arguments: [String], message: String) throws {
        let result = try lookup(arguments)
        #expect(result.status == 2, "\(arguments.first?.prefix(20) ?? "")")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr.prefix(300))")
        #expect(!result.stderr.contains("\u{1B}"), "escape sequences from the query must not reach the terminal")
    }

    @Test func signedLabelURLsWithTheKiosksConfig() throws {
        let dir = TemporaryFolder.make("signed")
        let keys = try Programs.runKiosk(["keys", "generate", "--out", dir.path], environment: environment)
        #expect(keys.status == 0, "\(keys.stderr)")
        let publicLine = try #require(
            keys.stdout.split(separator: "\n").compactMap { line in
                line.range(of: "stopkiosk-ed25519-public-v1:").map { String(line[$0.lowerBound...]) }
            }.first)
        let labels = try Programs.runKiosk(
            [
                "labels", "--stops", "1091", "--sign-key", dir.appendingPathComponent("label-signing.key").path,
                "--json", "--proof", "--out", dir.appendingPathComponent("l.pdf").path,
            ], environment: environment)
        #expect(labels.status == 0, "\(labels.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(labels.stdout.utf8)) as? [String: Any])
        let url = try #require((object["labels"] as? [[String: Any]])?.first?["payload"] as? String)
        let config = dir.appendingPathComponent("kiosk.toml")
        try "[labels]\nsignature_policy = \"require\"\npublic_keys = [\"\(publicLine)\"]\n".write(
            to: config, atomically: true, encoding: .utf8)

        let genuine = try lookup([url, "--config", config.path, "--at", "2026-11-25T08:00", "--json"])
        #expect(genuine.status == 0, "\(genuine.stderr)")
        #expect(genuine.stdout.contains("\"code\" : \"1091\""))

        let edited = url.replacingOccurrences(of: "/s/1091?", with: "/s/1092?")
        let forged = try lookup([edited, "--config", config.path])
        #expect(forged.status == 2)
        #expect(forged.stderr.contains("forged or damaged label"))

        let unsigned = try lookup(["https://transit.example/s/1091", "--config", config.path])
        #expect(unsigned.status == 2)
        #expect(unsigned.stderr.contains("signature required"))

        // The same config drives `kiosk scan`: the printed label, photographed, resolves under `require`.
        let png = dir.appendingPathComponent("1091.png")
        let printed = try Programs.runKiosk(
            [
                "labels", "--stops", "1091", "--layout", "single", "--format", "png", "--sign-key",
                dir.appendingPathComponent("label-signing.key").path, "--proof", "--out", png.path,
            ], environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let scanned = try Programs.runKiosk(
            ["scan", "--images", png.path, "--config", config.path, "--json", "--once"], environment: environment)
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(
            scanned.stdout.contains("\"status\":\"stop\"") || scanned.stdout.contains("\"status\" : \"stop\""),
            "\(scanned.stdout)")
        #expect(scanned.stdout.contains("1091"))

        let badConfig = dir.appendingPathComponent("bad.toml")
        try "[labels]\nsignature_policy = \"sometimes\"\n".write(to: badConfig, atomically: true, encoding: .utf8)
        let refused = try lookup(["1091", "--config", badConfig.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("bad.toml"))
    }

    @Test func missingOrCorruptDatabase() throws {
        let dir = TemporaryFolder.make("dbs")
        let missing = try lookup(["1091", "--db", dir.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.sqlite does not exist; create it with: kiosk import FEED.zip --db"))

        let corrupt = dir.appendingPathComponent("corrupt.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: corrupt)
        let result = try lookup(["1091", "--db", corrupt.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("corrupt.sqlite is not a usable route database"))
        #expect(result.stderr.contains("rebuild it with: kiosk import"))
    }
}
