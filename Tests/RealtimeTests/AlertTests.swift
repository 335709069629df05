import Foundation
import Realtime
import Testing
import TransitModel
import TransitStore

/// Alert selection by informed entity, active period and language, on hand-made alerts.
@Suite struct AlertTests {
    typealias S = RealtimeSupport

    static let routes = [
        "R1": RouteRecord(info: S.route, agencyID: "A", routeType: 3),
        "R2": RouteRecord(
            info: RouteInfo(
                id: "R2", shortName: "2", longName: nil, mode: .tram, color: nil, textColor: nil, agency: "B"),
            agencyID: "B", routeType: 0),
    ]

    static let scope: AlertIndex.Scope = {
        let view = StopView(
            stop: S.stopInfo("C"), platforms: [S.stopInfo("C")], at: S.instant(8, 0), windowMinutes: 60,
            timeZone: "America/Guayaquil",
            serviceDate: "2026-03-02",
            routes: [RouteAtStop(route: S.route, directions: [.init(directionID: 0, headsigns: ["E"])])],
            departures: [S.departure("T1", stopIndex: 2)], serviceSpans: [], nextDeparture: nil, nearby: [],
            nearbyRadiusMeters: 0)
        return AlertIndex.Scope(view: view, routes: routes, agencyIDs: ["A", "B"])
    }()

    func alert(
        _ id: String, _ selectors: [TransitRealtime_EntitySelector], periods: [(UInt64, UInt64)] = [],
        texts: [(String, String?)] = [("Aviso", "es"), ("Notice", "en")]
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        entity.alert.informedEntity = selectors
        entity.alert.activePeriod = periods.map {
            var r = TransitRealtime_TimeRange(); if $0.0 > 0 { r.start = $0.0 }; if $0.1 > 0 { r.end = $0.1 }; return r
        }
        entity.alert.headerText.translation = texts.map {
            var t = TransitRealtime_TranslatedString.Translation(); t.text = $0.0; if let l = $0.1 { t.language = l };
            return t
        }
        entity.alert.effect = .detour
        return entity
    }

    func selector(
        agency: String? = nil, route: String? = nil, routeType: Int32? = nil, stop: String? = nil, trip: String? = nil,
        direction: UInt32? = nil
    ) -> TransitRealtime_EntitySelector {
        var s = TransitRealtime_EntitySelector()
        if let agency { s.agencyID = agency }
        if let route { s.routeID = route }
        if let routeType { s.routeType = routeType }
        if let stop { s.stopID = stop }
        if let trip { s.trip.tripID = trip }
        if let direction { s.directionID = direction }
        return s
    }

    func selected(
        _ entities: [TransitRealtime_FeedEntity], at: Date = S.instant(8, 0), language: String = "es"
    ) throws -> [StopAlert] {
        let feed = try S.feed(timestamp: UInt64(S.epoch(8, 0)), entities)
        return AlertIndex(feed: feed).select(for: Self.scope, routes: Self.routes, at: at, language: language).shown
    }

    @Test func selectorsMatchStopRouteTripTypeAndAgency() throws {
        let alerts = try selected([
            alert("stop", [selector(stop: "C")]),
            alert("other-stop", [selector(stop: "B")]),
            alert("route", [selector(route: "R1")]),
            alert("route-dir", [selector(route: "R1", direction: 1)]),
            alert("other-route", [selector(route: "R2")]),
            alert("trip", [selector(trip: "T1")]),
            alert("type", [selector(routeType: 3)]),
            alert("tram", [selector(routeType: 0)]),
            alert("agency", [selector(agency: "A")]),
            alert("other-agency", [selector(agency: "B")]),
            alert("stop-and-route", [selector(route: "R2", stop: "C")]),  // both must match: R2 does not serve C
            alert("empty", [TransitRealtime_EntitySelector()]),
            alert("second-selector", [selector(stop: "B"), selector(agency: "A", route: "R1")]),
        ])
        #expect(alerts.map(\.id) == ["stop", "route", "trip", "type", "agency", "second-selector"])
        #expect(alerts.map(\.scope) == ["stop", "route", "trip", "route_type", "agency", "route"])
        #expect(alerts.allSatisfy { $0.effect == "detour" && $0.severity == "unknown_severity" })
    }

    @Test func activePeriodsDecide() throws {
        let eight = UInt64(S.epoch(8, 0))
        let alerts = try selected([
            alert("always", [selector(stop: "C")]),
            alert("now", [selector(stop: "C")], periods: [(eight - 60, eight + 60)]),
            alert("open-end", [selector(stop: "C")], periods: [(eight - 60, 0)]),
            alert("over", [selector(stop: "C")], periods: [(eight - 600, eight - 60)]),
            alert("later", [selector(stop: "C")], periods: [(eight + 60, 0)]),
            alert("second-period", [selector(stop: "C")], periods: [(1, 2), (eight, eight)]),
        ])
        #expect(alerts.map(\.id) == ["always", "now", "open-end", "second-period"])
        #expect(alerts[1].activeFrom == S.instant(7, 59) && alerts[1].activeUntil == S.instant(8, 1))
        #expect(alerts[2].activeUntil == nil)
    }

    @Test func passengerLanguageWhenTranslated() throws {
        #expect(try selected([alert("a", [selector(stop: "C")])], language: "es").first?.header == "Aviso")
        #expect(try selected([alert("a", [selector(stop: "C")])], language: "en").first?.header == "Notice")
        let regional = alert("a", [selector(stop: "C")], texts: [("Notice", "en-US"), ("Aviso", "es-EC")])
        #expect(try selected([regional], language: "es").first?.header == "Aviso")
        let untagged = alert("a", [selector(stop: "C")], texts: [("Hinweis", "de"), ("Plain", nil)])
        #expect(try selected([untagged], language: "es").first?.header == "Plain")
        #expect(try selected([untagged], language: "es").first?.language == nil)
    }
}
