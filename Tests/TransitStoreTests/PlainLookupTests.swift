import Foundation
import KioskTesting
import Testing

/// `kiosk lookup` as scripts call it is read without ArgumentParser (`PlainLookup`, for the process's start-up);
/// the same request written `--option=value` goes through ArgumentParser. Both must answer byte for byte alike.
@Suite struct PlainLookupTests {
    let environment = ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path]

    /// The arguments as scripts write them, and the `--option=value` spelling PlainLookup leaves to ArgumentParser.
    static func spelledWithEquals(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument.hasPrefix("--"), argument != "--json", let value = rest.popFirst() {
                result.append("\(argument)=\(value)")
            } else {
                result.append(argument)
            }
        }
        return result
    }

    @Test(arguments: [
        ["1091", "--at", "2026-11-25T08:00", "--json"],
        ["--json", "--at", "2026-11-25T08:00", "1091", "--window", "30", "--nearby", "800"],
        ["1091", "--at", "2026-11-25T08:00", "--lang", "en", "--window", "30"],
        ["1091", "--at", "2026-11-25T23:30"],
        ["1019", "--at", "2026-11-25T08:00"],
        ["1091", "--at", "tomorrow"],
        ["1091", "--window", "0"],
        ["1091", "--nearby", "9000", "--json"],
        ["1091", "--lang", "fr"],
        ["1091", "--window", "many"],
        ["", "--json"],
        ["1091", "--db", "/nonexistent/routes.sqlite"],
        ["1091", "--config", "/nonexistent/kiosk.toml"],
    ])
    func sameAnswerWithAndWithoutArgumentParser(arguments: [String]) throws {
        let plain = try Programs.runKiosk(["lookup"] + arguments, environment: environment)
        let parsed = try Programs.runKiosk(["lookup"] + Self.spelledWithEquals(arguments), environment: environment)
        #expect(plain.status == parsed.status, "\(arguments)")
        #expect(plain.stdout == parsed.stdout, "\(arguments)")
        #expect(plain.stderr == parsed.stderr, "\(arguments)")
    }

    @Test func versionIsTheSameBeforeAndThroughArgumentParser() throws {
        let early = try Programs.runKiosk(["--version"])
        let parsed = try Programs.runKiosk(["lookup", "--version"])
        #expect(early.status == 0 && parsed.status == 0)
        #expect(early.stdout.hasPrefix("StopKiosk "))
        #expect(early.stdout.contains("route database schema"))
        #expect(early.stdout == parsed.stdout)
    }
}
