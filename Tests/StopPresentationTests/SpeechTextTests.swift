import Foundation
import Testing
import TransitModel

@testable import StopPresentation

/// The spoken renderings, as exact strings in both languages: a stop view (timetable and live), a plan, and the
/// numbers and clock times a voice would misread as digits.
@Suite struct SpeechTextTests {
    static let zone = "America/Guayaquil"
    /// 2026-11-25 08:00 in Quito (UTC-5).
    static let at = Date(timeIntervalSince1970: 1_795_611_600)

    static func stop(_ id: String, _ name: String, code: String? = nil) -> StopInfo {
        StopInfo(
            id: id, code: code, name: name, parentStationID: nil, parentStationName: nil, platformCode: nil,
            wheelchairBoarding: .unknown, latitude: nil, longitude: nil, locationType: 0)
    }

    static func route(_ id: String, mode: RouteMode = .bus) -> RouteInfo {
        RouteInfo(id: id, shortName: id, longName: nil, mode: mode, color: nil, textColor: nil, agency: "Q")
    }

    static func departure(
        _ route: String, _ headsign: String, in minutes: Int, approximate: Bool = false,
        realtime: DepartureRealtime? = nil
    ) -> Departure {
        Departure(
            route: Self.route(route), headsign: headsign, directionID: 0,
            time: at.addingTimeInterval(Double(minutes * 60)),
            minutesFromNow: minutes, tripID: "\(route)-\(minutes)", serviceDate: "2026-11-25",
            scheduledTime: "08:00:00",
            wheelchairAccessible: .unknown, stopID: "1091", platformCode: nil, approximate: approximate,
            realtime: realtime)
    }

    static func view(departures: [Departure], alerts: [StopAlert]? = nil, next: Departure? = nil) -> StopView {
        var stop = stop("1091", "El Ejido", code: "1091")
        stop.parentStationName = "El Ejido"
        stop.platformCode = "1"
        stop.wheelchairBoarding = .accessible
        return StopView(
            stop: stop, platforms: [stop], at: at, windowMinutes: 60, timeZone: zone, serviceDate: "2026-11-25",
            routes: [], departures: departures,
            serviceSpans: [
                ServiceSpan(
                    route: route("L1", mode: .subway), directionID: 0, headsigns: ["El Labrador"],
                    first: at.addingTimeInterval(-2.5 * 3600), last: at.addingTimeInterval(14.5 * 3600 + 60))
            ],
            nextDeparture: next, nearby: [], nearbyRadiusMeters: 400, alerts: alerts,
            realtimeAgeSeconds: alerts == nil ? nil : 20)
    }

    static let timetable = view(departures: [
        departure("80", "Quitumbe", in: 1), departure("L1", "El Labrador", in: 3),
        departure("C1", "Carcelén", in: 5, approximate: true), departure("L1", "El Labrador", in: 7),
        departure("L1", "El Labrador", in: 11), departure("E1", "La Y", in: 21), departure("C1", "Carcelén", in: 65),
    ])

