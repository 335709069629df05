import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// Several GTFS feeds in one route database (issue 24): ids namespaced per feed, bare ids where one feed has
/// them, the whole set refused when one feed is, one clock per database.
@Suite struct MultiFeedImportTests {
    /// Two operators whose feeds use the same ids: stop `1`, route `A`, service `WEEKDAY`, trip `T1`.
    static func operatorFeed(
        agency: String, zone: String = "America/Guayaquil", stopName: String, latitude: String, extraStop: String
    ) -> [String: String] {
        [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nOP,\(agency),https://op.example,\(zone)\n",
            "stops.txt":
                "stop_id,stop_code,stop_name,stop_lat,stop_lon\n1,,\(stopName),\(latitude),-78.500\n2,,\(extraStop),\(latitude)5,-78.510\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nA,OP,A,\(agency) A,3\n",
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWEEKDAY,1,1,1,1,1,0,0,20260101,20261231\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nA,WEEKDAY,T1,\(extraStop)\n",
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,1,1\nT1,08:10:00,08:10:00,2,2\n",
        ]
    }

    static let metro = operatorFeed(agency: "Metro", stopName: "Central", latitude: "-0.200", extraStop: "Norte")
    static let bus = operatorFeed(agency: "Bus", stopName: "Plaza", latitude: "-0.300", extraStop: "Sur")

