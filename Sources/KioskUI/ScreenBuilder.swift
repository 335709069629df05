import Foundation
import TransitModel
import TransitStore

/// A run of text in one style.
public struct ScreenSpan: Sendable, Equatable {
    public var text: String
    public var style: CellStyle
    public init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// A line of spans; `fill` paints the rest of the line in a style (a highlighted row).
public struct ScreenLine: Sendable, Equatable {
    public var spans: [ScreenSpan]
    public var fill: CellStyle?
    public init(_ spans: [ScreenSpan] = [], fill: CellStyle? = nil) {
        self.spans = spans
        self.fill = fill
    }
    public static let empty = ScreenLine()
}

/// What the screen builder needs besides the state.
public struct ScreenContext: Sendable, Equatable {
    /// "DEMO" in the header: the demo on the sample network.
    public var demo: Bool
    /// The kiosk's name in the header of the idle screen when it has no home stop.
    public var title: String

    public init(demo: Bool = false, title: String = "StopKiosk") {
        self.demo = demo
        self.title = title
    }
}

/// Draws the kiosk: state + size + language → a canvas of styled cells. Pure, deterministic; fits 80×24 and
/// spreads out on larger terminals (two columns for the stop view from 110 columns, more departures, more
/// of the plan without scrolling).
public enum KioskScreenBuilder {
    // The palette: ANSI colours, so the Linux console and every terminal theme show them.
    static let headerStyle = CellStyle(foreground: .brightWhite, background: .blue, bold: true)
    static let footerStyle = CellStyle(foreground: .black, background: .white)
    static let footerKeyStyle = CellStyle(foreground: .blue, background: .white, bold: true)
    static let promptStyle = CellStyle(foreground: .black, background: .brightYellow, bold: true)
    static let sectionStyle = CellStyle(foreground: .cyan, bold: true)
    static let selectedStyle = CellStyle(bold: true, reverse: true)
    static let warningStyle = CellStyle(foreground: .black, background: .yellow, bold: true)
    static let errorStyle = CellStyle(foreground: .brightWhite, background: .red, bold: true)
    static let soonStyle = CellStyle(foreground: .green, bold: true)

    public static func build(_ state: KioskState, width: Int, height: Int, context: ScreenContext = ScreenContext()) -> ScreenCanvas {
        var canvas = ScreenCanvas(width: width, height: height)
        let lang = state.language
        let zone = timeZone(state)
        guard width >= 30, height >= 8 else {
            canvas.put(ScreenCanvas.truncate(Message.holdCodePrompt.text(lang), to: width), row: 0, column: 0, style: .bold)
            return canvas
        }

        // Header: where we are, the clock, and the language key (always visible).
        canvas.fill(row: 0, style: headerStyle)
        let clock = LocalTime.clock(state.now, in: zone)
        var right = "\(clock)  [\(Message.keyLanguage.text(lang))] "
        if context.demo { right = "\(Message.demoBanner.text(lang))  " + right }
        let rightWidth = ScreenCanvas.width(of: right)
        canvas.put(" " + ScreenCanvas.truncate(title(state, context: context), to: width - rightWidth - 3), row: 0, column: 0, style: headerStyle)
        canvas.put(right, row: 0, column: width - rightWidth, style: headerStyle)

        // Footer: the keys that work on this screen.
        var bottom = height - 1
        drawFooter(&canvas, row: bottom, keys: footerKeys(state), lang: lang)
        bottom -= 1
        switch state.camera {
        case .unavailable:
            canvas.fill(row: bottom, style: warningStyle)
            canvas.put(" " + Message.cameraUnavailable.text(lang), row: bottom, column: 0, style: warningStyle)
            bottom -= 1
        default: break
        }
        let body = 1...bottom

        switch state.database {
        case .unavailable:
            drawFullMessage(&canvas, rows: body, title: Message.databaseUnavailable.text(lang),
                            detail: Message.databaseUnavailableDetail.text(lang), style: errorStyle)
            return canvas
        case let .outOfService(_, _, _, start, end) where state.screen == .idle:
            drawFullMessage(&canvas, rows: body, title: Message.outOfService(start: start, end: end).text(lang),
                            detail: Message.outOfServiceDetail.text(lang), style: warningStyle)
            return canvas
        default: break
        }

        switch state.screen {
        case .idle: drawIdle(&canvas, state: state, rows: body, zone: zone)
        case let .stop(screen): drawStop(&canvas, state: state, screen: screen, rows: body, zone: zone)
        case let .entry(entry): drawEntry(&canvas, state: state, entry: entry, rows: body)
        case let .plan(plan): drawPlan(&canvas, state: state, plan: plan, rows: body, zone: zone)
        }
        if let notice = state.notice { drawNotice(&canvas, notice: notice, lang: lang, rows: body) }
        return canvas
    }

