import Foundation
import TransitModel

/// Every sentence the program shows a passenger, in both languages, in one place. A message is a value, so a
/// screen can be drawn in Spanish or English from the same state, and a test can check both.
public enum Message: Sendable, Equatable {
    // The stop view (`kiosk lookup` and the kiosk screen)
    case routes
    case departures(minutes: Int)
    case noDeparturesInWindow(minutes: Int)
    case nextDeparture(clock: String, dayOffset: Int)
    case noDeparturesThisWeek
    case firstAndLast(date: String)
    case nearby(meters: Int)
    case noNearbyStops(meters: Int)
    /// As `nearby` and `noNearbyStops`, the radius written in the passenger's units ("0.2 mi", "400 m").
    case nearbyWithin(distance: String)
    case noNearbyStopsWithin(distance: String)
    case minutesAway(Int)
    case now
    case approximate
    case towards(String)
    case platform(String)
    case station(String)
    case wheelchairAccessible
    case notWheelchairAccessible
    case code(String)

    // The kiosk screen: prompts, key hints, notices
    case holdCodePrompt
    case holdCodeDetail
    case typeInstead(hasHome: Bool)
    case nextDeparturesHere
    case whereTo
    case typeOrScanDestination
    case typeYourStop
    case noMatches
    case searching
    case planning
    case loadingStop
    case keyLanguage
    case keyBack
    case keyHome
    case keyPick
    case keyPlan
    case keyScroll
    case keyNewDestination
    /// On a plan: F5 asks for step-free journeys only, or again for every journey.
    case keyStepFree(on: Bool)
    case cameraUnavailable
    case cameraStarting
    case notAStopCode
    case notAStopCodeDetail(String)
    case unknownStop(String)
    case unknownStopDetail
    case forged
    case forgedDetail(String)
    case signatureRequired
    case signatureRequiredDetail
    case databaseUnavailable
    case databaseUnavailableDetail
    case outOfService(start: String, end: String)
    case outOfServiceDetail
    /// The feed's calendar starts after today: its dates, and when service begins.
    case notYetInService(start: String, end: String)
    case nextServiceFrom(String)
    case noSuchStop(String)
    case ambiguous
    case sameStop
    case lookupFailed
    case pressAnyKey
    case demoBanner
    case moreBelow(Int)
    case serviceTo(String)

    // `kiosk serve`: phone pages and the browser kiosk
    case webFindStop
    case webSearchHint
    case webSearch
    case webPlanTitle
    case webFrom
    case webTo
    case webWhen
    case webFindWay
    case webPageNotFound
    case webBadRequest
    case webSomethingWrong
    case webInformationUnavailable
    case webReconnecting
    case webBackHome
    case webWhereTo
    case webStopsFound(Int)
    case webMinutesToGo(Int)
    /// The phone page's audio player and the browser kiosk's speech buttons.
    case webListen
    case webSpeak
    case webVolumeDown
    case webVolumeUp
    /// The phone page's route line diagrams (one per direction, opened on demand).
    case webLineDiagrams

    // `kiosk plan` text
    case journeyHeading(from: String, to: String)
    case leavingFrom(String)
    case noJourney(maxTransfers: Int)
    case routesAtStart(String)
    case routesAtDestination(String)
    case noRoutes
    case direct
    case transferCount(Int)
    case option(number: Int, departure: String, arrival: String, minutes: Int, transfers: String)
    case walkTo(minutes: Int, stop: String)
    case take(route: String, headsign: String, stop: String)
    case getOffAt(stop: String, stops: Int)

