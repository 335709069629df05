import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// The idle screen: the home stop's next departures and the prompt to hold a code to the camera.
extension KioskScreenBuilder {
    // MARK: - Idle

    static func drawIdle(
        _ canvas: inout ScreenCanvas, state: KioskState, rows: ClosedRange<Int>, zone: TimeZone, large: Bool = false
    ) {
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
        centered(
            &canvas, Message.holdCodePrompt.text(lang), row: row + textRows[0], column: left + 1, width: inner,
            style: promptStyle)
        centered(
            &canvas, Message.holdCodePrompt.text(lang.other), row: row + textRows[1], column: left + 1, width: inner,
            style: CellStyle(foreground: .black, background: .brightYellow))
        centered(
            &canvas, Message.holdCodeDetail.text(lang), row: row + textRows[2], column: left + 1, width: inner,
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
        draw(
            &canvas,
            ScreenLine([
                ScreenSpan(
                    " " + Message.nextDeparturesHere.text(lang) + " · "
                        + Message.departures(minutes: home.view.windowMinutes).text(lang), sectionStyle)
            ]),
            row: row, column: 0, width: w)
        row += 1
        let space = last - 1 - row
        let lines =
            home.view.departures.isEmpty
            ? noDepartureLines(home.view, zone: zone, lang: lang, clocks: state.locale)
            : departureLines(
                home.view, now: state.now, width: large ? w : min(w, 84), zone: zone, lang: lang, large: large,
                clocks: state.locale)
        for line in lines.prefix(max(0, space)) {
            draw(&canvas, line, row: row, column: 0, width: w)
            row += 1
        }
    }
}