    func importFeeds(_ feeds: [(String, [String: String])], into path: String) throws -> ImportSummary {
        let inputs = feeds.map { FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path) }
        return try GTFSImporter(feeds: inputs, databasePath: path).run()
    }

    @Test func collidingIdsLiveInTheirFeedsNamespace() throws {
        let dir = TemporaryFolder.make("multi")
        let path = dir.appendingPathComponent("region.sqlite").path
        let summary = try importFeeds([("metro", Self.metro), ("bus", Self.bus)], into: path)
        #expect(summary.feeds.map(\.id) == ["metro", "bus"])
        #expect(summary.feeds.map(\.stops) == [2, 2] && summary.feeds.map(\.trips) == [1, 1])
        #expect(summary.feeds.map(\.stopTimes) == [2, 2])
        #expect(summary.count("stops") == 4 && summary.count("services") == 2 && summary.count("routes") == 2)
        #expect(summary.feedName == "metro, bus")

        let db = try RouteDatabase(path: path)
        #expect(db.feeds.map(\.id) == ["metro", "bus"] && db.feeds.map(\.idPrefix) == ["metro:", "bus:"])
        #expect(try db.resolveStop(.id("metro:1")).stop.name == "Central")
        #expect(try db.resolveStop(.id("bus:1")).stop.name == "Plaza")
        #expect(db.namespaces.feedID(of: "bus:1") == "bus" && db.namespaces.bareID("bus:1") == "1")

        // A bare id both feeds have is refused with both candidates; an unknown one is simply unknown.
        let ambiguity = #expect(throws: LookupError.self) { try db.resolveStop(.id("1")) }
        #expect("\(ambiguity!)".contains("metro:1") && "\(ambiguity!)".contains("bus:1"))
        #expect(throws: LookupError.self) { try db.resolveStop(.id("99")) }

        // Each feed's trip runs on its own WEEKDAY service, from its own stop 1.
        let at = try #require(LocalTime.parse("2026-11-25T07:55", in: db.timeZone))
        let metroView = try db.stopView(for: try db.resolveStop(.id("metro:1")), at: at)
        #expect(metroView.departures.map(\.route.id) == ["metro:A"])
        #expect(metroView.departures.map(\.tripID) == ["metro:T1"])
        #expect(metroView.departures.first?.route.agency == "Metro")
        let busView = try db.stopView(for: try db.resolveStop(.id("bus:1")), at: at)
        #expect(busView.departures.map(\.route.id) == ["bus:A"] && busView.departures.first?.headsign == "Sur")
    }

    @Test func aBareIdOneFeedHasResolvesToIt() throws {
        var bus = Self.bus
        bus["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nB1,Plaza,-0.300,-78.500\n2,Sur,-0.3005,-78.510\n"
        bus["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,B1,1\nT1,08:10:00,08:10:00,2,2\n"
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        _ = try importFeeds([("metro", Self.metro), ("bus", bus)], into: path)
        let db = try RouteDatabase(path: path)
        #expect(try db.resolveStop(.id("B1")).stop.id == "bus:B1")
        #expect(try db.resolveStop(.idOrCode("B1")).stop.name == "Plaza")
        #expect(try db.routeIndex(for: "bus:A") != db.routeIndex(for: "metro:A"))
        #expect(throws: RouteQueryError.self) { try db.routeIndex(for: "A") }  // both feeds have route A
    }

    @Test func oneFeedKeepsItsIdsAsTheyAre() throws {
        let path = TemporaryFolder.make("single").appendingPathComponent("one.sqlite").path
        let summary = try importFeeds([("metro", Self.metro)], into: path)
        let db = try RouteDatabase(path: path)
        #expect(summary.feeds.map(\.id) == ["metro"] && db.feeds.map(\.idPrefix) == [""])
        #expect(db.namespaces.isEmpty)
        #expect(try db.resolveStop(.id("1")).stop.id == "1")
    }

    @Test func aRefusedFeedRefusesTheSetAndIsNamed() throws {
        let dir = TemporaryFolder.make("multi")
        let path = dir.appendingPathComponent("region.sqlite").path
        _ = try importFeeds([("metro", Self.metro)], into: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var broken = Self.bus
        broken["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,1,1\nT1,08:10:00,08:10:00,7,2\n"
        let error = #expect(throws: ImportError.self) {
            try importFeeds([("metro", Self.metro), ("bus", broken)], into: path)
        }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("feed 'bus' (") && text.hasSuffix("): stop_times.txt line 3, column 'stop_id': '7' is not defined in stops.txt"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func feedIdsAreCheckedAndDistinct() throws {
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        let bad = #expect(throws: ImportError.self) { try importFeeds([("metro", Self.metro), ("bus line", Self.bus)], into: path) }
        #expect(bad?.description.contains("the feed id 'bus line'") == true)
        let twice = #expect(throws: ImportError.self) { try importFeeds([("metro", Self.metro), ("metro", Self.bus)], into: path) }
        #expect(twice?.description.contains("two feeds have the id 'metro'") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(FeedInput(argument: "feeds/mx-metro.zip") == FeedInput(id: "mx-metro", path: "feeds/mx-metro.zip"))
        #expect(FeedInput(argument: "subte=/data/a=b.zip") == FeedInput(id: "subte", path: "/data/a=b.zip"))
        #expect(FeedInput(argument: "/data/a=b.zip") == FeedInput(id: "a=b", path: "/data/a=b.zip"))
    }

    /// One database keeps one clock: another name for the same clock (Bogotá and Guayaquil have both been
    /// UTC−5 without daylight saving since 1993) is accepted, a different clock refused, naming both zones.
    @Test func feedsMustKeepOneClock() throws {
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        let bogota = Self.operatorFeed(
            agency: "Bus", zone: "America/Bogota", stopName: "Plaza", latitude: "-0.300", extraStop: "Sur")
        let summary = try importFeeds([("metro", Self.metro), ("bus", bogota)], into: path)
        #expect(summary.timeZone == "America/Guayaquil" && summary.feeds.map(\.timeZone) == ["America/Guayaquil", "America/Bogota"])

        let newYork = Self.operatorFeed(
            agency: "Bus", zone: "America/New_York", stopName: "Plaza", latitude: "-0.300", extraStop: "Sur")
        let error = #expect(throws: ImportError.self) {
            try importFeeds([("metro", Self.metro), ("bus", newYork)], into: path)
        }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("feed 'bus' ("))
        #expect(text.contains("): its time zone America/New_York keeps a different clock from America/Guayaquil, the zone of feed 'metro' (they differ on 2026-03-08)"))
    }

    /// A bus stop named as the metro's stop a few metres away is the same stop: either one's stop view shows
    /// both operators' departures. One of the same name across the street (25 m) or 500 m away is another.
    @Test func stopsOfOneNameAFewMetresApartAreOneInterchange() throws {
        var bus = Self.bus
        bus["stops.txt"] =
            "stop_id,stop_name,stop_lat,stop_lon\n1,CENTRAL,-0.20004,-78.50002\n2,Norte,-0.2045,-78.510\n3,Central,-0.2002,-78.5001\n"
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        let summary = try importFeeds([("metro", Self.metro), ("bus", bus)], into: path)
        #expect(summary.interchanges == 1)
        let db = try RouteDatabase(path: path)
        let at = try #require(LocalTime.parse("2026-11-25T07:55", in: db.timeZone))
        for id in ["metro:1", "bus:1"] {
            let place = try db.resolveStop(.id(id))
            #expect(place.stop.id == id && Set(place.platforms.map(\.id)) == ["metro:1", "bus:1"])
            let view = try db.stopView(for: place, at: at)
            #expect(Set(view.departures.map(\.route.id)) == ["metro:A", "bus:A"], "\(id)")
            #expect(Set(view.departures.map(\.route.agency)) == ["Metro", "Bus"])
        }
        // The interchange is one place to a search: listed once, beside the other Central across the street.
        let found = try db.searchStops("central").map(\.stop.id)
        #expect(found.count == 2 && found.contains("bus:3") && Set(found).intersection(["metro:1", "bus:1"]).count == 1)
        // Nearby, an interchange is one stop too: the other Central across the street lists the place once.
        let across = try db.stopView(for: try db.resolveStop(.id("bus:3")), at: at).nearby.map(\.stop.id)
        #expect(across.filter { $0 == "metro:1" || $0 == "bus:1" }.count == 1)
        // "Norte" is a stop of both feeds too, but 500 m apart: two places; bus:3 is across the street.
        #expect(try db.resolveStop(.id("metro:2")).platforms.map(\.id) == ["metro:2"])
        #expect(try db.resolveStop(.id("bus:3")).platforms.map(\.id) == ["bus:3"])
    }

    /// A place holds at most one stop of each feed: two stops the bus feed keeps apart, both within a few metres
    /// of the metro's, are not made one through it; the metro's stop joins the nearer.
    @Test func anInterchangeNeverJoinsTwoStopsOfOneFeed() throws {
        var bus = Self.bus
        bus["stops.txt"] =
            "stop_id,stop_name,stop_lat,stop_lon\n1,Central,-0.20004,-78.50002\n2,Norte,-0.2045,-78.510\n4,Central,-0.19995,-78.50003\n"
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        let summary = try importFeeds([("metro", Self.metro), ("bus", bus)], into: path)
        #expect(summary.interchanges == 1)
        let db = try RouteDatabase(path: path)
        #expect(Set(try db.resolveStop(.id("metro:1")).platforms.map(\.id)) == ["metro:1", "bus:1"])
        #expect(try db.resolveStop(.id("bus:4")).platforms.map(\.id) == ["bus:4"])
    }

    /// The metro's line A published again by the bus operator (same short name, same interchanges, same times,
    /// same days) shows once; the bus operator's own later trip on it stays.
    @Test func aTripTwoFeedsPublishShowsOnce() throws {
        var bus = Self.bus
        bus["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nP1,Central,-0.20005,-78.500\nP2,Norte,-0.2005,-78.51005\n"
        bus["trips.txt"] = "route_id,service_id,trip_id,trip_headsign\nA,WEEKDAY,T1,Norte\nA,WEEKDAY,T2,Norte\n"
        bus["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,P1,1\nT1,08:10:00,08:10:00,P2,2\nT2,08:30:00,08:30:00,P1,1\nT2,08:40:00,08:40:00,P2,2\n"
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        let summary = try importFeeds([("metro", Self.metro), ("bus", bus)], into: path)
        #expect(summary.interchanges == 2)
        #expect(summary.duplicateTrips == [DuplicateTrips.Dropped(kept: "metro:T1", dropped: "bus:T1")])
        #expect(summary.count("trips") == 2 && summary.count("stop_times") == 4)
        let db = try RouteDatabase(path: path)
        let at = try #require(LocalTime.parse("2026-11-25T07:55", in: db.timeZone))
        let view = try db.stopView(for: try db.resolveStop(.id("bus:P1")), at: at)
        #expect(view.departures.map(\.tripID) == ["metro:T1", "bus:T2"])
    }

    /// Stop codes are what passengers type and stay as the feeds have them: a code two feeds' stops share is
    /// refused with both, unless the two are one interchange.
    @Test func aCodeTwoFeedsShareIsRefusedUnlessTheyAreOnePlace() throws {
        func coded(_ feed: [String: String], _ rows: String) -> [String: String] {
            var feed = feed
            feed["stops.txt"] = "stop_id,stop_code,stop_name,stop_lat,stop_lon\n" + rows
            return feed
        }
        let metro = coded(Self.metro, "1,77,Central,-0.200,-78.500\n2,88,Norte,-0.2005,-78.510\n")
        let bus = coded(Self.bus, "1,77,Plaza,-0.300,-78.500\n2,88,Norte,-0.20052,-78.51002\n")
        let path = TemporaryFolder.make("multi").appendingPathComponent("region.sqlite").path
        _ = try importFeeds([("metro", metro), ("bus", bus)], into: path)
        let db = try RouteDatabase(path: path)
        let error = #expect(throws: LookupError.self) { try db.resolveStop(.code("77")) }
        #expect("\(error!)".contains("'77' is a stop code in several feeds: Central (metro:1), Plaza (bus:1)"))
        #expect(throws: LookupError.self) { try db.resolveStop(.idOrCode("77")) }
        // Norte is one stop of both feeds (3 m apart): its code names it, and so does its bare id.
        #expect(Set(try db.resolveStop(.code("88")).platforms.map(\.id)) == ["metro:2", "bus:2"])
        #expect(Set(try db.resolveStop(.id("2")).platforms.map(\.id)) == ["metro:2", "bus:2"])
    }

    /// The region's transfers file names stops of several feeds; its errors name the file and the line.
    @Test func transfersBetweenFeedsComeFromTheRegionsFile() throws {
        let dir = TemporaryFolder.make("multi")
        let path = dir.appendingPathComponent("region.sqlite").path
        let inputs = [("metro", Self.metro), ("bus", Self.bus)].map {
            FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path)
        }
        let rules = dir.appendingPathComponent("between.txt")
        try "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nmetro:2,bus:1,2,300\n2,1,3,\n"
            .write(to: rules, atomically: true, encoding: .utf8)
        var importer = GTFSImporter(feeds: inputs, databasePath: path)
        importer.regionTransfers = rules.path
        let error = #expect(throws: ImportError.self) { try importer.run() }
        // `2` is a stop id of both feeds: the file must say which.
        #expect(
            error?.description
                == "the transfers between feeds, \(rules.path): transfers.txt line 3, column 'from_stop_id': '2' is defined in several feeds' stops.txt: metro:2, bus:2; give it with its feed, e.g. metro:2"
        )
        try "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nmetro:2,bus:1,2,300\nbus:2,metro:1,3,\n"
            .write(to: rules, atomically: true, encoding: .utf8)
        let summary = try importer.run()
        #expect(summary.count("transfers") == 2)
        let db = try RouteDatabase(path: path)
        let stored = try db.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT a.stop_id || '>' || b.stop_id || ' ' || transfer_type FROM transfers
                    JOIN stops a ON a.stop_idx = from_stop_idx JOIN stops b ON b.stop_idx = to_stop_idx ORDER BY 1
                    """)
        }
        #expect(stored == ["bus:2>metro:1 3", "metro:2>bus:1 2"])
        importer.feeds = [importer.feeds[0]]
        #expect(throws: ImportError.self) { try importer.run() }  // one feed: its rules go in its transfers.txt
    }

    /// The region's interchanges file makes places one that the name-and-distance rule does not find (here the
    /// metro's "Central" and the bus operator's "Plaza" across the square); its errors name the file and line,
    /// and a refused file leaves the previous database as it was.
    @Test func theRegionsInterchangesFileMakesPlacesOne() throws {
        let dir = TemporaryFolder.make("multi")
        let path = dir.appendingPathComponent("region.sqlite").path
        let inputs = [("metro", Self.metro), ("bus", Self.bus)].map {
            FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path)
        }
        var importer = GTFSImporter(feeds: inputs, databasePath: path)
        let without = try importer.run()
        #expect(without.interchanges == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let file = dir.appendingPathComponent("interchanges.txt")
        importer.regionInterchanges = file.path
        for (text, says) in [
            ("from_stop_id,to_stop_id\nmetro:1,bus:9\n", "interchanges.txt line 2, column 'to_stop_id': 'bus:9' is not defined in the feeds' stops.txt (give it as FEEDID:ID)"),
            ("from_stop_id,to_stop_id\nmetro:1,metro:2\n", "interchanges.txt line 2: 'metro:1' and 'metro:2' cannot be one place: both are stops of one feed"),
            ("from_stop_id,to_stop_id\nmetro:1,bus:1\nmetro:2,bus:1\n", "interchanges.txt line 3: 'metro:2' and 'bus:1' cannot be one place: one of them is already one place with another stop of the other's feed"),
            ("from_stop,to_stop_id\nmetro:1,bus:1\n", "interchanges.txt: the header has no 'from_stop_id' column"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let error = #expect(throws: ImportError.self) { try importer.run() }
            let message = error?.description ?? ""
            #expect(message.hasPrefix("the interchanges between feeds, \(file.path): ") && message.contains(says), "\(message)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }

        try "from_stop_id,to_stop_id\nmetro:1,bus:1\n".write(to: file, atomically: true, encoding: .utf8)
        let summary = try importer.run()
        #expect(summary.interchanges == 1 && summary.feedHash != without.feedHash)
        let db = try RouteDatabase(path: path)
        let at = try #require(LocalTime.parse("2026-11-25T07:55", in: db.timeZone))
        for id in ["metro:1", "bus:1"] {
            let place = try db.resolveStop(.id(id))
            #expect(Set(place.platforms.map(\.id)) == ["metro:1", "bus:1"])
            #expect(Set(try db.stopView(for: place, at: at).departures.map(\.route.agency)) == ["Metro", "Bus"])
        }
        importer.feeds = [importer.feeds[0]]
        #expect(throws: ImportError.self) { try importer.run() }  // one feed: its places are its parent_station
    }

    @Test func theCommandImportsSeveralFeedsAndListsThem() throws {
        let dir = TemporaryFolder.make("multi")
        // Folders named as an operator would name them: the first feed's id is its folder's name.
        let metro = dir.appendingPathComponent("metro"), bus = dir.appendingPathComponent("bus-feed")
        for (folder, files) in [(metro, Self.metro), (bus, Self.bus)] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        }
        let db = dir.appendingPathComponent("region.sqlite").path
        let run = try Programs.runKiosk(["import", metro.path, "bus=\(bus.path)", "--db", db, "--progress", "off"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Feeds: 2"))
        #expect(run.stdout.contains("  metro (metro): 1 agencies, 2 stops, 1 routes, 1 trips, 2 stop times; 2026-01-01 to 2026-12-31"))
        #expect(run.stdout.contains("  bus (bus-feed): 1 agencies"))
        let lookup = try Programs.runKiosk(["lookup", "1", "--db", db])
        #expect(lookup.status == 2 && lookup.stderr.contains("'1' is a stop id in several feeds: Central (metro:1), Plaza (bus:1)"))
        let exact = try Programs.runKiosk(["lookup", "bus:1", "--db", db, "--at", "2026-11-25T07:55"])
        #expect(exact.status == 0 && exact.stdout.contains("Plaza") && exact.stdout.contains("Sur"))

        // Labels for one operator's stops: --all --feed.
        let pdf = dir.appendingPathComponent("bus.pdf").path
        let labels = try Programs.runKiosk(
            ["labels", "--all", "--feed", "bus", "--db", db, "--proof", "--out", pdf, "--json"])
        #expect(labels.status == 0, "\(labels)")
        let json = try JSONSerialization.jsonObject(with: Data(labels.stdout.utf8)) as? [String: Any]
        let ids = (json?["labels"] as? [[String: Any]] ?? []).compactMap { $0["stop_id"] as? String }
        #expect(ids.sorted() == ["bus:1", "bus:2"])
        let unknown = try Programs.runKiosk(["labels", "--all", "--feed", "tram", "--db", db, "--proof", "--out", pdf])
        #expect(unknown.status == 2 && unknown.stderr.contains("the route database has no feed 'tram'; its feeds: metro, bus"))
    }
}
