import Foundation
import KioskConfiguration

/// The screen's themes as data. `default` is the palette the screens are drawn with; `high-contrast` maps every
/// cell to one of four colour pairs, each at least 7:1 (WCAG 2 AAA) with the sRGB values of `ScreenColor`'s
/// ANSI table — the table a web stylesheet can use too. Nothing on the kiosk is told by colour alone (states
/// carry words: "ahora", "≈", "accesible en silla de ruedas"), and nothing blinks: `CellStyle` has no blink.
public enum KioskTheme {
    /// A foreground/background pair text is drawn in.
    public struct Pair: Sendable, Equatable {
        public var name: String
        public var foreground: ScreenColor
        public var background: ScreenColor

        public init(_ name: String, _ foreground: ScreenColor, _ background: ScreenColor) {
            self.name = name
            self.foreground = foreground
            self.background = background
        }
    }

    /// Every text colour pair of the high-contrast theme.
    public static let highContrastPairs: [Pair] = [
        Pair("text", .brightWhite, .black),
        Pair("emphasis", .brightYellow, .black),
        Pair("bar", .black, .brightWhite),
        Pair("alert", .black, .brightYellow),
    ]

    /// WCAG 2 contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05), from their sRGB values.
    public static func contrast(_ a: ScreenColor, _ b: ScreenColor) -> Double {
        let (x, y) = (a.luminance, b.luminance)
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// A cell's style in the high-contrast theme: bars, badges and highlights (anything on a background, or
    /// reversed) become black on white, warnings and prompts black on yellow; coloured or bold text yellow on
    /// black, the rest white on black. Dim goes (it lowers contrast); feed route colours go.
    public static func highContrast(_ style: CellStyle) -> CellStyle {
        let pair: Pair
        if style.reverse || style.background != nil {
            switch style.background {
            case .ansi(1)?, .ansi(3)?, .ansi(9)?, .ansi(11)?: pair = highContrastPairs[3]
            default: pair = highContrastPairs[2]
            }
        } else if style.bold || style.foreground != nil {
            pair = highContrastPairs[1]
        } else {
            pair = highContrastPairs[0]
        }
        return CellStyle(
            foreground: pair.foreground, background: pair.background, bold: style.bold, underline: style.underline)
    }

    static func apply(_ theme: DisplaySettings.Theme, to canvas: inout ScreenCanvas) {
        switch theme {
        case .default: return
        case .highContrast: canvas.restyle(highContrast)
        }
    }
}