    // MARK: - Frame parts

    static func timeZone(_ state: KioskState) -> TimeZone {
        if let id = state.database.timeZoneIdentifier, let zone = TimeZone(identifier: id) { return zone }
        return TimeZone.current
    }

    static func clean(_ text: String, _ max: Int = 60) -> String { TerminalText.sanitize(text, maxLength: max) }

    static func stopLabel(_ stop: StopInfo) -> String {
        clean(stop.name) + (stop.code.map { "  [\(clean($0, 20))]" } ?? "")
    }

    static func title(_ state: KioskState, context: ScreenContext) -> String {
        let lang = state.language
        switch state.screen {
        case .idle:
            return state.home.map { stopLabel($0.view.stop) } ?? context.title
        case let .stop(screen):
            if let board = screen.board { return stopLabel(board.view.stop) }
            if let stop = screen.stop { return stopLabel(stop.stop) }
            return context.title
        case let .entry(entry):
            switch entry.purpose {
            case let .destination(from): return stopLabel(from.view.stop) + "  →  ?"
            case .origin: return Message.typeYourStop.text(lang)
            }
        case let .plan(plan):
            let to = plan.plan.map { clean($0.to.name) } ?? plan.destinationLabel
            return Message.journeyHeading(from: clean(plan.from.view.stop.name), to: to).text(lang)
        }
    }

    static func footerKeys(_ state: KioskState) -> [Message] {
        switch state.screen {
        case .idle: return []
        case .stop: return [.keyHome, .keyScroll]
        case .entry: return [.keyPick, .keyPlan, .keyBack]
        case .plan: return [.keyScroll, .keyBack, .keyNewDestination]
        }
    }

    static func drawFooter(_ canvas: inout ScreenCanvas, row: Int, keys: [Message], lang: Language) {
        canvas.fill(row: row, style: footerStyle)
        var x = 1
        let all = [Message.keyLanguage] + keys
        for (i, key) in all.enumerated() {
            if i > 0 { x += canvas.put("  ·  ", row: row, column: x, style: footerStyle) }
            x += canvas.put(key.text(lang), row: row, column: x, style: footerKeyStyle)
        }
    }

    static func draw(_ canvas: inout ScreenCanvas, _ line: ScreenLine, row: Int, column: Int, width: Int) {
        if let fill = line.fill { canvas.fill(row: row, column: column, width: width, style: fill) }
        var x = column
        for span in line.spans {
            let room = column + width - x
            guard room > 0 else { break }
            let text = ScreenCanvas.width(of: span.text) > room ? ScreenCanvas.truncate(span.text, to: room) : span.text
            x += canvas.put(text, row: row, column: x, style: span.style, maxWidth: room)
        }
    }

    static func centered(_ canvas: inout ScreenCanvas, _ text: String, row: Int, column: Int = 0, width: Int, style: CellStyle) {
        let t = ScreenCanvas.truncate(text, to: width)
        let x = column + max(0, (width - ScreenCanvas.width(of: t)) / 2)
        canvas.put(t, row: row, column: x, style: style)
    }

    /// A double-line box; returns the inner rows.
    static func box(_ canvas: inout ScreenCanvas, top: Int, left: Int, width: Int, height: Int, style: CellStyle, fill: CellStyle? = nil) {
        guard width >= 2, height >= 2 else { return }
        let inner = width - 2
        canvas.put("╔" + String(repeating: "═", count: inner) + "╗", row: top, column: left, style: style)
        for r in (top + 1)..<(top + height - 1) {
            canvas.put("║", row: r, column: left, style: style)
            if let fill { canvas.fill(row: r, column: left + 1, width: inner, style: fill) }
            canvas.put("║", row: r, column: left + width - 1, style: style)
        }
        canvas.put("╚" + String(repeating: "═", count: inner) + "╝", row: top + height - 1, column: left, style: style)
    }

