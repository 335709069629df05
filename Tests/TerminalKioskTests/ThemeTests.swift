import Foundation
import KioskConfiguration
import KioskTesting
import ScanService
import Testing
import TransitModel

@testable import TerminalKiosk

/// The high-contrast theme and the large layout: contrast computed from the sRGB table, every cell of real
/// screens checked, then the real kiosk in tmux at 80×24 and 160×48 (captures kept as test artefacts).
@Suite struct ThemeTests {
    static let highContrast = ScreenContext(
        display: {
            var d = DisplaySettings(); d.theme = .highContrast; return d
        }())
    static let large = ScreenContext(
        display: {
            var d = DisplaySettings(); d.layout = .large; return d
        }())

    @Test func everyHighContrastPairIsAtLeastSevenToOne() {
        for pair in KioskTheme.highContrastPairs {
            let ratio = KioskTheme.contrast(pair.foreground, pair.background)
            #expect(ratio >= 7, "\(pair.name): \(ratio):1")
        }
        // The table itself: white on black is the WCAG maximum, and the formula agrees with a known value
        // (xterm's default blue on black, 2.2:1 — why the default theme's header is not used as is).
        #expect(abs(KioskTheme.contrast(.brightWhite, .black) - 21) < 0.01)
        #expect(abs(KioskTheme.contrast(.blue, .black) - 2.23) < 0.01)
    }

    static func screens(width: Int, height: Int) -> [(String, KioskState)] {
        var notice = KioskFixtures.idleState()
        _ = notice.handle(
            .scan(ScanOutcomeFixtures.notAStop), now: KioskFixtures.morning)
        var entry = KioskFixtures.stopState("2010")
        _ = entry.handle(.key(.character("c")), now: KioskFixtures.morning)
        var plan = KioskFixtures.stopState("2010")
        _ = plan.handle(.key(.character("c")), now: KioskFixtures.morning)
        _ = plan.handle(.matchesLoaded(query: "c", matches: []), now: KioskFixtures.morning)
        _ = plan.handle(.key(.enter), now: KioskFixtures.morning)
        _ = plan.handle(.planLoaded(.success(KioskFixtures.plan(from: "2010", to: "5007"))), now: KioskFixtures.morning)
        return [
            ("idle", KioskFixtures.idleState()), ("stop", KioskFixtures.stopState("2010")),
            ("station", KioskFixtures.stopState("1091")), ("notice", notice), ("entry", entry), ("plan", plan),
        ]
    }

    @Test(arguments: [(80, 24), (160, 48)])
    func everyCellOfEveryScreenIsHighContrast(size: (Int, Int)) {
        let allowed = KioskTheme.highContrastPairs.map { [$0.foreground, $0.background] }
        for (name, state) in Self.screens(width: size.0, height: size.1) {
            let canvas = KioskScreenBuilder.build(state, width: size.0, height: size.1, context: Self.highContrast)
            for (r, row) in canvas.rows.enumerated() {
                for (c, cell) in row.enumerated() {
                    let style = cell.style
                    guard let fg = style.foreground, let bg = style.background else {
                        Issue.record("\(name) \(size): cell \(r),\(c) has no explicit colours")
                        return
                    }
                    #expect(allowed.contains([fg, bg]), "\(name): cell \(r),\(c) \(fg) on \(bg)")
                    #expect(KioskTheme.contrast(fg, bg) >= 7)
                    #expect(!style.dim && !style.reverse)
                }
            }
            // The text is the same as in the default theme: only colours change.
            #expect(
                canvas.text == KioskScreenBuilder.build(state, width: size.0, height: size.1).text,
                "\(name): the theme changed the text")
        }
    }

    @Test func largeLayoutDropsSecondaryColumnsInsteadOfWrapping() {
        let state = KioskFixtures.stopState("2010")
        for (w, h) in [(80, 24), (160, 48)] {
            let standard = KioskScreenBuilder.build(state, width: w, height: h).text
            let large = KioskScreenBuilder.build(state, width: w, height: h, context: Self.large).text
            #expect(standard.contains("08:07"))  // the clock column
            #expect(large.range(of: #"TB +La Y +[67] · \d+ · \d+ min"#, options: .regularExpression) != nil, "\(large)")
            #expect(!large.contains("08:07"), "\(large)")
            #expect(!large.contains("Paradas cercanas") && !large.contains("Primera y última"))
            #expect(!large.contains("│"), "no second column at \(w) columns")
            // Nothing wraps: every line fits the width and no departure line is split over two rows.
            for line in large.split(separator: "\n") { #expect(ScreenCanvas.width(of: String(line)) <= w) }
        }
        // The idle board drops its clock column too.
        let idle = KioskScreenBuilder.build(KioskFixtures.idleState(), width: 80, height: 24, context: Self.large).text
        #expect(idle.contains("Acerque el código") && idle.contains(" min"), "\(idle)")
        let board = idle.split(separator: "\n").dropFirst().joined(separator: "\n")  // the header keeps its clock
        #expect(board.range(of: #"  \d\d:\d\d  "#, options: .regularExpression) == nil, "\(idle)")
    }
}

