extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)` (spaces, tabs and the other space separators) in Swift alone:
    /// Foundation's goes through NSString, and the headers and parameters of every request are trimmed.
    func trimmingSpaces() -> String {
        func isSpace(_ c: Character) -> Bool {
            c == " " || c == "\t"
                || (c.unicodeScalars.count == 1
                    && c.unicodeScalars.first!.properties.generalCategory == .spaceSeparator)
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
