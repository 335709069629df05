import Testing

@testable import TerminalKiosk

@Suite struct KeyInputTests {
    func keys(_ bytes: [UInt8]) -> [KioskKey] {
        var parser = KeyInputParser()
        return parser.feed(bytes) + parser.flushPending()
    }

    @Test func textAndControlKeys() {
        #expect(keys(Array("cumbayá".utf8)) == "cumbayá".map { .character($0) })
        #expect(keys([0x0D]) == [.enter])
        #expect(keys([0x0D, 0x0A]) == [.enter])
        #expect(keys([0x7F]) == [.backspace])
        #expect(keys([0x08]) == [.backspace])
        #expect(keys([0x09]) == [.tab])
        #expect(keys([0x01, 0x02]) == [])
        #expect(keys(Array("東".utf8)) == [.character("東")])
    }

    @Test func escapeSequences() {
        #expect(keys(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(keys(Array("\u{1B}OA\u{1B}OB".utf8)) == [.up, .down])
        // F2 as xterm (SS3 Q), VT220 (CSI 12~) and the Linux console (CSI [ B).
        #expect(keys(Array("\u{1B}OQ".utf8)) == [.function(2)])
        #expect(keys(Array("\u{1B}[12~".utf8)) == [.function(2)])
        #expect(keys(Array("\u{1B}[[B".utf8)) == [.function(2)])
        #expect(keys(Array("\u{1B}[5~\u{1B}[6~\u{1B}[3~".utf8)) == [.pageUp, .pageDown, .delete])
        #expect(keys(Array("\u{1B}[1;5A".utf8)) == [.up])
        #expect(keys(Array("\u{1B}[Z".utf8)) == [.tab])
        // Unknown sequences (a mouse report, bracketed paste markers) are swallowed, not typed.
        #expect(keys(Array("\u{1B}[200~hi\u{1B}[201~".utf8)) == [.character("h"), .character("i")])
        #expect(keys(Array("\u{1B}[<0;10;5M".utf8)) == [])
    }

    @Test func aLoneEscapeWaitsForTheQuietPeriod() {
        var parser = KeyInputParser()
        #expect(parser.feed([0x1B]) == [])
        #expect(parser.hasPending)
        #expect(parser.flushPending() == [.escape])
        // A sequence split across reads is put together.
        #expect(parser.feed([0x1B]) == [])
        #expect(parser.feed(Array("[".utf8)) == [])
        #expect(parser.feed(Array("B".utf8)) == [.down])
        // A UTF-8 character split across reads too.
        let bytes = Array("á".utf8)
        #expect(parser.feed([bytes[0]]) == [])
        #expect(parser.feed([bytes[1]]) == [.character("á")])
        #expect(keys([0x1B, 0x1B]) == [.escape, .escape])
    }
}