enum ScanOutcomeFixtures {
    static var notAStop: ScanOutcome { ScanOutcome(status: .notAStopCode, text: "hello world") }
}

/// The demo in tmux with `--theme high-contrast --layout large`: what a passenger sees at 80×24 and 160×48. The
/// captures (text, and with colours) are written to `.build/test-artifacts/themes/`.
@Suite(.serialized) struct ThemeEndToEndTests {
    static var artefacts: URL {
        let folder = Repository.root.appendingPathComponent(".build/test-artifacts/themes")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"),
        arguments: [(80, 24), (160, 48)])
    func highContrastLargeDemoInTmux(size: (Int, Int)) throws {
        // The recorded passenger stops after Colón and the kiosk keeps its board for 10 minutes, however slow the
        // machine (the minutes checked below still allow one minute of delay on the demo clock).
        let session = try KioskEndToEndTests.sessionEndingAfterColon()
        let command =
            "env XDG_CACHE_HOME='\(Programs.sampleCache.path)' TERM=xterm-256color COLORTERM=truecolor '\(Programs.kiosk.path)' demo --theme high-contrast --layout large --idle-timeout 600 --session '\(session)' --at 2026-11-25T08:00; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: size.0, height: size.1, command: command)
        let stop = try screen.wait(for: "the scanned stop") {
            $0.contains("Colón  [2010]") && $0.contains("Salidas en los próximos 60 min") && $0.contains("Tab: English")
        }
        let colours = try Programs.run(
            TmuxScreen.executable!, ["-L", screen.socket, "capture-pane", "-p", "-e", "-t", screen.session]
        ).stdout
        let name = "demo-high-contrast-large-\(size.0)x\(size.1)"
        try stop.write(to: Self.artefacts.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        try colours.write(
            to: Self.artefacts.appendingPathComponent("\(name).ansi"), atomically: true, encoding: .utf8)

        // What a passenger sees: the stop, its departures with line, destination and minutes in words, and the
        // live mark in words and symbols (the demo's scenario delays this trip by 4 minutes).
        #expect(
            stop.range(of: #"TB +La Y +1[01] · \d+ · \d+ min ● \+4 min"#, options: .regularExpression) != nil,
            "\(stop)")
        #expect(stop.contains("✕ cancelado") && stop.contains("○ horario"), "\(stop)")
        #expect(!stop.contains("08:07"), "the clock column is dropped in the large layout:\n\(stop)")
        #expect(!stop.contains("Paradas cercanas") && !stop.contains("Primera y última"), "\(stop)")
        // Colours: only the theme's (no feed route colours in 24-bit, no 256-colour codes), nothing blinks or dims.
        #expect(!colours.contains("38;2;") && !colours.contains("48;2;") && !colours.contains("38;5;"))
        let codes = Set(
            colours.matches(of: /\x1B\[([0-9;]*)m/).flatMap { $0.output.1.split(separator: ";").map(String.init) })
        #expect(
            codes.isSubset(of: ["0", "1", "4", "30", "40", "93", "97", "103", "107", "39", "49", "22", "24"]),
            "\(codes)")
        #expect(!codes.contains("5") && !codes.contains("2"))
    }
}
