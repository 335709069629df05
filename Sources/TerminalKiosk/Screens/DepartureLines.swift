import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// Route badges and departure lines, shared by the idle board and the stop view.
extension KioskScreenBuilder {
    // MARK: - Route badges and departure lines

    /// A route's label on its colours (truecolour, 256 or 16 colours is the writer's business).
    static func badge(_ route: RouteInfo, width: Int) -> ScreenSpan {
        let label = ScreenCanvas.truncate(clean(route.label, 12), to: max(1, width - 2))
        let padded =
            " " + label + String(repeating: " ", count: max(0, width - 2 - ScreenCanvas.width(of: label))) + " "
        guard let background = ScreenColor(gtfsHex: route.color) else {
            return ScreenSpan(padded, CellStyle(bold: true, reverse: true))
        }
        let foreground =
            ScreenColor(gtfsHex: route.textColor) ?? (background.luminance > 0.4 ? .rgb(0, 0, 0) : .rgb(255, 255, 255))
        return ScreenSpan(padded, CellStyle(foreground: foreground, background: background, bold: true))
    }

    static func badgeWidth(_ routes: [RouteInfo]) -> Int {
        min(10, (routes.map { ScreenCanvas.width(of: clean($0.label, 12)) }.max() ?? 2) + 2)
    }

    static func minutesText(_ departure: Departure, now: Date, _ lang: Language) -> String {
        let minutes = Int((departure.expectedTime.timeIntervalSince(now) / 60).rounded(.down))
        let text = minutes <= 0 ? Message.now.text(lang) : Message.minutesAway(minutes).text(lang)
        return departure.approximate ? "≈" + text : text
    }

    /// One line per departure: clock, badge, train number (where the feed gives one), destination, platform (at
    /// stations), minutes, and the live mark when live data is in force. `large` drops the clock column (the
    /// minutes say the same) so the destination keeps its room on a large-text screen.
    /// `clocks`: the passenger locale whose clock the times are written in (`KioskState.locale`).
    static func departureLines(
        _ view: StopView, now: Date, width: Int, zone: TimeZone, lang: Language, large: Bool = false,
        clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        let upcoming = view.departures.filter {
            $0.expectedTime.timeIntervalSince(now) > -60 && $0.realtime?.state != .skipped
        }
        let badgeW = badgeWidth(upcoming.map(\.route))
        let showPlatform = view.platforms.count > 1
        // With live data each line ends in its mark — a symbol and a word, never colour alone.
        let marks = upcoming.map { liveMark($0, lang) }
        let markW = marks.compactMap { $0 }.map { ScreenCanvas.width(of: $0) }.max().map { $0 + 1 } ?? 0
        // Train numbers (trip_short_name) in a column of their own after the badge, where the feed gives them.
        let numbers = upcoming.map { $0.tripShortName.map { clean($0, 12) } ?? "" }
        let numberW = numbers.map { ScreenCanvas.width(of: $0) }.max() ?? 0
        let lines = zip(zip(upcoming, marks), numbers).map { pair, number in
            let (d, mark) = pair
            let minutes = minutesText(d, now: now, lang)
            let platform =
                showPlatform ? (d.platformCode.map { " " + Message.platform(clean($0, 8)).text(lang) } ?? "") : ""
            let fixed = (large ? 2 : 2 + clocks.clockWidth + 2) + badgeW + 1 + 1 + 8 + markW
            let headW = max(4, width - fixed - ScreenCanvas.width(of: platform))
            let numbered =
                numberW == 0
                ? "" : number + String(repeating: " ", count: numberW - ScreenCanvas.width(of: number)) + " "
            let head = ScreenCanvas.truncate(numbered + clean(d.destination), to: headW)
            let pad = String(repeating: " ", count: max(0, headW - ScreenCanvas.width(of: head)))
            let minutesPadded = String(repeating: " ", count: max(0, 8 - ScreenCanvas.width(of: minutes))) + minutes
            let soon = d.expectedTime.timeIntervalSince(now) < 5 * 60
            let canceled = d.realtime?.state == .canceled
            var spans = [
                ScreenSpan(
                    large ? "  " : "  " + clockColumn(d.expectedTime, zone, clocks) + "  ",
                    canceled ? CellStyle(strikethrough: true) : .plain),
                badge(d.route, width: badgeW),
                ScreenSpan(" " + head + pad + platform + " ", canceled ? CellStyle(strikethrough: true) : .plain),
                ScreenSpan(
                    minutesPadded,
                    canceled ? CellStyle(dim: true, strikethrough: true) : soon ? soonStyle : .bold),
            ]
            if let mark {
                let live = d.realtime?.state == .updated || d.realtime?.state == .added
                spans.append(ScreenSpan(" " + mark, canceled || live ? .bold : .dim))
            }
            return ScreenLine(spans)
        }
        // Alerts first: a long board must not push them off the screen.
        return liveNotice(view, zone: zone, lang: lang) + alertLines(view, width: width, lang: lang) + lines
    }
    /// The short live mark of a departure on the screen ("● +4 min", "● en vivo", "○ horario", "✕ cancelado").
    static func liveMark(_ d: Departure, _ lang: Language) -> String? {
        guard let realtime = d.realtime else { return nil }
        switch realtime.state {
        case .scheduled: return Message.scheduledMark.text(lang)
        case .canceled: return Message.canceled.text(lang)
        case .skipped: return nil
        case .added: return Message.liveMark.text(lang)
        case .updated:
            let minutes = LiveText.delayMinutes(realtime.delaySeconds ?? 0)
            return minutes == 0 ? Message.liveMark.text(lang) : "● " + Message.delayMinutes(minutes).text(lang)
        }
    }

