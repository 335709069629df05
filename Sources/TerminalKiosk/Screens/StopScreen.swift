import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// The stop view after a scan: routes, departures, first and last service, nearby stops.
extension KioskScreenBuilder {
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
        // At an interchange of several feeds' operators, each route says whose it is (its departures below
        // carry the same badge).
        let severalOperators = Set(view.routes.compactMap(\.route.feedID)).count > 1
        return view.routes.map { entry in
            let headsigns = entry.directions.flatMap(\.headsigns).map { clean($0, 40) }
            let runBy = severalOperators ? " · " + clean(entry.route.agency, 40) : ""
            let text = " " + entry.route.mode.name(lang) + runBy + " → " + headsigns.joined(separator: " / ")
            return ScreenLine([
                ScreenSpan("  "), badge(entry.route, width: badgeW),
                ScreenSpan(ScreenCanvas.truncate(text, to: max(1, width - badgeW - 2))),
            ])
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

    static func spanLines(
        _ view: StopView, zone: TimeZone, lang: Language, width: Int, clocks: PassengerLocale = .standard
    ) -> [ScreenLine] {
        let badgeW = badgeWidth(view.serviceSpans.map(\.route))
        return view.serviceSpans.map { span in
            let hours = clocks.clock(span.first, in: zone) + " – " + clocks.clock(span.last, in: zone)
            let towards =
                span.headsigns.isEmpty
                ? "" : " " + Message.towards(clean(span.headsigns.joined(separator: " / "), 40)).text(lang)
            let room = max(1, width - 2 - badgeW - ScreenCanvas.width(of: hours) - 2)
            let t = ScreenCanvas.truncate(towards, to: room)
            return ScreenLine([
                ScreenSpan("  "), badge(span.route, width: badgeW),
                ScreenSpan(t + String(repeating: " ", count: max(0, room - ScreenCanvas.width(of: t))) + " "),
                ScreenSpan(hours, .bold),
            ])
        }
    }

    static func nearbyLines(_ view: StopView, locale: PassengerLocale, width: Int) -> [ScreenLine] {
        view.nearby.map { near in
            let name = stopLabel(near.stop)
            let metres = locale.distance(meters: near.distanceMeters)
            let distance =
                String(repeating: " ", count: max(0, 6 - ScreenCanvas.width(of: metres))) + metres + " "
                + near.direction.rawValue
            let routes = near.routes.map { clean($0, 10) }.joined(separator: ", ")
            let nameW = max(8, min(36, width - 2 - 10 - 2 - ScreenCanvas.width(of: routes)))
            let n = ScreenCanvas.truncate(name, to: nameW)
            return ScreenLine([
                ScreenSpan("  " + n + String(repeating: " ", count: max(0, nameW - ScreenCanvas.width(of: n))) + " "),
                ScreenSpan(distance + "  ", .dim), ScreenSpan(routes),
            ])
        }
    }

    static func drawStop(
        _ canvas: inout ScreenCanvas, state: KioskState, screen: KioskStopScreen, rows: ClosedRange<Int>,
        zone: TimeZone,
        large: Bool = false
    ) {
        let lang = state.language
        let w = canvas.width
        // The prompt to go on: type or scan a destination.
        let promptRow = rows.upperBound
        canvas.fill(row: promptRow, style: promptStyle)
        canvas.put(
            " " + Message.whereTo.text(lang) + "  " + Message.typeOrScanDestination.text(lang), row: promptRow,
            column: 0, style: promptStyle)
        let body = rows.lowerBound...(promptRow - 1)

        guard let board = screen.board else {
            let text = screen.failure.map { failureText($0, lang) } ?? Message.loadingStop.text(lang)
            centered(
                &canvas, text, row: body.lowerBound + body.count / 2, width: w,
                style: screen.failure == nil ? .dim : warningStyle)
            return
        }
        let view = board.view
        var row = body.lowerBound
        let facts = stopFacts(view, lang)
        if !facts.isEmpty {
            canvas.put(" " + ScreenCanvas.truncate(facts, to: w - 2), row: row, column: 0, style: .dim)
        }
        row += 1

        let departures =
            view.departures.isEmpty
            ? noDepartureLines(view, zone: zone, lang: lang, clocks: state.locale)
            : boardDepartureLines(
                view, now: state.now, width: large ? w : min(84, w >= 110 ? Int(Double(w) * 0.58) - 2 : w), zone: zone,
                lang: lang, large: large, clocks: state.locale)
        let departuresTitle = ScreenLine([
            ScreenSpan(" " + Message.departures(minutes: view.windowMinutes).text(lang), sectionStyle)
        ])

        if w >= 110 && !large {
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
                    draw(
                        &canvas,
                        ScreenLine([ScreenSpan("  " + Message.moreBelow(visible.count - room + 1).text(lang), .dim)]),
                        row: left, column: 0, width: leftW)
                } else {
                    draw(&canvas, line, row: left, column: 0, width: leftW)
                }
                left += 1
            }
            var right = row + 1
            var sections: [(ScreenLine, [ScreenLine])] = [
                (
                    ScreenLine([ScreenSpan(" " + Message.routes.text(lang), sectionStyle)]),
                    routeLines(view, width: rightW - 1, lang: lang)
                )
            ]
            if !view.serviceSpans.isEmpty {
                sections.append(
                    (
                        ScreenLine([
                            ScreenSpan(
                                " " + state.locale.firstAndLastHeading(serviceDate: view.serviceDate), sectionStyle)
                        ]),
                        spanLines(view, zone: zone, lang: lang, width: rightW - 1, clocks: state.locale)
                    ))
            }
            sections.append(
                (
                    ScreenLine([
                        ScreenSpan(" " + state.locale.nearbyHeading(meters: view.nearbyRadiusMeters), sectionStyle)
                    ]),
                    view.nearby.isEmpty
                        ? [
                            ScreenLine([
                                ScreenSpan("  " + state.locale.noNearbyStops(meters: view.nearbyRadiusMeters))
                            ])
                        ]
                        : nearbyLines(view, locale: state.locale, width: rightW - 1)
                ))
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
        // Large layout: the departures only; first/last service and nearby stops are dropped, not wrapped.
        let spans =
            view.serviceSpans.isEmpty || large
            ? [] : spanLines(view, zone: zone, lang: lang, width: w, clocks: state.locale)
        let nearby =
            large
            ? []
            : view.nearby.isEmpty
                ? [
                    ScreenLine([
                        ScreenSpan("  " + state.locale.noNearbyStops(meters: view.nearbyRadiusMeters), .dim)
                    ])
                ]
                : nearbyLines(view, locale: state.locale, width: w)
        // Departures first (at least 5 rows, or all of them); then first/last and nearby if they fit.
        let minimumDepartures = min(departures.count, 8)
        var extra: [ScreenLine] = []
        var extraRoom = remaining - 1 - minimumDepartures
        if !spans.isEmpty, extraRoom >= 3 {
            let take = min(spans.count, extraRoom - 2)
            extra.append(.empty)
            extra.append(
                ScreenLine([
                    ScreenSpan(" " + state.locale.firstAndLastHeading(serviceDate: view.serviceDate), sectionStyle)
                ]))
            extra += spans.prefix(take)
            extraRoom -= take + 2
        }
        if !nearby.isEmpty, extraRoom >= 3 {
            let take = min(nearby.count, extraRoom - 2)
            extra.append(.empty)
            extra.append(
                ScreenLine([
                    ScreenSpan(" " + state.locale.nearbyHeading(meters: view.nearbyRadiusMeters), sectionStyle)
                ]))
            extra += nearby.prefix(take)
        }
        let departureRoom = remaining - 1 - extra.count
        draw(&canvas, departuresTitle, row: row, column: 0, width: w)
        row += 1
        let visible = Array(departures.dropFirst(min(screen.scroll, max(0, departures.count - 1))))
        for (i, line) in visible.enumerated() where i < departureRoom {
            if i == departureRoom - 1 && visible.count > departureRoom {
                draw(
                    &canvas,
                    ScreenLine([
                        ScreenSpan("  " + Message.moreBelow(visible.count - departureRoom + 1).text(lang), .dim)
                    ]), row: row, column: 0, width: w)
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
}
