import Foundation

/// Text helpers shared by search, import and every screen.
public enum TextFolding {
    /// The key names are searched by: accents removed, lower case, punctuation turned into single spaces,
    /// trimmed. "Cumbayá" → "cumbaya", "La Y" → "la y", "Av. 10 de Agosto" → "av 10 de agosto".
    public static func searchKey(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                for lower in scalar.properties.lowercaseMapping.unicodeScalars { out.append(lower) }
            } else {
                pendingSpace = true
            }
        }
        return String(out)
    }
}

/// Makes text from a feed or a scanned code safe to put on a terminal: control characters (C0, C1, DEL),
/// escape sequences and bidirectional overrides are removed, tabs and newlines become spaces, and the result
/// is capped at `maxLength` characters with an ellipsis. Nothing a feed author or a forged label writes can
/// move the cursor, change colours or reorder what the passenger reads.
public enum TerminalText {
    public static func sanitize(_ text: String, maxLength: Int = 200) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            let v = scalar.value
            if v == 0x1B {
                // ESC: drop the whole sequence (CSI "ESC [ … final", OSC "ESC ] … BEL/ST", or ESC + one char).
                guard let next = iterator.next() else { break }
                if next == "[" {
                    while let c = iterator.next(), !(0x40...0x7E).contains(c.value) {}
                } else if next == "]" || next == "P" || next == "_" || next == "^" {
                    while let c = iterator.next() {
                        if c.value == 0x07 || c.value == 0x9C { break }
                        if c.value == 0x1B { _ = iterator.next(); break }
                    }
                }
                continue
            }
            if v == 0x09 || v == 0x0A || v == 0x0D {
                if !out.isEmpty && out.last != " " { out.append(" "); count += 1 }
                continue
            }
            if v < 0x20 || (0x7F...0x9F).contains(v) { continue }
            // Bidi embeddings, overrides and isolates; zero-width joiners stay (emoji, Indic scripts).
            if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C { continue }
            if count == maxLength {
                out.append("…")
                return String(out)
            }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }
}