    // MARK: - Live departures (GTFS-Realtime, issue 14)
    /// A departure with a live prediction (symbol and word: never colour alone).
    case liveMark
    /// A departure shown from the timetable while live data is in force.
    case scheduledMark
    /// A live departure on time.
    case onTime
    /// A live departure this many minutes late (positive) or early (negative).
    case delayMinutes(Int)
    /// The timetable time of a live departure.
    case scheduledAt(String)
    case canceled
    /// A trip the timetable does not have.
    case addedTrip
    /// Live data stopped: since when (a clock time), or nil if there never was any.
    case liveUnavailableSince(String?)
    /// After `liveUnavailableSince` in mixed mode.
    case showingTimetable
    /// Online mode without fresh live data: no departures are shown.
    case liveOnlyNoneShown
    case alertsHeading
    /// Alerts in force beyond those listed (a stop view lists at most `StopView.maximumAlertsShown`).
    case moreAlerts(Int)
    /// `kiosk plan` with live data configured: the planner uses the timetable.
    case plansUseTimetable
    // MARK: Speech (issue 15): sentences written for the ear (see SpeechText.swift). Numbers that a voice misreads
    // as digits ("1 minuto", "8:05") are written in words by `SpokenNumber`.
    case speechStop(String)
    case speechStation(String)
    case speechPlatform(String)
    case speechAccessible(Bool)
    case speechLiveTimes
    case speechAlert(String)
    case speechMoreAlerts(Int)
    case speechLine(route: String, headsign: String)
    case speechInMinutes(Int, approximate: Bool)
    case speechNow
    case speechAt(hour: Int, minute: Int)
    case speechThen(String)
    case speechAndThen(String)
    case speechLate(minutes: Int)
    case speechEarly(minutes: Int)
    case speechOnSchedule
    case speechCanceled
    case speechSkipped
    case speechAdded
    case speechMoreLines(Int)
    case speechNoDepartures(minutes: Int)
    case speechNextDeparture(line: String, when: String, dayOffset: Int)
    case speechNoDeparturesThisWeek
    case speechFirstLast(line: String, first: String, last: String)
    case speechJourney(from: String, to: String)
    case speechOption(Int)
    case speechLeaveArrive(leave: String, arrive: String, minutes: Int, transfers: Int)
    case speechTake(route: String, headsign: String, stop: String, when: String)
    case speechGetOff(stop: String, stops: Int)
    case speechWalk(minutes: Int, stop: String)
    case speechNoJourney(maxTransfers: Int)
    case speechMoreOptions(Int)
    case speechVolume(percent: Int)
    // Pictures (SVG titles and text equivalents, the terminal's route diagram)
    case stopMapTitle(stop: String)
    /// `within`: the map's radius in the passenger locale's units ("300 m", "0.2 mi").
    case stopMapDescription(stop: String, routes: Int, stops: Int, within: String)
    case routeLineTowards(route: String, headsign: String)
    case drawnStopToStop
    case noRoutesDrawn
    case routeDiagramTitle(route: String, headsign: String)
    case youAreHere
    case changeTo(String)
    case journeyMapTitle(option: Int, from: String, to: String)
    case walkDashed
    case scale(meters: Int)
    case north
    case keyRouteDiagram
    case keyNextRoute
    case loadingDiagram
    // MARK: Routes (`kiosk routes`, `kiosk route`; issue 25)
    case agencyPhone(String)
    case noRouteMatches(String)
    case routeCount(Int)
    /// A direction's heading: its direction_id (nil: the feed gives none), where it goes, how many stops.
    case routeDirectionHeading(direction: Int?, headsign: String, stops: Int)
    case routeBranchesHeading
    case tripsStartAt(String)
    case tripsEndAt(String)
    case tripsAlsoServe(String)
    case tripCount(Int)
    case routeServiceOn(date: String, trips: Int)
    case firstAndLastTrip(first: String, last: String)
    case noServiceInPeriod
    /// The typical (median) gap between departures, and the shortest and longest, in minutes.
    case headwayEvery(typical: Int, shortest: Int, longest: Int)
    case departureCount(Int)
    case dayPeriod(DayPeriod)

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case let .stopMapTitle(stop): return es ? "Mapa de la parada \(stop)" : "Map of the stop \(stop)"
        case let .stopMapDescription(stop, routes, stops, within):
            return es
                ? "\(stop) en el centro; \(routes) recorridos de líneas y \(stops) paradas a menos de \(within). El norte está arriba."
                : "\(stop) at the centre; \(routes) route paths and \(stops) stops within \(within). North is up."
        case let .routeLineTowards(route, headsign):
            return es ? "Línea \(route) hacia \(headsign)" : "Route \(route) to \(headsign)"
        case .drawnStopToStop:
            return es
                ? "sin trazado en los datos: dibujada en línea recta de parada a parada"
                : "no shape in the feed: drawn as straight lines from stop to stop"
        case .noRoutesDrawn: return es ? "Ninguna línea para su parada." : "No route serves this stop."
        case let .routeDiagramTitle(route, headsign):
            return es ? "Línea \(route) hacia \(headsign): paradas" : "Route \(route) to \(headsign): stops"
        case .youAreHere: return es ? "usted está aquí" : "you are here"
        case let .changeTo(list): return es ? "transbordo: \(list)" : "change to: \(list)"
        case let .journeyMapTitle(option, from, to):
            return es ? "Opción \(option): de \(from) a \(to)" : "Option \(option): from \(from) to \(to)"
        case .walkDashed: return es ? "a pie (línea discontinua)" : "walk (dashed line)"
        case let .scale(meters): return es ? "escala: \(meters) m" : "scale: \(meters) m"
        case .north: return "N"
        case .keyRouteDiagram: return es ? "F3: paradas de cada línea" : "F3: each route's stops"
        case .keyNextRoute: return es ? "F3 →: otra línea" : "F3 →: next route"
        case .loadingDiagram: return es ? "Cargando la línea…" : "Loading the route…"
        case .routes: return es ? "Líneas" : "Routes"
        case let .departures(m): return es ? "Salidas en los próximos \(m) min" : "Departures in the next \(m) min"
        case let .noDeparturesInWindow(m):
            return es ? "No hay salidas en los próximos \(m) min." : "No departures in the next \(m) min."
        case let .nextDeparture(clock, day):
            return es
                ? "Próxima salida: \(clock)" + (day == 1 ? " de mañana" : day > 1 ? " (en \(day) días)" : "")
                : "Next departure: \(clock)" + (day == 1 ? " tomorrow" : day > 1 ? " (in \(day) days)" : "")
        case .noDeparturesThisWeek:
            return es ? "No hay salidas en los próximos siete días." : "No departures in the next seven days."
        case let .firstAndLast(date):
            return es ? "Primera y última salida (\(date))" : "First and last departure (\(date))"
        case let .nearby(m): return es ? "Paradas cercanas (hasta \(m) m)" : "Nearby stops (within \(m) m)"
        case let .noNearbyStops(m):
            return es ? "Ninguna otra parada a menos de \(m) m." : "No other stop within \(m) m."
        case let .nearbyWithin(d): return es ? "Paradas cercanas (hasta \(d))" : "Nearby stops (within \(d))"
        case let .noNearbyStopsWithin(d):
            return es ? "Ninguna otra parada a menos de \(d)." : "No other stop within \(d)."
        case let .minutesAway(m): return es ? "\(m) min" : "\(m) min"
        case .now: return es ? "ahora" : "now"
        case .approximate: return es ? "aprox." : "approx."
        case let .towards(h): return es ? "hacia \(h)" : "to \(h)"
        case let .platform(p): return es ? "andén \(p)" : "platform \(p)"
        case let .station(s): return es ? "estación \(s)" : "\(s) station"
        case .wheelchairAccessible: return es ? "accesible en silla de ruedas" : "wheelchair accessible"
        case .notWheelchairAccessible: return es ? "no accesible en silla de ruedas" : "not wheelchair accessible"
        case let .code(c): return es ? "código \(c)" : "code \(c)"

