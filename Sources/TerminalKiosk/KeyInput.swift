import ScanService

/// A key a passenger pressed, as the kiosk understands it.
public enum KioskKey: Sendable, Hashable {
    /// A printable character (letters with accents, digits, punctuation, space).
    case character(Character)
    case enter
    case backspace
    case escape
    case tab
    case up, down, left, right
    case pageUp, pageDown, home, end
    /// F1–F12.
    case function(Int)
    case delete
}

/// Splits the bytes read from a terminal in raw mode into keys: UTF-8 text, the control keys, and the escape
/// sequences xterm, tmux and the Linux console send for arrows and function keys (CSI `ESC [`, SS3 `ESC O`).
/// Unknown sequences are swallowed whole, so a stray mouse report or paste bracket never becomes typed text.
///
/// A lone ESC is ambiguous until more bytes arrive or time passes: `feed` keeps it pending and `flushPending`
/// (called by the reader after a short quiet period) turns it into `.escape`.
public struct KeyInputParser: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    public var hasPending: Bool { !pending.isEmpty }

    public mutating func feed(_ bytes: [UInt8]) -> [KioskKey] {
        pending += bytes
        var keys: [KioskKey] = []
        var i = 0
        while i < pending.count {
            let b = pending[i]
            switch b {
            case 0x1B:
                guard i + 1 < pending.count else {
                    pending.removeFirst(i)
                    return keys  // wait: a sequence may follow
                }
                let next = pending[i + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    guard let (key, length) = Self.parseSequence(pending, from: i) else {
                        if pending.count - i > 32 { i += 2; continue }  // garbage: give up on it
                        pending.removeFirst(i)
                        return keys  // incomplete
                    }
                    if let key { keys.append(key) }
                    i += length
                } else if next == 0x1B {
                    keys.append(.escape)
                    i += 1
                } else {
                    // Alt+key: ignore the modifier, keep the key.
                    keys.append(.escape)
                    i += 1
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
                // CR LF from some terminals is one Enter.
                if b == 0x0D && i + 1 < pending.count && pending[i + 1] == 0x0A { i += 1 }
                i += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                i += 1
            case 0x09:
                keys.append(.tab)
                i += 1
            case 0x00..<0x20:
                i += 1  // other control characters mean nothing to the kiosk
            default:
                let length = Self.utf8Length(b)
                guard length > 0 else { i += 1; continue }
                guard i + length <= pending.count else {
                    pending.removeFirst(i)
                    return keys
                }
                if let text = String(validating: pending[i..<(i + length)], as: UTF8.self), let character = text.first {
                    if !character.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) {
                        keys.append(.character(character))
                    }
                }
                i += length
            }
        }
        pending.removeAll()
        return keys
    }

    /// After a pause with nothing more to read: a pending lone ESC is the Escape key.
    public mutating func flushPending() -> [KioskKey] {
        guard !pending.isEmpty else { return [] }
        let wasEscape = pending == [0x1B]
        pending.removeAll()
        return wasEscape ? [.escape] : []
    }

    static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0x20..<0x80: return 1
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 0
        }
    }

    /// Parses `ESC [ params final` or `ESC O final` at `start`: the key (nil for one the kiosk ignores) and the
    /// sequence's length; nil when the sequence is not complete yet.
    static func parseSequence(_ bytes: [UInt8], from start: Int) -> (KioskKey?, Int)? {
        let introducer = bytes[start + 1]
        var j = start + 2
        if introducer == UInt8(ascii: "O") {
            guard j < bytes.count else { return nil }
            let key: KioskKey?
            switch bytes[j] {
            case UInt8(ascii: "A"): key = .up
            case UInt8(ascii: "B"): key = .down
            case UInt8(ascii: "C"): key = .right
            case UInt8(ascii: "D"): key = .left
            case UInt8(ascii: "H"): key = .home
            case UInt8(ascii: "F"): key = .end
            case UInt8(ascii: "M"): key = .enter
            case UInt8(ascii: "P"): key = .function(1)
            case UInt8(ascii: "Q"): key = .function(2)
            case UInt8(ascii: "R"): key = .function(3)
            case UInt8(ascii: "S"): key = .function(4)
            default: key = nil
            }
            return (key, 3)
        }
        // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, then a final byte 0x40–0x7E.
        // The Linux console sends F1–F5 as `ESC [ [ A` … `ESC [ [ E`.
        if j < bytes.count && bytes[j] == UInt8(ascii: "[") {
            guard j + 1 < bytes.count else { return nil }
            let f = Int(bytes[j + 1]) - Int(UInt8(ascii: "A"))
            return ((0...4).contains(f) ? .function(f + 1) : nil, 4)
        }
        var parameters = ""
        while j < bytes.count, (0x20...0x3F).contains(bytes[j]) {
            parameters.append(Character(Unicode.Scalar(bytes[j])))
            j += 1
        }
        guard j < bytes.count else { return nil }
        let final = bytes[j]
        guard (0x40...0x7E).contains(final) else { return (nil, j - start + 1) }
        let length = j - start + 1
        let first = Int(parameters.split(separator: ";").first ?? "") ?? 0
        switch final {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "C"): return (.right, length)
        case UInt8(ascii: "D"): return (.left, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "Z"): return (.tab, length)  // Shift+Tab toggles too
        case UInt8(ascii: "P"): return (.function(1), length)
        case UInt8(ascii: "Q"): return (.function(2), length)
        case UInt8(ascii: "R"): return (.function(3), length)
        case UInt8(ascii: "S"): return (.function(4), length)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return (.home, length)
            case 4, 8: return (.end, length)
            case 3: return (.delete, length)
            case 5: return (.pageUp, length)
            case 6: return (.pageDown, length)
            case 11...15: return (.function(first - 10), length)
            case 17...21: return (.function(first - 11), length)
            case 23, 24: return (.function(first - 12), length)
            default: return (nil, length)
            }
        default:
            return (nil, length)
        }
    }
}

extension DemoSession.Step {
    /// The keys a recorded passenger's key name stands for: `enter`, `escape`, `tab`, `down`, or text to type.
    public static func keys(_ name: String?) -> [KioskKey] {
        switch name {
        case nil: return []
        case "enter": return [.enter]
        case "escape": return [.escape]
        case "tab": return [.tab]
        case "down": return [.down]
        case let text?: return text.map { .character($0) }
        }
    }
}
