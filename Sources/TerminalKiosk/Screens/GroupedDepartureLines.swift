import Foundation
import StopPresentation
import TransitModel

// The board's departures grouped as stop monitors show them: one line per route and destination with its next
// times, the group leaving next first — the same grouping as the `/kiosk` board (`DepartureGroup`).
extension KioskScreenBuilder {
    /// Narrower than this, the departures are one per line (`departureLines`): a group's times would leave its
    /// destination too little room.
    static let groupedMinimumWidth = 64

    /// The departures of the board: grouped by route and destination where `width` allows, else one per line.
    static func boardDepartureLines(
        _ view: StopView, now: Date, width: Int, zone: TimeZone, lang: Language, large: Bool = false,
        clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        guard width >= groupedMinimumWidth else {
            return departureLines(
                view, now: now, width: width, zone: zone, lang: lang, large: large, clocks: clocks)
        }
        return groupedDepartureLines(
            view, now: now, width: width, zone: zone, lang: lang, large: large, clocks: clocks)
    }

    /// "  08:02  TB  El Recreo               2 · 9 · 17 min  ● +1 min": the first departure's clock (not in the large
    /// layout), the badge, the destination, the next three times in minutes (a clock beyond the hour, ✕ before a
    /// cancelled one) and the first departure's live mark. Alerts and the live notice come first, as on every board.
    static func groupedDepartureLines(
        _ view: StopView, now: Date, width: Int, zone: TimeZone, lang: Language, large: Bool = false,
        clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        let upcoming = view.departures.filter {
            $0.expectedTime.timeIntervalSince(now) > -60 && $0.realtime?.state != .skipped
        }
        .enumerated().sorted { ($0.element.expectedTime, $0.offset) < ($1.element.expectedTime, $1.offset) }
        .map(\.element)
        let groups = DepartureGroup.grouping(upcoming, timesPerGroup: 3)
        let badgeW = badgeWidth(groups.map(\.route))
        let showPlatform = view.platforms.count > 1
        let times = groups.map { groupTimes($0, now: now, zone: zone, lang: lang, clocks: clocks) }
        let timesW = times.map { $0.reduce(0) { $0 + ScreenCanvas.width(of: $1.text) } }.max() ?? 0
        // The first departure's mark; a later one cancelled is said in words too, not by its ✕ alone.
        let marks = groups.map { group -> String? in
            let first = group.departures.first.flatMap { liveMark($0, lang) }
            let laterCanceled = group.departures.dropFirst().contains { $0.realtime?.state == .canceled }
            guard laterCanceled else { return first }
            return (first.map { $0 + " · " } ?? "") + Message.canceled.text(lang)
        }
        let markW = marks.compactMap { $0 }.map { ScreenCanvas.width(of: $0) }.max().map { $0 + 1 } ?? 0
        let lines = zip(groups, zip(times, marks)).map { group, pair in
            let (spans, mark) = pair
            let first = group.departures[0]
            let platform =
                showPlatform ? (first.platformCode.map { " " + Message.platform(clean($0, 8)).text(lang) } ?? "") : ""
            let clockW = large ? 2 : 2 + clocks.clockWidth + 2
            let destinationW = max(
                4, width - clockW - badgeW - 1 - ScreenCanvas.width(of: platform) - 2 - timesW - markW)
            let destination = ScreenCanvas.truncate(clean(group.destination), to: destinationW)
            let pad = String(repeating: " ", count: max(0, destinationW - ScreenCanvas.width(of: destination)))
            let used = spans.reduce(0) { $0 + ScreenCanvas.width(of: $1.text) }
            var line = [
                ScreenSpan(large ? "  " : "  " + clockColumn(first.expectedTime, zone, clocks) + "  "),
                badge(group.route, width: badgeW),
                ScreenSpan(" " + destination + pad + platform + "  " + String(repeating: " ", count: timesW - used)),
            ]
            line += spans
            if let mark {
                let live = first.realtime?.state == .updated || first.realtime?.state == .added
                let canceled = first.realtime?.state == .canceled
                line.append(ScreenSpan(" " + mark, canceled || live ? .bold : .dim))
            }
            return ScreenLine(line)
        }
        return liveNotice(view, zone: zone, lang: lang) + alertLines(view, width: width, lang: lang) + lines
    }

    /// A group's times as spans: "now · 14 · 29 min", the first in the soon colour within five minutes, a
    /// cancelled time struck through after a ✕.
    static func groupTimes(
        _ group: DepartureGroup, now: Date, zone: TimeZone, lang: Language, clocks: PassengerLocale = .standard
    ) -> [ScreenSpan] {
        var spans: [ScreenSpan] = []
        let texts = group.departures.map { departure -> String in
            let minutes = Int((departure.expectedTime.timeIntervalSince(now) / 60).rounded(.down))
            let clock = clocks.clock(departure.expectedTime, in: zone)
            let text = minutes <= 0 ? Message.now.text(lang) : minutes < 60 ? "\(minutes)" : clock
            return (departure.approximate && minutes > 0 ? "≈" : "") + text
        }
        let lastMinutes = texts.lastIndex { !$0.contains(":") && $0 != Message.now.text(lang) }
        for (index, departure) in group.departures.enumerated() {
            if index > 0 { spans.append(ScreenSpan(" · ", .dim)) }
            let canceled = departure.realtime?.state == .canceled
            let soon = index == 0 && departure.expectedTime.timeIntervalSince(now) < 5 * 60
            if canceled { spans.append(ScreenSpan("✕", .bold)) }
            spans.append(
                ScreenSpan(
                    texts[index],
                    canceled ? CellStyle(dim: true, strikethrough: true) : soon ? soonStyle : .bold))
            if index == lastMinutes { spans.append(ScreenSpan(" " + BoardMessage.minutesUnit.text(lang))) }
        }
        return spans
    }
}
