import Foundation
import Testing

@testable import KioskConfiguration

/// `[[update.feeds]]` (issue 24): one table per feed of a region's database for `kiosk update`, each with its id
/// and URL; `[update] gtfs_url` alone stays as it was.
@Suite struct UpdateFeedsConfigTests {
    static func problem(_ text: String) -> String {
        do {
            _ = try KioskConfigFile.parse(text, file: "k.toml")
            return "(accepted)"
        } catch {
            return error.description
        }
    }

    @Test func eachFeedHasItsIdURLAndHeaders() throws {
        let config = try KioskConfigFile.parse(
            """
            [update]
            headers = { "x-api-key" = "region", "x-other" = "o" }
            transfers = "/etc/stopkiosk/between.txt"
            interchanges = "/etc/stopkiosk/places.txt"
            [[update.feeds]]
            id = "metro"
            url = "https://metro.example/gtfs.zip"
            [[update.feeds]]
            id = "bus_2"
            url = "http://bus.example/feed.zip"
            headers = { "x-api-key" = "bus" }
            """, file: "k.toml")
        #expect(
            config.updateFeeds == [
                UpdateFeedSource(
                    id: "metro", url: "https://metro.example/gtfs.zip",
                    headers: ["x-api-key": "region", "x-other": "o"]),
                UpdateFeedSource(
                    id: "bus_2", url: "http://bus.example/feed.zip", headers: ["x-api-key": "bus", "x-other": "o"]),
            ])
        #expect(config.updateTransfers == "/etc/stopkiosk/between.txt" && config.updateInterchanges == "/etc/stopkiosk/places.txt")
        #expect(config.updateURL == nil)
        // One feed as before.
        let one = try KioskConfigFile.parse("[update]\ngtfs_url = \"https://a.example/g.zip\"\n", file: "k.toml")
        #expect(one.updateURL == "https://a.example/g.zip" && one.updateFeeds.isEmpty && one.updateTransfers == nil)
    }

    @Test func errorsNameTheKey() {
        let metro = "[[update.feeds]]\nid = \"metro\"\nurl = \"https://m.example/g.zip\"\n"
        let cases: [(String, String)] = [
            (metro + "[[update.feeds]]\nid = \"bus\"\n", "k.toml: update.feeds[1].url: is missing"),
            (
                metro + "[[update.feeds]]\nid = \"bus\"\nurl = \"ftp://b.example/g.zip\"\n",
                "update.feeds[1].url: must be"
            ),
            (metro + "[[update.feeds]]\nurl = \"https://b.example/g.zip\"\n", "update.feeds[1].id: is missing"),
            (
                metro + "[[update.feeds]]\nid = \"metro\"\nurl = \"https://b.example/g.zip\"\n",
                "update.feeds[1].id: \"metro\" is already update.feeds[0]'s"
            ),
            (
                "[[update.feeds]]\nid = \"bus:1\"\nurl = \"https://b.example/g.zip\"\n",
                "update.feeds[0].id: \"bus:1\" is not a feed id"
            ),
            (
                metro + "[[update.feeds]]\nid = \"bus\"\nurl = \"https://b.example/g.zip\"\nfeed = \"x\"\n",
                "update.feeds[1].feed: unknown key"
            ),
            ("[update]\nfeeds = []\n", "update.feeds: is an empty list"),
            ("[update]\nfeeds = \"metro\"\n", "update.feeds: must be one [[update.feeds]] table per feed"),
            ("[update]\ngtfs_url = \"https://a.example/g.zip\"\n" + metro, "update.gtfs_url: with [[update.feeds]]"),
            (
                "[update]\ntransfers = \"t.txt\"\ngtfs_url = \"https://a.example/g.zip\"\n",
                "update.transfers: is for a database of several feeds"
            ),
            ("[update]\ntransfers = \" \"\n" + metro, "update.transfers: is empty"),
            ("[update]\ninterchanges = \"i.txt\"\n", "update.interchanges: is for a database of several feeds"),
            ("[update]\ninterchanges = \"\"\n" + metro, "update.interchanges: is empty"),
        ]
        for (text, says) in cases {
            let problem = Self.problem(text)
            #expect(problem.contains(says), "\(text)\n→ \(problem)")
        }
    }
}
