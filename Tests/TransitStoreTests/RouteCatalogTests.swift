import Foundation
import KioskTesting
import SampleData
import StopPresentation
import Testing
import TransitModel
import TransitStore

/// `kiosk routes` and `kiosk route` (issue 25, "Browse"): the catalog's order, search and filter, a route's
/// directions, branches, first/last trips and headways, on the bundled sample and on a feed written by hand whose
/// answers are worked out below from its text.
@Suite struct RouteCatalogTests {
    static func database(_ feed: URL) throws -> RouteDatabase {
        let path = TemporaryFolder.make("routes").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    static let sample = Result { try database(SampleData.sampleNetworkFeed) }

    /// Two agencies. COOP's routes: "10" and "2" without route_sort_order, "X" (order 1), "Y" (order 2), so the
    /// order is X, Y, 2, 10. Route 2 on Wednesday 2026-03-04, direction 0: the main pattern P1 P2 P3 P4 (T1 06:00,
    /// T2 06:10, T5 10:30, T6 21:00, T7 25:30), a short working ending at P3 (T3 06:20), a branch to P5 (T4
    /// 10:00); direction 1: P4…P1 (T8 07:00) and a trip starting at P3 (T9 07:30). Route 10 is frequency-based:
    /// 07:00–08:00 every 600 s, six departures.
    static let handFeed: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone,agency_phone
        COOP,Cooperativa Cumbayá,https://coop.example,America/Guayaquil,+593 2 123 4567
        TN,Transportes Ñandú,https://tn.example,America/Guayaquil,

        """,
        "stops.txt": """
        stop_id,stop_code,stop_name,stop_lat,stop_lon
        P1,101,Parque Central,-0.200,-78.500
        P2,102,Mercado,-0.201,-78.500
        P3,103,Colegio,-0.202,-78.500
        P4,104,Terminal Norte,-0.203,-78.500
        P5,105,Hospital,-0.204,-78.501

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color,route_sort_order
        R10,COOP,10,Diez,3,,,
        R2,COOP,2,Parque Central – Terminal Norte,3,FF0000,FFFFFF,
        RX,COOP,X,Expreso,3,,,1
        RY,COOP,Y,Yaruquí,3,,,2
        RN,TN,N1,Norte,3,,,

        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20260301,20260331

        """,
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign,direction_id
        R2,WK,T1,Terminal Norte,0
        R2,WK,T2,Terminal Norte,0
        R2,WK,T3,Colegio,0
        R2,WK,T4,Hospital,0
        R2,WK,T5,Terminal Norte,0
        R2,WK,T6,Terminal Norte,0
        R2,WK,T7,Terminal Norte,0
        R2,WK,T8,Parque Central,1
        R2,WK,T9,Parque Central,1
        R10,WK,F1,Mercado,0
        RX,WK,X1,Mercado,0
        RY,WK,Y1,Mercado,0
        RN,WK,N1,Mercado,0

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,06:00:00,06:00:00,P1,1
        T1,06:05:00,06:05:00,P2,2
        T1,06:10:00,06:10:00,P3,3
        T1,06:15:00,06:15:00,P4,4
        T2,06:10:00,06:10:00,P1,1
        T2,06:15:00,06:15:00,P2,2
        T2,06:20:00,06:20:00,P3,3
        T2,06:25:00,06:25:00,P4,4
        T3,06:20:00,06:20:00,P1,1
        T3,06:25:00,06:25:00,P2,2
        T3,06:30:00,06:30:00,P3,3
        T4,10:00:00,10:00:00,P1,1
        T4,10:05:00,10:05:00,P2,2
        T4,10:12:00,10:12:00,P5,3
        T5,10:30:00,10:30:00,P1,1
        T5,10:35:00,10:35:00,P2,2
        T5,10:40:00,10:40:00,P3,3
        T5,10:45:00,10:45:00,P4,4
        T6,21:00:00,21:00:00,P1,1
        T6,21:05:00,21:05:00,P2,2
        T6,21:10:00,21:10:00,P3,3
        T6,21:15:00,21:15:00,P4,4
        T7,25:30:00,25:30:00,P1,1
        T7,25:35:00,25:35:00,P2,2
        T7,25:40:00,25:40:00,P3,3
        T7,25:45:00,25:45:00,P4,4
        T8,07:00:00,07:00:00,P4,1
        T8,07:05:00,07:05:00,P3,2
        T8,07:10:00,07:10:00,P2,3
        T8,07:15:00,07:15:00,P1,4
        T9,07:30:00,07:30:00,P3,1
        T9,07:35:00,07:35:00,P2,2
        T9,07:40:00,07:40:00,P1,3
        F1,07:00:00,07:00:00,P1,1
        F1,07:05:00,07:05:00,P2,2
        X1,12:00:00,12:00:00,P1,1
        X1,12:05:00,12:05:00,P2,2
        Y1,12:00:00,12:00:00,P1,1
        Y1,12:05:00,12:05:00,P2,2
        N1,12:00:00,12:00:00,P1,1
        N1,12:05:00,12:05:00,P2,2

        """,
        "frequencies.txt": """
        trip_id,start_time,end_time,headway_secs
        F1,07:00:00,08:00:00,600

        """,
    ]

