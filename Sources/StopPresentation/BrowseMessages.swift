import Foundation
import TransitModel

/// The sentences of the browse surfaces (issue 25: `/routes`, `/r/{route}`, the route map, the kiosk's route
/// list), in both languages. Kept beside `Message` in a catalog of their own so that the timetable work, which
/// grows `Message` at the same time, never edits the same lines.
public enum BrowseMessage: Sendable, Equatable {
    case routesTitle
    case routesSearchHint
    case routesSearchLabel
    case allRoutes
    case routeCount(Int)
    case noRouteMatches(String)
    case operatorHeading
    case website
    case phone(String)
    case stops
    case stopsTowards(direction: Int?, headsign: String, stops: Int)
    case variants
    case howOften(date: String)
    case whenItRuns(weekStart: String)
    case doesNotRun
    case outsideTimetable
    case trips(Int)
    case firstLast(first: String, last: String)
    case towards(String)
    case weekdays([Int])
    case routeMapTitle(route: String)
    case routeMapDescription(route: String, paths: Int, stops: Int)
    case mainPath
    case variantPath(trips: Int)
    case viewerStop(String)
    case viewerNotOnRoute(String)
    case routeLink(String)
    case noRouteFound(String)
    case didYouMean
    // The terminal kiosk's route list (F4 on a stop board)
    case keyRouteList
    case routeListHeading(String)
    case keyOpenRoute
    case noRoutesHere

    static func weekdayName(_ day: Int, _ es: Bool) -> String {
        let names =
            es
            ? ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
            : ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        return names[max(1, min(7, day)) - 1]
    }

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .routesTitle: return es ? "Líneas y operadores" : "Routes and operators"
        case .routesSearchHint: return es ? "Busque una línea u operador" : "Find a route or operator"
        case .routesSearchLabel: return es ? "Buscar" : "Search"
        case .allRoutes: return es ? "Todas las líneas" : "All routes"
        case let .routeCount(n): return es ? "\(n) línea\(n == 1 ? "" : "s")" : "\(n) route\(n == 1 ? "" : "s")"
        case let .noRouteMatches(text):
            return es ? "Ninguna línea ni operador coincide con «\(text)»." : "No route or operator matches “\(text)”."
        case .operatorHeading: return es ? "Operador" : "Operator"
        case .website: return es ? "Sitio web" : "Web site"
        case let .phone(number): return es ? "Teléfono: \(number)" : "Phone: \(number)"
        case .stops: return es ? "Paradas" : "Stops"
        case let .stopsTowards(direction, headsign, stops):
            let which = direction.map { es ? "Sentido \($0)" : "Direction \($0)" } ?? (es ? "Recorrido" : "Route")
            return es
                ? "\(which): hacia \(headsign) (\(stops) parada\(stops == 1 ? "" : "s"))"
                : "\(which): to \(headsign) (\(stops) stop\(stops == 1 ? "" : "s"))"
        case .variants: return es ? "Variantes" : "Variants"
        case let .howOften(date): return es ? "Frecuencia el \(date)" : "How often on \(date)"
        case let .whenItRuns(weekStart):
            return es ? "Cuándo circula (semana del \(weekStart))" : "When it runs (week of \(weekStart))"
        case .doesNotRun: return es ? "no circula" : "does not run"
        case .outsideTimetable: return es ? "fuera de las fechas del horario" : "outside the timetable's dates"
        case let .trips(n): return es ? "\(n) viaje\(n == 1 ? "" : "s")" : "\(n) trip\(n == 1 ? "" : "s")"
        case let .firstLast(first, last): return es ? "de \(first) a \(last)" : "\(first) to \(last)"
        case let .towards(headsign): return es ? "hacia \(headsign)" : "to \(headsign)"
        case let .weekdays(days):
            // Runs of three or more days read as a range ("lunes a viernes"), the rest one by one.
            var parts: [String] = []
            var i = 0
            while i < days.count {
                var j = i
                while j + 1 < days.count && days[j + 1] == days[j] + 1 { j += 1 }
                if j - i >= 2 {
                    let first = Self.weekdayName(days[i], es), last = Self.weekdayName(days[j], es)
                    parts.append(es ? "\(first) a \(last)" : "\(first) to \(last)")
                } else {
                    parts += days[i...j].map { Self.weekdayName($0, es) }
                }
                i = j + 1
            }
            let text = parts.joined(separator: ", ")
            return text.prefix(1).uppercased() + text.dropFirst()
        case let .routeMapTitle(route): return es ? "Mapa de la línea \(route)" : "Map of route \(route)"
        case let .routeMapDescription(route, paths, stops):
            return es
                ? "Línea \(route): \(paths) recorrido\(paths == 1 ? "" : "s") (el principal con trazo más grueso) y \(stops) parada\(stops == 1 ? "" : "s"). El norte está arriba."
                : "Route \(route): \(paths) path\(paths == 1 ? "" : "s") (the main one drawn thickest) and \(stops) stop\(stops == 1 ? "" : "s"). North is up."
        case .mainPath: return es ? "recorrido principal" : "main path"
        case let .variantPath(trips):
            return es ? "variante, \(trips) viaje\(trips == 1 ? "" : "s")" : "variant, \(trips) trip\(trips == 1 ? "" : "s")"
        case let .viewerStop(name): return es ? "Su parada: \(name)" : "Your stop: \(name)"
        case let .viewerNotOnRoute(name):
            return es ? "La línea no pasa por \(name)." : "The route does not call at \(name)."
        case let .routeLink(label): return es ? "Línea \(label)" : "Route \(label)"
        case let .noRouteFound(query): return es ? "No encontramos la línea «\(query)»" : "No route “\(query)”"
        case .didYouMean: return es ? "¿Quiso decir…?" : "Did you mean…?"
        case .keyRouteList: return es ? "F4: líneas de la parada" : "F4: this stop's routes"
        case let .routeListHeading(stop): return es ? "Líneas en \(stop)" : "Routes at \(stop)"
        case .keyOpenRoute: return es ? "Intro: sus paradas" : "Enter: its stops"
        case .noRoutesHere: return es ? "Ninguna línea sale de esta parada." : "No route leaves from this stop."
        }
    }
}
