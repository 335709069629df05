import Foundation
import ScanService
import StopCodes
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import TerminalKiosk

@Suite struct ScreenBuilderTests {
    static let sizes = [(80, 24), (120, 40)]

    func build(_ state: KioskState, _ size: (Int, Int)) -> ScreenCanvas {
        KioskScreenBuilder.build(state, width: size.0, height: size.1, context: ScreenContext(demo: false))
    }

    /// Every row exactly fills the width: wide characters count twice, nothing spills.
    func expectFits(_ canvas: ScreenCanvas, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(canvas.rows.count == canvas.height, sourceLocation: sourceLocation)
        for (i, row) in canvas.rows.enumerated() {
            #expect(row.count == canvas.width, sourceLocation: sourceLocation)
            let columns = row.filter { !$0.isContinuation }.reduce(0) {
                $0 + ScreenCanvas.width(of: Character($1.text))
            }
            #expect(columns == canvas.width, "row \(i) takes \(columns) columns", sourceLocation: sourceLocation)
            for cell in row {
                #expect(
                    !cell.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [Language.es, .en])
    func idleScreen(language: Language) {
        for size in Self.sizes {
            let canvas = build(KioskFixtures.idleState(language: language), size)
            expectFits(canvas)
            let text = canvas.text
            #expect(text.contains(Message.holdCodePrompt.text(language)))
            #expect(text.contains(Message.holdCodePrompt.text(language.other)))
            #expect(text.contains(language == .es ? "Tab: English" : "Tab: Español"))
            #expect(text.contains("El Ejido"))
            #expect(text.contains("08:00"))
            // The home stop's next departures: Metro toward El Labrador leaves at 08:03 (sample README).
            #expect(text.contains("08:03"))
            #expect(text.contains("El Labrador"))
        }
    }

    @Test(arguments: [Language.es, .en])
    func stopScreen(language: Language) {
        for size in Self.sizes {
            let canvas = build(KioskFixtures.stopState("2010", language: language), size)
            expectFits(canvas)
            let text = canvas.text
            #expect(text.contains("Colón  [2010]"))
            // Colón's Trolebús departures toward La Y at 08:07, 08:15 and 08:23, toward El Recreo at 08:02, 08:10
            // and 08:18 (sample README): one line per route and destination, its first clock and next times.
            for clock in ["08:02", "08:07"] { #expect(text.contains(clock)) }
            #expect(text.contains("La Y") && text.contains("El Recreo"))
            #expect(text.contains("7 · 15 · 23 min") && text.contains("2 · 10 · 18 min"))
            #expect(text.contains(Message.departures(minutes: 60).text(language)))
            #expect(text.contains(Message.typeOrScanDestination.text(language)))
            #expect(text.contains(Message.firstAndLast(date: "2026-11-25").text(language)))
        }
        // The wide layout also has room for routes and nearby stops.
        let wide = build(KioskFixtures.stopState("1121", language: language), (120, 40)).text
        #expect(wide.contains(Message.routes.text(language)) && wide.contains("Eloy Alfaro  [3004]"))
    }

    @Test func stationWithManyDeparturesShowsPlatformsAndMore() {
        var state = KioskFixtures.idleState()
        _ = state.handle(
            .scan(ScanOutcome(status: .stop, text: "MQ09", stop: try! KioskFixtures.database.resolveStop(.id("MQ09")))),
            now: KioskFixtures.morning)
        _ = state.handle(.stopLoaded(.success(KioskFixtures.board("MQ09"))), now: KioskFixtures.morning)
        let canvas = build(state, (80, 24))
        expectFits(canvas)
        #expect(canvas.text.contains("andén 1") && canvas.text.contains("andén 3"))
        // Grouped by route and destination, the station's departures fit in four lines, the next first.
        #expect(canvas.text.contains("Quitumbe") && canvas.text.contains("ahora · 4 · 8 min"))
    }

    @Test(arguments: [Language.es, .en])
    func entryAndPlanScreens(language: Language) {
        var state = KioskFixtures.stopState("2010", language: language)
        for c in "cumba" { _ = state.handle(.key(.character(c)), now: KioskFixtures.morning) }
        _ = state.handle(
            .matchesLoaded(query: "cumba", matches: (try! KioskFixtures.database.searchStops("cumba")).map(\.stop)),
            now: KioskFixtures.morning)
        for size in Self.sizes {
            let canvas = build(state, size)
            expectFits(canvas)
            #expect(canvas.text.contains("cumba"))
            #expect(canvas.text.contains("► Cumbayá  [5007]"))
            #expect(canvas.text.contains(Message.whereTo.text(language)))
        }
        _ = state.handle(.key(.enter), now: KioskFixtures.morning)
        #expect(build(state, (80, 24)).text.contains(Message.planning.text(language)))
        _ = state.handle(
            .planLoaded(.success(KioskFixtures.plan(from: "2010", to: "5007"))), now: KioskFixtures.morning)
        for size in Self.sizes {
            let canvas = build(state, size)
            expectFits(canvas)
            let text = canvas.text
            #expect(text.contains(language == .es ? "De Colón a Cumbayá" : "From Colón to Cumbayá"))
            #expect(text.contains(language == .es ? "Opción 1" : "Option 1"))
            #expect(text.contains("08:02 → 09:29"))
            #expect(text.contains(language == .es ? "baje en Cumbayá  [5007]" : "get off at Cumbayá  [5007]"))
        }
    }

    /// A step-free plan says what step-free means here; with no step-free journey it says so and shows the
    /// ordinary journeys under their own heading.
    @Test(arguments: [Language.es, .en]) func aStepFreePlanWithoutAStepFreeJourney(language: Language) {
        var state = KioskFixtures.stopState("2010", language: language)
        for c in "5007" { _ = state.handle(.key(.character(c)), now: KioskFixtures.morning) }
        _ = state.handle(.key(.enter), now: KioskFixtures.morning)
        _ = state.handle(.key(.function(5)), now: KioskFixtures.morning)
        var plan = KioskFixtures.plan(from: "2010", to: "5007")
        plan.stepFree = true
        plan.withoutStepFree = plan.options
        plan.options = []
        _ = state.handle(.planLoaded(.success(plan)), now: KioskFixtures.morning)
        for size in Self.sizes {
            let canvas = build(state, size)
            expectFits(canvas)
            let text = canvas.text
            #expect(text.contains(PlanMessage.noStepFreeJourney.text(language)))
            #expect(text.contains(PlanMessage.ordinaryJourneysHeading.text(language)))
            #expect(text.contains(Message.keyStepFree(on: true).text(language)))
            #expect(text.contains("F5"))
        }
        let tall = build(state, (100, 40)).text
        #expect(tall.contains(language == .es ? "Opción 1" : "Option 1") && tall.contains("08:02 → 09:29"))
        #expect(tall.contains(language == .es ? "Solo viajes sin escalones" : "Step-free journeys only"))
    }

    @Test func notices() {
        var state = KioskFixtures.stopState("2010")
        _ = state.handle(
            .scan(
                ScanOutcome(
                    status: .forged, text: "x",
                    reference: StopReference(kind: .stopCode, value: "2010", signature: .unsigned, source: .bare))),
            now: KioskFixtures.morning)
        var canvas = build(state, (80, 24))
        expectFits(canvas)
        #expect(canvas.text.contains("Etiqueta no válida") && canvas.text.contains("avise al personal"))
        _ = state.handle(.key(.escape), now: KioskFixtures.morning)
        _ = state.handle(
            .scan(ScanOutcome(status: .notAStopCode, text: "\u{1B}]0;pwned\u{07}WIFI:S:x;;")),
            now: KioskFixtures.morning)
        canvas = build(state, (80, 24))
        #expect(
            canvas.text.contains("Este código no es de una parada") && canvas.text.contains("WIFI:S:x;;")
                && !canvas.text.contains("pwned"))
        _ = state.handle(
            .camera(.unavailable(detail: "/dev/video0: no such camera device")), now: KioskFixtures.morning)
        canvas = build(state, (80, 24))
        #expect(canvas.text.contains("Cámara no disponible"))
    }

    @Test func databaseProblemsFillTheScreen() {
        var state = KioskFixtures.idleState(language: .en)
        _ = state.handle(
            .databaseStatus(.unavailable(detail: "/var/lib/stopkiosk/routes.sqlite does not exist")),
            now: KioskFixtures.morning)
        #expect(build(state, (80, 24)).text.contains("Timetables unavailable"))
        _ = state.handle(
            .databaseStatus(
                .outOfService(
                    feedName: "x", timeZone: "America/Guayaquil", date: "2028-01-03", start: "2026-01-01",
                    end: "2027-12-31")),
            now: KioskFixtures.morning)
        let text = build(state, (80, 24)).text
        #expect(text.contains("Timetable out of date (valid 2026-01-01 to 2027-12-31)"))
    }

    /// A stop named by a feed with a very long name, wide characters and escape sequences.
    func hostileBoard() -> KioskStopBoard {
        var board = KioskFixtures.board("2010")
        board.view.stop.name =
            "Estación Intermodal " + String(repeating: "Cumbayá–Tumbaco ", count: 12) + "\u{1B}[2J\u{1B}[31mROJO"
        board.view.stop.code = "東京123"
        for i in board.view.departures.indices {
            // The screen shows the destination (the feed's headsign by `TripDestination`).
            board.view.departures[i].headsign = i % 2 == 0 ? "新宿駅西口バスターミナル行き" : "Zoë\u{0301} \u{202E}reversed"
            board.view.departures[i].destination = board.view.departures[i].headsign
        }
        return board
    }

    @Test func longNamesWideCharactersAndEscapes() {
        var state = KioskFixtures.idleState()
        let board = hostileBoard()
        _ = state.handle(.scan(ScanOutcome(status: .stop, text: "x", stop: board.stop)), now: KioskFixtures.morning)
        _ = state.handle(.stopLoaded(.success(board)), now: KioskFixtures.morning)
        for size in Self.sizes + [(100, 30), (81, 25)] {
            let canvas = build(state, size)
            expectFits(canvas)
            let text = canvas.text
            #expect(text.contains("…"))
            #expect(text.contains("新宿駅"))
            #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}"))
            // The header keeps the clock and the language key even with a name longer than the screen.
            #expect(canvas.lines[0].contains("08:00") && canvas.lines[0].contains("Tab: English"))
        }
    }

    @Test func tinyTerminalsDoNotCrash() {
        let state = KioskFixtures.stopState("2010")
        for size in [(1, 1), (20, 5), (30, 8), (40, 12), (79, 23)] {
            let canvas = build(state, size)
            #expect(canvas.width == size.0 && canvas.height == size.1)
        }
    }
}

@Suite struct TerminalOutputTests {
    @Test func colourModesFromTheEnvironment() {
        #expect(TerminalColorMode.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(TerminalColorMode.detect(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(TerminalColorMode.detect(environment: ["TERM": "tmux-256color"]) == .indexed256)
        #expect(TerminalColorMode.detect(environment: ["TERM": "linux"]) == .basic16)
        #expect(TerminalColorMode.detect(environment: [:]) == .basic16)
    }

    @Test func routeColoursInEachMode() {
        // Metro L1 is D52B1E on white in the sample feed.
        let badge = KioskScreenBuilder.badge(KioskFixtures.board("1121").view.routes[0].route, width: 4)
        #expect(badge.text == " L1 ")
        let style = badge.style
        #expect(TerminalStyleCodes.sgr(style, mode: .trueColor).contains("48;2;213;43;30"))
        #expect(TerminalStyleCodes.sgr(style, mode: .trueColor).contains("38;2;255;255;255"))
        let indexed = TerminalStyleCodes.sgr(style, mode: .indexed256)
        #expect(indexed.contains("48;5;\(TerminalStyleCodes.index256(213, 43, 30))") && indexed.contains("38;5;231"))
        #expect(TerminalStyleCodes.index256(213, 43, 30) == 160)
        let basic = TerminalStyleCodes.sgr(style, mode: .basic16)
        #expect(basic.contains(";41") || basic.contains(";101"))
        #expect(!basic.contains("38;") && !basic.contains("48;"))
        // ANSI colours stay themselves in every mode.
        #expect(TerminalStyleCodes.sgr(CellStyle(foreground: .blue), mode: .trueColor) == "\u{1B}[0;34m")
        #expect(TerminalStyleCodes.index256(128, 128, 128) == 244)
    }

    @Test func writerSendsOnlyWhatChanged() {
        var writer = TerminalFrameWriter(colorMode: .trueColor)
        var canvas = ScreenCanvas(width: 20, height: 3)
        canvas.put("Colón", row: 0, column: 0)
        canvas.put("東京", row: 1, column: 2, style: .bold)
        let first = String(decoding: writer.update(to: canvas), as: UTF8.self)
        #expect(first.hasPrefix(TerminalControl.clearScreen) && first.contains("Colón") && first.contains("東京"))
        #expect(writer.update(to: canvas).isEmpty)
        canvas.put("X", row: 2, column: 5)
        let second = String(decoding: writer.update(to: canvas), as: UTF8.self)
        #expect(second.hasPrefix("\u{1B}[3;6H") && second.contains("X") && !second.contains("Colón"))
        #expect(writer.lastCellsWritten == 1)
        // Changing the right half of a wide character redraws from its left half.
        canvas.put("y", row: 1, column: 3)
        let third = String(decoding: writer.update(to: canvas), as: UTF8.self)
        #expect(third.hasPrefix("\u{1B}[2;3H"))
        writer.invalidate()
        #expect(String(decoding: writer.update(to: canvas), as: UTF8.self).hasPrefix(TerminalControl.clearScreen))
    }

    @Test func canvasWidths() {
        var canvas = ScreenCanvas(width: 6, height: 1)
        #expect(canvas.put("ab東京", row: 0, column: 0) == 6)
        #expect(canvas.lines[0] == "ab東京")
        // A wide character that does not fit at the edge becomes a space.
        var edge = ScreenCanvas(width: 5, height: 1)
        edge.put("abcd東", row: 0, column: 0)
        #expect(edge.lines[0] == "abcd")
        #expect(ScreenCanvas.truncate("Cumbayá–Tumbaco", to: 8) == "Cumbayá…")
        #expect(ScreenCanvas.width(of: "Cumbaya\u{301}") == 7)
        var controls = ScreenCanvas(width: 10, height: 1)
        controls.put("a\u{1B}b", row: 0, column: 0)
        #expect(controls.lines[0] == "a?b")
    }

    /// The clock shows the network's time, not the machine's, even after the database becomes unusable.
    @Test func clockKeepsTheAgencyTimeZoneWhenTheDatabaseGoes() {
        var state = KioskFixtures.idleState(language: .en)
        _ = state.handle(
            .databaseStatus(.unavailable(detail: "missing: /var/lib/stopkiosk/routes.sqlite")), now: state.now)
        #expect(state.lastKnownTimeZone == "America/Guayaquil")
        #expect(KioskScreenBuilder.timeZone(state).identifier == "America/Guayaquil")
        // 08:00 in Quito is 13:00 UTC: the machine's zone (UTC in CI) must not leak into the clock.
        #expect(
            KioskScreenBuilder.build(state, width: 80, height: 24, context: ScreenContext(demo: false)).text.contains(
                "08:00"))
    }
}

/// A stop of several feeds' operators (issue 24): each route line names its operator; a stop of one feed's
/// routes does not.
@Suite struct MultiOperatorScreenTests {
    @Test func routeLinesNameTheOperatorWhenSeveralFeedsRunThere() throws {
        let db = KioskFixtures.database
        var view = try db.stopView(for: try db.resolveStop(.id("MQ05")), at: KioskFixtures.morning)
        #expect(Set(view.routes.map(\.route.agency)).count == 2)  // El Recreo: the metro and the trolleybus
        func text(_ view: StopView) -> String {
            KioskScreenBuilder.routeLines(view, width: 120, lang: .es).map { $0.spans.map(\.text).joined() }
                .joined(separator: "\n")
        }
        #expect(!text(view).contains("Metro de Quito"))  // one feed: as before
        for index in view.routes.indices {
            view.routes[index].route.feedID = view.routes[index].route.agency == "Metro de Quito" ? "mq" : "epmtpq"
        }
        let lines = text(view)
        #expect(lines.contains("metro · Metro de Quito → "))
        #expect(lines.contains("trolebús · Empresa Pública Metropolitana de Transpo… → La Y"))  // cut at 40
    }
}

/// Plain-text output (`kiosk run` without a terminal) prints a frame when anything but the clock changed: a new
/// import that renames the home stop changes only the header, and at night, with no departures below it, the
/// header is all that changes.
@Suite struct PlainFrameTests {
    @Test func theClockAloneIsNoNewFrameButTheHeadersStopIs() {
        let frame = [" El Ejido  [1091]                     23:56  [Tab: English]", "", " Hold your stop code"]
        var nextMinute = frame
        nextMinute[0] = " El Ejido  [1091]                     23:57  [Tab: English]"
        var renamed = frame
        renamed[0] = " El Ejido Renovado  [1091]            23:57  [Tab: English]"
        #expect(KioskApp.withoutClock(frame) == KioskApp.withoutClock(nextMinute))
        #expect(KioskApp.withoutClock(frame) != KioskApp.withoutClock(renamed))
        #expect(KioskApp.withoutClock([]) == [])
    }
}
