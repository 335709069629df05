import Foundation
import Testing

@testable import TransitModel

@Suite struct TerminalTextTests {
    @Test func removesEscapeSequences() {
        #expect(TerminalText.sanitize("a\u{1B}[31mred\u{1B}[0m b") == "ared b")
        #expect(TerminalText.sanitize("x\u{1B}]0;pwned title\u{07}y") == "xy")
        #expect(TerminalText.sanitize("x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\y") == "xlinky")
        #expect(TerminalText.sanitize("x\u{1B}Pq#0;2;0;0;0\u{1B}\\y") == "xy")
        #expect(TerminalText.sanitize("x\u{9B}2Jy") == "xy")  // 8-bit CSI
        #expect(TerminalText.sanitize("x\u{1B}cy") == "xy")  // RIS
        #expect(TerminalText.sanitize("x\u{1B}(0y") == "xy")  // charset designation
        #expect(TerminalText.sanitize("trailing\u{1B}") == "trailing")
    }

    @Test func removesControlAndBidiCharacters() {
        #expect(TerminalText.sanitize("a\u{0}b\u{7}c\u{8}d\u{7F}e\u{85}f") == "abcdef")
        #expect(TerminalText.sanitize("stop \u{202E}evil\u{202C} \u{2066}x\u{2069}\u{200F}") == "stop evil x")
        #expect(TerminalText.sanitize("zero\u{200B}width\u{FEFF}") == "zerowidth")
        #expect(TerminalText.sanitize("line1\r\n\tline2") == "line1 line2")
    }

    @Test func keepsOrdinaryText() {
        #expect(TerminalText.sanitize("Bijūnų g. — ¿Cómo llego? 東京 \u{FFFD}") == "Bijūnų g. — ¿Cómo llego? 東京 \u{FFFD}")
    }

    @Test func capsLength() {
        let long = String(repeating: "x", count: 4096)
        let shown = TerminalText.sanitize(long, maxLength: 20)
        #expect(shown == String(repeating: "x", count: 20) + "…")
        // Stacked combining marks do not make a character unbounded.
        let zalgo = "a" + String(repeating: "\u{301}", count: 500)
        #expect(TerminalText.sanitize(zalgo).unicodeScalars.count <= 9)
    }
}

@Suite struct JSONTextTests {
    @Test func invisibleControlsAreEscapedAndTheDocumentMeansTheSame() throws {
        let name = "Parada\u{9B}2J \u{202E}evil\u{202C} \u{2066}x\u{2069} ok"
        let json = String(decoding: try JSONEncoder().encode(["name": name]), as: UTF8.self)
        let safe = JSONText.escapingInvisibleControls(json)
        #expect(safe == #"{"name":"Parada\u009b2J \u202eevil\u202c \u2066x\u2069 ok"}"#)
        #expect(try JSONDecoder().decode([String: String].self, from: Data(safe.utf8)) == ["name": name])
        #expect(JSONText.escapingInvisibleControls(#"{"a":"Cumbayá → Río"}"#) == #"{"a":"Cumbayá → Río"}"#)
    }
}