    @Test func stopViewShortSpanish() {
        #expect(
            StopViewSpeech.text(Self.timetable, language: .es)
                == "Parada El Ejido. Línea 80 hacia Quitumbe, en un minuto. Línea L1 hacia El Labrador, en 3 minutos, luego en 7 minutos. Línea C1 hacia Carcelén, en unos 5 minutos, luego a las 9 y 5. Hay una línea más."
        )
    }

    @Test func stopViewShortEnglish() {
        #expect(
            StopViewSpeech.text(Self.timetable, language: .en)
                == "Stop El Ejido. Route 80 to Quitumbe, in one minute. Route L1 to El Labrador, in 3 minutes, then in 7 minutes. Route C1 to Carcelén, in about 5 minutes, then at 9 oh 5 am. There is one more route."
        )
    }

    @Test func stopViewFullBothLanguages() {
        #expect(
            StopViewSpeech.text(Self.timetable, language: .es, detail: .full)
                == "Parada El Ejido. Estación El Ejido. Andén 1. Accesible en silla de ruedas. Línea 80 hacia Quitumbe, en un minuto. Línea L1 hacia El Labrador, en 3 minutos, luego en 7 minutos y en 11 minutos. Línea C1 hacia Carcelén, en unos 5 minutos, luego a las 9 y 5. Línea E1 hacia La Y, en veintiún minutos. Línea L1 hacia El Labrador: primera salida a las 5 y 30, última a las 22 y 31."
        )
        #expect(
            StopViewSpeech.text(Self.timetable, language: .en, detail: .full)
                == "Stop El Ejido. El Ejido station. Platform 1. Wheelchair accessible. Route 80 to Quitumbe, in one minute. Route L1 to El Labrador, in 3 minutes, then in 7 minutes and in 11 minutes. Route C1 to Carcelén, in about 5 minutes, then at 9 oh 5 am. Route E1 to La Y, in 21 minutes. Route L1 to El Labrador: first departure at 5:30 am, last at 10:31 pm."
        )
    }

    static let live = view(
        departures: [
            departure("L1", "El Labrador", in: 0, realtime: DepartureRealtime(state: .updated, delaySeconds: 30)),
            departure("L1", "El Labrador", in: 9, realtime: DepartureRealtime(state: .updated, delaySeconds: 240)),
            departure("C1", "Carcelén", in: 4, realtime: DepartureRealtime(state: .canceled)),
            departure("C1", "Carcelén", in: 14, realtime: DepartureRealtime(state: .scheduled)),
            departure("E1", "La Y", in: 6, realtime: DepartureRealtime(state: .added)),
        ],
        alerts: [
            StopAlert(
                id: "a1", header: "Ascensor fuera de servicio", description: "Use la rampa norte.", url: nil,
                language: "es", cause: "maintenance", effect: "accessibility_issue", severity: "info", scope: "stop",
                activeFrom: nil, activeUntil: nil),
            StopAlert(
                id: "a2", header: "Desvío en la\u{1B}[31m Av. 10 de Agosto.", description: nil, url: nil,
                language: "es",
                cause: "construction", effect: "detour", severity: "severe", scope: "route", activeFrom: nil,
                activeUntil: nil),
        ])

    @Test func liveStatesAndAlertsAreSaidInWords() {
        #expect(
            StopViewSpeech.text(Self.live, language: .es)
                == "Parada El Ejido. Aviso: Desvío en la Av. 10 de Agosto. Aviso: Ascensor fuera de servicio. Tiempos en directo. Línea L1 hacia El Labrador, ahora, luego en 9 minutos, con 4 minutos de retraso. Línea C1 hacia Carcelén, a las 8 y 4, cancelado, luego en 14 minutos, según horario. Línea E1 hacia La Y, en 6 minutos, servicio adicional."
        )
        #expect(
            StopViewSpeech.text(Self.live, language: .en)
                == "Stop El Ejido. Alert: Desvío en la Av. 10 de Agosto. Alert: Ascensor fuera de servicio. Live times. Route L1 to El Labrador, now, then in 9 minutes, 4 minutes late. Route C1 to Carcelén, at 8 oh 4 am, cancelled, then in 14 minutes, as scheduled. Route E1 to La Y, in 6 minutes, extra service."
        )
        let full = StopViewSpeech.text(Self.live, language: .es, detail: .full)
        #expect(full.contains("Aviso: Ascensor fuera de servicio. Use la rampa norte."))
        #expect(
            StopViewSpeech.status(DepartureRealtime(state: .updated, delaySeconds: -150)) == .speechEarly(minutes: 3))
        #expect(StopViewSpeech.status(DepartureRealtime(state: .skipped)) == .speechSkipped)
        #expect(StopViewSpeech.status(nil) == nil)
    }

    @Test func noDeparturesSaysTheNextOne() {
        var next = Self.departure("L1", "El Labrador", in: 0)
        next.time = Self.at.addingTimeInterval(21.5 * 3600)  // 05:30 tomorrow
        let empty = Self.view(departures: [], next: next)
        #expect(
            StopViewSpeech.text(empty, language: .es)
                == "Parada El Ejido. No hay salidas en los próximos 60 minutos. Próxima salida: línea L1 hacia El Labrador, mañana a las 5 y 30."
        )
        #expect(
            StopViewSpeech.text(empty, language: .en)
                == "Stop El Ejido. No departures in the next 60 minutes. Next departure: route L1 to El Labrador, tomorrow at 5:30 am."
        )
    }

    static let plan: JourneyPlan = {
        let cumbaya = stop("5007", "Cumbayá")
        let rioCoca = stop("5001", "Río Coca")
        let rioCocaTrolley = stop("3001", "Río Coca")
        let eloy = stop("3004", "Eloy Alfaro")
        let carolina = stop("1122", "La Carolina")
        let minute = { (m: Double) in at.addingTimeInterval(m * 60) }
        let legs = [
            JourneyStep(
                kind: .ride, from: cumbaya, to: rioCoca, departure: minute(0), arrival: minute(29), minutes: 29,
                route: route("A1"), headsign: "Río Coca", tripID: "t1", serviceDate: "2026-11-25", stops: 6),
            JourneyStep(
                kind: .walk, from: rioCoca, to: rioCocaTrolley, departure: minute(29), arrival: minute(31), minutes: 2),
            JourneyStep(
                kind: .ride, from: rioCocaTrolley, to: eloy, departure: minute(33), arrival: minute(54), minutes: 21,
                route: route("EV", mode: .trolleybus), headsign: "La Marín", tripID: "t2", serviceDate: "2026-11-25",
                stops: 1),
            JourneyStep(kind: .walk, from: eloy, to: carolina, departure: minute(54), arrival: minute(59), minutes: 5),
        ]
        let best = JourneyOption(
            departure: minute(0), arrival: minute(59), durationMinutes: 59, transfers: 1, legs: legs)
        let slower = JourneyOption(
            departure: minute(10), arrival: minute(81), durationMinutes: 71, transfers: 0,
            legs: [
                JourneyStep(
                    kind: .ride, from: cumbaya, to: carolina, departure: minute(10), arrival: minute(81), minutes: 71,
                    route: route("A2"), headsign: "La Carolina", tripID: "t3", serviceDate: "2026-11-25", stops: 21)
            ])
        return JourneyPlan(
            from: cumbaya, to: carolina, at: at, timeZone: zone, maxTransfers: 3, walkRadiusMeters: 400,
            options: [best, slower], routesAtOrigin: [], routesAtDestination: [])
    }()

    @Test func planShortBothLanguages() {
        #expect(
            JourneyPlanSpeech.text(Self.plan, language: .es)
                == "De Cumbayá a La Carolina. Sale a las 8 y llega a las 8 y 59: 59 minutos, un transbordo. Tome la línea A1 hacia Río Coca en Cumbayá, a las 8. Baje en Río Coca, tras 6 paradas. Camine 2 minutos hasta Río Coca. Tome la línea EV hacia La Marín en Río Coca, a las 8 y 33. Baje en Eloy Alfaro, la próxima parada. Camine 5 minutos hasta La Carolina. Hay otra opción."
        )
        #expect(
            JourneyPlanSpeech.text(Self.plan, language: .en)
                == "From Cumbayá to La Carolina. Leave at 8 am, arrive at 8:59 am: 59 minutes, one transfer. Take route A1 to Río Coca at Cumbayá, at 8 am. Get off at Río Coca, after 6 stops. Walk 2 minutes to Río Coca. Take route EV to La Marín at Río Coca, at 8:33 am. Get off at Eloy Alfaro, the next stop. Walk 5 minutes to La Carolina. There is one more option."
        )
    }

    @Test func planFullSaysEveryOption() {
        let es = JourneyPlanSpeech.text(Self.plan, language: .es, detail: .full)
        #expect(es.hasPrefix("De Cumbayá a La Carolina. Opción 1. Sale a las 8 y llega a las 8 y 59"))
        #expect(
            es.hasSuffix(
                "Opción 2. Sale a las 8 y 10 y llega a las 9 y 21: una hora y 11 minutos, directo. Tome la línea A2 hacia La Carolina en Cumbayá, a las 8 y 10. Baje en La Carolina, tras veintiuna paradas."
            ))
        let en = JourneyPlanSpeech.text(Self.plan, language: .en, detail: .full)
        #expect(
            en.hasSuffix(
                "Option 2. Leave at 8:10 am, arrive at 9:21 am: one hour and 11 minutes, direct. Take route A2 to La Carolina at Cumbayá, at 8:10 am. Get off at La Carolina, after 21 stops."
            ))
        var none = Self.plan
        none.options = []
        #expect(
            JourneyPlanSpeech.text(none, language: .es)
                == "De Cumbayá a La Carolina. No encontramos cómo llegar con hasta 3 transbordos en las próximas horas."
        )
    }

    /// What the screen says of a plan is said too (issue 23): live times and a ride's delay, arrive-by, step-free,
    /// and the ordinary options offered when no step-free one exists.
    @Test func livePlansArriveByAndStepFreeAreSaid() {
        var live = Self.plan
        live.liveTimesUsed = true
        live.realtimeStatus = .live
        live.options[0].legs[2].realtime = RideRealtime(
            state: .updated, delaySeconds: 240, predictedDeparture: Self.at.addingTimeInterval(37 * 60),
            predictedArrival: Self.at.addingTimeInterval(58 * 60))
        let es = JourneyPlanSpeech.text(live, language: .es)
        #expect(es.hasPrefix("De Cumbayá a La Carolina. Los viajes se calculan con los tiempos en vivo. Sale a las 8"))
        #expect(es.contains("Tome la línea EV hacia La Marín en Río Coca, a las 8 y 37, con 4 minutos de retraso."))
        let en = JourneyPlanSpeech.text(live, language: .en)
        #expect(en.contains("Journeys are planned on live times. Leave at 8 am"))
        #expect(en.contains("Take route EV to La Marín at Río Coca, at 8:37 am, 4 minutes late."))

        var stale = Self.plan
        stale.liveTimesUsed = false
        stale.realtimeStatus = .stale
        #expect(
            JourneyPlanSpeech.text(stale, language: .en).contains(
                "Live information unavailable. Journeys are planned on the timetable."))

        var arriving = Self.plan
        arriving.arriveBy = Self.at.addingTimeInterval(60 * 60)
        #expect(
            JourneyPlanSpeech.text(arriving, language: .en).hasPrefix(
                "From Cumbayá to La Carolina. Arriving by 09:00 (leaving from 08:00). Leave at 8 am"))

        var stepFree = Self.plan
        stepFree.stepFree = true
        stepFree.withoutStepFree = stepFree.options
        stepFree.options = []
        let said = JourneyPlanSpeech.text(stepFree, language: .en)
        #expect(said.contains("Step-free journeys only"))
        #expect(
            said.contains(
                "No step-free journey found. Journeys that are not known to be step-free. Leave at 8 am, arrive at 8:59 am"
            ))
        #expect(!said.contains("●") && !said.contains("No way to get there"))
    }

    @Test func numbersAndClockTimesAsPeopleSayThem() {
        #expect(SpokenNumber.es(1) == "un" && SpokenNumber.es(1, feminine: true) == "una")
        #expect(SpokenNumber.es(21) == "veintiún" && SpokenNumber.es(31) == "treinta y un")
        #expect(SpokenNumber.es(11) == "11" && SpokenNumber.es(7) == "7" && SpokenNumber.es(101) == "101")
        #expect(SpokenClock.spanish(hour: 1, minute: 5) == "a la una y 5")
        #expect(SpokenClock.spanish(hour: 21, minute: 0) == "a las veintiuna")
        #expect(SpokenClock.spanish(hour: 14, minute: 30) == "a las 14 y 30")
        #expect(SpokenClock.english(hour: 0, minute: 0) == "at midnight")
        #expect(SpokenClock.english(hour: 12, minute: 0) == "at noon")
        #expect(SpokenClock.english(hour: 12, minute: 40) == "at 12:40 pm")
        #expect(SpokenClock.english(hour: 0, minute: 7) == "at 12 oh 7 am")
        #expect(SpokenDuration.spanish(120) == "2 horas" && SpokenDuration.english(61) == "one hour and one minute")
    }
}
