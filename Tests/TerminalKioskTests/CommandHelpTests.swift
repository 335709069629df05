import Foundation
import KioskTesting
import Testing

/// `kiosk --help` and every subcommand's `--help` as a person reads them at 80 columns: the argument parser wraps
/// each paragraph, so a line break typed inside a paragraph shows up as a short line in the middle of it
/// ("…complete and checked: an" / "import that fails or is interrupted…").
@Suite struct CommandHelpTests {
    static let width = 80

    /// `kiosk COMMAND… --help` at `width` columns.
    static func help(_ command: [String]) throws -> String {
        let result = try Programs.runKiosk(command + ["--help"], environment: ["COLUMNS": String(width)])
        guard result.status == 0 else {
            throw HelpError("kiosk \((command + ["--help"]).joined(separator: " ")) exited \(result.status): \(result)")
        }
        return result.stdout
    }

    /// The names listed under SUBCOMMANDS: (one entry a line, indented two spaces; `name (default)` allowed).
    static func subcommands(in help: String) -> [String] {
        var names: [String] = []
        var inList = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "SUBCOMMANDS:" {
                inList = true
            } else if inList {
                if line.isEmpty { break }
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }  // a wrapped description
                if let name = line.split(separator: " ").first { names.append(String(name)) }
            }
        }
        return names
    }

    /// Every command, `kiosk` itself first, found by following the SUBCOMMANDS: lists down from `kiosk --help`;
    /// each with its help text.
    static func allHelpTexts() throws -> [(command: [String], help: String)] {
        var found: [(command: [String], help: String)] = []
        var pending: [[String]] = [[]]
        while !pending.isEmpty {
            let command = pending.removeFirst()
            let text = try help(command)
            found.append((command, text))
            pending += subcommands(in: text).filter { $0 != "help" }.map { command + [$0] }
        }
        return found
    }

    /// Lines that end a paragraph's line early: the line does not end a sentence or a clause (. : ; ! ?), the next
    /// line continues the same paragraph (same indentation, and neither is a list item, an option or a table row
    /// with a column gap), and the next line's first word would have fitted on it within `width` (with a column to
    /// spare: the parser breaks a line only when the next word does not fit). Each as "line⏎next line".
    static func handBrokenLines(in text: String, width: Int) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [String] = []
        for (line, next) in zip(lines, lines.dropFirst()) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            let nextBody = next.dropFirst(indent)
            guard !body.isEmpty, !nextBody.isEmpty, next.prefix(indent).allSatisfy({ $0 == " " }),
                nextBody.first != " "
            else { continue }  // a blank line, or a different indentation: another paragraph or a table column
            guard !isItemOrTableRow(body), !isItemOrTableRow(nextBody) else { continue }
            guard let last = body.last, !".:;!?".contains(last) else { continue }
            let word = nextBody.prefix { $0 != " " }
            if line.count + 1 + word.count <= width - 2 { found.append("\(line)⏎\(next)") }
        }
        return found
    }

    /// A list item (-, *, •, –, 1. or 1)), an option or argument line (-x, --name, <value>), or a row of a table
    /// laid out in columns (two spaces inside the text).
    static func isItemOrTableRow(_ text: Substring) -> Bool {
        if let first = text.first, "-*•–<[".contains(first) { return true }
        let digits = text.prefix { $0.isNumber }
        if !digits.isEmpty, let after = text.dropFirst(digits.count).first, after == "." || after == ")" {
            return true
        }
        return text.contains("  ")
    }

    @Test func theRuleFindsABreakInsideAParagraphAndSparesTablesAndLists() {
        let handWrapped = """
            OVERVIEW: Import a GTFS feed (.zip or folder) into a route database, replacing
            it atomically.

            The new database is built beside PATH and renamed over it only once it is
            complete and checked: an
            import that fails or is interrupted leaves the previous database as it was.
            """
        #expect(
            Self.handBrokenLines(in: handWrapped, width: 80) == [
                "complete and checked: an⏎import that fails or is interrupted leaves the previous database as it was."
            ])
        let layout = """
            Without --db, commands use the bundled Quito sample network (imported once into a cache file).
            Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage.

            USAGE: kiosk labels [--stops <stops> ...] [--route <route>] [--all]
                                [--out <out>] [--layout <layout>]

            Choose one of
            - stops
            - a route

            OPTIONS:
              --db <db>               The route database to create or
                                      replace.
              --a-long-option-name <value>
              --another-long-option-name <value>
              -v, --verbose           Log progress
              -h, --help              Show help information.

            SUBCOMMANDS:
              keys                    Make and inspect label signing keys
              labels                  Print stop labels

              See 'kiosk help <subcommand>' for detailed help.
            """
        #expect(Self.handBrokenLines(in: layout, width: 80) == [])
    }

    @Test func everyCommandsHelpIsWrappedByTheParserOnly() throws {
        let texts = try Self.allHelpTexts()
        let commands = texts.map { $0.command.joined(separator: " ") }
        // Discovery reached the nested commands, so the check below covers every command.
        #expect(commands.contains("keys generate") && commands.contains("rt inspect"), "\(commands)")
        #expect(commands.count >= 15, "\(commands)")
        for (command, help) in texts {
            let broken = Self.handBrokenLines(in: help, width: Self.width)
            let shown = (["kiosk"] + command + ["--help"]).joined(separator: " ")
            #expect(
                broken.count == 0,
                "\(shown) at \(Self.width) columns breaks a paragraph by hand:\n\(broken.joined(separator: "\n"))")
        }
    }
}

struct HelpError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
