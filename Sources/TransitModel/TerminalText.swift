/// Makes untrusted text (scanned payloads, feed names) safe to put on a terminal screen.
public enum TerminalText {
    /// Removes what could drive the terminal or reorder the text, and caps the length.
    ///
    /// - ESC sequences are removed whole: CSI (`ESC [` … final byte), OSC (`ESC ]` … BEL or `ESC \`), DCS, SOS,
    ///   PM and APC strings (`ESC P`, `ESC X`, `ESC ^`, `ESC _` … `ESC \`), and two-byte `ESC x`; so are their
    ///   8-bit forms (U+009B CSI, U+009D OSC, U+0090 DCS, …).
    /// - Other C0 controls, DEL and C1 controls (U+0080–U+009F) are removed; tab, line feed, carriage return,
    ///   U+2028 and U+2029 become a space (one-line display), and runs of spaces from them collapse to one.
    /// - Bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F
    ///   marks, U+061C) are removed, so text cannot appear reversed or reordered ("Trojan Source").
    /// - Other invisible format characters that can hide text (U+200B–U+200D zero-width, U+2060 word joiner,
    ///   U+FEFF) are removed. U+FFFD (what invalid UTF-8 became) stays: it shows that something was there.
    /// - At most `maxLength` characters (grapheme clusters) are kept, then "…"; a cluster keeps at most 8 scalars
    ///   (stacked combining marks cannot grow a line without bound).
    public static func sanitize(_ text: String, maxLength: Int = 120) -> String {
        let limit = max(1, maxLength)
        var scalars = Array(text.unicodeScalars.prefix(limit * 16 + 64))
        let inputWasCut = scalars.count < text.unicodeScalars.count
        scalars = stripEscapes(scalars)
        var cleaned = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in scalars {
            let value = scalar.value
            if value == 0x09 || value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029 {
                if !lastWasSpace { cleaned.append(" ") }
                lastWasSpace = true
                continue
            }
            if isRemoved(value) { continue }
            cleaned.append(scalar)
            lastWasSpace = value == 0x20
        }
        var result = ""
        var count = 0
        var truncated = inputWasCut
        for character in String(cleaned) {
            if count == limit { truncated = true; break }
            if character.unicodeScalars.count > 8 {
                var clipped = String.UnicodeScalarView()
                clipped.append(contentsOf: character.unicodeScalars.prefix(8))
                result.append(String(clipped))
            } else {
                result.append(character)
            }
            count += 1
        }
        if truncated {
            while result.last == " " { result.removeLast() }
            result.append("…")
        }
        return result
    }

    static func isRemoved(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        case 0x200B...0x200D, 0x2060, 0xFEFF: return true
        default: return false
        }
    }

    /// Drops escape sequences (7-bit and 8-bit introducers).
    static func stripEscapes(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(scalars.count)
        var index = 0
        let count = scalars.count
        func skipString(from start: Int) -> Int {
            // Until BEL, ST (U+009C) or ESC \ ; an unterminated string swallows the rest.
            var position = start
            while position < count {
                let value = scalars[position].value
                if value == 0x07 || value == 0x9C { return position + 1 }
                if value == 0x1B {
                    if position + 1 < count, scalars[position + 1] == "\\" { return position + 2 }
                    return position  // a new escape ends the string
                }
                position += 1
            }
            return count
        }
        func skipCSI(from start: Int) -> Int {
            // Parameter bytes 0x30–0x3F, intermediate 0x20–0x2F, final 0x40–0x7E.
            var position = start
            while position < count {
                let value = scalars[position].value
                if value >= 0x40 && value <= 0x7E { return position + 1 }
                if value < 0x20 || value > 0x7E { return position }
                position += 1
            }
            return count
        }
        while index < count {
            let value = scalars[index].value
            switch value {
            case 0x1B:
                guard index + 1 < count else { index += 1; continue }
                let next = scalars[index + 1].value
                switch next {
                case 0x5B: index = skipCSI(from: index + 2)  // [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: index = skipString(from: index + 2)  // ] P X ^ _
                case 0x20...0x2F:
                    // nF: intermediates then a final byte.
                    var position = index + 1
                    while position < count, (0x20...0x2F).contains(scalars[position].value) { position += 1 }
                    index = min(count, position + 1)
                default: index += 2  // two-character sequence
                }
            case 0x9B: index = skipCSI(from: index + 1)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: index = skipString(from: index + 1)
            default:
                output.append(scalars[index])
                index += 1
            }
        }
        return output
    }
}

/// JSON that is safe to show: `JSONEncoder` escapes only C0 controls, so C1 controls (U+0080–U+009F, e.g. the
/// 8-bit CSI U+009B), bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), directional marks and
/// the line and paragraph separators are written as `\uXXXX`. They can only occur inside JSON strings, so the
/// document means the same.
public enum JSONText {
    public static func escapingInvisibleControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
