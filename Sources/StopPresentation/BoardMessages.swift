import TransitModel

/// The stop board's own words (the `/kiosk` board and the terminal kiosk's grouped departures), in Spanish and
/// English, beside the main catalog (`Message`).
public enum BoardMessage: Sendable, Equatable {
    /// The board's source line when live data is in force.
    case liveTimes
    /// The board's source line without live data in force.
    case timetableTimes
    /// The page indicator of a board whose rows page on their own (the page fills in the numbers).
    case page(String, of: String)
    /// After the last minutes of a row: "now · 14 · 29 min".
    case minutesUnit
    /// The on-screen trip planner.
    case whereTo
    case typeStopName
    case chooseStop
    case noStopMatches
    case delete
    case space
    case close
    case back
    case from(String)
    case previousOption
    case nextOption
    /// The severe-message heading on the board (the takeover).
    case importantNotice
    case until(day: String, clock: String)
    /// A condensed alert line: "Alert 1 of 3".
    case alertCount(Int, of: Int)

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .liveTimes: return es ? "● Horas en vivo" : "● Live times"
        case .timetableTimes: return es ? "○ Horas del horario" : "○ Timetable times"
        case let .page(n, total): return es ? "Página \(n) de \(total)" : "Page \(n) of \(total)"
        case .minutesUnit: return "min"
        case .whereTo: return es ? "¿A dónde va?" : "Where to?"
        case .typeStopName:
            return es ? "Toque las letras del nombre de la parada" : "Touch the letters of the stop's name"
        case .chooseStop: return es ? "Elija la parada" : "Choose the stop"
        case .noStopMatches: return es ? "Ninguna parada con ese nombre" : "No stop by that name"
        case .delete: return es ? "Borrar" : "Delete"
        case .space: return es ? "Espacio" : "Space"
        case .close: return es ? "Cerrar" : "Close"
        case .back: return es ? "Volver" : "Back"
        case .from(let stop): return es ? "Desde \(stop)" : "From \(stop)"
        case .previousOption: return es ? "Opción anterior" : "Previous option"
        case .nextOption: return es ? "Opción siguiente" : "Next option"
        case .importantNotice: return es ? "⚠ Aviso importante" : "⚠ Important notice"
        case let .until(day, clock): return es ? "Hasta \(day)las \(clock)" : "Until \(day)\(clock)"
        case let .alertCount(n, total): return es ? "Aviso \(n) de \(total)" : "Alert \(n) of \(total)"
        }
    }
}
