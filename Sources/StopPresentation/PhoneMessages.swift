import Foundation
import TransitModel

/// The phone pages' own sentences (issue 37: the stop page's grouped departures and timetable links, the plan
/// page's timeline, place choices and step-free wording), in both languages. A catalog of its own beside `Message`,
/// so that other work growing `Message` never edits the same lines.
public enum PhoneMessage: Sendable, Equatable {
    /// Links to the stop's printed timetable pages.
    case stopTimetable, weekTimetable
    /// A route's printed timetable, from the stop page's list of routes.
    case routeTimetable
    /// The plan page: a typed name that matches several stops, and the heading of the list to choose from.
    case choosePlace(String)
    case choosePlaceDetail
    case noPlace(String)
    /// The field the choice is for.
    case fromField, toField
    /// A step-free plan on a feed that says nothing about accessibility.
    case stepFreeUnknownFeed
    /// A timeline's parts.
    case walk(minutes: Int)
    case rideStops(Int)
    case arrive
    case option(number: Int, duration: String, transfers: String)
    /// The journey map's heading under the options.
    case journeyMap
    /// The route timetable's link to the route's page.
    case routePage

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .stopTimetable: return es ? "Horario de la parada" : "Stop timetable"
        case .weekTimetable: return es ? "Toda la semana" : "Whole week"
        case .routeTimetable: return es ? "horario" : "timetable"
        case let .choosePlace(text):
            return es ? "Varias paradas coinciden con «\(text)»" : "Several stops match “\(text)”"
        case .choosePlaceDetail: return es ? "Elija una:" : "Choose one:"
        case let .noPlace(text): return es ? "Ninguna parada se llama «\(text)»" : "No stop is called “\(text)”"
        case .fromField: return es ? "Origen" : "From"
        case .toField: return es ? "Destino" : "To"
        case .stepFreeUnknownFeed:
            return es
                ? "Estos datos no dicen qué paradas ni qué vehículos son accesibles sin escalones, así que no se puede buscar un viaje sin escalones. Estos son los viajes habituales:"
                : "This network's data does not say which stops or vehicles are step-free, so step-free journeys cannot be looked for. These are the usual journeys:"
        case let .walk(minutes): return es ? "A pie, \(minutes) min" : "Walk, \(minutes) min"
        case let .rideStops(count):
            return es
                ? (count == 1 ? "1 parada" : "\(count) paradas") : (count == 1 ? "1 stop" : "\(count) stops")
        case .arrive: return es ? "Llegada" : "Arrive"
        case let .option(number, duration, transfers):
            return (es ? "Opción" : "Option") + " \(number) · \(duration) · \(transfers)"
        case .journeyMap: return es ? "Mapa del viaje" : "Journey map"
        case .routePage: return es ? "Página de la línea" : "Route page"
        }
    }
}

/// A length of time as a person reads it: "45 min", "2 h", "2 h 45 min" (the same in English and Spanish).
public enum DurationText {
    public static func minutes(_ total: Int) -> String {
        guard total >= 60 else { return "\(max(0, total)) min" }
        let hours = total / 60, minutes = total % 60
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }
}
