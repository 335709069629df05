import Foundation
import StopPresentation
import TransitModel

// A route's line diagram (F3 on a stop board): the text form every surface shares, the viewer's stop in reverse.
extension KioskScreenBuilder {
    static func drawDiagram(
        _ canvas: inout ScreenCanvas, state: KioskState, screen: KioskDiagramScreen, rows: ClosedRange<Int>
    ) {
        let lang = state.language
        let w = canvas.width
        guard let diagram = screen.diagram else {
            let text = screen.failure.map { failureText($0, lang) } ?? Message.loadingDiagram.text(lang)
            centered(
                &canvas, text, row: rows.lowerBound + rows.count / 2, width: w,
                style: screen.failure == nil ? .dim : warningStyle)
            return
        }
        let text = RouteDiagramRendering.textLines(diagram, language: lang)
        var lines: [ScreenLine] = []
        let route = diagram.route
        lines.append(
            ScreenLine([
                ScreenSpan(" "), badge(route, width: ScreenCanvas.width(of: clean(route.label, 12)) + 2),
                ScreenSpan(" " + text[0], .bold),
            ]))
        for (i, line) in text.dropFirst().enumerated() {
            lines.append(
                i == diagram.highlighted
                    ? ScreenLine([ScreenSpan(line, selectedStyle)], fill: selectedStyle)
                    : ScreenLine([ScreenSpan(line)]))
        }
        let room = rows.count
        // Keep the viewer's stop on screen when the diagram is taller than the screen.
        let wanted = screen.scroll == 0 ? max(0, (diagram.highlighted ?? 0) + 1 - room / 2) : screen.scroll
        let scroll = min(wanted, max(0, lines.count - room))
        var row = rows.lowerBound
        for (i, line) in lines.dropFirst(scroll).enumerated() where i < room {
            if i == room - 1 && lines.count - scroll > room {
                draw(
                    &canvas,
                    ScreenLine([ScreenSpan("  " + Message.moreBelow(lines.count - scroll - room + 1).text(lang), .dim)]
                    ),
                    row: row, column: 0, width: w)
            } else {
                draw(&canvas, line, row: row, column: 0, width: w)
            }
            row += 1
        }
    }
}
