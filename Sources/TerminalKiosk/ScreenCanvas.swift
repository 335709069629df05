import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel

/// A colour on the kiosk screen: one of the 16 ANSI colours (which every terminal shows as it likes), or an
/// exact RGB value (route colours from the feed) that the terminal writer renders in 24-bit, 256 or 16 colours.
public enum ScreenColor: Sendable, Hashable {
    case ansi(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    public static let black = ScreenColor.ansi(0), red = ScreenColor.ansi(1), green = ScreenColor.ansi(2),
        yellow = ScreenColor.ansi(3)
    public static let blue = ScreenColor.ansi(4), magenta = ScreenColor.ansi(5), cyan = ScreenColor.ansi(6),
        white = ScreenColor.ansi(7)
    public static let brightBlack = ScreenColor.ansi(8), brightWhite = ScreenColor.ansi(15),
        brightYellow = ScreenColor.ansi(11)

    /// A GTFS colour (six hex digits, no '#'); nil when absent or malformed.
    public init?(gtfsHex: String?) {
        guard let hex = gtfsHex?.trimmingCharacters(in: .whitespaces), hex.utf8.count == 6,
            let value = UInt32(hex, radix: 16)
        else { return nil }
        self = .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    /// Relative luminance (0…1) of the colour, for choosing readable text on it.
    public var luminance: Double {
        let (r, g, b) = rgbComponents
        func channel(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// The RGB a terminal typically shows for this colour (xterm's palette for the ANSI ones).
    public var rgbComponents: (UInt8, UInt8, UInt8) {
        switch self {
        case let .rgb(r, g, b): return (r, g, b)
        case let .ansi(n): return ScreenColor.ansiPalette[Int(n & 15)]
        }
    }

    /// xterm's default 16 colours.
    static let ansiPalette: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]
}

/// How one cell looks.
public struct CellStyle: Sendable, Hashable {
    public var foreground: ScreenColor?
    public var background: ScreenColor?
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false
    /// Struck through (SGR 9): cancelled departures, which also say so in words.
    public var strikethrough = false

    public init(
        foreground: ScreenColor? = nil, background: ScreenColor? = nil, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false, underline: Bool = false, strikethrough: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
        self.strikethrough = strikethrough
    }

    public static let plain = CellStyle()
    public static let bold = CellStyle(bold: true)
    public static let dim = CellStyle(dim: true)
}

/// One terminal cell: a grapheme cluster one or two columns wide. The column after a wide character holds a
/// continuation cell (empty text) that the writer skips.
public struct ScreenCell: Sendable, Hashable {
    public var text: String
    public var style: CellStyle

    public init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    public static let blank = ScreenCell(" ")
    public var isContinuation: Bool { text.isEmpty }
}

/// A whole screen of cells, built from scratch for every frame by the screen builder and diffed by the writer.
public struct ScreenCanvas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var rows: [[ScreenCell]]

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// The columns a string takes on a terminal.
    public static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    public static func width(of character: Character) -> Int {
        min(2, character.unicodeScalars.reduce(0) { $0 + TerminalWidth.of($1) })
    }

    /// Writes `text` at (`row`, `column`), at most `maxWidth` columns (to the right edge by default), and returns
    /// the columns used. Text is expected to be sanitised already; any control character left is shown as '?'
    /// rather than reaching the terminal. A wide character that does not fit is replaced by a space.
    @discardableResult
    public mutating func put(
        _ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let limit = min(width, column + (maxWidth ?? width))
        var x = column
        for character in text {
            var glyph = String(character)
            var w = ScreenCanvas.width(of: character)
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                glyph = "?"
                w = 1
            }
            if w == 0 {
                // A lone combining mark or format character: attach nothing, take no column.
                continue
            }
            if x + w > limit {
                if w == 2 && x < limit && x >= 0 { set(row, x, ScreenCell(" ", style)); x += 1 }
                break
            }
            if x >= 0 {
                set(row, x, ScreenCell(glyph, style))
                if w == 2 { set(row, x + 1, ScreenCell("", style)) }
            }
            x += w
        }
        return max(0, x - column)
    }

    /// Text cut to `width` columns, with "…" when it had to be shortened.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if ScreenCanvas.width(of: text) <= width { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = ScreenCanvas.width(of: character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// Fills a rectangle with a style (spaces), e.g. a bar or a badge background.
    public mutating func fill(row: Int, column: Int = 0, width w: Int? = nil, style: CellStyle) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (w ?? width))
        for x in max(0, column)..<max(max(0, column), end) { set(row, x, ScreenCell(" ", style)) }
    }

    private mutating func set(_ row: Int, _ column: Int, _ cell: ScreenCell) {
        guard column >= 0, column < width else { return }
        // Overwriting half of a wide character blanks the other half, so no stray continuation is left.
        if rows[row][column].isContinuation, column > 0 {
            rows[row][column - 1] = ScreenCell(" ", rows[row][column - 1].style)
        }
        if column + 1 < width, rows[row][column + 1].isContinuation, !cell.isContinuation {
            rows[row][column + 1] = ScreenCell(" ", rows[row][column + 1].style)
        }
        rows[row][column] = cell
    }

    /// Changes the style of every cell (a theme applied over a finished screen).
    public mutating func restyle(_ transform: (CellStyle) -> CellStyle) {
        for r in rows.indices {
            for c in rows[r].indices { rows[r][c].style = transform(rows[r][c].style) }
        }
    }

    /// The screen as plain text lines (trailing spaces removed): what `tmux capture-pane -p` would show, used by
    /// the plain-text mode and by tests.
    public var lines: [String] {
        rows.map { row in
            var line = ""
            for cell in row where !cell.isContinuation { line += cell.text }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public var text: String { lines.joined(separator: "\n") }
}
