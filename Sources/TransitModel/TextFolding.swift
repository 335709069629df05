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