        case .holdCodePrompt:
            return es ? "Acerque el código de su parada a la cámara" : "Hold your stop code to the camera"
        case .holdCodeDetail:
            return es ? "El código QR está en el poste o en la marquesina" : "The QR code is on the pole or the shelter"
        case let .typeInstead(hasHome):
            return hasHome
                ? (es ? "…o escriba a dónde va" : "…or type where you are going")
                : (es ? "…o escriba el nombre o el código de su parada" : "…or type your stop's name or code")
        case .nextDeparturesHere: return es ? "Próximas salidas desde aquí" : "Next departures from here"
        case .whereTo: return es ? "¿A dónde va?" : "Where are you going?"
        case .typeOrScanDestination:
            return es
                ? "Escriba su destino o acerque su código a la cámara"
                : "Type your destination or hold its code to the camera"
        case .typeYourStop: return es ? "Escriba el nombre o el código de su parada" : "Type your stop's name or code"
        case .noMatches:
            return es
                ? "Ninguna parada coincide. Pruebe con otro nombre o con el código."
                : "No stop matches. Try another name or the code."
        case .searching: return es ? "Buscando…" : "Searching…"
        case .planning: return es ? "Buscando cómo llegar…" : "Finding the way…"
        case .loadingStop: return es ? "Cargando la parada…" : "Loading the stop…"
        case .keyLanguage: return es ? "Tab: English" : "Tab: Español"
        case .keyBack: return es ? "Esc: volver" : "Esc: back"
        case .keyHome: return es ? "Esc: inicio" : "Esc: start"
        case .keyPick: return es ? "↑↓ elegir" : "↑↓ choose"
        case .keyPlan: return es ? "Enter: cómo llegar" : "Enter: how to get there"
        case .keyScroll: return es ? "↑↓ desplazar" : "↑↓ scroll"
        case .keyNewDestination: return es ? "Escriba otro destino" : "Type another destination"
        case let .keyStepFree(on):
            return on
                ? (es ? "F5: todos los viajes" : "F5: every journey")
                : (es ? "F5: solo sin escalones" : "F5: step-free only")
        case .cameraUnavailable:
            return es
                ? "Cámara no disponible: reintentando. Puede escribir su parada."
                : "Camera unavailable: retrying. You can type your stop."
        case .cameraStarting: return es ? "Iniciando la cámara…" : "Starting the camera…"
        case .notAStopCode: return es ? "Este código no es de una parada" : "This is not a stop code"
        case let .notAStopCodeDetail(text): return es ? "Dice: \(text)" : "It says: \(text)"
        case let .unknownStop(value): return es ? "Parada desconocida: \(value)" : "Unknown stop: \(value)"
        case .unknownStopDetail:
            return es
                ? "Este código no está en los horarios de esta red." : "This code is not in this network's timetable."
        case .forged: return es ? "Etiqueta no válida" : "This label is not genuine"
        case let .forgedDetail(value):
            let claim = value.isEmpty ? "" : (es ? " (dice ser \(value))" : " (claims to be \(value))")
            return es
                ? "Su firma no es correcta\(claim). Por favor avise al personal."
                : "Its signature does not verify\(claim). Please tell the staff."
        case .signatureRequired: return es ? "Etiqueta sin firma" : "Unsigned label"
        case .signatureRequiredDetail:
            return es
                ? "Este quiosco solo acepta etiquetas oficiales firmadas."
                : "This kiosk only accepts signed official labels."
        case .databaseUnavailable: return es ? "Horarios no disponibles" : "Timetables unavailable"
        case .databaseUnavailableDetail:
            return es
                ? "El quiosco no encuentra sus datos. El personal ha sido avisado."
                : "The kiosk cannot find its data. Staff have been told."
        case let .outOfService(start, end):
            return es
                ? "Horarios vencidos (válidos del \(start) al \(end))"
                : "Timetable out of date (valid \(start) to \(end))"
        case let .notYetInService(start, end):
            return es
                ? "Horarios aún no vigentes (válidos del \(start) al \(end))"
                : "Timetable not yet in force (valid \(start) to \(end))"
        case let .nextServiceFrom(date): return es ? "Próximo servicio desde el \(date)" : "Next service from \(date)"
        case .outOfServiceDetail:
            return es
                ? "Los horarios no cubren la fecha de hoy. Consulte la información en la parada."
                : "The timetable does not cover today. Please check the information at the stop."
        case let .noSuchStop(query): return es ? "No encontramos «\(query)»" : "No stop called “\(query)”"
        case .ambiguous:
            return es
                ? "Varias paradas coinciden: elija una de la lista." : "Several stops match: pick one from the list."
        case .sameStop: return es ? "Ya está en esa parada." : "You are already at that stop."
        case .lookupFailed: return es ? "No se pudo consultar" : "The lookup failed"
        case .pressAnyKey: return es ? "Pulse cualquier tecla para continuar" : "Press any key to continue"
        case .demoBanner: return es ? "DEMO" : "DEMO"
        case let .moreBelow(n): return es ? "… y \(n) más (↓)" : "… and \(n) more (↓)"
        case let .serviceTo(h): return es ? "hacia \(h)" : "to \(h)"
        case .webFindStop: return es ? "Buscar una parada" : "Find a stop"
        case .webSearchHint: return es ? "Nombre o código de la parada" : "Stop name or code"
        case .webSearch: return es ? "Buscar" : "Search"
        case .webPlanTitle: return es ? "Cómo llegar" : "Plan a trip"
        case .webFrom: return es ? "Desde" : "From"
        case .webTo: return es ? "Hasta" : "To"
        case .webWhen: return es ? "Salida (opcional)" : "Leaving (optional)"
        case .webFindWay: return es ? "Buscar cómo llegar" : "Find the way"
        case .webPageNotFound: return es ? "No encontramos esa página" : "We could not find that page"
        case .webBadRequest: return es ? "No se pudo leer la solicitud" : "The request could not be read"
        case .webSomethingWrong: return es ? "Algo salió mal" : "Something went wrong"
        case .webInformationUnavailable: return es ? "Información no disponible" : "Information unavailable"
        case .webReconnecting: return es ? "Reconectando…" : "Reconnecting…"
        case .webBackHome: return es ? "Volver al inicio" : "Back to the start"
        case .webWhereTo: return es ? "¿A dónde va desde aquí?" : "Where are you going from here?"
        case let .webStopsFound(n): return es ? "\(n) parada\(n == 1 ? "" : "s")" : "\(n) stop\(n == 1 ? "" : "s")"
        case let .webMinutesToGo(m): return es ? "en \(m) min" : "in \(m) min"
        case .webListen: return es ? "Escuchar las salidas" : "Listen to the departures"
        case .webSpeak: return es ? "Escuchar" : "Listen"
        case .webVolumeDown: return es ? "Bajar el volumen" : "Volume down"
        case .webVolumeUp: return es ? "Subir el volumen" : "Volume up"
        case .webLineDiagrams: return es ? "Recorrido de cada línea" : "Where each route goes"
        case let .journeyHeading(from, to): return es ? "De \(from) a \(to)" : "From \(from) to \(to)"
        case let .leavingFrom(when): return es ? "Salida desde las \(when)" : "Leaving from \(when)"
        case let .noJourney(n):
            return es
                ? "No encontramos cómo llegar con hasta \(n) transbordos en las próximas horas."
                : "No way to get there with up to \(n) transfers in the coming hours."
        case let .routesAtStart(list): return es ? "Líneas en el origen: \(list)" : "Routes at the start: \(list)"
        case let .routesAtDestination(list):
            return es ? "Líneas en el destino: \(list)" : "Routes at the destination: \(list)"
        case .noRoutes: return es ? "ninguna" : "none"
        case .direct: return es ? "directo" : "direct"
        case let .transferCount(n):
            return es ? "\(n) transbordo\(n == 1 ? "" : "s")" : "\(n) transfer\(n == 1 ? "" : "s")"
        case let .option(number, departure, arrival, minutes, transfers):
            return (es ? "Opción" : "Option") + " \(number): \(departure) → \(arrival)  (\(minutes) min, \(transfers))"
        case let .walkTo(minutes, stop):
            return es ? "Camine \(minutes) min hasta \(stop)" : "Walk \(minutes) min to \(stop)"
        case let .take(route, headsign, stop):
            return es ? "Tome \(route) hacia \(headsign) en \(stop)" : "Take \(route) to \(headsign) at \(stop)"
        case let .getOffAt(stop, stops):
            return es
                ? "Baje en \(stop) (\(stops) parada\(stops == 1 ? "" : "s"))"
                : "Get off at \(stop) (\(stops) stop\(stops == 1 ? "" : "s"))"

