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
        let minutes = Int((departure.time.timeIntervalSince(now) / 60).rounded(.down))
        let text = minutes <= 0 ? Message.now.text(lang) : Message.minutesAway(minutes).text(lang)
        return departure.approximate ? "≈" + text : text
    }

    /// One line per departure: clock, badge, headsign, platform (at stations), minutes. `large` drops the clock
    /// column (the minutes say the same) so the headsign keeps its room on a large-text screen.
    static func departureLines(
        _ view: StopView, now: Date, width: Int, zone: TimeZone, lang: Language, large: Bool = false
    ) -> [ScreenLine] {
        let upcoming = view.departures.filter { $0.time.timeIntervalSince(now) > -60 }
        let badgeW = badgeWidth(upcoming.map(\.route))
        let showPlatform = view.platforms.count > 1
        return upcoming.map { d in
            let minutes = minutesText(d, now: now, lang)
            let platform =
                showPlatform ? (d.platformCode.map { " " + Message.platform(clean($0, 8)).text(lang) } ?? "") : ""
            let fixed = (large ? 2 : 2 + 5 + 2) + badgeW + 1 + 1 + 8
            let headW = max(4, width - fixed - ScreenCanvas.width(of: platform))
            let head = ScreenCanvas.truncate(clean(d.headsign), to: headW)
            let pad = String(repeating: " ", count: max(0, headW - ScreenCanvas.width(of: head)))
            let minutesPadded = String(repeating: " ", count: max(0, 8 - ScreenCanvas.width(of: minutes))) + minutes
            let soon = d.time.timeIntervalSince(now) < 5 * 60
            return ScreenLine([
                ScreenSpan(large ? "  " : "  " + LocalTime.clock(d.time, in: zone) + "  "),
                badge(d.route, width: badgeW),
                ScreenSpan(" " + head + pad + platform + " "), ScreenSpan(minutesPadded, soon ? soonStyle : .bold),
            ])
        }
    }

    static func noDepartureLines(_ view: StopView, zone: TimeZone, lang: Language) -> [ScreenLine] {
        var lines = [
            ScreenLine([ScreenSpan("  " + Message.noDeparturesInWindow(minutes: view.windowMinutes).text(lang))])
        ]
        if let next = view.nextDeparture {
            let day = LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
            lines.append(
                ScreenLine([
                    ScreenSpan(
                        "  "
                            + Message.nextDeparture(clock: LocalTime.clock(next.time, in: zone), dayOffset: day).text(
                                lang) + "  "),
                    badge(next.route, width: badgeWidth([next.route])), ScreenSpan(" " + clean(next.headsign)),
                ]))
        } else {
            lines.append(ScreenLine([ScreenSpan("  " + Message.noDeparturesThisWeek.text(lang))]))
        }
        return lines
    }
}
