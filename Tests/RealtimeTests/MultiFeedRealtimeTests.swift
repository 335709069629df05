import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing
import TransitModel
import TransitStore

/// Live data per feed (issue 24): in a route database of several feeds, each realtime publisher names its static
/// feed, and its trip, stop and route ids are matched in that feed's namespace only — two operators whose ids
/// collide (trip `T1`, stop `1`, route `A` in both) each move only their own departures.
@Suite struct MultiFeedRealtimeTests {
    typealias S = RealtimeSupport

    /// One operator's GTFS feed; both use trip `T1` from stop `1` at 08:00, route `A`, service `WEEKDAY`.
    /// `extraTrip` adds a trip only this operator has.
    static func operatorFeed(_ agency: String, latitude: String, extraTrip: String? = nil) -> [String: String] {
        var trips = "route_id,service_id,trip_id,trip_headsign\nA,WEEKDAY,T1,End\n"
        var stopTimes =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,1,1\nT1,08:10:00,08:10:00,2,2\n"
        if let extraTrip {
            trips += "A,WEEKDAY,\(extraTrip),End\n"
            stopTimes += "\(extraTrip),08:20:00,08:20:00,1,1\n\(extraTrip),08:30:00,08:30:00,2,2\n"
        }
        return [
            "agency.txt":
                "agency_id,agency_name,agency_url,agency_timezone\nOP,\(agency),https://op.example,America/Guayaquil\n",
            "stops.txt":
                "stop_id,stop_name,stop_lat,stop_lon\n1,\(agency) One,\(latitude),-78.500\n2,\(agency) Two,\(latitude)5,-78.510\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nA,OP,A,\(agency) A,3\n",
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWEEKDAY,1,1,1,1,1,0,0,20260101,20261231\n",
            "trips.txt": trips,
            "stop_times.txt": stopTimes,
        ]
    }

    /// metro (with a trip `M2` the buses do not have) and bus, imported into one database.
    static func region() throws -> (database: RouteDatabase, folder: URL) {
        let folder = TemporaryFolder.make("multi-rt")
        var inputs: [FeedInput] = []
        for (id, files) in [
            ("metro", operatorFeed("Metro", latitude: "-0.200", extraTrip: "M2")),
            ("bus", operatorFeed("Bus", latitude: "-0.300")),
        ] {
            let dir = folder.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
            inputs.append(FeedInput(id: id, path: dir.path))
        }
        let path = folder.appendingPathComponent("region.sqlite").path
        _ = try GTFSImporter(feeds: inputs, databasePath: path).run()
        return (try RouteDatabase(path: path), folder)
    }

    /// 07:55 on Monday 2026-03-02 in Quito, the feeds' header time and the moment the boards are read.
    static let now = S.instant(7, 55)

    /// Metro's trip updates: `T1` five minutes late at stop `1`, and `M2` on time.
    static func metroFeed() throws -> Data {
        try S.message(
            timestamp: UInt64(S.epoch(7, 55)),
            [
                S.tripUpdate("T1", [S.stop(id: "1", departureDelay: 300)]),
                S.tripUpdate("M2", [S.stop(id: "1", departureDelay: 0)]),
            ]
        ).serializedData()
    }

    /// The buses' trip updates: their `T1` is cancelled.
    static func busFeed() throws -> Data {
        try S.message(timestamp: UInt64(S.epoch(7, 55)), [S.tripUpdate("T1", relationship: .canceled, [])])
            .serializedData()
    }