    static func drawFullMessage(_ canvas: inout ScreenCanvas, rows: ClosedRange<Int>, title: String, detail: String, style: CellStyle) {
        let w = min(canvas.width - 4, 76)
        let left = (canvas.width - w) / 2
        let top = rows.lowerBound + max(1, (rows.count - 6) / 2)
        box(&canvas, top: top, left: left, width: w, height: 6, style: style, fill: style)
        centered(&canvas, title, row: top + 2, column: left + 1, width: w - 2, style: style)
        centered(&canvas, detail, row: top + 3, column: left + 1, width: w - 2, style: style)
    }

    static func drawNotice(_ canvas: inout ScreenCanvas, notice: KioskNotice, lang: Language, rows: ClosedRange<Int>) {
        let (title, detail, style): (String, String, CellStyle)
        switch notice.kind {
        case let .notAStopCode(text):
            (title, detail, style) = (Message.notAStopCode.text(lang), Message.notAStopCodeDetail(clean(text, 50)).text(lang), warningStyle)
        case let .unknownStop(value):
            (title, detail, style) = (Message.unknownStop(clean(value, 30)).text(lang), Message.unknownStopDetail.text(lang), warningStyle)
        case let .forged(claimed):
            (title, detail, style) = (Message.forged.text(lang), Message.forgedDetail(clean(claimed, 30)).text(lang), errorStyle)
        case .signatureRequired:
            (title, detail, style) = (Message.signatureRequired.text(lang), Message.signatureRequiredDetail.text(lang), warningStyle)
        case let .failure(failure):
            (title, detail, style) = (failureText(failure, lang), "", warningStyle)
        }
        let w = min(canvas.width - 4, max(50, min(76, ScreenCanvas.width(of: detail) + 6)))
        let left = (canvas.width - w) / 2
        let top = rows.lowerBound + max(1, (rows.count - 7) / 2)
        box(&canvas, top: top, left: left, width: w, height: 7, style: style, fill: style)
        centered(&canvas, title, row: top + 2, column: left + 1, width: w - 2, style: style)
        centered(&canvas, detail, row: top + 3, column: left + 1, width: w - 2, style: CellStyle(foreground: style.foreground, background: style.background))
        centered(&canvas, Message.pressAnyKey.text(lang), row: top + 5, column: left + 1, width: w - 2,
                 style: CellStyle(foreground: style.foreground, background: style.background, dim: true))
    }

    static func failureText(_ failure: KioskFailure, _ lang: Language) -> String {
        switch failure {
        case .databaseUnavailable: return Message.databaseUnavailable.text(lang)
        case let .outOfService(_, start, end): return Message.outOfService(start: start, end: end).text(lang)
        case let .noSuchStop(query): return Message.noSuchStop(clean(query, 40)).text(lang)
        case .ambiguous: return Message.ambiguous.text(lang)
        case .sameStop: return Message.sameStop.text(lang)
        case .other: return Message.lookupFailed.text(lang)
        }
    }

    // MARK: - Route badges and departure lines

