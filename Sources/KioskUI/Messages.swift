import Foundation
import TransitModel

/// The languages the kiosk speaks. Spanish first: the Quito Q-Bus design it descends from.
public enum Language: String, Sendable, CaseIterable, Codable {
    case es, en

    public var other: Language { self == .es ? .en : .es }
}

/// Every sentence the program shows a passenger, in both languages, in one place. A message is a value, so a
/// screen can be drawn in Spanish or English from the same state, and a test can check both.
public enum Message: Sendable, Equatable {
    case routes
    case departures(minutes: Int)
    case noDeparturesInWindow(minutes: Int)
    case nextDeparture(clock: String, dayOffset: Int)
    case noDeparturesThisWeek
    case firstAndLast(date: String)
    case nearby(meters: Int)
    case noNearbyStops(meters: Int)
    case minutesAway(Int)
    case now
    case approximate
    case towards(String)
    case platform(String)
    case station(String)
    case wheelchairAccessible
    case notWheelchairAccessible
    case code(String)

    public func text(_ language: Language) -> String {
        switch (self, language) {
        case (.routes, .es): return "Líneas"
        case (.routes, .en): return "Routes"
        case let (.departures(m), .es): return "Salidas en los próximos \(m) min"
        case let (.departures(m), .en): return "Departures in the next \(m) min"
        case let (.noDeparturesInWindow(m), .es): return "No hay salidas en los próximos \(m) min."
        case let (.noDeparturesInWindow(m), .en): return "No departures in the next \(m) min."
        case let (.nextDeparture(clock, day), .es): return "Próxima salida: \(clock)" + (day == 1 ? " de mañana" : day > 1 ? " (en \(day) días)" : "")
        case let (.nextDeparture(clock, day), .en): return "Next departure: \(clock)" + (day == 1 ? " tomorrow" : day > 1 ? " (in \(day) days)" : "")
        case (.noDeparturesThisWeek, .es): return "No hay salidas en los próximos siete días."
        case (.noDeparturesThisWeek, .en): return "No departures in the next seven days."
        case let (.firstAndLast(date), .es): return "Primera y última salida (\(date))"
        case let (.firstAndLast(date), .en): return "First and last departure (\(date))"
        case let (.nearby(m), .es): return "Paradas cercanas (hasta \(m) m)"
        case let (.nearby(m), .en): return "Nearby stops (within \(m) m)"
        case let (.noNearbyStops(m), .es): return "Ninguna otra parada a menos de \(m) m."
        case let (.noNearbyStops(m), .en): return "No other stop within \(m) m."
        case let (.minutesAway(m), .es): return "\(m) min"
        case let (.minutesAway(m), .en): return "\(m) min"
        case (.now, .es): return "ahora"
        case (.now, .en): return "now"
        case (.approximate, .es): return "aprox."
        case (.approximate, .en): return "approx."
        case let (.towards(h), .es): return "hacia \(h)"
        case let (.towards(h), .en): return "to \(h)"
        case let (.platform(p), .es): return "andén \(p)"
        case let (.platform(p), .en): return "platform \(p)"
        case let (.station(s), .es): return "estación \(s)"
        case let (.station(s), .en): return "\(s) station"
        case (.wheelchairAccessible, .es): return "accesible en silla de ruedas"
        case (.wheelchairAccessible, .en): return "wheelchair accessible"
        case (.notWheelchairAccessible, .es): return "no accesible en silla de ruedas"
        case (.notWheelchairAccessible, .en): return "not wheelchair accessible"
        case let (.code(c), .es): return "código \(c)"
        case let (.code(c), .en): return "code \(c)"
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

