import Foundation
import KioskTesting
import SampleData
import Testing
import TransitModel

@testable import TransitStore

/// Departures computed by hand from the feeds' text, checked against what the stop view says.
@Suite struct StopViewTests {
    static func database(_ feed: URL) throws -> RouteDatabase {
        let path = TemporaryFolder.make("view").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    static let sample = Result { try database(SampleData.sampleNetworkFeed) }

    func view(_ db: RouteDatabase, _ query: String, at: String, window: Int = 60, radius: Int = 400) throws -> StopView
    {
        let stop = try db.resolveStop(.idOrCode(query))
        return try db.stopView(
            for: stop, at: try #require(LocalTime.parse(at, in: db.timeZone)), windowMinutes: window,
            nearbyRadiusMeters: radius)
    }

    func clocks(_ departures: [Departure], _ zone: TimeZone) -> [String] {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm:ss"
        return departures.map { formatter.string(from: $0.time) }
    }

    // MARK: The sample network (facts derived from the feed's text by a separate script)

    @Test func metroFrequencyDeparturesWithExactTimes() throws {
        let db = try Self.sample.get()
        let v = try view(db, "1091", at: "2026-11-25T08:00", window: 30)
        #expect(
            clocks(v.departures, db.timeZone) == [
                "08:03:30", "08:07:30", "08:11:30", "08:15:30", "08:19:30", "08:23:30", "08:27:30",
            ])
        #expect(v.departures.allSatisfy { $0.route.id == "MQ-L1" && $0.headsign == "El Labrador" && !$0.approximate })
        #expect(v.departures.first?.minutesFromNow == 3)
        let span = try #require(v.serviceSpans.first { $0.route.id == "MQ-L1" })
        #expect(clocks([], db.timeZone).isEmpty)
        #expect(
            LocalTime.clock(span.first, in: db.timeZone) == "05:51"
                && LocalTime.clock(span.last, in: db.timeZone) == "23:11")
    }

    @Test func headwayBasedFrequenciesAreApproximate() throws {
        let db = try Self.sample.get()
        let v = try view(db, "1011", at: "2026-11-25T10:00", window: 20)  // 09:00–16:45 every 8 min, exact_times 0
        #expect(!v.departures.isEmpty && v.departures.allSatisfy(\.approximate))
        #expect(clocks(v.departures, db.timeZone) == ["10:04:00", "10:12:00", "10:20:00"])  // the window includes its end
    }

    @Test func trolleybusBothDirectionsAndRoutes() throws {
        let db = try Self.sample.get()
        let v = try view(db, "2010", at: "2026-11-25T08:00", window: 30)
        #expect(
            clocks(v.departures.filter { $0.headsign == "La Y" }, db.timeZone) == ["08:07:00", "08:15:00", "08:23:00"])
        #expect(
            clocks(v.departures.filter { $0.headsign == "El Recreo" }, db.timeZone) == [
                "08:02:00", "08:10:00", "08:18:00", "08:26:00",
            ])
        #expect(v.routes.map(\.route.id) == ["EP-TB"])
        #expect(Set(v.routes[0].directions.flatMap(\.headsigns)) == ["La Y", "El Recreo"])
    }

    @Test func previousServiceDayAfterMidnight() throws {
        let db = try Self.sample.get()
        let v = try view(db, "3006", at: "2026-11-28T00:00", window: 60)
        #expect(v.departures.count == 1)
        let d = try #require(v.departures.first)
        #expect(d.tripID == "EV-LAB-0-2340" && d.serviceDate == "2026-11-27" && d.scheduledTime == "24:16:00")
        #expect(LocalTime.iso8601(d.time, in: db.timeZone) == "2026-11-28T00:16:00-05:00")
    }

    @Test func holidayRunsSundayService() throws {
        let db = try Self.sample.get()
        let trolley = try view(db, "2001", at: "2026-12-25T04:00", window: 180)
        #expect(clocks(Array(trolley.departures.prefix(1)), db.timeZone) == ["06:00:00"])
        let feeder = try view(db, "0701", at: "2026-12-25T04:00", window: 1200)
        #expect(feeder.departures.isEmpty)
        #expect(feeder.nextDeparture != nil)
        #expect(feeder.nextDeparture.map { ServiceDate.containing($0.time, in: db.timeZone).yyyymmdd } == 20261226)
    }

    @Test func arrivalOnlyPlatformHasNoDeparturesButStillRoutesNearby() throws {
        let db = try Self.sample.get()
        let v = try view(db, "1151", at: "2026-11-25T08:00")  // El Labrador, arrivals only
        #expect(v.departures.isEmpty && v.routes.isEmpty && v.serviceSpans.isEmpty)
        #expect(v.nextDeparture == nil)
        #expect(v.nearby.contains { $0.stop.code == "1152" })
    }

    @Test func stationStandsForAllItsPlatforms() throws {
        let db = try Self.sample.get()
        let stop = try db.resolveStop(.id("MQ09"))
        #expect(stop.stop.locationType == 1)
        #expect(Set(stop.platforms.compactMap(\.code)).isSuperset(of: ["1091", "1092", "2008", "2009"]))
        let v = try db.stopView(for: stop, at: LocalTime.parse("2026-11-25T08:00", in: db.timeZone)!, windowMinutes: 10)
        #expect(Set(v.departures.map(\.route.id)) == ["MQ-L1", "EP-TB"])
        #expect(Set(v.departures.map(\.stopID)).count >= 3)
    }

    @Test func nearbyStopsNearestFirstWithDirections() throws {
        let db = try Self.sample.get()
        let v = try view(db, "1091", at: "2026-11-25T08:00")
        #expect(v.nearby.map(\.distanceMeters) == v.nearby.map(\.distanceMeters).sorted())
        #expect(v.nearby.allSatisfy { $0.distanceMeters <= 400 })
        let cultura = try #require(v.nearby.first { $0.stop.code == "3006" })
        #expect(cultura.distanceMeters == 388 && cultura.direction == .e && cultura.routes == ["EV"])
        #expect(try view(db, "1091", at: "2026-11-25T08:00", radius: 0).nearby.isEmpty)
    }

    /// Nearby stops are kept per stop, radius and limit once found: a view at another time, or from a database
    /// opened afresh, lists the same ones; another radius is its own entry; a full cache starts again empty.
    @Test func nearbyStopsAreKeptPerStopAndRadius() throws {
        let db = try RouteDatabase(path: try Self.sample.get().path)
        let first = try view(db, "1091", at: "2026-11-25T08:00")
        #expect(db.nearbyCache.count == 1)
        #expect(try view(db, "1091", at: "2026-11-25T17:30").nearby == first.nearby)
        #expect(db.nearbyCache.count == 1)
        let wider = try view(db, "1091", at: "2026-11-25T08:00", radius: 800)
        #expect(db.nearbyCache.count == 2 && wider.nearby.count >= first.nearby.count)
        #expect(try view(RouteDatabase(path: db.path), "1091", at: "2026-11-25T17:30").nearby == first.nearby)

        let small = NearbyStopCache(capacity: 2)
        for stop in 0..<3 { small[.init(stop: stop, radius: 400, limit: 12)] = [] }
        #expect(small.count == 1 && small[.init(stop: 2, radius: 400, limit: 12)] == [])
    }

    @Test func unknownStopSuggestsCodesAndNames() throws {
        let db = try Self.sample.get()
        #expect {
            try db.resolveStop(.idOrCode("1019"))
        } throws: { error in
            guard case let LookupError.noSuchStop(_, suggestions) = error else { return false }
            return suggestions.contains { $0.code == "1091" || $0.code == "1011" } && suggestions.count <= 5
        }
        #expect {
            try db.resolveStop(.idOrCode("ejido"))
        } throws: { error in
            guard case let LookupError.noSuchStop(_, suggestions) = error else { return false }
            return !suggestions.isEmpty && suggestions.allSatisfy { $0.name.contains("Ejido") }
        }
    }

    @Test func badQueriesAndDates() throws {
        let db = try Self.sample.get()
        #expect(throws: LookupError.self) { try db.resolveStop(.idOrCode("")) }
        #expect(throws: LookupError.self) { try db.resolveStop(.idOrCode(String(repeating: "9", count: 10_000))) }
        #expect(throws: LookupError.self) { try db.resolveStop(.idOrCode("10\u{1B}[2J91")) }
        let stop = try db.resolveStop(.code("1091"))
        #expect(
            throws: LookupError.outsideServiceRange(
                date: ServiceDate(yyyymmdd: 20300101)!, start: ServiceDate(yyyymmdd: 20260101)!,
                end: ServiceDate(yyyymmdd: 20271231)!)
        ) {
            try db.stopView(for: stop, at: LocalTime.parse("2030-01-01T08:00", in: db.timeZone)!)
        }
    }

    // MARK: Tiny feeds for the GTFS rules

    /// America/New_York; trips at 01:30 and 08:00 every day; frequencies; a holiday; an after-midnight trip.
    static let ruleFeed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,America/New_York\n",
        "stops.txt":
            "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,1,First,40.7000,-74.0000\nS2,2,Second,40.7010,-74.0000\nS3,3,Third,40.7020,-74.0010\nFAR,9,Far,40.8000,-74.0000\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,7,3\nF,A,F,3\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20260101,20261231\n",
        "calendar_dates.txt": "service_id,date,exception_type\nALL,20260704,2\nEXTRA,20260704,1\n",
        "trips.txt":
            "route_id,service_id,trip_id,trip_headsign\nR,ALL,EARLY,Third\nR,ALL,MORNING,Third\nR,ALL,LATE,Third\nR,EXTRA,FIREWORKS,Third\nF,ALL,FREQ1,Third\nF,ALL,FREQ0,Third\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type
        EARLY,01:30:00,01:30:00,S1,1,0
        EARLY,01:40:00,01:40:00,S2,2,0
        EARLY,01:50:00,01:50:00,S3,3,0
        MORNING,08:00:00,08:00:00,S1,1,0
        MORNING,08:10:00,08:10:00,S2,2,1
        MORNING,08:20:00,08:20:00,S3,3,0
        LATE,24:30:00,24:30:00,S1,1,0
        LATE,24:40:00,24:40:00,S2,2,0
        LATE,24:50:00,24:50:00,S3,3,0
        FIREWORKS,22:00:00,22:00:00,S1,1,0
        FIREWORKS,22:10:00,22:10:00,S3,2,0
        FREQ1,12:00:00,12:00:00,S1,1,0
        FREQ1,12:05:00,12:05:00,S2,2,0
        FREQ1,12:15:00,12:15:00,S3,3,0
        FREQ0,15:00:00,15:00:00,S1,1,0
        FREQ0,15:05:00,15:05:00,S2,2,0
        FREQ0,15:15:00,15:15:00,S3,3,0

        """,
        "frequencies.txt":
            "trip_id,start_time,end_time,headway_secs,exact_times\nFREQ1,12:00:00,13:00:00,1200,1\nFREQ0,15:00:00,16:00:00,1800,0\n",
    ]

    static let rules = Result { try database(TestSupport.writeFeed(ruleFeed)) }

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func springForwardDayCountsFromNoonMinusTwelveHours() throws {
        let db = try Self.rules.get()
        let stop = try db.resolveStop(.id("S1"))
        // 2026-03-08: 08:00:00 is 08:00 EDT (12:00Z); 01:30:00 counts from 23:00 EST the evening before: 00:30 EST (05:30Z).
        let morning = try db.stopView(for: stop, at: utc("2026-03-08T11:30:00Z"), windowMinutes: 60)
        #expect(morning.departures.map(\.time) == [utc("2026-03-08T12:00:00Z")])
        #expect(morning.departures.first?.minutesFromNow == 30)
        // The previous service day's 24:30:00 counts from 05:00Z (EST) and lands on the same instant.
        let night = try db.stopView(for: stop, at: utc("2026-03-08T05:00:00Z"), windowMinutes: 60)
        #expect(night.departures.map(\.tripID) == ["EARLY", "LATE"])
        #expect(night.departures.map(\.serviceDate) == ["2026-03-08", "2026-03-07"])
        #expect(night.departures.map(\.time) == [utc("2026-03-08T05:30:00Z"), utc("2026-03-08T05:30:00Z")])
    }

    @Test func fallBackDayCountsFromNoonMinusTwelveHours() throws {
        let db = try Self.rules.get()
        let stop = try db.resolveStop(.id("S1"))
        // 2026-11-01: noon EST is 17:00Z, origin 05:00Z. 08:00:00 → 13:00Z (08:00 EST); 01:30:00 → 06:30Z (the second 01:30).
        let day = try db.stopView(for: stop, at: utc("2026-11-01T05:00:00Z"), windowMinutes: 9 * 60)
        #expect(
            day.departures.filter { $0.serviceDate == "2026-11-01" }.map(\.tripID).prefix(2) == ["EARLY", "MORNING"])
        #expect(
            day.departures.first { $0.tripID == "EARLY" && $0.serviceDate == "2026-11-01" }?.time
                == utc("2026-11-01T06:30:00Z"))
        #expect(day.departures.first { $0.tripID == "MORNING" }?.time == utc("2026-11-01T13:00:00Z"))
    }

    @Test func calendarDatesAddAndRemove() throws {
        let db = try Self.rules.get()
        let stop = try db.resolveStop(.id("S1"))
        let zone = db.timeZone
        let july4 = try db.stopView(for: stop, at: LocalTime.parse("2026-07-04T00:00", in: zone)!, windowMinutes: 1439)
        #expect(july4.departures.filter { $0.serviceDate == "2026-07-04" }.map(\.tripID) == ["FIREWORKS"])
        let july5 = try db.stopView(for: stop, at: LocalTime.parse("2026-07-05T07:00", in: zone)!, windowMinutes: 120)
        #expect(july5.departures.map(\.tripID) == ["MORNING"])
    }

    @Test func previousDayTripAfterMidnightAndLastStopExclusion() throws {
        let db = try Self.rules.get()
        let zone = db.timeZone
        let v = try db.stopView(
            for: try db.resolveStop(.id("S1")), at: LocalTime.parse("2026-06-10T00:15", in: zone)!, windowMinutes: 30)
        #expect(v.departures.map(\.tripID) == ["LATE"])
        #expect(v.departures.first?.serviceDate == "2026-06-09" && v.departures.first?.scheduledTime == "24:30:00")
        // S3 is every trip's last stop: nothing departs there.
        let terminal = try db.stopView(
            for: try db.resolveStop(.id("S3")), at: LocalTime.parse("2026-06-10T00:00", in: zone)!, windowMinutes: 1439)
        #expect(terminal.departures.isEmpty && terminal.routes.isEmpty && terminal.nextDeparture == nil)
        // pickup_type 1 at S2 on MORNING: not a departure.
        let s2 = try db.stopView(
            for: try db.resolveStop(.id("S2")), at: LocalTime.parse("2026-06-10T08:00", in: zone)!, windowMinutes: 30)
        #expect(s2.departures.isEmpty)
    }

    @Test func frequenciesExpandWithExactTimesOneAndZero() throws {
        let db = try Self.rules.get()
        let zone = db.timeZone
        let v = try db.stopView(
            for: try db.resolveStop(.id("S2")), at: LocalTime.parse("2026-06-10T12:00", in: zone)!, windowMinutes: 240)
        let frequent = v.departures.filter { $0.tripID.hasPrefix("FREQ") }
        #expect(clocks(frequent, zone) == ["12:05:00", "12:25:00", "12:45:00", "15:05:00", "15:35:00"])
        #expect(frequent.map(\.approximate) == [false, false, false, true, true])
        let spans = v.serviceSpans.first { $0.route.id == "F" }
        #expect(
            spans.map { LocalTime.clock($0.first, in: zone) } == "12:05"
                && spans.map { LocalTime.clock($0.last, in: zone) } == "15:35")
    }

    @Test func emptyWindowGivesTheNextDeparture() throws {
        let db = try Self.rules.get()
        let zone = db.timeZone
        let v = try db.stopView(
            for: try db.resolveStop(.id("S1")), at: LocalTime.parse("2026-06-10T16:00", in: zone)!, windowMinutes: 60)
        #expect(v.departures.isEmpty)
        #expect(v.nextDeparture?.tripID == "LATE")
        #expect(v.nextDeparture.map { LocalTime.iso8601($0.time, in: zone) } == "2026-06-11T00:30:00-04:00")
    }

    // MARK: CARTA (../shared/data), departures read off the feed's own files

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func cartaWeekdayDepartures() throws {
        let shared = try #require(SharedData.folder)
        let db = try Self.database(shared.appendingPathComponent("gtfs/carta.zip"))
        // Stop 1433 "Carter & Hotel Bo" (stop_id 1538), Wednesday 2026-06-10, service 1, 07:45–08:15.
        let v = try view(db, "1433", at: "2026-06-10T07:45", window: 30)
        #expect(
            clocks(v.departures, db.timeZone) == [
                "07:47:11", "07:47:21", "07:55:11", "07:55:21", "08:03:11", "08:03:20", "08:03:21", "08:11:11",
                "08:11:21",
            ])
        #expect(v.departures.map(\.tripID).prefix(3) == ["1756020", "2114020", "338020"])
        #expect(v.departures.first { $0.tripID == "1061020" }?.route.id == "15")
        #expect(v.serviceSpans.map { LocalTime.clock($0.first, in: db.timeZone) }.min() == "06:35")
        #expect(v.serviceSpans.map { LocalTime.clock($0.last, in: db.timeZone) }.max() == "22:51")
        #expect(LocalTime.iso8601(v.departures[0].time, in: db.timeZone) == "2026-06-10T07:47:11-04:00")
    }
}