    /// "Live information unavailable since 14:05 …" when live data is configured but not in force.
    static func liveNotice(_ view: StopView, zone: TimeZone, lang: Language) -> [ScreenLine] {
        guard let notice = LiveText.notice(view, language: lang, zone: zone) else { return [] }
        return [ScreenLine([ScreenSpan("  " + clean(notice, 160), .bold)])]
    }

    /// Service alerts for the stop, its routes or the agency, one line each (the header).
    static func alertLines(_ view: StopView, width: Int, lang: Language) -> [ScreenLine] {
        guard let alerts = view.alerts, !alerts.isEmpty else { return [] }
        var lines = [ScreenLine([ScreenSpan("  " + Message.alertsHeading.text(lang), .bold)])]
        for alert in alerts.prefix(3) {
            lines.append(
                ScreenLine([
                    ScreenSpan("  ⚠ ", .bold),
                    ScreenSpan(ScreenCanvas.truncate(clean(alert.header, 200), to: max(8, width - 5))),
                ]))
        }
        let more = alerts.count - min(alerts.count, 3) + (view.alertsNotShown ?? 0)
        if more > 0 { lines.append(ScreenLine([ScreenSpan("  … " + Message.moreAlerts(more).text(lang))])) }
        return lines
    }

    /// A clock time right-aligned in the locale's widest ("08:03", " 3:05 PM").
    static func clockColumn(_ date: Date, _ zone: TimeZone, _ clocks: PassengerLocale) -> String {
        let text = clocks.clock(date, in: zone)
        return String(repeating: " ", count: max(0, clocks.clockWidth - ScreenCanvas.width(of: text))) + text
    }

    static func noDepartureLines(
        _ view: StopView, zone: TimeZone, lang: Language, clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        if view.realtimeStatus == .withheld { return liveNotice(view, zone: zone, lang: lang) }
        var lines =
            liveNotice(view, zone: zone, lang: lang) + alertLines(view, width: 80, lang: lang) + [
                ScreenLine([ScreenSpan("  " + Message.noDeparturesInWindow(minutes: view.windowMinutes).text(lang))])
            ]
        if let next = view.nextDeparture {
            let day = LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
            lines.append(
                ScreenLine([
                    ScreenSpan(
                        "  "
                            + Message.nextDeparture(clock: clocks.clock(next.time, in: zone), dayOffset: day).text(
                                lang) + "  "),
                    badge(next.route, width: badgeWidth([next.route])),
                    ScreenSpan(" " + (next.tripShortName.map { clean($0, 12) + " " } ?? "") + clean(next.destination)),
                ]))
        } else {
            lines.append(ScreenLine([ScreenSpan("  " + Message.noDeparturesThisWeek.text(lang))]))
        }
        return lines
    }
}
