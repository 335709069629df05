import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel
import TransitStore

// The parts every screen shares: title, footer keys, boxes, notices.
extension KioskScreenBuilder {
    // MARK: - Frame parts

    static func timeZone(_ state: KioskState) -> TimeZone {
        if let id = state.database.timeZoneIdentifier ?? state.lastKnownTimeZone, let zone = TimeZone(identifier: id) {
            return zone
        }
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
        case let .diagram(diagram):
            return stopLabel(diagram.from.view.stop)
        case let .routeList(list):
            return stopLabel(list.from.view.stop)
        }
    }

    static func footerKeys(_ state: KioskState) -> [Message] {
        switch state.screen {
        case .idle: return []
        case let .stop(stop):
            return stop.board.map { !$0.view.routes.isEmpty } == true
                ? [.keyHome, .keyScroll, .keyRouteDiagram] : [.keyHome, .keyScroll]
        case .diagram: return [.keyNextRoute, .keyScroll, .keyBack]
        case .routeList: return [.keyPick, .keyBack]
        case .entry: return [.keyPick, .keyPlan, .keyBack]
        case let .plan(plan): return [.keyScroll, .keyBack, .keyStepFree(on: plan.stepFree), .keyNewDestination]
        }
    }

    static func drawFooter(
        _ canvas: inout ScreenCanvas, row: Int, keys: [Message], extra: [String] = [], lang: Language
    ) {
        canvas.fill(row: row, style: footerStyle)
        var x = 1
        let all = ([Message.keyLanguage] + keys).map { $0.text(lang) } + extra
        for (i, key) in all.enumerated() {
            if i > 0 { x += canvas.put("  ·  ", row: row, column: x, style: footerStyle) }
            x += canvas.put(key, row: row, column: x, style: footerKeyStyle)
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

    static func centered(
        _ canvas: inout ScreenCanvas, _ text: String, row: Int, column: Int = 0, width: Int, style: CellStyle
    ) {
        let t = ScreenCanvas.truncate(text, to: width)
        let x = column + max(0, (width - ScreenCanvas.width(of: t)) / 2)
        canvas.put(t, row: row, column: x, style: style)
    }

    /// A double-line box; returns the inner rows.
    static func box(
        _ canvas: inout ScreenCanvas, top: Int, left: Int, width: Int, height: Int, style: CellStyle,
        fill: CellStyle? = nil
    ) {
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

    static func drawFullMessage(
        _ canvas: inout ScreenCanvas, rows: ClosedRange<Int>, title: String, detail: String, style: CellStyle
    ) {
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
            (title, detail, style) = (
                Message.notAStopCode.text(lang), Message.notAStopCodeDetail(clean(text, 50)).text(lang), warningStyle
            )
        case let .unknownStop(value):
            (title, detail, style) = (
                Message.unknownStop(clean(value, 30)).text(lang), Message.unknownStopDetail.text(lang), warningStyle
            )
        case let .forged(claimed):
            (title, detail, style) = (
                Message.forged.text(lang), Message.forgedDetail(clean(claimed, 30)).text(lang), errorStyle
            )
        case .signatureRequired:
            (title, detail, style) = (
                Message.signatureRequired.text(lang), Message.signatureRequiredDetail.text(lang), warningStyle
            )
        case let .failure(failure):
            (title, detail, style) = (failureText(failure, lang), "", warningStyle)
        }
        let w = min(canvas.width - 4, max(50, min(76, ScreenCanvas.width(of: detail) + 6)))
        let left = (canvas.width - w) / 2
        let top = rows.lowerBound + max(1, (rows.count - 7) / 2)
        box(&canvas, top: top, left: left, width: w, height: 7, style: style, fill: style)
        centered(&canvas, title, row: top + 2, column: left + 1, width: w - 2, style: style)
        centered(
            &canvas, detail, row: top + 3, column: left + 1, width: w - 2,
            style: CellStyle(foreground: style.foreground, background: style.background))
        centered(
            &canvas, Message.pressAnyKey.text(lang), row: top + 5, column: left + 1, width: w - 2,
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
}
