import Foundation
import KioskTesting
import Testing

/// Headless outputs pinned byte for byte: `kiosk lookup` and `kiosk plan` (text and JSON) on the bundled sample
/// network, against files recorded before the module restructuring (Tests/Fixtures/golden). A change here is a
/// change of contract: rerun kiosk/tools/record-golden.sh on purpose and review the diff.
@Suite struct OutputStabilityTests {
    struct Query: CustomStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var description: String { name }
    }

    static let folder = Repository.fixtures.appendingPathComponent("golden")

    /// The queries of `queries.txt`: `NAME: ARGUMENTS`, arguments split on spaces, `_` standing for a space.
    static let queries: [Query] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("queries.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return nil }
            let arguments = line[line.index(after: colon)...].split(separator: " ").map {
                $0.replacingOccurrences(of: "_", with: " ")
            }
            return Query(name: String(line[..<colon]), arguments: arguments)
        }
    }()

    @Test func everyQueryIsListed() {
        #expect(Self.queries.count >= 15)
    }

    @Test(arguments: queries) func outputIsUnchanged(_ query: Query) throws {
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("\(query.name).out"), encoding: .utf8)
        let result = try Programs.runKiosk(query.arguments)
        #expect(
            result.stdout + "exit \(result.status)\n" == expected, "kiosk \(query.arguments.joined(separator: " "))")
    }
}