    static let hand = Result { try database(TestSupport.writeFeed(handFeed, name: "routes-feed")) }

    // MARK: The catalog

    @Test func routeSortOrderFirstThenShortNamesInNaturalOrder() throws {
        let catalog = try Self.hand.get().routeCatalog()
        #expect(catalog.agencies.map(\.agency.id) == ["COOP", "TN"])
        #expect(catalog.agencies[0].routes.map(\.id) == ["RX", "RY", "R2", "R10"])
        #expect(catalog.agencies[1].routes.map(\.id) == ["RN"])
        #expect(catalog.routeCount == 5)
        let coop = catalog.agencies[0].agency
        #expect(
            coop
                == AgencyInfo(
                    id: "COOP", name: "Cooperativa Cumbayá", url: "https://coop.example", phone: "+593 2 123 4567"))
        #expect(catalog.agencies[1].agency.phone == nil)
        let two = catalog.agencies[0].routes[2]
        #expect(two.shortName == "2" && two.longName == "Parque Central – Terminal Norte")
        #expect(
            two.color == "FF0000" && two.textColor == "FFFFFF" && two.mode == .bus
                && two.agency == "Cooperativa Cumbayá")
    }

    @Test func sampleCatalogFollowsRouteSortOrder() throws {
        let catalog = try Self.sample.get().routeCatalog()
        #expect(catalog.agencies.map(\.agency.id) == ["MQ", "EPMTPQ"])
        #expect(catalog.agencies.flatMap(\.routes).map(\.shortName) == ["L1", "TB", "EV", "MB", "A1", "A2", "A3"])
        #expect(catalog.agencies[0].agency.phone == "+593 2 000 1111")
        #expect(catalog.agencies[0].agency.url == "https://metro.quito.example")
    }

    @Test func searchIgnoresAccentsAndFindsOperatorsOrRoutes() throws {
        let sample = try Self.sample.get()
        let cumbaya = try sample.routeCatalog(search: "cumbaya")
        #expect(cumbaya.agencies.flatMap(\.routes).map(\.id) == ["EP-A1"])
        #expect(try sample.routeCatalog(search: "ECOVIA").agencies.flatMap(\.routes).map(\.id) == ["EP-EV"])
        // An operator's name matches all its routes.
        #expect(try sample.routeCatalog(search: "metro de quito").agencies.flatMap(\.routes).map(\.id) == ["MQ-L1"])
        #expect(try sample.routeCatalog(search: "zzz").agencies.isEmpty)

        let hand = try Self.hand.get()
        #expect(
            try hand.routeCatalog(search: "cumbaya").agencies.flatMap(\.routes).map(\.id) == ["RX", "RY", "R2", "R10"])
        #expect(try hand.routeCatalog(search: "yaruqui").agencies.flatMap(\.routes).map(\.id) == ["RY"])
        #expect(try hand.routeCatalog(search: "nandu").agencies.map(\.agency.id) == ["TN"])
        #expect(throws: LookupError.self) { try hand.routeCatalog(search: " !! ") }
    }

    @Test func agencyFilterByIdOrName() throws {
        let hand = try Self.hand.get()
        #expect(try hand.routeCatalog(agency: "TN").agencies.map(\.agency.id) == ["TN"])
        #expect(try hand.routeCatalog(agency: "transportes nandu").agencies.map(\.agency.id) == ["TN"])
        #expect(try hand.routeCatalog(agency: "Cumbayá").agencies.map(\.agency.id) == ["COOP"])
        #expect(try hand.routeCatalog(agency: "COOP", search: "10").agencies.flatMap(\.routes).map(\.id) == ["R10"])
        #expect(throws: RouteQueryError.self) { try hand.routeCatalog(agency: "Nadie") }
        do {
            _ = try hand.routeCatalog(agency: "Nadie")
        } catch let error as RouteQueryError {
            #expect(error.description.contains("no such agency: 'Nadie'"))
            #expect(error.description.contains("Cooperativa Cumbayá (COOP), Transportes Ñandú (TN)"))
        }
    }

    // MARK: A route's detail

    @Test func directionsStopsAndBranches() throws {
        let detail = try Self.hand.get().routeDetail("2", date: ServiceDate(parsing: "2026-03-04"))
        #expect(detail.route.id == "R2")
        #expect(detail.agency.phone == "+593 2 123 4567" && detail.agency.url == "https://coop.example")
        #expect(detail.directions.map(\.directionID) == [0, 1])
        let outbound = detail.directions[0]
        #expect(outbound.headsign == "Terminal Norte")
        #expect(outbound.stops.map(\.id) == ["P1", "P2", "P3", "P4"])
        #expect(outbound.branches.count == 2)
        // Equal trip counts keep pattern order: the short working (T3) before the branch (T4).
        let shortWorking = outbound.branches[0]
        #expect(shortWorking.startsAt == nil && shortWorking.endsAt?.id == "P3" && shortWorking.otherStops.isEmpty)
        #expect(shortWorking.trips == 1 && shortWorking.headsign == "Colegio")
        let branch = outbound.branches[1]
        #expect(branch.endsAt?.id == "P5" && branch.otherStops.map(\.id) == ["P5"] && branch.headsign == "Hospital")

        let inbound = detail.directions[1]
        #expect(inbound.stops.map(\.id) == ["P4", "P3", "P2", "P1"])
        #expect(inbound.branches.count == 1)
        #expect(inbound.branches[0].startsAt?.id == "P3" && inbound.branches[0].endsAt == nil)
    }

    @Test func firstLastAndHeadwaysPerPeriod() throws {
        let hand = try Self.hand.get()
        let outbound = try hand.routeDetail("R2", direction: 0, date: ServiceDate(parsing: "2026-03-04"))
        #expect(outbound.directions.count == 1)
        let direction = outbound.directions[0]
        #expect(direction.tripsOnDate == 7)
        #expect(direction.firstDeparture == "06:00:00" && direction.lastDeparture == "25:30:00")
        let byPeriod = Dictionary(uniqueKeysWithValues: direction.headways.map { ($0.period, $0) })
        #expect(direction.headways.map(\.period) == [.morningPeak, .midday, .evening, .night])
        // 06:00, 06:10, 06:20: every 10 min. 10:00, 10:30: one gap of 30 (06:20 → 10:00 spans two periods).
        #expect(
            byPeriod[.morningPeak]
                == PeriodHeadway(
                    period: .morningPeak, departures: 3, typicalMinutes: 10, shortestMinutes: 10, longestMinutes: 10))
        #expect(
            byPeriod[.midday]
                == PeriodHeadway(
                    period: .midday, departures: 2, typicalMinutes: 30, shortestMinutes: 30, longestMinutes: 30))
        #expect(
            byPeriod[.evening]
                == PeriodHeadway(
                    period: .evening, departures: 0, typicalMinutes: nil, shortestMinutes: nil, longestMinutes: nil))
        // 21:00 and 25:30 (01:30 the next morning) are both night, 270 min apart.
        #expect(byPeriod[.night]?.departures == 2 && byPeriod[.night]?.typicalMinutes == 270)

        // frequencies.txt: 07:00–08:00 every 600 s is six departures ten minutes apart.
        let frequent = try hand.routeDetail("10", date: ServiceDate(parsing: "2026-03-04")).directions[0]
        #expect(
            frequent.tripsOnDate == 6 && frequent.firstDeparture == "07:00:00" && frequent.lastDeparture == "07:50:00")
        #expect(
            frequent.headways[0]
                == PeriodHeadway(
                    period: .morningPeak, departures: 6, typicalMinutes: 10, shortestMinutes: 10, longestMinutes: 10))

        // Saturday: the stops are still listed, no trips.
        let saturday = try hand.routeDetail("2", date: ServiceDate(parsing: "2026-03-07"))
        #expect(saturday.directions[0].stops.count == 4)
        #expect(saturday.directions[0].tripsOnDate == 0 && saturday.directions[0].firstDeparture == nil)
    }

    @Test func sampleMetroHeadwaysComeFromFrequencies() throws {
        // L1 on a weekday: frequencies.txt gives 240 s from 06:30 to 09:00 and 480 s from 09:00 to 16:45.
        let detail = try Self.sample.get().routeDetail("L1", direction: 0, date: ServiceDate(parsing: "2026-11-25"))
        let direction = try #require(detail.directions.first)
        #expect(direction.stops.count == 15 && direction.stops.first?.name == "Quitumbe")
        #expect(direction.stops.last?.name == "El Labrador" && direction.headsign == "El Labrador")
        #expect(direction.headways[0].typicalMinutes == 4 && direction.headways[1].typicalMinutes == 8)
        #expect(direction.firstDeparture == "05:30:00")
        #expect(detail.agency.phone == "+593 2 000 1111")
    }

    @Test func unknownRoutesDirectionsAndDates() throws {
        let hand = try Self.hand.get()
        #expect(throws: RouteQueryError.self) { try hand.findRoute("r2") }  // route_ids are exact; no name has "r2"
        #expect(try hand.findRoute("expreso").id == "RX")
        #expect(try hand.findRoute("YARUQUI").id == "RY")
        do {
            _ = try hand.routeDetail("3")
            Issue.record("route 3 does not exist")
        } catch let error as RouteQueryError {
            #expect(error.description.hasPrefix("no such route: '3'"))
            #expect(error.description.contains("; routes include: X Expreso (RX), Y Yaruquí (RY), 2 Parque Central"))
        }
        do {
            _ = try hand.routeDetail("Y1")
            Issue.record("route Y1 does not exist")
        } catch let error as RouteQueryError {
            #expect(
                error.description
                    == "no such route: 'Y1' (give a route_id, short name or long name); did you mean: Y Yaruquí (RY), N1 Norte (RN)"
            )
        }
        do {
            _ = try hand.routeDetail("X", direction: 1, date: ServiceDate(parsing: "2026-03-04"))
            Issue.record("route X has no direction 1")
        } catch let error as RouteQueryError {
            #expect(error.description == "route 'X' has no trips in direction 1 (its directions: 0)")
        }
        #expect(
            throws: LookupError.outsideServiceRange(
                date: ServiceDate(parsing: "2026-04-15")!, start: ServiceDate(parsing: "2026-03-01")!,
                end: ServiceDate(parsing: "2026-03-31")!)
        ) {
            try hand.routeDetail("2", date: ServiceDate(parsing: "2026-04-15"))
        }
    }

    @Test func jsonUsesSnakeCaseKeys() throws {
        let detail = try Self.hand.get().routeDetail("2", date: ServiceDate(parsing: "2026-03-04"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(try RouteCatalogJSON.render(detail).utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["route", "agency", "service_date", "time_zone", "directions"])
        #expect(object["service_date"] as? String == "2026-03-04")
        let direction = try #require((object["directions"] as? [[String: Any]])?.first)
        #expect(
            Set(direction.keys) == [
                "direction_id", "headsign", "stops", "branches", "trips_on_date", "first_departure", "last_departure",
                "headways",
            ])
        let branch = try #require((direction["branches"] as? [[String: Any]])?.first)
        #expect(branch["ends_at"] != nil && branch["other_stops"] != nil && branch["trips"] as? Int == 1)
        let headway = try #require((direction["headways"] as? [[String: Any]])?.first)
        #expect(headway["period"] as? String == "morning_peak" && headway["typical_minutes"] as? Int == 10)
        #expect((object["route"] as? [String: Any])?["short_name"] as? String == "2")

        let catalog = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try RouteCatalogJSON.render(try Self.hand.get().routeCatalog(agency: "TN")).utf8))
                as? [String: Any])
        #expect(catalog["agency_filter"] as? String == "TN")
        let agency = try #require((catalog["agencies"] as? [[String: Any]])?.first)
        #expect((agency["agency"] as? [String: Any])?["name"] as? String == "Transportes Ñandú")
        #expect(((agency["routes"] as? [[String: Any]])?.first)?["long_name"] as? String == "Norte")
    }

    // MARK: The commands

    /// Each run gets its own cache, so the bundled sample is imported where the test can see it.
    let environment = ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path]

    func kiosk(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(arguments, environment: environment)
    }

    @Test func routesCommandTextInBothLanguages() throws {
        let english = try kiosk(["routes", "--lang", "en"])
        #expect(english.status == 0, "\(english.stderr)")
        let lines = english.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Metro de Quito  (MQ) · https://metro.quito.example · phone +593 2 000 1111")
        #expect(lines.contains("  L1     metro       Quitumbe – El Labrador                       #D52B1E/#FFFFFF"))
        #expect(lines.contains("  TB     trolleybus  Trolebús: El Recreo – La Y                   #1B6EC2/#FFFFFF"))
        #expect(lines.last == "7 routes")
        let spanish = try kiosk(["routes", "--search", "cumbaya"])
        #expect(spanish.status == 0)
        #expect(spanish.stdout.contains("tel. +593 2 000 2222"))
        #expect(spanish.stdout.contains("  A1     bus         Alimentador Río Coca – Cumbayá"))
        #expect(!spanish.stdout.contains("  A2 ") && spanish.stdout.hasSuffix("1 línea\n"))
        let none = try kiosk(["routes", "--search", "zzz", "--lang", "en"])
        #expect(none.status == 0 && none.stdout == "No route or operator matches “zzz”.\n")

        let json = try kiosk(["routes", "--agency", "MQ", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["agencies"] as? [Any])?.count == 1)
    }

    @Test func routeCommandTextInBothLanguages() throws {
        let english = try kiosk(["route", "EV", "--date", "2026-11-25", "--direction", "0", "--lang", "en"])
        #expect(english.status == 0, "\(english.stderr)")
        let lines = english.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "EV  Ecovía: Río Coca – La Marín  · bus · #00843D/#FFFFFF")
        #expect(
            lines[1].hasPrefix(
                "Empresa Pública Metropolitana de Transporte de Pasajeros de Quito  (EPMTPQ) · https://pasajeros.quito.example · phone +593 2 000 2222"
            ))
        #expect(lines[3].hasPrefix("Direction 0: to "))
        #expect(lines[4].hasPrefix("    1  Río Coca ["))
        #expect(english.stdout.contains("  Service on 2026-11-25: "))
        #expect(english.stdout.contains("    First trip "))
        #expect(english.stdout.contains("    Morning peak           06:00–09:00  every "))
        #expect(english.stdout.contains("    Night                  20:00–06:00  "))

        let spanish = try kiosk(["route", "L1", "--date", "2026-11-25", "--direction", "1"])
        #expect(spanish.status == 0)
        #expect(spanish.stdout.contains("Sentido 1: hacia Quitumbe · 15 paradas"))
        #expect(spanish.stdout.contains("    Primer viaje 05:30, último "))
        #expect(spanish.stdout.contains("    Hora punta mañana      06:00–09:00  cada 4 min"))
        #expect(spanish.stdout.contains("    Mediodía               09:00–16:00  cada 8 min · "))
        let sunday = try kiosk(["route", "A3", "--date", "2026-11-29", "--lang", "en"])
        #expect(sunday.stdout.contains("  No trips on 2026-11-29."))
    }

    @Test func routeCommandNotesBranchesOnAHandMadeFeed() throws {
        let path = TemporaryFolder.make("routes-db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(
            feedPath: TestSupport.writeFeed(Self.handFeed, name: "routes-cli").path, databasePath: path
        ).run()
        let english = try kiosk(["route", "2", "--date", "2026-03-04", "--db", path, "--lang", "en"])
        #expect(english.status == 0, "\(english.stderr)")
        #expect(
            english.stdout.contains(
                """
                  Variants:
                    · some trips end at Colegio (1 trip, to Colegio)
                    · some trips end at Hospital; some trips also serve Hospital (1 trip, to Hospital)
                """))
        #expect(english.stdout.contains("    First trip 06:00, last 01:30 (+1)"))
        #expect(english.stdout.contains("· some trips start at Colegio (1 trip, to Parque Central)"))
        let spanish = try kiosk(["route", "2", "--date", "2026-03-04", "--db", path, "--direction", "0"])
        #expect(spanish.stdout.contains("    · algunos viajes terminan en Colegio (1 viaje, hacia Colegio)"))
        #expect(spanish.stdout.contains("    Tarde                  16:00–20:00  sin servicio"))
        #expect(spanish.stdout.contains("    Noche                  20:00–06:00  cada 270 min · 2 salidas"))
    }

    @Test(arguments: [
        (["route", "Z9"], "error: no such route: 'Z9'"),
        (["route", "L9"], "did you mean: L1 Quitumbe – El Labrador (MQ-L1)"),
        (
            ["route", "A1", "--date", "2030-01-01"],
            "error: 2030-01-01 is outside the timetable: it covers 2026-01-01 to 2027-12-31"
        ),
        (["route", "A1", "--date", "2026-13-01"], "--date must be a date such as 2026-11-25 (got '2026-13-01')"),
        (["route", "A1", "--direction", "2"], "--direction must be 0 or 1 (got 2)"),
        (
            ["routes", "--agency", "Nadie"],
            "error: no such agency: 'Nadie' (give an agency_id or name); agencies: Metro de Quito (MQ)"
        ),
        (["routes", "--search", "¿?"], "has no letters or digits to look for"),
    ])
    func badInputExitsTwoWithAClearMessage(arguments: [String], message: String) throws {
        let result = try kiosk(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr.prefix(400))")
        #expect(result.stdout.isEmpty)
    }
}
