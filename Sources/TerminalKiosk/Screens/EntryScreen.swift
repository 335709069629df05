import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// Destination entry: the typed text and live matches.
extension KioskScreenBuilder {
    // MARK: - Destination entry

    static func drawEntry(
        _ canvas: inout ScreenCanvas, state: KioskState, entry: KioskEntryScreen, rows: ClosedRange<Int>
    ) {
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
            if let station = stop.parentStationName, station != stop.name {
                detail.append(Message.station(clean(station)).text(lang))
            }
            if stop.locationType == 1 { detail.append(Message.station(clean(stop.name)).text(lang)) }
            let text =
                (selected ? " ► " : "   ") + stopLabel(stop)
                + (detail.isEmpty ? "" : "   " + detail.joined(separator: " · "))
            draw(
                &canvas,
                ScreenLine([ScreenSpan(text, selected ? selectedStyle : .plain)], fill: selected ? selectedStyle : nil),
                row: row, column: 2, width: min(w - 4, 80))
            row += 1
        }
    }
}
