import Foundation
import TransitModel

/// A journey plan as plain text for `kiosk plan`.
public enum JourneyPlanText {
    public static func render(_ plan: JourneyPlan, language: Language) -> String {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 60) }
        let clock = { (date: Date) in LocalTime.clock(date, in: zone) }
        let say = { (message: Message) in message.text(language) }
        var lines = [say(.journeyHeading(from: clean(plan.from.name), to: clean(plan.to.name)))]
        lines.append(
            say(
                .leavingFrom(
                    "\(LocalTime.iso8601(plan.at, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")) \(plan.timeZone)"
                )))
        if plan.liveTimesUsed == false { lines.append(say(.plansUseTimetable)) }
        if plan.options.isEmpty {
            lines.append("")
            lines.append(say(.noJourney(maxTransfers: plan.maxTransfers)))
            lines.append(say(.routesAtStart(labels(plan.routesAtOrigin, language))))
            lines.append(say(.routesAtDestination(labels(plan.routesAtDestination, language))))
        }
        for (number, option) in plan.options.enumerated() {
            lines.append("")
            let transfers = option.transfers == 0 ? say(.direct) : say(.transferCount(option.transfers))
            lines.append(
                say(
                    .option(
                        number: number + 1, departure: clock(option.departure), arrival: clock(option.arrival),
                        minutes: option.durationMinutes, transfers: transfers)))
            for step in option.legs {
                switch step.kind {
                case .walk:
                    lines.append(
                        "  \(clock(step.departure))  " + say(.walkTo(minutes: step.minutes, stop: clean(step.to.name)))
                            + code(step.to))
                case .ride:
                    lines.append(
                        "  \(clock(step.departure))  "
                            + say(
                                .take(
                                    route: clean(step.route?.label ?? "?"), headsign: clean(step.headsign ?? ""),
                                    stop: clean(step.from.name) + code(step.from))))
                    lines.append(
                        "  \(clock(step.arrival))  "
                            + say(.getOffAt(stop: clean(step.to.name) + code(step.to), stops: step.stops ?? 0)))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func code(_ stop: StopInfo) -> String {
        stop.code.map { " [\(TerminalText.sanitize($0, maxLength: 20))]" } ?? ""
    }

    static func labels(_ routes: [RouteInfo], _ language: Language) -> String {
        routes.isEmpty
            ? Message.noRoutes.text(language)
            : routes.map { TerminalText.sanitize($0.label, maxLength: 20) }.joined(separator: ", ")
    }
}
