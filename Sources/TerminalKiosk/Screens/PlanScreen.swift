import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// The journey plan: options and their legs.
extension KioskScreenBuilder {
    // MARK: - Plan

    /// `clocks`: the passenger locale whose clock the times are written in (`KioskState.locale`).
    static func planLines(
        _ plan: JourneyPlan, now: Date, zone: TimeZone, lang: Language, width: Int,
        clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        let es = lang == .es
        let clock = { (d: Date) in clocks.clock(d, in: zone) }
        var lines: [ScreenLine] = []
        lines.append(
            ScreenLine([ScreenSpan(" " + (es ? "Salida desde las " : "Leaving from ") + clock(plan.at), .dim)]))
        if plan.stepFree == true {
            for note in [PlanMessage.stepFreeOnly, .stepFreeUnknownValues] {
                lines += wrap(note.text(lang), width: width - 2).map { ScreenLine([ScreenSpan(" " + $0, .dim)]) }
            }
            if plan.options.isEmpty {
                lines.append(.empty)
                lines.append(ScreenLine([ScreenSpan(" " + PlanMessage.noStepFreeJourney.text(lang), .bold)]))
                if let ordinary = plan.withoutStepFree, !ordinary.isEmpty {
                    lines.append(ScreenLine([ScreenSpan(" " + PlanMessage.ordinaryJourneysHeading.text(lang))]))
                    return lines + optionLines(ordinary, now: now, zone: zone, lang: lang, clocks: clocks)
                }
            }
        }
        if plan.options.isEmpty {
            lines.append(.empty)
            lines.append(
                ScreenLine([
                    ScreenSpan(
                        " "
                            + (es
                                ? "No encontramos cómo llegar con hasta \(plan.maxTransfers) transbordos en las próximas horas."
                                : "No way to get there with up to \(plan.maxTransfers) transfers in the coming hours."),
                        .bold)
                ]))
            let ends: [(String, [RouteInfo])] = [
                (es ? "Líneas en el origen" : "Routes at the start", plan.routesAtOrigin),
                (es ? "Líneas en el destino" : "Routes at the destination", plan.routesAtDestination),
            ]
            for (label, routes) in ends where !routes.isEmpty {
                var spans = [ScreenSpan(" " + label + ": ")]
                for route in routes {
                    spans.append(badge(route, width: ScreenCanvas.width(of: clean(route.label, 12)) + 2));
                    spans.append(ScreenSpan(" "))
                }
                lines.append(ScreenLine(spans))
            }
            return lines
        }
        return lines + optionLines(plan.options, now: now, zone: zone, lang: lang, clocks: clocks)
    }

    /// Each option: its times, length, transfers and wait, then its walks and rides.
    static func optionLines(
        _ options: [JourneyOption], now: Date, zone: TimeZone, lang: Language, clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        let es = lang == .es
        let clock = { (d: Date) in clocks.clock(d, in: zone) }
        var lines: [ScreenLine] = []
        for (number, option) in options.enumerated() {
            lines.append(.empty)
            let transfers =
                option.transfers == 0
                ? (es ? "directo" : "direct")
                : es
                    ? "\(option.transfers) transbordo\(option.transfers == 1 ? "" : "s")"
                    : "\(option.transfers) transfer\(option.transfers == 1 ? "" : "s")"
            let wait = max(0, Int(option.departure.timeIntervalSince(now) / 60))
            let leaves = wait == 0 ? Message.now.text(lang) : (es ? "sale en \(wait) min" : "leaves in \(wait) min")
            lines.append(
                ScreenLine([
                    ScreenSpan(" \(es ? "Opción" : "Option") \(number + 1) ", selectedStyle),
                    ScreenSpan("  \(clock(option.departure)) → \(clock(option.arrival))", .bold),
                    ScreenSpan("   \(option.durationMinutes) min · \(transfers) · \(leaves)"),
                ]))
            for step in option.legs {
                switch step.kind {
                case .walk:
                    lines.append(
                        ScreenLine([
                            ScreenSpan("   \(clock(step.departure))  "),
                            ScreenSpan(es ? "camine \(step.minutes) min hasta " : "walk \(step.minutes) min to ", .dim),
                            ScreenSpan(stopLabel(step.to)),
                        ]))
                case .ride:
                    let stops = step.stops ?? 0
                    // On live data: the predicted times, marked in words and symbols as the board marks them.
                    let live = step.realtime
                    var spans = [ScreenSpan("   \(clock(live?.predictedDeparture ?? step.departure))  ")]
                    if let route = step.route { spans.append(badge(route, width: badgeWidth([route]))) }
                    let number = step.tripShortName.map { " " + clean($0) } ?? ""
                    spans.append(
                        ScreenSpan(
                            number + " " + Message.towards(clean(step.shownDestination)).text(lang) + " · ", .bold))
                    spans.append(ScreenSpan((es ? "suba en " : "board at ") + stopLabel(step.from)))
                    if let live {
                        spans.append(
                            ScreenSpan(
                                "  " + JourneyPlanText.rideMark(live, scheduled: clock(step.departure), language: lang),
                                live.state == .scheduled ? .dim : .bold))
                    }
                    lines.append(ScreenLine(spans))
                    lines.append(
                        ScreenLine([
                            ScreenSpan("   \(clock(live?.predictedArrival ?? step.arrival))  "),
                            ScreenSpan((es ? "baje en " : "get off at ") + stopLabel(step.to)),
                            ScreenSpan(
                                es
                                    ? "  (\(stops) parada\(stops == 1 ? "" : "s"))"
                                    : "  (\(stops) stop\(stops == 1 ? "" : "s"))", .dim),
                        ]))
                }
            }
        }
        return lines
    }

    static func drawPlan(
        _ canvas: inout ScreenCanvas, state: KioskState, plan: KioskPlanScreen, rows: ClosedRange<Int>, zone: TimeZone
    ) {
        let lang = state.language
        let w = canvas.width
        guard let journey = plan.plan else {
            let text = plan.failure.map { failureText($0, lang) } ?? Message.planning.text(lang)
            centered(
                &canvas, text, row: rows.lowerBound + rows.count / 2, width: w,
                style: plan.failure == nil ? .dim : warningStyle)
            return
        }
        let lines = planLines(journey, now: state.now, zone: zone, lang: lang, width: w, clocks: state.locale)
        let room = rows.count
        let scroll = min(plan.scroll, max(0, lines.count - room))
        var row = rows.lowerBound
        for (i, line) in lines.dropFirst(scroll).enumerated() where i < room {
            if i == room - 1 && lines.count - scroll > room {
                draw(
                    &canvas,
                    ScreenLine([ScreenSpan("  " + Message.moreBelow(lines.count - scroll - room + 1).text(lang), .dim)]
                    ), row: row, column: 0, width: w)
            } else {
                draw(&canvas, line, row: row, column: 0, width: w)
            }
            row += 1
        }
    }
}
