import Foundation
import HummingbirdTesting
import KioskTesting
import Testing
import TransitModel
import TransitStore

/// The API of a database of several feeds (issue 24): every answer carrying a stop, route, trip or agency id carries
/// `feed_id` beside it, and `/api/v1/feed` lists every feed. A database of one feed answers as before: no `feed_id`.
@Suite struct MultiFeedAPITests {
    /// One operator's feed; the two operators use the same ids (station `1` with platform `1A`, stop `2`, agency
    /// `OP`, route `A`, service `WEEKDAY`, trips `T1` and `T2`). `latitude` places the station: the two stations
    /// are 33 m apart, so each is the other's nearby stop.
    static func operatorFeed(agency: String, station: String, latitude: String, terminus: String) -> [String: String] {
        [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nOP,\(agency),https://op.example,America/Guayaquil\n",
            "stops.txt": """
                stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
                1,,\(station),\(latitude),-78.5000,1,,
                1A,,\(station),\(latitude),-78.5000,0,1,A
                2,,\(terminus),-0.1800,-78.5000,0,,

                """,
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nA,OP,A,\(agency) A,3\n",
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWEEKDAY,1,1,1,1,1,0,0,20260101,20261231\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nA,WEEKDAY,T1,\(terminus)\nA,WEEKDAY,T2,\(terminus)\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:05:00,08:05:00,1A,1
                T1,08:15:00,08:15:00,2,2
                T2,08:35:00,08:35:00,1A,1
                T2,08:45:00,08:45:00,2,2

                """,
        ]
    }

    /// `metro` and `bus` in one database, read from the folders `metro` and `bus`.
    static let twoFeeds: String = {
        let dir = TemporaryFolder.make("web-two-feeds")
        let feeds = [
            ("metro", operatorFeed(agency: "Metro", station: "Central", latitude: "-0.2000", terminus: "Norte")),
            ("bus", operatorFeed(agency: "Bus", station: "Plaza", latitude: "-0.2003", terminus: "Sur")),
        ].map { id, files in
            let folder = dir.appendingPathComponent(id)
            try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, contents) in files { try! Data(contents.utf8).write(to: folder.appendingPathComponent(name)) }
            return FeedInput(argument: folder.path)
        }
        let path = dir.appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feeds: feeds, databasePath: path).run()
        return path
    }()

    static func get(_ uri: String, database: String) async throws -> (text: String, json: [String: Any]) {
        let result = ResultBox()
        try await TestSupport.withRouter(try TestSupport.service(database: database)) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok, "\(uri)")
                result.text = String(buffer: response.body)
            }
        }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any], "\(uri): \(result.text)")
        return (result.text, json)
    }

    final class ResultBox: @unchecked Sendable { var text = "" }

    /// Whether `object` (a decoded JSON object) has `feed_id` equal to the feed of its `id` (or of `idKey`).
    static func namesItsFeed(_ object: Any?, idKey: String = "id") -> Bool {
        guard let object = object as? [String: Any], let id = object[idKey] as? String,
            let feed = object["feed_id"] as? String
        else { return false }
        return id.hasPrefix(feed + ":")
    }

    static func objects(_ value: Any?) -> [[String: Any]] { value as? [[String: Any]] ?? [] }

    @Test func theStopViewNamesTheFeedOfEveryId() async throws {
        let (_, view) = try await Self.get("/api/v1/stops/metro:1?nearby=500", database: Self.twoFeeds)
        #expect(Self.namesItsFeed(view["stop"]))
        let platforms = Self.objects(view["platforms"])
        #expect(platforms.map { $0["id"] as? String } == ["metro:1A"] && platforms.allSatisfy { Self.namesItsFeed($0) })
        let departures = Self.objects(view["departures"])
        #expect(departures.count == 2)
        for departure in departures {
            #expect(departure["feed_id"] as? String == "metro")
            #expect(Self.namesItsFeed(departure, idKey: "trip_id") && Self.namesItsFeed(departure, idKey: "stop_id"))
            #expect(Self.namesItsFeed(departure["route"]))
        }
        let routes = Self.objects(view["routes"]).map { $0["route"] }
        #expect(!routes.isEmpty && routes.allSatisfy { Self.namesItsFeed($0) })
        let spans = Self.objects(view["service_spans"]).map { $0["route"] }
        #expect(!spans.isEmpty && spans.allSatisfy { Self.namesItsFeed($0) })
        // The other operator's station, 33 m away, with its own feed.
        let nearby = Self.objects(view["nearby"]).map { $0["stop"] as? [String: Any] ?? [:] }
        #expect(nearby.contains { $0["id"] as? String == "bus:1A" && $0["feed_id"] as? String == "bus" })
        #expect(nearby.allSatisfy { Self.namesItsFeed($0) })
    }

    @Test func searchesNameTheFeedOfEachStop() async throws {
        let (_, search) = try await Self.get("/api/v1/stops?q=Plaza", database: Self.twoFeeds)
        let stops = Self.objects(search["stops"]).map { $0["stop"] }
        #expect(!stops.isEmpty && stops.allSatisfy { Self.namesItsFeed($0) })
        #expect(stops.contains { ($0 as? [String: Any])?["feed_id"] as? String == "bus" })
        let (_, near) = try await Self.get("/api/v1/stops?near=-0.2001,-78.5000&radius=200", database: Self.twoFeeds)
        let feeds = Set(Self.objects(near["stops"]).map { ($0["stop"] as? [String: Any])?["feed_id"] as? String })
        #expect(feeds == ["metro", "bus"])
    }

    @Test func planLegsNameTheirFeeds() async throws {
        let (_, plan) = try await Self.get(
            "/api/v1/plan?from=bus:1&to=bus:2", database: Self.twoFeeds)
        #expect(Self.namesItsFeed(plan["from"]) && Self.namesItsFeed(plan["to"]))
        let legs = Self.objects(Self.objects(plan["options"]).first?["legs"])
        let ride = try #require(legs.first { $0["kind"] as? String == "ride" }, "\(plan)")
        #expect(Self.namesItsFeed(ride["route"]) && Self.namesItsFeed(ride, idKey: "trip_id"))
        #expect(ride["feed_id"] as? String == "bus")
        #expect(legs.allSatisfy { Self.namesItsFeed($0["from"]) && Self.namesItsFeed($0["to"]) })
    }

    @Test func routesAndAgenciesNameTheirFeeds() async throws {
        let (_, agencies) = try await Self.get("/api/v1/agencies", database: Self.twoFeeds)
        let list = Self.objects(agencies["agencies"])
        #expect(list.compactMap { $0["feed_id"] as? String } == ["metro", "bus"])
        #expect(list.allSatisfy { Self.namesItsFeed($0) })

        let (_, catalog) = try await Self.get("/api/v1/routes", database: Self.twoFeeds)
        let entries = Self.objects(catalog["agencies"])
        #expect(entries.count == 2 && entries.allSatisfy { Self.namesItsFeed($0["agency"]) })
        let routes = entries.flatMap { Self.objects($0["routes"]) }
        #expect(routes.map { $0["id"] as? String } == ["metro:A", "bus:A"] && routes.allSatisfy { Self.namesItsFeed($0) })

        let (_, route) = try await Self.get("/api/v1/routes/bus:A?date=2026-11-25", database: Self.twoFeeds)
        #expect(Self.namesItsFeed(route["route"]) && Self.namesItsFeed(route["agency"]))
        let stops = Self.objects(route["stops"]) + Self.objects(route["directions"]).flatMap { Self.objects($0["stops"]) }
        #expect(!stops.isEmpty && stops.allSatisfy { Self.namesItsFeed($0) && $0["feed_id"] as? String == "bus" })
    }

    @Test func theFeedAnswerListsEveryFeed() async throws {
        let (_, answer) = try await Self.get("/api/v1/feed", database: Self.twoFeeds)
        let feeds = Self.objects(answer["feeds"])
        #expect(feeds.map { $0["id"] as? String } == ["metro", "bus"])
        for feed in feeds {
            #expect(feed["source"] as? String == feed["id"] as? String)  // the folder each was read from
            #expect((feed["feed_hash"] as? String)?.count == 64)
            #expect(feed["time_zone"] as? String == "America/Guayaquil")
            #expect(feed["service_start"] as? String == "2026-01-01" && feed["service_end"] as? String == "2026-12-31")
            #expect(feed["agencies"] as? Int == 1 && feed["stops"] as? Int == 3 && feed["routes"] as? Int == 1)
            #expect(feed["trips"] as? Int == 2 && feed["stop_times"] as? Int == 4 && feed["warnings"] as? Int == 0)
        }
        #expect(answer["feed_hash"] is String && answer["database_generation"] as? Int == 0)  // the keys it had
    }

    /// openapi.json documents `feed_id` beside the ids of stops, routes, departures, ride legs and agencies, and
    /// the feed answer's `feeds` with every field it has.
    @Test func theContractDocumentsTheFeeds() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: OpenAPIContractTests.contractFile))
                as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func properties(_ schema: Any?) -> [String: Any] {
            (schema as? [String: Any])?["properties"] as? [String: Any] ?? [:]
        }
        for name in ["StopInfo", "Route", "Departure", "JourneyStep", "Agency"] {
            let feedID = properties(schemas[name])["feed_id"] as? [String: Any]
            #expect(feedID?["$ref"] as? String == "#/components/schemas/FeedID", "\(name)")
            let required = (schemas[name] as? [String: Any])?["required"] as? [String] ?? []
            #expect(!required.contains("feed_id"), "\(name): absent with one feed")
        }
        let agency = (properties(schemas["Agencies"])["agencies"] as? [String: Any])?["items"]
        #expect(properties(agency)["feed_id"] != nil)
        let feeds = try #require(properties(schemas["Feed"])["feeds"] as? [String: Any])
        let item = try #require(feeds["items"] as? [String: Any])
        let fields = [
            "id", "source", "feed_hash", "time_zone", "service_start", "service_end", "agencies", "stops", "routes",
            "trips", "stop_times", "warnings",
        ]
        #expect(Set(properties(item).keys) == Set(fields) && Set(item["required"] as? [String] ?? []) == Set(fields))
    }

    /// A database of one feed: the same answers without `feed_id`; `/api/v1/feed` lists its one feed.
    @Test func oneFeedAnswersNameNoFeed() async throws {
        for uri in [
            "/api/v1/stops/1091?nearby=500", "/api/v1/stops?q=ejido", "/api/v1/stops?near=-0.2105,-78.4934",
            "/api/v1/plan?from=1091&to=1011", "/api/v1/agencies", "/api/v1/routes",
        ] {
            let (text, _) = try await Self.get(uri, database: TestSupport.sampleDatabase)
            #expect(!text.contains("feed_id"), "\(uri)")
        }
        let routes = try await Self.get("/api/v1/routes", database: TestSupport.sampleDatabase).json
        let first = try #require(Self.objects(Self.objects(routes["agencies"]).first?["routes"]).first?["id"] as? String)
        let (route, _) = try await Self.get(
            "/api/v1/routes/\(first.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)?date=2026-11-25",
            database: TestSupport.sampleDatabase)
        #expect(!route.contains("feed_id"))
        let (_, feed) = try await Self.get("/api/v1/feed", database: TestSupport.sampleDatabase)
        let feeds = Self.objects(feed["feeds"])
        #expect(feeds.count == 1 && feeds.first?["stops"] as? Int == 94)
    }
}

/// The stop page of an interchange of two feeds' operators (issue 24): both operators' departures, each naming
/// its operator; a one-operator board names none.
@Suite struct MultiFeedPageTests {
    static let interchange: String = {
        let dir = TemporaryFolder.make("web-interchange")
        let feeds = [
            ("metro", MultiFeedAPITests.operatorFeed(agency: "Metro", station: "Central", latitude: "-0.2000", terminus: "Norte")),
            ("bus", MultiFeedAPITests.operatorFeed(agency: "Bus", station: "Central", latitude: "-0.2003", terminus: "Sur")),
        ].map { id, files in
            let folder = dir.appendingPathComponent(id)
            try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, contents) in files { try! Data(contents.utf8).write(to: folder.appendingPathComponent(name)) }
            return FeedInput(argument: folder.path)
        }
        let path = dir.appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feeds: feeds, databasePath: path).run()
        return path
    }()

    static func page(_ uri: String, database: String) async throws -> String {
        let result = MultiFeedAPITests.ResultBox()
        try await TestSupport.withRouter(try TestSupport.service(database: database)) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok, "\(uri)")
                result.text = String(buffer: response.body)
            }
        }
        return result.text
    }

    /// The departure rows of a stop page (one per route and destination, issue 37), tags removed.
    static func departureRows(_ html: String) -> [String] {
        let table = html.components(separatedBy: "<table class=\"departures groups\">").dropFirst().first?
            .components(separatedBy: "</table>").first ?? ""
        return table.components(separatedBy: "<tr").dropFirst().map {
            $0.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    @Test func anInterchangeBoardNamesEachDeparturesOperator() async throws {
        for stop in ["metro:1", "bus:1"] {
            let rows = Self.departureRows(
                try await Self.page("/s/\(stop)?lang=en&at=2026-11-25T08:00", database: Self.interchange))
            // One row per route and destination, each with its two departures and the operator that runs it.
            #expect(rows.count == 2, "\(stop): \(rows)")
            #expect(rows.filter { $0.contains("Norte") }.allSatisfy { $0.contains("Metro") }, "\(rows)")
            #expect(rows.filter { $0.contains("Sur") }.allSatisfy { $0.contains("Bus") }, "\(rows)")
            #expect(rows.filter { $0.contains("Sur") }.count == 1, "\(rows)")
            #expect(rows.allSatisfy { $0.components(separatedBy: " min").count - 1 == 2 }, "\(rows)")
        }
        // The metro's stop 2 is served by the metro alone: no operator to tell apart.
        let alone = Self.departureRows(
            try await Self.page("/s/metro:1A?lang=en&at=2026-11-25T08:00", database: MultiFeedAPITests.twoFeeds))
        #expect(alone.count == 1 && alone.allSatisfy { !$0.contains("Metro") }, "\(alone)")
    }
}