    /// A route's label on its colours (truecolour, 256 or 16 colours is the writer's business).
    static func badge(_ route: RouteInfo, width: Int) -> ScreenSpan {
        let label = ScreenCanvas.truncate(clean(route.label, 12), to: max(1, width - 2))
        let padded = " " + label + String(repeating: " ", count: max(0, width - 2 - ScreenCanvas.width(of: label))) + " "
        guard let background = ScreenColor(gtfsHex: route.color) else { return ScreenSpan(padded, CellStyle(bold: true, reverse: true)) }
        let foreground = ScreenColor(gtfsHex: route.textColor) ?? (background.luminance > 0.4 ? .rgb(0, 0, 0) : .rgb(255, 255, 255))
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

    static func departureLines(_ view: StopView, now: Date, width: Int, zone: TimeZone, lang: Language) -> [ScreenLine] {
        let upcoming = view.departures.filter { $0.time.timeIntervalSince(now) > -60 }
        let badgeW = badgeWidth(upcoming.map(\.route))
        let showPlatform = view.platforms.count > 1
        return upcoming.map { d in
            let minutes = minutesText(d, now: now, lang)
            let platform = showPlatform ? (d.platformCode.map { " " + Message.platform(clean($0, 8)).text(lang) } ?? "") : ""
            let fixed = 2 + 5 + 2 + badgeW + 1 + 1 + 8
            let headW = max(4, width - fixed - ScreenCanvas.width(of: platform))
            let head = ScreenCanvas.truncate(clean(d.headsign), to: headW)
            let pad = String(repeating: " ", count: max(0, headW - ScreenCanvas.width(of: head)))
            let minutesPadded = String(repeating: " ", count: max(0, 8 - ScreenCanvas.width(of: minutes))) + minutes
            let soon = d.time.timeIntervalSince(now) < 5 * 60
            return ScreenLine([ScreenSpan("  " + LocalTime.clock(d.time, in: zone) + "  "), badge(d.route, width: badgeW),
                               ScreenSpan(" " + head + pad + platform + " "), ScreenSpan(minutesPadded, soon ? soonStyle : .bold)])
        }
    }

    static func noDepartureLines(_ view: StopView, zone: TimeZone, lang: Language) -> [ScreenLine] {
        var lines = [ScreenLine([ScreenSpan("  " + Message.noDeparturesInWindow(minutes: view.windowMinutes).text(lang))])]
        if let next = view.nextDeparture {
            let day = LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
            lines.append(ScreenLine([ScreenSpan("  " + Message.nextDeparture(clock: LocalTime.clock(next.time, in: zone), dayOffset: day).text(lang) + "  "),
                                     badge(next.route, width: badgeWidth([next.route])), ScreenSpan(" " + clean(next.headsign))]))
        } else {
            lines.append(ScreenLine([ScreenSpan("  " + Message.noDeparturesThisWeek.text(lang))]))
        }
        return lines
    }

    // MARK: - Idle

    static func drawIdle(_ canvas: inout ScreenCanvas, state: KioskState, rows: ClosedRange<Int>, zone: TimeZone) {
        let lang = state.language
        let w = canvas.width
        var row = rows.lowerBound + 1
        // The prompt: large, boxed, in the kiosk's language with the other one beneath.
        let boxHeight = rows.count >= 26 ? 8 : rows.count >= 18 ? 7 : 5
        let boxWidth = min(w - 4, 90)
        let left = (w - boxWidth) / 2
        if rows.count >= 22 {
            centered(&canvas, "▲   ▲   ▲", row: row, width: w, style: CellStyle(foreground: .yellow, bold: true))
            row += 1
        }
        box(&canvas, top: row, left: left, width: boxWidth, height: boxHeight, style: promptStyle, fill: promptStyle)
        let inner = boxWidth - 2
        let textRows = boxHeight == 8 ? [2, 3, 5] : boxHeight == 7 ? [2, 3, 4] : [1, 2, 3]
        centered(&canvas, Message.holdCodePrompt.text(lang), row: row + textRows[0], column: left + 1, width: inner, style: promptStyle)
        centered(&canvas, Message.holdCodePrompt.text(lang.other), row: row + textRows[1], column: left + 1, width: inner,
                 style: CellStyle(foreground: .black, background: .brightYellow))
        centered(&canvas, Message.holdCodeDetail.text(lang), row: row + textRows[2], column: left + 1, width: inner,
                 style: CellStyle(foreground: .black, background: .brightYellow, dim: true))
        row += boxHeight + 1

        let last = rows.upperBound
        // The way to type instead, at the bottom of the body.
        centered(&canvas, Message.typeInstead(hasHome: state.home != nil).text(lang), row: last, width: w, style: .bold)

        guard let home = state.home else {
            if let failure = state.homeFailure, row < last {
                centered(&canvas, failureText(failure, lang), row: row, width: w, style: .dim)
            }
            return
        }
        guard row < last - 1 else { return }
        draw(&canvas, ScreenLine([ScreenSpan(" " + Message.nextDeparturesHere.text(lang) + " · " + Message.departures(minutes: home.view.windowMinutes).text(lang), sectionStyle)]),
             row: row, column: 0, width: w)
        row += 1
        let space = last - 1 - row
        let lines = home.view.departures.isEmpty ? noDepartureLines(home.view, zone: zone, lang: lang)
            : departureLines(home.view, now: state.now, width: min(w, 84), zone: zone, lang: lang)
        for line in lines.prefix(max(0, space)) {
            draw(&canvas, line, row: row, column: 0, width: w)
            row += 1
        }
    }

    // MARK: - Stop view

    static func stopFacts(_ view: StopView, _ lang: Language) -> String {
        var facts: [String] = []
        if let station = view.stop.parentStationName { facts.append(Message.station(clean(station)).text(lang)) }
        if let platform = view.stop.platformCode { facts.append(Message.platform(clean(platform, 10)).text(lang)) }
        switch view.stop.wheelchairBoarding {
        case .accessible: facts.append(Message.wheelchairAccessible.text(lang))
        case .notAccessible: facts.append(Message.notWheelchairAccessible.text(lang))
        case .unknown: break
        }
        return facts.joined(separator: " · ")
    }

    static func routeLines(_ view: StopView, width: Int, lang: Language) -> [ScreenLine] {
        let badgeW = badgeWidth(view.routes.map(\.route))
        return view.routes.map { entry in
            let headsigns = entry.directions.flatMap(\.headsigns).map { clean($0, 40) }
            let text = " " + entry.route.mode.name(lang) + " → " + headsigns.joined(separator: " / ")
            return ScreenLine([ScreenSpan("  "), badge(entry.route, width: badgeW), ScreenSpan(ScreenCanvas.truncate(text, to: max(1, width - badgeW - 2)))])
        }
    }

    static func compactRouteLine(_ view: StopView) -> ScreenLine {
        var spans = [ScreenSpan("  ")]
        for entry in view.routes {
            spans.append(badge(entry.route, width: ScreenCanvas.width(of: clean(entry.route.label, 12)) + 2))
            spans.append(ScreenSpan(" "))
        }
        return ScreenLine(spans)
    }

    static func spanLines(_ view: StopView, zone: TimeZone, lang: Language, width: Int) -> [ScreenLine] {
        let badgeW = badgeWidth(view.serviceSpans.map(\.route))
        return view.serviceSpans.map { span in
            let hours = LocalTime.clock(span.first, in: zone) + " – " + LocalTime.clock(span.last, in: zone)
            let towards = span.headsigns.isEmpty ? "" : " " + Message.towards(clean(span.headsigns.joined(separator: " / "), 40)).text(lang)
            let room = max(1, width - 2 - badgeW - ScreenCanvas.width(of: hours) - 2)
            let t = ScreenCanvas.truncate(towards, to: room)
            return ScreenLine([ScreenSpan("  "), badge(span.route, width: badgeW), ScreenSpan(t + String(repeating: " ", count: max(0, room - ScreenCanvas.width(of: t))) + " "),
                               ScreenSpan(hours, .bold)])
        }
    }

    static func nearbyLines(_ view: StopView, lang: Language, width: Int) -> [ScreenLine] {
        view.nearby.map { near in
            let name = stopLabel(near.stop)
            let distance = String(format: "%4d m %@", near.distanceMeters, near.direction.rawValue)
            let routes = near.routes.map { clean($0, 10) }.joined(separator: ", ")
            let nameW = max(8, min(36, width - 2 - 10 - 2 - ScreenCanvas.width(of: routes)))
            let n = ScreenCanvas.truncate(name, to: nameW)
            return ScreenLine([ScreenSpan("  " + n + String(repeating: " ", count: max(0, nameW - ScreenCanvas.width(of: n))) + " "),
                               ScreenSpan(distance + "  ", .dim), ScreenSpan(routes)])
        }
    }

    static func drawStop(_ canvas: inout ScreenCanvas, state: KioskState, screen: KioskStopScreen, rows: ClosedRange<Int>, zone: TimeZone) {
        let lang = state.language
        let w = canvas.width
        // The prompt to go on: type or scan a destination.
        let promptRow = rows.upperBound
        canvas.fill(row: promptRow, style: promptStyle)
        canvas.put(" " + Message.whereTo.text(lang) + "  " + Message.typeOrScanDestination.text(lang), row: promptRow, column: 0, style: promptStyle)
        let body = rows.lowerBound...(promptRow - 1)

        guard let board = screen.board else {
            let text = screen.failure.map { failureText($0, lang) } ?? Message.loadingStop.text(lang)
            centered(&canvas, text, row: body.lowerBound + body.count / 2, width: w, style: screen.failure == nil ? .dim : warningStyle)
            return
        }
        let view = board.view
        var row = body.lowerBound
        let facts = stopFacts(view, lang)
        if !facts.isEmpty {
            canvas.put(" " + ScreenCanvas.truncate(facts, to: w - 2), row: row, column: 0, style: .dim)
        }
        row += 1

        let departures = view.departures.isEmpty ? noDepartureLines(view, zone: zone, lang: lang)
            : departureLines(view, now: state.now, width: min(84, w >= 110 ? Int(Double(w) * 0.58) - 2 : w), zone: zone, lang: lang)
        let departuresTitle = ScreenLine([ScreenSpan(" " + Message.departures(minutes: view.windowMinutes).text(lang), sectionStyle)])

        if w >= 110 {
            // Two columns: departures on the left, routes, first/last and nearby stops on the right.
            let leftW = Int(Double(w) * 0.58)
            let rightX = leftW + 1
            let rightW = w - rightX
            for r in row...body.upperBound { canvas.put("│", row: r, column: leftW, style: .dim) }
            var left = row + 1
            draw(&canvas, departuresTitle, row: left, column: 0, width: leftW)
            left += 1
            let visible = departures.dropFirst(min(screen.scroll, max(0, departures.count - 1)))
            let room = body.upperBound - left + 1
            for (i, line) in visible.enumerated() where i < room {
                if i == room - 1 && visible.count > room {
                    draw(&canvas, ScreenLine([ScreenSpan("  " + Message.moreBelow(visible.count - room + 1).text(lang), .dim)]), row: left, column: 0, width: leftW)
                } else {
                    draw(&canvas, line, row: left, column: 0, width: leftW)
                }
                left += 1
            }
            var right = row + 1
            var sections: [(ScreenLine, [ScreenLine])] = [
                (ScreenLine([ScreenSpan(" " + Message.routes.text(lang), sectionStyle)]), routeLines(view, width: rightW - 1, lang: lang)),
            ]
            if !view.serviceSpans.isEmpty {
                sections.append((ScreenLine([ScreenSpan(" " + Message.firstAndLast(date: view.serviceDate).text(lang), sectionStyle)]),
                                 spanLines(view, zone: zone, lang: lang, width: rightW - 1)))
            }
            sections.append((ScreenLine([ScreenSpan(" " + Message.nearby(meters: view.nearbyRadiusMeters).text(lang), sectionStyle)]),
                             view.nearby.isEmpty ? [ScreenLine([ScreenSpan("  " + Message.noNearbyStops(meters: view.nearbyRadiusMeters).text(lang))])]
                                                 : nearbyLines(view, lang: lang, width: rightW - 1)))
            for (title, lines) in sections where right < body.upperBound {
                draw(&canvas, title, row: right, column: rightX, width: rightW)
                right += 1
                for line in lines where right <= body.upperBound {
                    draw(&canvas, line, row: right, column: rightX, width: rightW)
                    right += 1
                }
                right += 1
            }
            return
        }

        // One column: routes (one line each, or badges in a row when many), departures, then what fits.
        var routes = routeLines(view, width: w, lang: lang)
        let available = body.upperBound - row + 1
        if routes.count > 3 || available < 16 { routes = [compactRouteLine(view)] }
        for line in routes {
            draw(&canvas, line, row: row, column: 0, width: w)
            row += 1
        }
        row += 1
        let remaining = body.upperBound - row + 1
        let spans = view.serviceSpans.isEmpty ? [] : spanLines(view, zone: zone, lang: lang, width: w)
        let nearby = view.nearby.isEmpty ? [ScreenLine([ScreenSpan("  " + Message.noNearbyStops(meters: view.nearbyRadiusMeters).text(lang), .dim)])]
            : nearbyLines(view, lang: lang, width: w)
        // Departures first (at least 5 rows, or all of them); then first/last and nearby if they fit.
        let minimumDepartures = min(departures.count, 8)
        var extra: [ScreenLine] = []
        var extraRoom = remaining - 1 - minimumDepartures
        if !spans.isEmpty, extraRoom >= 3 {
            let take = min(spans.count, extraRoom - 2)
            extra.append(.empty)
            extra.append(ScreenLine([ScreenSpan(" " + Message.firstAndLast(date: view.serviceDate).text(lang), sectionStyle)]))
            extra += spans.prefix(take)
            extraRoom -= take + 2
        }
        if !nearby.isEmpty, extraRoom >= 3 {
            let take = min(nearby.count, extraRoom - 2)
            extra.append(.empty)
            extra.append(ScreenLine([ScreenSpan(" " + Message.nearby(meters: view.nearbyRadiusMeters).text(lang), sectionStyle)]))
            extra += nearby.prefix(take)
        }
        let departureRoom = remaining - 1 - extra.count
        draw(&canvas, departuresTitle, row: row, column: 0, width: w)
        row += 1
        let visible = Array(departures.dropFirst(min(screen.scroll, max(0, departures.count - 1))))
        for (i, line) in visible.enumerated() where i < departureRoom {
            if i == departureRoom - 1 && visible.count > departureRoom {
                draw(&canvas, ScreenLine([ScreenSpan("  " + Message.moreBelow(visible.count - departureRoom + 1).text(lang), .dim)]), row: row, column: 0, width: w)
            } else {
                draw(&canvas, line, row: row, column: 0, width: w)
            }
            row += 1
        }
        row = body.upperBound - extra.count + 1
        for line in extra {
            draw(&canvas, line, row: row, column: 0, width: w)
            row += 1
        }
    }

    // MARK: - Destination entry

    static func drawEntry(_ canvas: inout ScreenCanvas, state: KioskState, entry: KioskEntryScreen, rows: ClosedRange<Int>) {
        let lang = state.language
        let w = canvas.width
        var row = rows.lowerBound + 1
        let question: String
        switch entry.purpose {
        case .destination: question = Message.whereTo.text(lang)
        case .origin: question = Message.typeYourStop.text(lang)
        }
        canvas.put("  " + question, row: row, column: 0, style: .bold)
        row += 1
        if case .destination = entry.purpose {
            canvas.put("  " + Message.typeOrScanDestination.text(lang), row: row, column: 0, style: .dim)
            row += 1
        }
        row += 1
        // The input box with a block cursor.
        let boxW = min(w - 4, 60)
        canvas.put("┌" + String(repeating: "─", count: boxW - 2) + "┐", row: row, column: 2)
        canvas.put("│", row: row + 1, column: 2)
        let shown = TerminalText.sanitize(entry.text, maxLength: KioskEntryScreen.maximumLength)
        let x = 4 + canvas.put(shown, row: row + 1, column: 4, style: .bold, maxWidth: boxW - 5)
        canvas.put(" ", row: row + 1, column: min(x, boxW), style: CellStyle(reverse: true))
        canvas.put("│", row: row + 1, column: 2 + boxW - 1)
        canvas.put("└" + String(repeating: "─", count: boxW - 2) + "┘", row: row + 2, column: 2)
        row += 4

        if entry.text.trimmingCharacters(in: .whitespaces).isEmpty { return }
        if entry.matches.isEmpty {
            canvas.put("  " + Message.noMatches.text(lang), row: row, column: 0, style: .dim)
            return
        }
        let room = rows.upperBound - row + 1
        let first = max(0, entry.selected - room + 1)
        for (i, stop) in entry.matches.enumerated().dropFirst(first).prefix(room) {
            let selected = i == entry.selected
            var detail: [String] = []
            if let station = stop.parentStationName, station != stop.name { detail.append(Message.station(clean(station)).text(lang)) }
            if stop.locationType == 1 { detail.append(Message.station(clean(stop.name)).text(lang)) }
            let text = (selected ? " ► " : "   ") + stopLabel(stop) + (detail.isEmpty ? "" : "   " + detail.joined(separator: " · "))
            draw(&canvas, ScreenLine([ScreenSpan(text, selected ? selectedStyle : .plain)], fill: selected ? selectedStyle : nil),
                 row: row, column: 2, width: min(w - 4, 80))
            row += 1
        }
    }

    // MARK: - Plan

    static func planLines(_ plan: JourneyPlan, now: Date, zone: TimeZone, lang: Language, width: Int) -> [ScreenLine] {
        let es = lang == .es
        let clock = { (d: Date) in LocalTime.clock(d, in: zone) }
        var lines: [ScreenLine] = []
        lines.append(ScreenLine([ScreenSpan(" " + (es ? "Salida desde las " : "Leaving from ") + clock(plan.at), .dim)]))
        if plan.options.isEmpty {
            lines.append(.empty)
            lines.append(ScreenLine([ScreenSpan(" " + (es ? "No encontramos cómo llegar con hasta \(plan.maxTransfers) transbordos en las próximas horas."
                                                         : "No way to get there with up to \(plan.maxTransfers) transfers in the coming hours."), .bold)]))
            let ends: [(String, [RouteInfo])] = [(es ? "Líneas en el origen" : "Routes at the start", plan.routesAtOrigin),
                                                 (es ? "Líneas en el destino" : "Routes at the destination", plan.routesAtDestination)]
            for (label, routes) in ends where !routes.isEmpty {
                var spans = [ScreenSpan(" " + label + ": ")]
                for route in routes { spans.append(badge(route, width: ScreenCanvas.width(of: clean(route.label, 12)) + 2)); spans.append(ScreenSpan(" ")) }
                lines.append(ScreenLine(spans))
            }
            return lines
        }
        for (number, option) in plan.options.enumerated() {
            lines.append(.empty)
            let transfers = option.transfers == 0 ? (es ? "directo" : "direct")
                : es ? "\(option.transfers) transbordo\(option.transfers == 1 ? "" : "s")" : "\(option.transfers) transfer\(option.transfers == 1 ? "" : "s")"
            let wait = max(0, Int(option.departure.timeIntervalSince(now) / 60))
            let leaves = wait == 0 ? Message.now.text(lang) : (es ? "sale en \(wait) min" : "leaves in \(wait) min")
            lines.append(ScreenLine([ScreenSpan(" \(es ? "Opción" : "Option") \(number + 1) ", selectedStyle),
                                     ScreenSpan("  \(clock(option.departure)) → \(clock(option.arrival))", .bold),
                                     ScreenSpan("   \(option.durationMinutes) min · \(transfers) · \(leaves)")]))
            for step in option.legs {
                switch step.kind {
                case .walk:
                    lines.append(ScreenLine([ScreenSpan("   \(clock(step.departure))  "),
                                             ScreenSpan(es ? "camine \(step.minutes) min hasta " : "walk \(step.minutes) min to ", .dim),
                                             ScreenSpan(stopLabel(step.to))]))
                case .ride:
                    let stops = step.stops ?? 0
                    var spans = [ScreenSpan("   \(clock(step.departure))  ")]
                    if let route = step.route { spans.append(badge(route, width: badgeWidth([route]))) }
                    spans.append(ScreenSpan(" " + Message.towards(clean(step.headsign ?? "")).text(lang) + " · ", .bold))
                    spans.append(ScreenSpan((es ? "suba en " : "board at ") + stopLabel(step.from)))
                    lines.append(ScreenLine(spans))
                    lines.append(ScreenLine([ScreenSpan("   \(clock(step.arrival))  "),
                                             ScreenSpan((es ? "baje en " : "get off at ") + stopLabel(step.to)),
                                             ScreenSpan(es ? "  (\(stops) parada\(stops == 1 ? "" : "s"))" : "  (\(stops) stop\(stops == 1 ? "" : "s"))", .dim)]))
                }
            }
        }
        return lines
    }

    static func drawPlan(_ canvas: inout ScreenCanvas, state: KioskState, plan: KioskPlanScreen, rows: ClosedRange<Int>, zone: TimeZone) {
        let lang = state.language
        let w = canvas.width
        guard let journey = plan.plan else {
            let text = plan.failure.map { failureText($0, lang) } ?? Message.planning.text(lang)
            centered(&canvas, text, row: rows.lowerBound + rows.count / 2, width: w, style: plan.failure == nil ? .dim : warningStyle)
            return
        }
        let lines = planLines(journey, now: state.now, zone: zone, lang: lang, width: w)
        let room = rows.count
        let scroll = min(plan.scroll, max(0, lines.count - room))
        var row = rows.lowerBound
        for (i, line) in lines.dropFirst(scroll).enumerated() where i < room {
            if i == room - 1 && lines.count - scroll > room {
                draw(&canvas, ScreenLine([ScreenSpan("  " + Message.moreBelow(lines.count - scroll - room + 1).text(lang), .dim)]), row: row, column: 0, width: w)
            } else {
                draw(&canvas, line, row: row, column: 0, width: w)
            }
            row += 1
        }
    }
}
