import Foundation
import TransitModel

/// A journey plan as plain text for `kiosk plan`.
public enum JourneyPlanText {
    /// Spanish or English with no country's conventions: 24-hour clock, ISO dates.
    public static func render(_ plan: JourneyPlan, language: Language) -> String {
        render(plan, locale: PassengerLocale.standard.speaking(language))
    }

    /// Times on the locale's clock ("3:05 PM" on a US feed), the plan's moment in its date style.
    public static func render(_ plan: JourneyPlan, locale: PassengerLocale) -> String {
        let language = locale.language
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 60) }
        let clock = { (date: Date) in locale.clock(date, in: zone) }
        let say = { (message: Message) in message.text(language) }
        let sayPlan = { (message: PlanMessage) in message.text(language) }
        let stamp = { (date: Date) in "\(locale.dateAndClock(date, in: zone)) \(plan.timeZone)" }
        var lines = [say(.journeyHeading(from: clean(plan.from.name), to: clean(plan.to.name)))]
        if let deadline = plan.arriveBy {
            lines.append(sayPlan(.arrivingBy(stamp(deadline), earliest: clock(plan.at))))
        } else {
            lines.append(say(.leavingFrom(stamp(plan.at))))
        }
        switch (plan.liveTimesUsed, plan.realtimeStatus) {
        case (true?, _): lines.append(sayPlan(.plansUseLiveTimes))
        case (false?, nil): lines.append(say(.plansUseTimetable))
        case (false?, _?): lines.append(sayPlan(.plansOnTimetableSince(plan.realtimeUnavailableSince.map(clock))))
        case (nil, _): break
        }
        if plan.stepFree == true {
            lines.append(sayPlan(.stepFreeOnly))
            lines.append(sayPlan(.stepFreeUnknownValues))
        }
        if plan.stepFree == true && plan.options.isEmpty {
            lines.append("")
            lines.append(sayPlan(.noStepFreeJourney))
            if let ordinary = plan.withoutStepFree, !ordinary.isEmpty {
                lines.append(sayPlan(.ordinaryJourneysHeading))
                options(ordinary, into: &lines, locale: locale, zone: zone)
                return lines.joined(separator: "\n")
            }
        }
        if plan.options.isEmpty {
            lines.append("")
            lines.append(say(.noJourney(maxTransfers: plan.maxTransfers)))
            lines.append(say(.routesAtStart(labels(plan.routesAtOrigin, language))))
            lines.append(say(.routesAtDestination(labels(plan.routesAtDestination, language))))
        }
        options(plan.options, into: &lines, locale: locale, zone: zone)
        return lines.joined(separator: "\n")
    }

    static func options(
        _ options: [JourneyOption], into lines: inout [String], locale: PassengerLocale, zone: TimeZone
    ) {
        let language = locale.language
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 60) }
        let clock = { (date: Date) in locale.clock(date, in: zone) }
        let say = { (message: Message) in message.text(language) }
        for (number, option) in options.enumerated() {
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
                    // Live rides show their predicted times, marked as the board marks a departure.
                    let live = step.realtime
                    let mark = live.map { "  " + rideMark($0, scheduled: clock(step.departure), language: language) } ?? ""
                    lines.append(
                        "  \(clock(live?.predictedDeparture ?? step.departure))  "
                            + say(
                                .take(
                                    route: clean(step.routeAndTripNumber ?? "?"),
                                    headsign: clean(step.shownDestination),
                                    stop: clean(step.from.name) + code(step.from))) + mark)
                    lines.append(
                        "  \(clock(live?.predictedArrival ?? step.arrival))  "
                            + say(.getOffAt(stop: clean(step.to.name) + code(step.to), stops: step.stops ?? 0)))
                }
            }
        }
    }

    /// "● live +4 min (scheduled 08:03)", "● live, on time", "○ timetable", "● live, extra service".
    public static func rideMark(_ live: RideRealtime, scheduled: String, language: Language) -> String {
        switch live.state {
        case .added: return PlanMessage.rideAdded.text(language)
        case .updated:
            let minutes = LiveText.delayMinutes(live.delaySeconds ?? 0)
            return minutes == 0
                ? PlanMessage.rideLiveOnTime.text(language)
                : PlanMessage.rideLive(delayMinutes: minutes, scheduled: scheduled).text(language)
        case .scheduled, .canceled, .skipped: return PlanMessage.rideTimetable.text(language)
        }
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
