import Foundation
import KioskCore
import StopPresentation
import TransitModel

// Severe messages (`KioskTakeover`): the whole idle screen, and a red band at the top of a stop screen.
extension KioskScreenBuilder {
    static func takeoverHeading(_ lang: Language) -> String {
        lang == .es ? "⚠  AVISO IMPORTANTE  ⚠" : "⚠  IMPORTANT NOTICE  ⚠"
    }

    /// "hasta las 18:00" / "until 18:00", with the date when the end is on another day.
    static func untilText(_ end: Date, now: Date, zone: TimeZone, lang: Language) -> String {
        let clock = LocalTime.clock(end, in: zone)
        let days = LocalTime.dayDifference(from: now, to: end, in: zone)
        let day = days == 0 ? "" : String(LocalTime.iso8601(end, in: zone).prefix(10)) + " "
        return lang == .es ? "Hasta \(day)las \(clock)" : "Until \(day)\(clock)"
    }

    /// Words laid into lines of at most `width` columns (a word longer than a line is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if ScreenCanvas.width(of: candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = ScreenCanvas.truncate(word, to: width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The idle screen taken over: the messages in the screen's language, large and red, each with its end and
    /// its text in the other language beneath; the prompt to scan stays on the last line.
    static func drawTakeover(
        _ canvas: inout ScreenCanvas, state: KioskState, messages: [StopAlert], rows: ClosedRange<Int>, zone: TimeZone
    ) {
        let lang = state.language
        let w = canvas.width
        for r in rows { canvas.fill(row: r, style: errorStyle) }
        let textWidth = max(10, min(w - 6, 100))
        var lines: [(String, CellStyle)] = [(takeoverHeading(lang), errorStyle), ("", errorStyle)]
        let dim = CellStyle(foreground: .brightWhite, background: .red)
        for (index, alert) in messages.enumerated() {
            if index > 0 { lines.append(("", errorStyle)) }
            lines += wrap(clean(alert.header, 600), width: textWidth).map { ($0, errorStyle) }
            if let description = alert.description {
                lines += wrap(clean(description, 600), width: textWidth).map { ($0, dim) }
            }
            if let end = alert.activeUntil {
                lines.append((untilText(end, now: state.now, zone: zone, lang: lang), dim))
            }
            if let other = state.takeover.alerts(lang.other).first(where: { $0.id == alert.id }),
                other.header != alert.header
            {
                lines += wrap(clean(other.header, 600), width: textWidth).map { ($0, dim) }
            }
        }
        let room = max(0, rows.count - 2)
        let shown = lines.prefix(room)
        var row = rows.lowerBound + max(0, (room - shown.count) / 2)
        for (text, style) in shown {
            centered(&canvas, text, row: row, width: w, style: style)
            row += 1
        }
        canvas.fill(row: rows.upperBound, style: promptStyle)
        centered(&canvas, Message.holdCodePrompt.text(lang), row: rows.upperBound, width: w, style: promptStyle)
    }

    /// The messages as a red band at the top of a stop screen (at most two lines, then "and N more"); returns the
    /// rows it used.
    static func drawMessageBand(
        _ canvas: inout ScreenCanvas, state: KioskState, messages: [StopAlert], top: Int, zone: TimeZone
    ) -> Int {
        let lang = state.language
        let w = canvas.width
        var row = top
        for alert in messages.prefix(2) {
            canvas.fill(row: row, style: errorStyle)
            let until = alert.activeUntil.map { " · " + untilText($0, now: state.now, zone: zone, lang: lang) } ?? ""
            let room = max(8, w - 4 - ScreenCanvas.width(of: until))
            canvas.put(
                " ⚠ " + ScreenCanvas.truncate(clean(alert.header, 600), to: room) + until, row: row, column: 0,
                style: errorStyle)
            row += 1
        }
        if messages.count > 2 {
            canvas.fill(row: row, style: errorStyle)
            canvas.put(
                " … " + Message.moreAlerts(messages.count - 2).text(lang), row: row, column: 0, style: errorStyle)
            row += 1
        }
        return row - top
    }
}
