import Foundation
import TransitModel

extension Message {
    static func journeyHeading(from: String, to: String, _ language: Language) -> String {
        language == .es ? "De \(from) a \(to)" : "From \(from) to \(to)"
    }
}

/// A journey plan as plain text for `kiosk plan`.
public enum JourneyPlanText {
    public static func render(_ plan: JourneyPlan, language: Language) -> String {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 60) }
        let clock = { (date: Date) in LocalTime.clock(date, in: zone) }
        let es = language == .es
        var lines = [Message.journeyHeading(from: clean(plan.from.name), to: clean(plan.to.name), language)]
        lines.append((es ? "Salida desde las " : "Leaving from ") + "\(LocalTime.iso8601(plan.at, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")) \(plan.timeZone)")
        if plan.options.isEmpty {
            lines.append("")
            lines.append(es ? "No encontramos cómo llegar con hasta \(plan.maxTransfers) transbordos en las próximas horas."
                            : "No way to get there with up to \(plan.maxTransfers) transfers in the coming hours.")
            lines.append((es ? "Líneas en el origen: " : "Routes at the start: ") + labels(plan.routesAtOrigin, language))
            lines.append((es ? "Líneas en el destino: " : "Routes at the destination: ") + labels(plan.routesAtDestination, language))
        }
        for (number, option) in plan.options.enumerated() {
            lines.append("")
            let transfers = option.transfers == 0 ? (es ? "directo" : "direct")
                : es ? "\(option.transfers) transbordo\(option.transfers == 1 ? "" : "s")" : "\(option.transfers) transfer\(option.transfers == 1 ? "" : "s")"
            lines.append("\(es ? "Opción" : "Option") \(number + 1): \(clock(option.departure)) → \(clock(option.arrival))  (\(option.durationMinutes) min, \(transfers))")
            for step in option.legs {
                switch step.kind {
                case .walk:
                    lines.append("  \(clock(step.departure))  " + (es ? "Camine \(step.minutes) min hasta \(clean(step.to.name))" : "Walk \(step.minutes) min to \(clean(step.to.name))")
                                 + code(step.to))
                case .ride:
                    let route = clean(step.route?.label ?? "?"), headsign = clean(step.headsign ?? "")
                    let stops = step.stops ?? 0
                    lines.append("  \(clock(step.departure))  " + (es ? "Tome \(route) hacia \(headsign) en \(clean(step.from.name))" : "Take \(route) to \(headsign) at \(clean(step.from.name))") + code(step.from))
                    lines.append("  \(clock(step.arrival))  " + (es ? "Baje en \(clean(step.to.name))" : "Get off at \(clean(step.to.name))") + code(step.to)
                                 + (es ? " (\(stops) parada\(stops == 1 ? "" : "s"))" : " (\(stops) stop\(stops == 1 ? "" : "s"))"))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func code(_ stop: StopInfo) -> String { stop.code.map { " [\(TerminalText.sanitize($0, maxLength: 20))]" } ?? "" }

    static func labels(_ routes: [RouteInfo], _ language: Language) -> String {
        routes.isEmpty ? (language == .es ? "ninguna" : "none") : routes.map { TerminalText.sanitize($0.label, maxLength: 20) }.joined(separator: ", ")
    }
}
