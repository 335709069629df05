import Foundation
import KioskTesting
import Testing

@Suite struct PlanCommandTests {
    let environment = ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path]

    @Test func textAndJSON() throws {
        let text = try Programs.runKiosk(
            ["plan", "cumbaya", "La Carolina", "--at", "2026-11-25T08:00", "--lang", "en"], environment: environment)
        if text.status == 2 {
            #expect(text.stderr.contains("matches several stops"))
        } else {
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("From Cumbayá to La Carolina"))
            #expect(text.stdout.contains("Option 1:"))
        }
        let json = try Programs.runKiosk(
            ["plan", "1011", "1151", "--at", "2026-11-25T08:00", "--json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let options = try #require(object["options"] as? [[String: Any]])
        #expect(options.first?["departure"] as? String == "2026-11-25T08:02:00-05:00")
        #expect(options.first?["transfers"] as? Int == 0)
        let leg = try #require((options.first?["legs"] as? [[String: Any]])?.first)
        #expect(leg["kind"] as? String == "ride" && leg["stops"] as? Int == 14)
    }

    @Test(arguments: [
        (["1011", "1011"], "the origin and the destination are the same stop"),
        (["1011", "1151", "--max-transfers=-1"], "--max-transfers must be between 0 and 8"),
        (["1011", "1151", "--max-transfers", "1000"], "--max-transfers must be between 0 and 8"),
        (["1011", "1151", "--walk-radius", "50000"], "--walk-radius must be between 0 and 2000"),
        (["1011", "zzzz qqqq"], "no such stop"),
        (["", "1151"], "the stop query is empty"),
        (["1011", "1151", "--at", "2031-02-01T08:00"], "is outside the timetable"),
        (["universidad", "1151"], "matches several stops"),
    ])
    func badInputExitsTwo(arguments: [String], message: String) throws {
        let result = try Programs.runKiosk(["plan"] + arguments, environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
