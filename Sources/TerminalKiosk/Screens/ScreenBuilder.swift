import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
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
    /// Theme and layout (`[display]`).
    public var display: DisplaySettings

    public init(demo: Bool = false, title: String = "StopKiosk", display: DisplaySettings = DisplaySettings()) {
        self.demo = demo
        self.title = title
        self.display = display
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

    public static func build(
        _ state: KioskState, width: Int, height: Int, context: ScreenContext = ScreenContext()
    ) -> ScreenCanvas {
        var canvas = buildDefault(state, width: width, height: height, context: context)
        KioskTheme.apply(context.display.theme, to: &canvas)
        return canvas
    }

    static func buildDefault(_ state: KioskState, width: Int, height: Int, context: ScreenContext) -> ScreenCanvas {
        var canvas = ScreenCanvas(width: width, height: height)
        let lang = state.language
        let zone = timeZone(state)
        guard width >= 30, height >= 8 else {
            canvas.put(
                ScreenCanvas.truncate(Message.holdCodePrompt.text(lang), to: width), row: 0, column: 0, style: .bold)
            return canvas
        }

        // Header: where we are, the clock, and the language key (always visible).
        canvas.fill(row: 0, style: headerStyle)
        let clock = state.locale.clock(state.now, in: zone)
        var right = "\(clock)  [\(Message.keyLanguage.text(lang))] "
        if context.demo { right = "\(Message.demoBanner.text(lang))  " + right }
        let rightWidth = ScreenCanvas.width(of: right)
        canvas.put(
            " " + ScreenCanvas.truncate(title(state, context: context), to: width - rightWidth - 3), row: 0, column: 0,
            style: headerStyle)
        canvas.put(right, row: 0, column: width - rightWidth, style: headerStyle)

        // Footer: the keys that work on this screen.
        var bottom = height - 1
        drawFooter(&canvas, row: bottom, keys: footerKeys(state), extra: browseKeys(state), lang: lang)
        bottom -= 1
        switch state.camera {
        case .unavailable:
            canvas.fill(row: bottom, style: warningStyle)
            canvas.put(" " + Message.cameraUnavailable.text(lang), row: bottom, column: 0, style: warningStyle)
            bottom -= 1
        default: break
        }
        var body = 1...bottom

        switch state.database {
        case .unavailable:
            drawFullMessage(
                &canvas, rows: body, title: Message.databaseUnavailable.text(lang),
                detail: Message.databaseUnavailableDetail.text(lang), style: errorStyle)
            return canvas
        case let .outOfService(_, _, _, start, end) where state.screen == .idle:
            drawFullMessage(
                &canvas, rows: body, title: Message.outOfService(start: start, end: end).text(lang),
                detail: Message.outOfServiceDetail.text(lang), style: warningStyle)
            return canvas
        default: break
        }

        // Severe messages for this kiosk's stop or every kiosk: the idle screen is theirs, stop screens start with them.
        let messages = state.screenMessages
        if !messages.isEmpty, state.screen == .idle {
            drawTakeover(&canvas, state: state, messages: messages, rows: body, zone: zone)
            if let notice = state.notice { drawNotice(&canvas, notice: notice, lang: lang, rows: body) }
            return canvas
        } else if !messages.isEmpty, body.count > 8 {
            let used = drawMessageBand(&canvas, state: state, messages: messages, top: body.lowerBound, zone: zone)
            body = (body.lowerBound + used)...body.upperBound
        }

        switch state.screen {
        case .idle:
            drawIdle(&canvas, state: state, rows: body, zone: zone, large: context.display.layout == .large)
        case let .stop(screen):
            drawStop(
                &canvas, state: state, screen: screen, rows: body, zone: zone,
                large: context.display.layout == .large)
        case let .entry(entry): drawEntry(&canvas, state: state, entry: entry, rows: body)
        case let .plan(plan): drawPlan(&canvas, state: state, plan: plan, rows: body, zone: zone)
        case let .diagram(diagram): drawDiagram(&canvas, state: state, screen: diagram, rows: body)
        case let .routeList(list): drawRouteList(&canvas, state: state, screen: list, rows: body)
        }
        if let notice = state.notice { drawNotice(&canvas, notice: notice, lang: lang, rows: body) }
        return canvas
    }
}
