import Foundation
import TransitModel

/// The sentences of plans on live data, arrive-by and step-free plans (issue 23), in both languages. A catalog
/// of its own beside `Message`, so that other work growing `Message` never edits the same lines.
public enum PlanMessage: Sendable, Equatable {
    /// The plan uses live times.
    case plansUseLiveTimes
    /// Live data is not fresh: since when (clock), and the options are the timetable's.
    case plansOnTimetableSince(String?)
    /// Arrive-by plans: the deadline, and the earliest departure considered.
    case arrivingBy(String, earliest: String)
    case stepFreeOnly
    case stepFreeUnknownValues
    case noStepFreeJourney
    case ordinaryJourneysHeading
    /// A ride's mark, as the board marks a departure.
    case rideLive(delayMinutes: Int, scheduled: String)
    case rideLiveOnTime
    case rideTimetable
    case rideAdded

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .plansUseLiveTimes:
            return es
                ? "● Los viajes se calculan con los tiempos en vivo." : "● Journeys are planned on live times."
        case let .plansOnTimetableSince(clock):
            let since =
                clock.map {
                    es ? "Información en vivo no disponible desde las \($0)." : "Live information unavailable since \($0)."
                } ?? (es ? "Información en vivo no disponible." : "Live information unavailable.")
            return since + " "
                + (es ? "Los viajes se calculan con el horario programado." : "Journeys are planned on the timetable.")
        case let .arrivingBy(deadline, earliest):
            return es
                ? "Llegada antes de las \(deadline) (salida desde las \(earliest))"
                : "Arriving by \(deadline) (leaving from \(earliest))"
        case .stepFreeOnly:
            return es
                ? "Solo viajes sin escalones: vehículos marcados como accesibles en silla de ruedas, subir y bajar en paradas marcadas como accesibles."
                : "Step-free journeys only: vehicles marked wheelchair accessible, boarding and alighting at stops marked accessible."
        case .stepFreeUnknownValues:
            return es
                ? "Un vehículo o una parada sin dato de accesibilidad cuenta como no accesible. No se sabe si los tramos a pie tienen escalones."
                : "A vehicle or stop without accessibility data counts as not accessible. Walks are not known to be step-free."
        case .noStepFreeJourney:
            return es ? "No hay ningún viaje sin escalones." : "No step-free journey found."
        case .ordinaryJourneysHeading:
            return es ? "Viajes sin garantía de accesibilidad:" : "Journeys that are not known to be step-free:"
        case let .rideLive(minutes, scheduled):
            let sign = minutes < 0 ? "−" : "+"
            return es
                ? "● en vivo \(sign)\(abs(minutes)) min (programado \(scheduled))"
                : "● live \(sign)\(abs(minutes)) min (scheduled \(scheduled))"
        case .rideLiveOnTime: return es ? "● en vivo, a tiempo" : "● live, on time"
        case .rideTimetable: return es ? "○ horario" : "○ timetable"
        case .rideAdded: return es ? "● en vivo, servicio adicional" : "● live, extra service"
        }
    }
}

/// The plan form's leave-at / arrive-by choice and step-free box.
public enum PlanChoiceText: Sendable {
    case leave, arrive, wheelchair

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .leave: return es ? "Salir a esa hora" : "Leave at"
        case .arrive: return es ? "Llegar antes de esa hora" : "Arrive by"
        case .wheelchair: return es ? "Solo viajes sin escalones (silla de ruedas)" : "Step-free journeys only (wheelchair)"
        }
    }
}