        // MARK: - Live departures (GTFS-Realtime, issue 14)
        case .liveMark: return es ? "● en vivo" : "● live"
        case .scheduledMark: return es ? "○ horario" : "○ timetable"
        case .onTime: return es ? "a tiempo" : "on time"
        case let .delayMinutes(m):
            let sign = m < 0 ? "−" : "+"
            return "\(sign)\(abs(m)) min"
        case let .scheduledAt(clock): return es ? "programado \(clock)" : "scheduled \(clock)"
        case .canceled: return es ? "✕ cancelado" : "✕ cancelled"
        case .addedTrip: return es ? "servicio adicional" : "extra service"
        case let .liveUnavailableSince(clock):
            guard let clock else { return es ? "Información en vivo no disponible" : "Live information unavailable" }
            return es
                ? "Información en vivo no disponible desde las \(clock)" : "Live information unavailable since \(clock)"
        case .showingTimetable: return es ? "Se muestra el horario." : "Showing the timetable."
        case .liveOnlyNoneShown:
            return es
                ? "Este quiosco muestra solo salidas en vivo, y ahora no las hay."
                : "This kiosk shows live departures only, and none are available now."
        case .alertsHeading: return es ? "Avisos" : "Service alerts"
        case let .moreAlerts(n):
            return es ? (n == 1 ? "y 1 aviso más" : "y \(n) avisos más") : (n == 1 ? "and 1 more alert" : "and \(n) more alerts")
        case .plansUseTimetable:
            return es
                ? "Los viajes se calculan con el horario programado, no con los tiempos en vivo."
                : "Journeys are planned on the timetable, not on live times."
        // MARK: Speech (issue 15)
        case let .speechStop(name): return es ? "Parada \(name)." : "Stop \(name)."
        case let .speechStation(name): return es ? "Estación \(name)." : "\(name) station."
        case let .speechPlatform(p): return es ? "Andén \(p)." : "Platform \(p)."
        case let .speechAccessible(yes):
            return yes
                ? (es ? "Accesible en silla de ruedas." : "Wheelchair accessible.")
                : (es ? "No accesible en silla de ruedas." : "Not wheelchair accessible.")
        case .speechLiveTimes: return es ? "Tiempos en directo." : "Live times."
        case let .speechAlert(text): return es ? "Aviso: \(text)." : "Alert: \(text)."
        case let .speechMoreAlerts(n):
            return es
                ? (n == 1 ? "Hay un aviso más." : "Hay \(SpokenNumber.es(n)) avisos más.")
                : (n == 1 ? "There is one more alert." : "There are \(n) more alerts.")
        case let .speechLine(route, headsign):
            return es ? "Línea \(route) hacia \(headsign)" : "Route \(route) to \(headsign)"
        case let .speechInMinutes(m, approximate):
            if es {
                return (approximate ? "en unos " : "en ") + (m == 1 ? "un minuto" : "\(SpokenNumber.es(m)) minutos")
            }
            return (approximate ? "in about " : "in ") + (m == 1 ? "one minute" : "\(m) minutes")
        case .speechNow: return es ? "ahora" : "now"
        case let .speechAt(hour, minute):
            return es
                ? SpokenClock.spanish(hour: hour, minute: minute) : SpokenClock.english(hour: hour, minute: minute)
        case let .speechThen(when): return es ? "luego \(when)" : "then \(when)"
        case let .speechAndThen(when): return es ? "y \(when)" : "and \(when)"
        case let .speechLate(m):
            return es
                ? "con \(m == 1 ? "un minuto" : "\(SpokenNumber.es(m)) minutos") de retraso"
                : "\(m == 1 ? "one minute" : "\(m) minutes") late"
        case let .speechEarly(m):
            return es
                ? "con \(m == 1 ? "un minuto" : "\(SpokenNumber.es(m)) minutos") de adelanto"
                : "\(m == 1 ? "one minute" : "\(m) minutes") early"
        case .speechOnSchedule: return es ? "según horario" : "as scheduled"
        case .speechCanceled: return es ? "cancelado" : "cancelled"
        case .speechSkipped: return es ? "no para aquí" : "not stopping here"
        case .speechAdded: return es ? "servicio adicional" : "extra service"
        case let .speechMoreLines(n):
            return es
                ? (n == 1 ? "Hay una línea más." : "Hay \(SpokenNumber.es(n, feminine: true)) líneas más.")
                : (n == 1 ? "There is one more route." : "There are \(n) more routes.")
        case let .speechNoDepartures(m):
            return es ? "No hay salidas en los próximos \(m) minutos." : "No departures in the next \(m) minutes."
        case let .speechNextDeparture(line, when, day):
            if es {
                return "Próxima salida: \(line), " + (day == 1 ? "mañana " : day > 1 ? "dentro de \(day) días, " : "")
                    + "\(when)."
            }
            return "Next departure: \(line), " + (day == 1 ? "tomorrow " : day > 1 ? "in \(day) days, " : "")
                + "\(when)."
        case .speechNoDeparturesThisWeek:
            return es ? "No hay salidas en los próximos siete días." : "No departures in the next seven days."
        case let .speechFirstLast(line, first, last):
            return es
                ? "\(line): primera salida \(first), última \(last)."
                : "\(line): first departure \(first), last \(last)."
        case let .speechJourney(from, to): return es ? "De \(from) a \(to)." : "From \(from) to \(to)."
        case let .speechOption(n): return es ? "Opción \(n)." : "Option \(n)."
        case let .speechLeaveArrive(leave, arrive, minutes, transfers):
            let duration = es ? SpokenDuration.spanish(minutes) : SpokenDuration.english(minutes)
            let changes =
                es
                ? (transfers == 0 ? "directo" : transfers == 1 ? "un transbordo" : "\(transfers) transbordos")
                : (transfers == 0 ? "direct" : transfers == 1 ? "one transfer" : "\(transfers) transfers")
            return es
                ? "Sale \(leave) y llega \(arrive): \(duration), \(changes)."
                : "Leave \(leave), arrive \(arrive): \(duration), \(changes)."
        case let .speechTake(route, headsign, stop, when):
            return es
                ? "Tome la línea \(route) hacia \(headsign) en \(stop), \(when)."
                : "Take route \(route) to \(headsign) at \(stop), \(when)."
        case let .speechGetOff(stop, stops):
            return es
                ? "Baje en \(stop), "
                    + (stops == 1 ? "la próxima parada." : "tras \(SpokenNumber.es(stops, feminine: true)) paradas.")
                : "Get off at \(stop), " + (stops == 1 ? "the next stop." : "after \(stops) stops.")
        case let .speechWalk(minutes, stop):
            return es
                ? "Camine \(minutes == 1 ? "un minuto" : "\(SpokenNumber.es(minutes)) minutos") hasta \(stop)."
                : "Walk \(minutes == 1 ? "one minute" : "\(minutes) minutes") to \(stop)."
        case let .speechNoJourney(n):
            return es
                ? "No encontramos cómo llegar con hasta \(n) transbordos en las próximas horas."
                : "There is no way to get there with up to \(n) transfers in the coming hours."
        case let .speechMoreOptions(n):
            return es
                ? (n == 1 ? "Hay otra opción." : "Hay \(SpokenNumber.es(n, feminine: true)) opciones más.")
                : (n == 1 ? "There is one more option." : "There are \(n) more options.")
        case let .speechVolume(percent):
            return es ? "Volumen \(percent) por ciento." : "Volume \(percent) percent."
        case let .agencyPhone(phone): return es ? "tel. \(phone)" : "phone \(phone)"
        case let .noRouteMatches(text):
            return es ? "Ninguna línea ni operador coincide con «\(text)»." : "No route or operator matches “\(text)”."
        case let .routeCount(n): return es ? "\(n) línea\(n == 1 ? "" : "s")" : "\(n) route\(n == 1 ? "" : "s")"
        case let .routeDirectionHeading(direction, headsign, stops):
            let which = direction.map { es ? "Sentido \($0)" : "Direction \($0)" } ?? (es ? "Recorrido" : "Route")
            return es
                ? "\(which): hacia \(headsign) · \(stops) parada\(stops == 1 ? "" : "s")"
                : "\(which): to \(headsign) · \(stops) stop\(stops == 1 ? "" : "s")"
        case .routeBranchesHeading: return es ? "Variantes:" : "Variants:"
        case let .tripsStartAt(stop): return es ? "algunos viajes empiezan en \(stop)" : "some trips start at \(stop)"
        case let .tripsEndAt(stop): return es ? "algunos viajes terminan en \(stop)" : "some trips end at \(stop)"
        case let .tripsAlsoServe(list):
            return es ? "algunos viajes pasan también por \(list)" : "some trips also serve \(list)"
        case let .tripCount(n): return es ? "\(n) viaje\(n == 1 ? "" : "s")" : "\(n) trip\(n == 1 ? "" : "s")"
        case let .routeServiceOn(date, trips):
            if trips == 0 { return es ? "Sin viajes el \(date)." : "No trips on \(date)." }
            return es
                ? "Servicio el \(date): \(trips) viaje\(trips == 1 ? "" : "s")"
                : "Service on \(date): \(trips) trip\(trips == 1 ? "" : "s")"
        case let .firstAndLastTrip(first, last):
            return es ? "Primer viaje \(first), último \(last)" : "First trip \(first), last \(last)"
        case .noServiceInPeriod: return es ? "sin servicio" : "no service"
        case let .headwayEvery(typical, shortest, longest):
            let range = shortest == longest ? "" : (es ? " (de \(shortest) a \(longest))" : " (\(shortest)–\(longest))")
            return es ? "cada \(typical) min\(range)" : "every \(typical) min\(range)"
        case let .departureCount(n):
            return es ? "\(n) salida\(n == 1 ? "" : "s")" : "\(n) departure\(n == 1 ? "" : "s")"
        case let .dayPeriod(period):
            switch period {
            case .morningPeak: return es ? "Hora punta mañana" : "Morning peak"
            case .midday: return es ? "Mediodía" : "Midday"
            case .evening: return es ? "Tarde" : "Evening"
            case .night: return es ? "Noche" : "Night"
            }
        }
    }
}

extension RouteMode {
    public func name(_ language: Language) -> String {
        switch (self, language) {
        case (.tram, .es): return "tranvía"
        case (.tram, .en): return "tram"
        case (.subway, .es): return "metro"
        case (.subway, .en): return "metro"
        case (.rail, .es): return "tren"
        case (.rail, .en): return "train"
        case (.bus, .es): return "bus"
        case (.bus, .en): return "bus"
        case (.ferry, .es): return "ferry"
        case (.ferry, .en): return "ferry"
        case (.cableTram, .es): return "tranvía de cable"
        case (.cableTram, .en): return "cable tram"
        case (.aerialLift, .es): return "teleférico"
        case (.aerialLift, .en): return "aerial lift"
        case (.funicular, .es): return "funicular"
        case (.funicular, .en): return "funicular"
        case (.trolleybus, .es): return "trolebús"
        case (.trolleybus, .en): return "trolleybus"
        case (.monorail, .es): return "monorriel"
        case (.monorail, .en): return "monorail"
        case (.coach, .es): return "autocar"
        case (.coach, .en): return "coach"
        case (.taxi, .es): return "taxi"
        case (.taxi, .en): return "taxi"
        case (.other, .es): return "otro"
        case (.other, .en): return "other"
        }
    }
}