    static func write(_ data: Data, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    static func board(_ stop: String, _ live: LiveData, _ db: RouteDatabase) throws -> [Departure] {
        let view = try db.stopView(for: try db.resolveStop(.id(stop)), at: now)
        return live.apply(to: view, now: now, language: "en").departures
    }

    static func settings(metro: String, bus: String, alerts: [String] = []) -> RealtimeSettings {
        var settings = RealtimeSettings(
            pollSeconds: 30,
            feeds: [
                RealtimeFeedSources(feed: "metro", tripUpdates: metro, key: "realtime.feeds[0]"),
                RealtimeFeedSources(feed: "bus", tripUpdates: bus, key: "realtime.feeds[1]"),
            ])
        settings.alertFeeds = alerts
        return settings
    }

    @Test func aDelayAndACancellationMoveOnlyTheirOwnFeedsTrip() async throws {
        let (db, folder) = try Self.region()
        let metro = try Self.write(try Self.metroFeed(), "metro-tu.pb", in: folder)
        let bus = try Self.write(try Self.busFeed(), "bus-tu.pb", in: folder)
        let poller = try RealtimePoller(settings: Self.settings(metro: metro, bus: bus), database: db)
        let report = await poller.pollOnce(now: { Self.now })
        #expect(report.feeds.map(\.feed) == ["metro", "bus"])
        #expect(report.feeds.map(\.tripUpdates) == [.updated(entities: 2), .updated(entities: 1)], "\(report)")
        #expect(report.feeds.map { $0.statistics?.tripsMatched } == [2, 1])
        #expect(report.feeds.map { $0.statistics?.tripsUnknown } == [0, 0])
        let live = await poller.live

        let metroBoard = try Self.board("metro:1", live, db)
        let metroT1 = try #require(metroBoard.first { $0.tripID == "metro:T1" })
        #expect(metroT1.realtime?.state == .updated && metroT1.realtime?.delaySeconds == 300)
        #expect(metroBoard.first { $0.tripID == "metro:M2" }?.realtime?.state == .updated)

        let busBoard = try Self.board("bus:1", live, db)
        let busT1 = try #require(busBoard.first { $0.tripID == "bus:T1" })
        #expect(busT1.realtime?.state == .canceled && busT1.realtime?.delaySeconds == nil, "\(busT1)")
        #expect(metroT1.realtime?.state != .canceled)

        // Read without its namespace, metro's feed names trips this database does not have.
        let bare = try TripUpdateMatcher.match(try RealtimeFeed.read(path: metro), database: db)
        #expect(bare.statistics.tripsMatched == 0 && bare.statistics.tripsUnknown == 2)
    }

    @Test func oneFeedsDeadSourceLeavesTheOthersLiveDataFlowing() async throws {
        let (db, folder) = try Self.region()
        let bus = try Self.write(try Self.busFeed(), "bus-tu.pb", in: folder)
        let missing = folder.appendingPathComponent("metro-gone.pb").path
        let poller = try RealtimePoller(settings: Self.settings(metro: missing, bus: bus), database: db)
        let report = await poller.pollOnce(now: { Self.now })
        guard case let .failed(reason) = report.feeds[0].tripUpdates else {
            Issue.record("metro's dead source was not reported: \(report)")
            return
        }
        #expect(reason.contains("metro-gone.pb"))
        #expect(report.feeds[1].tripUpdates == .updated(entities: 1))
        let live = await poller.live
        #expect(live.tripUpdatesFreshness(now: Self.now).isLive)
        #expect(try Self.board("bus:1", live, db).first { $0.tripID == "bus:T1" }?.realtime?.state == .canceled)
        let metroT1 = try #require(try Self.board("metro:1", live, db).first { $0.tripID == "metro:T1" })
        #expect(metroT1.realtime?.state == .scheduled, "metro has no live data: its timetable stands")
    }

    @Test func feedIDsAreCheckedAgainstTheDatabase() throws {
        let (db, folder) = try Self.region()
        let path = try Self.write(try Self.busFeed(), "bus-tu.pb", in: folder)
        var settings = Self.settings(metro: path, bus: path)
        #expect(try settings.bind(to: db).map(\.idPrefix) == ["metro:", "bus:"])

        settings.feeds[1].feed = "tram"
        let unknown = #expect(throws: RealtimeBindingError.self) { try settings.bind(to: db) }
        let text = unknown?.description ?? ""
        #expect(text.hasPrefix("realtime.feeds[1].feed: \"tram\" is not a feed of the route database"), "\(text)")
        #expect(text.contains("(its feeds: 'metro', 'bus')"), "\(text)")

        // Trip updates that name no feed cannot be matched in a database of several.
        let unnamed = #expect(throws: RealtimeBindingError.self) {
            try RealtimeSettings(tripUpdates: path).bind(to: db)
        }
        #expect(unnamed?.description.hasPrefix("realtime.feed: is missing") == true, "\(String(describing: unnamed))")

        // A database of one feed: no feed needed, ids as they are; its own feed id is accepted, another refused.
        let one = try RouteDatabase(path: try SampleNetwork.databasePath())
        #expect(try RealtimeSettings(tripUpdates: path).bind(to: one).map(\.idPrefix) == [""])
        let own = try #require(one.feeds.first?.id)
        #expect(try RealtimeSettings(feed: own, tripUpdates: path).bind(to: one).map(\.idPrefix) == [""])
        #expect(throws: RealtimeBindingError.self) {
            try RealtimeSettings(feed: "tram", tripUpdates: path).bind(to: one)
        }
    }

    /// Staff messages name stops with the database's own ids (`kiosk message --stops metro:1`): they are read as
    /// they are beside the operators' namespaced feeds, and an operator's alert reaches only its own stop `1`.
    @Test func staffMessagesAndEachOperatorsAlertsReachTheirOwnStops() async throws {
        let (db, folder) = try Self.region()
        let staff = folder.appendingPathComponent("messages.pb")
        try StaffMessages.write(
            [
                StaffMessages.Message(
                    id: "closed", textES: "Andén cerrado", textEN: "Platform closed", audience: .stops(["metro:1"]),
                    from: nil, until: Self.now.addingTimeInterval(86_400), severity: .warning
                ).entity
            ], to: staff.path, now: Self.now)
        var alert = TransitRealtime_FeedEntity()
        alert.id = "detour"
        var selector = TransitRealtime_EntitySelector()
        selector.stopID = "1"
        alert.alert.informedEntity = [selector]
        var translation = TransitRealtime_TranslatedString.Translation()
        translation.text = "Bus detour"
        alert.alert.headerText.translation = [translation]
        let busAlerts = try Self.write(
            try S.message(timestamp: UInt64(S.epoch(7, 55)), [alert]).serializedData(), "bus-alerts.pb", in: folder)
        let metro = try Self.write(try Self.metroFeed(), "metro-tu.pb", in: folder)
        var settings = Self.settings(metro: metro, bus: try Self.write(try Self.busFeed(), "bus-tu.pb", in: folder))
        settings.alertFeeds = [staff.path]
        settings.feeds[1].alertFeeds = [busAlerts]
        let poller = try RealtimePoller(settings: settings, database: db)
        let report = await poller.pollOnce(now: { Self.now })
        #expect(report.alertSources == [.updated(entities: 1), .updated(entities: 1)], "\(report)")
        let live = await poller.live
        func alerts(_ stop: String) throws -> [String] {
            let view = try db.stopView(for: try db.resolveStop(.id(stop)), at: Self.now)
            return live.apply(to: view, now: Self.now, language: "en").alerts?.map(\.header) ?? []
        }
        #expect(try alerts("metro:1") == ["Platform closed"])
        #expect(try alerts("bus:1") == ["Bus detour"])
        #expect(try alerts("bus:2").isEmpty && alerts("metro:2").isEmpty)
    }

    @Test func inspectReportsTheMatchRatesPerFeed() throws {
        let (db, folder) = try Self.region()
        let metro = try Self.write(try Self.metroFeed(), "metro-tu.pb", in: folder)
        let base = ["rt", "inspect", metro, "--db", db.path, "--at", "2026-03-02T07:55"]
        let best = try Programs.runKiosk(base)
        #expect(best.status == 0, "\(best)")
        #expect(best.stdout.contains("Feed         metro (its ids read in that feed's namespace)"), "\(best.stdout)")
        #expect(best.stdout.contains("Trip updates per feed"), "\(best.stdout)")
        #expect(
            best.stdout.contains(
                "  metro  trips 2 matched, 0 unknown (match rate 100.0%); stops 2 matched, 0 unknown (match rate 100.0%)  ← read as"
            ), "\(best.stdout)")
        #expect(
            best.stdout.contains("  bus    trips 1 matched, 1 unknown (match rate 50.0%)"), "\(best.stdout)")
        #expect(best.stdout.contains("no --feed: read as feed 'metro''s, whose trips it matches best"))

        let asBus = try Programs.runKiosk(base + ["--feed", "bus", "--json"])
        #expect(asBus.status == 0, "\(asBus)")
        #expect(asBus.stdout.contains("\"feed\" : \"bus\""), "\(asBus.stdout)")
        #expect(asBus.stdout.contains("\"trip_match_rate\" : 0.5"), "\(asBus.stdout)")
        #expect(asBus.stdout.contains("\"feed_matches\""), "\(asBus.stdout)")

        let unknown = try Programs.runKiosk(base + ["--feed", "tram"])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("--feed: \"tram\" is not a feed of the route database"), "\(unknown)")
        #expect(unknown.stderr.contains("(its feeds: 'metro', 'bus')"), "\(unknown)")
    }

    /// A config's `[[realtime.feeds]]` through the command line: `kiosk lookup` applies each operator's feed to
    /// its own departures, and a feed id the database does not have is refused naming the file, the key and the
    /// database's feeds.
    @Test func lookupReadsEachConfiguredFeedInItsNamespaceAndRefusesAnUnknownOne() throws {
        let (db, folder) = try Self.region()
        let metro = try Self.write(try Self.metroFeed(), "metro-tu.pb", in: folder)
        let bus = try Self.write(try Self.busFeed(), "bus-tu.pb", in: folder)
        func config(_ busID: String) throws -> String {
            try Self.write(
                Data(
                    """
                    [database]
                    path = "\(db.path)"
                    [realtime]
                    [[realtime.feeds]]
                    feed = "metro"
                    trip_updates = "\(metro)"
                    [[realtime.feeds]]
                    feed = "\(busID)"
                    trip_updates = "\(bus)"

                    """.utf8), "kiosk-\(busID).toml", in: folder)
        }
        let good = try config("bus")
        let metroStop = try Programs.runKiosk(
            ["lookup", "metro:1", "--config", good, "--at", "2026-03-02T07:55", "--json"])
        #expect(metroStop.status == 0, "\(metroStop)")
        #expect(metroStop.stdout.contains("\"delay_seconds\" : 300"), "\(metroStop.stdout)")
        #expect(!metroStop.stdout.contains("canceled"), "\(metroStop.stdout)")
        let busStop = try Programs.runKiosk(["lookup", "bus:1", "--config", good, "--at", "2026-03-02T07:55", "--json"])
        #expect(busStop.status == 0 && busStop.stdout.contains("canceled"), "\(busStop.stdout)")
        #expect(!busStop.stdout.contains("\"delay_seconds\" : 300"), "\(busStop.stdout)")

        // The kiosk and the server refuse it at start, before they open a screen or a port.
        let bad = try config("tram")
        for command in [
            ["lookup", "metro:1", "--config", bad, "--at", "2026-03-02T07:55"],
            ["serve", "--config", bad, "--port", "0"],
            ["run", "--config", bad, "--no-camera"],
        ] {
            let refused = try Programs.runKiosk(command)
            #expect(refused.status == 2, "\(command[0]): \(refused)")
            #expect(
                refused.stderr.contains("realtime.feeds[1].feed: \"tram\" is not a feed of the route database"),
                "\(command[0]): \(refused)")
            #expect(refused.stderr.contains("(its feeds: 'metro', 'bus')"), "\(command[0]): \(refused)")
            if command[0] != "lookup" {
                #expect(refused.stderr.contains("error: \(bad): realtime.feeds[1].feed"), "\(refused)")
            }
        }
    }
}

