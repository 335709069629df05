import Foundation
import StopPresentation
import TransitModel

// A stop's routes (F4 on a stop board): one line per route — badge, mode, where it goes — the chosen one in
// reverse; Enter shows its stops as the line diagram (F3's screen), from which Esc comes back here.
extension KioskScreenBuilder {
    static func drawRouteList(
        _ canvas: inout ScreenCanvas, state: KioskState, screen: KioskRouteListScreen, rows: ClosedRange<Int>
    ) {
        let lang = state.language
        let w = canvas.width
        let view = screen.from.view
        var lines = [
            ScreenLine([
                ScreenSpan(
                    " " + BrowseMessage.routeListHeading(clean(view.stop.name, 50)).text(lang), sectionStyle)
            ])
        ]
        if view.routes.isEmpty {
            lines.append(ScreenLine([ScreenSpan("  " + BrowseMessage.noRoutesHere.text(lang), .dim)]))
        }
        let selectedLine = lines.count + screen.selected
        for (i, line) in routeLines(view, width: w, lang: lang).enumerated() {
            lines.append(i == screen.selected ? line.selected : line)
        }
        let room = rows.count
        let scroll = min(max(0, selectedLine + 1 - room), max(0, lines.count - room))
        var row = rows.lowerBound
        for line in lines.dropFirst(scroll).prefix(room) {
            draw(&canvas, line, row: row, column: 0, width: w)
            row += 1
        }
    }

    /// The keys the browse screens add to the footer (after the screen's own).
    static func browseKeys(_ state: KioskState) -> [String] {
        switch state.screen {
        case let .stop(stop) where stop.board.map { !$0.view.routes.isEmpty } == true:
            return [BrowseMessage.keyRouteList.text(state.language)]
        case .routeList: return [BrowseMessage.keyOpenRoute.text(state.language)]
        default: return []
        }
    }
}

extension ScreenLine {
    /// The line as the chosen row: the badge keeps its colours, the text is in reverse video to the edge.
    fileprivate var selected: ScreenLine {
        ScreenLine(
            spans.enumerated().map { i, span in
                i == 1 ? span : ScreenSpan(span.text, KioskScreenBuilder.selectedStyle)
            }, fill: KioskScreenBuilder.selectedStyle)
    }
}

/// The route list as the kiosk says it (F5): the stop, then each route with where it goes, the chosen one first.
enum RouteListScreen {
    static func spoken(_ list: KioskRouteListScreen, language: Language) -> String {
        let view = list.from.view
        var parts = [BrowseMessage.routeListHeading(SpeechText.clean(view.stop.name)).text(language) + "."]
        let ordered = view.routes.indices.sorted { ($0 != list.selected ? 1 : 0, $0) < ($1 != list.selected ? 1 : 0, $1) }
        for i in ordered {
            let entry = view.routes[i]
            let headsigns = entry.directions.flatMap(\.headsigns).map(SpeechText.clean).joined(separator: ", ")
            parts.append(
                Message.speechLine(route: SpeechText.clean(entry.route.label), headsign: headsigns).text(language) + ".")
        }
        return parts.joined(separator: " ")
    }
}
