import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import TransitModel

/// How many colours the terminal shows.
public enum TerminalColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor = "truecolor"
    /// The xterm 256-colour palette (`TERM=*-256color`).
    case indexed256 = "256"
    /// The 16 ANSI colours (the Linux console, plain `xterm`, `screen`).
    case basic16 = "16"

    /// From the environment: `COLORTERM` first (the de-facto way terminals announce 24-bit colour), then `TERM`.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalColorMode
    {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let term = (environment["TERM"] ?? "").lowercased()
        if term.contains("direct") { return .trueColor }
        if term.contains("256color") { return .indexed256 }
        return .basic16
    }
}

/// Turns cell styles into SGR escape sequences for one colour mode.
public enum TerminalStyleCodes {
    public static func sgr(_ style: CellStyle, mode: TerminalColorMode) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.strikethrough { codes.append("9") }
        if style.reverse { codes.append("7") }
        if let fg = style.foreground { codes.append(color(fg, mode: mode, foreground: true)) }
        if let bg = style.background { codes.append(color(bg, mode: mode, foreground: false)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    static func color(_ color: ScreenColor, mode: TerminalColorMode, foreground: Bool) -> String {
        switch (color, mode) {
        case let (.ansi(n), _):
            return ansiCode(Int(n & 15), foreground: foreground)
        case let (.rgb(r, g, b), .trueColor):
            return "\(foreground ? 38 : 48);2;\(r);\(g);\(b)"
        case let (.rgb(r, g, b), .indexed256):
            return "\(foreground ? 38 : 48);5;\(index256(r, g, b))"
        case let (.rgb(r, g, b), .basic16):
            return ansiCode(nearest16(r, g, b), foreground: foreground)
        }
    }

    static func ansiCode(_ n: Int, foreground: Bool) -> String {
        let base = foreground ? (n < 8 ? 30 : 90) : (n < 8 ? 40 : 100)
        return String(base + n % 8)
    }

    /// The closest entry of the xterm 256-colour palette: the 6×6×6 cube or the 24-step grey ramp.
    public static func index256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeIndex(_ v: UInt8) -> Int {
            var best = 0
            for (i, level) in levels.enumerated() where abs(level - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (levels[ri], levels[gi], levels[bi])
        let cubeDistance = distance((r, g, b), cube)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let grey = 8 + greyStep * 10
        let greyDistance = distance((r, g, b), (grey, grey, grey))
        return greyDistance < cubeDistance ? 232 + greyStep : 16 + 36 * ri + 6 * gi + bi
    }

    /// The closest of the 16 ANSI colours (by xterm's palette), for terminals without more.
    public static func nearest16(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (i, c) in ScreenColor.ansiPalette.enumerated() {
            let d = distance((r, g, b), (Int(c.0), Int(c.1), Int(c.2)))
            if d < bestDistance { best = i; bestDistance = d }
        }
        return best
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (Int, Int, Int)) -> Int {
        // Weighted for the eye (green counts most), good enough to pick a palette entry.
        let dr = Int(a.0) - b.0, dg = Int(a.1) - b.1, db = Int(a.2) - b.2
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}

/// Escape sequences the kiosk sends besides cell contents.
public enum TerminalControl {
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    public static let leaveAlternateScreen = "\u{1B}[?1049l"
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    public static let clearScreen = "\u{1B}[0m\u{1B}[2J\u{1B}[H"
    public static let resetStyle = "\u{1B}[0m"
    /// Line wrap off while drawing, so writing the last column never scrolls the screen.
    public static let disableAutowrap = "\u{1B}[?7l"
    public static let enableAutowrap = "\u{1B}[?7h"

    public static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(row + 1);\(column + 1)H" }
}

/// Turns a sequence of frames into the bytes that update a terminal from one to the next: only the changed
/// runs of cells are written, each frame as one buffer (one `write`), so the screen never flickers.
/// Pure: give it frames, get bytes; the device is elsewhere.
public struct TerminalFrameWriter: Sendable {
    public let colorMode: TerminalColorMode
    private var previous: ScreenCanvas?
    /// Cells written in the last update (for tests and benchmarks).
    public private(set) var lastCellsWritten = 0

    public init(colorMode: TerminalColorMode) {
        self.colorMode = colorMode
    }

    /// Forget what is on the screen: the next update repaints everything (after a resize or a suspected
    /// corruption of the display).
    public mutating func invalidate() {
        previous = nil
    }

    /// The bytes that bring the terminal from the last frame to `frame`; empty when nothing changed.
    public mutating func update(to frame: ScreenCanvas) -> [UInt8] {
        var out = ""
        lastCellsWritten = 0
        let full = previous == nil || previous!.width != frame.width || previous!.height != frame.height
        if full { out += TerminalControl.clearScreen }
        var currentStyle: CellStyle? = nil
        for row in 0..<frame.height {
            let new = frame.rows[row]
            var start = 0, end = frame.width - 1
            if !full, let old = previous?.rows[row] {
                guard let first = new.indices.first(where: { new[$0] != old[$0] }) else { continue }
                let last = new.indices.last(where: { new[$0] != old[$0] })!
                start = first
                end = last
            } else if full {
                // Skip trailing blank cells on a fresh screen (it was just cleared).
                guard let last = new.indices.last(where: { new[$0] != .blank }) else { continue }
                end = last
            }
            // Never start on the right half of a wide character, never end on its left half.
            while start > 0 && new[start].isContinuation { start -= 1 }
            if end + 1 < frame.width && new[end + 1].isContinuation { end += 1 }
            out += TerminalControl.moveTo(row: row, column: start)
            for column in start...end {
                let cell = new[column]
                if cell.isContinuation { continue }
                if currentStyle != cell.style {
                    out += TerminalStyleCodes.sgr(cell.style, mode: colorMode)
                    currentStyle = cell.style
                }
                out += cell.text
                lastCellsWritten += 1
            }
        }
        if currentStyle != nil { out += TerminalControl.resetStyle }
        previous = frame
        return Array(out.utf8)
    }
}