/// `kiosk doctor` with `[[realtime.feeds]]`: each operator's feed is checked and matched in its own namespace,
/// and a feed id the database does not hold is a problem naming it.
@Suite struct MultiFeedDoctorTests {
    typealias M = MultiFeedRealtimeTests

    static func doctor(_ busID: String) throws -> ProcessResult {
        let (db, folder) = try M.region()
        let metro = try M.write(try M.metroFeed(), "metro-tu.pb", in: folder)
        let bus = try M.write(try M.busFeed(), "bus-tu.pb", in: folder)
        let config = try M.write(
            Data(
                """
                [database]
                path = "\(db.path)"
                [[realtime.feeds]]
                feed = "metro"
                trip_updates = "\(metro)"
                [[realtime.feeds]]
                feed = "\(busID)"
                trip_updates = "\(bus)"

                """.utf8), "kiosk.toml", in: folder)
        return try Programs.runKiosk(["doctor", "--config", config, "--no-camera"])
    }

    @Test func eachFeedsMatchRateIsReported() throws {
        let result = try Self.doctor("bus")
        let metro = DoctorFeedTests.line(result.stdout, "realtime metro trip_updates")
        #expect(metro.contains("trip match rate 100.0% (2 matched, 0 unknown) in feed 'metro'"), "\(result.stdout)")
        let bus = DoctorFeedTests.line(result.stdout, "realtime bus trip_updates")
        #expect(bus.contains("trip match rate 100.0% (1 matched, 0 unknown) in feed 'bus'"), "\(result.stdout)")
    }

    @Test func anUnknownFeedIsAProblem() throws {
        let result = try Self.doctor("tram")
        #expect(result.status == 1, "\(result)")
        let line = DoctorFeedTests.line(result.stdout, "realtime.feeds[1].feed")
        #expect(line.contains("\"tram\" is not a feed of the route database"), "\(result.stdout)")
        #expect(line.contains("(its feeds: 'metro', 'bus')"), "\(result.stdout)")
    }
}
