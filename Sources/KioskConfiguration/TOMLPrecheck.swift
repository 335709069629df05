/// What TOMLKit's parser (toml++) must not see. Fuzzing found that a non-ASCII character in a key or table
/// header (`[cámara]`) trips an assertion inside toml++ and aborts the process instead of raising a syntax
/// error. TOML keys are ASCII anyway, so text outside strings and comments is checked to be ASCII first.
enum TOMLPrecheck {
    /// The 1-based line and column of the first non-ASCII character outside a string or comment, if any.
    static func nonASCIIOutsideStrings(_ text: String) -> (line: Int, column: Int)? {
        enum Mode { case code, comment, basic, literal, multilineBasic, multilineLiteral }
        var mode = Mode.code
        var line = 1, column = 0
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func starts(_ quote: String) -> Bool {
            let q = Array(quote.unicodeScalars)
            return i + q.count <= scalars.count && Array(scalars[i..<i + q.count]) == q
        }
        while i < scalars.count {
            let c = scalars[i]
            column += 1
            if c == "\n" {
                line += 1; column = 0
                if mode == .comment || mode == .basic || mode == .literal { mode = .code }
                i += 1; continue
            }
            switch mode {
            case .code:
                if !c.isASCII { return (line, column) }
                if c == "#" { mode = .comment }
                else if starts("\"\"\"") { mode = .multilineBasic; i += 3; column += 2; continue }
                else if starts("'''") { mode = .multilineLiteral; i += 3; column += 2; continue }
                else if c == "\"" { mode = .basic }
                else if c == "'" { mode = .literal }
            case .comment:
                break
            case .basic:
                if c == "\\" { i += 2; column += 1; continue }
                if c == "\"" { mode = .code }
            case .literal:
                if c == "'" { mode = .code }
            case .multilineBasic:
                if c == "\\" { i += 2; column += 1; continue }
                if starts("\"\"\"") { mode = .code; i += 3; column += 2; continue }
            case .multilineLiteral:
                if starts("'''") { mode = .code; i += 3; column += 2; continue }
            }
            i += 1
        }
        return nil
    }
}
