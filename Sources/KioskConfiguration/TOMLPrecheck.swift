/// What TOMLKit's parser (toml++) must not see. Fuzzing found inputs that trip assertions inside toml++ and
/// abort the process instead of raising a syntax error: a non-ASCII character in a key (`[cámara]`), a table
/// header whose first character cannot start a key (`[:scanner]`, `[.a]`), and an array closed by `}`
/// (`a = [1, }`). All are invalid TOML, so they are refused here first, with the line and column; brackets and
/// braces must also match and nest at most 32 deep.
enum TOMLPrecheck {
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var reason: String
    }

    static func check(_ text: String) -> Problem? {
        enum Mode { case code, comment, basic, literal, multilineBasic, multilineLiteral }
        var mode = Mode.code
        var line = 1, column = 0
        var lineStart = true  // only whitespace so far on this line (outside strings)
        var open: [Unicode.Scalar] = []  // the value brackets and braces not yet closed
        var inHeader = false  // between a table header's [ and the end of its line
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func starts(_ quote: String) -> Bool {
            let q = Array(quote.unicodeScalars)
            return i + q.count <= scalars.count && Array(scalars[i..<i + q.count]) == q
        }
        func canStartKey(_ c: Unicode.Scalar) -> Bool {
            c == "\"" || c == "'" || c == "_" || c == "-" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
                || ("0"..."9").contains(c)
        }
        while i < scalars.count {
            let c = scalars[i]
            column += 1
            if c == "\n" {
                line += 1; column = 0; lineStart = true; inHeader = false
                if mode == .comment || mode == .basic || mode == .literal { mode = .code }
                i += 1; continue
            }
            switch mode {
            case .code:
                if !c.isASCII {
                    return Problem(
                        line: line, column: column,
                        reason:
                            "only ASCII may appear outside quoted strings (keys are ASCII letters, digits, '-' and '_')"
                    )
                }
                if c == "[" && lineStart && open.isEmpty {
                    var j = i + 1
                    if j < scalars.count && scalars[j] == "[" { j += 1 }
                    while j < scalars.count && (scalars[j] == " " || scalars[j] == "\t") { j += 1 }
                    if j >= scalars.count || !canStartKey(scalars[j]) {
                        return Problem(
                            line: line, column: column,
                            reason: "a table header must start with a key: [name] or [\"quoted name\"]")
                    }
                    inHeader = true
                } else if !inHeader && (c == "[" || c == "{") {
                    open.append(c)
                    if open.count > 32 {
                        return Problem(line: line, column: column, reason: "arrays and tables nested more than 32 deep")
                    }
                } else if !inHeader && (c == "]" || c == "}") {
                    guard let last = open.popLast(), (last == "[") == (c == "]") else {
                        return Problem(
                            line: line, column: column, reason: "'\(c)' does not close the bracket or brace before it")
                    }
                }
                if c != " " && c != "\t" && c != "\r" { lineStart = false }
                if c == "#" {
                    mode = .comment
                } else if starts("\"\"\"") {
                    mode = .multilineBasic; i += 3; column += 2; continue
                } else if starts("'''") {
                    mode = .multilineLiteral; i += 3; column += 2; continue
                } else if c == "\"" {
                    mode = .basic
                } else if c == "'" {
                    mode = .literal
                }
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
