import Foundation
import ScanService
import StopCodes
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import TerminalKiosk

@Suite struct KioskStateTests {
    let t0 = KioskFixtures.morning

    @Test func scanOnIdleShowsTheStop() {
        var state = KioskFixtures.idleState()
        let outcome = KioskFixtures.scan("2010")
        let effects = state.handle(.scan(outcome), now: t0)
        #expect(effects == [.loadStop(.resolved(outcome.stop!))])
        guard case let .stop(screen) = state.screen else { Issue.record("not on the stop screen"); return }
        #expect(screen.board == nil && screen.stop?.stop.id == "TB-COLON")
        _ = state.handle(.stopLoaded(.success(KioskFixtures.board("2010"))), now: t0)
        guard case let .stop(loaded) = state.screen else { Issue.record("left the stop screen"); return }
        #expect(loaded.board?.view.stop.name == "Colón")
    }

    @Test func typingOnAStopStartsADestinationAndEnterPlans() {
        var state = KioskFixtures.stopState("2010")
        #expect(state.handle(.key(.character("c")), now: t0) == [.search("c")])
        #expect(state.handle(.key(.character("u")), now: t0) == [.search("cu")])
        guard case let .entry(entry) = state.screen, case let .destination(from) = entry.purpose else {
            Issue.record("not entering a destination"); return
        }
        #expect(from.view.stop.name == "Colón" && entry.text == "cu")
        let matches = (try! KioskFixtures.database.searchStops("cu")).map(\.stop)
        _ = state.handle(.matchesLoaded(query: "cu", matches: matches), now: t0)
        // A stale answer (for "c") is ignored.
        _ = state.handle(.matchesLoaded(query: "c", matches: []), now: t0)
        guard case let .entry(withMatches) = state.screen else { Issue.record("left the entry screen"); return }
        #expect(withMatches.matches == matches && matches.count >= 2)
        _ = state.handle(.key(.down), now: t0)
        _ = state.handle(.key(.down), now: t0)
        _ = state.handle(.key(.up), now: t0)
        let effects = state.handle(.key(.enter), now: t0)
        #expect(effects == [.plan(from: from.stop, to: .stopID(matches[1].id), stepFree: false)])
        guard case let .plan(plan) = state.screen else { Issue.record("not on the plan screen"); return }
        #expect(plan.destinationLabel == matches[1].name && plan.plan == nil)
        let journey = KioskFixtures.plan(from: "2010", to: "5007")
        _ = state.handle(.planLoaded(.success(journey)), now: t0)
        guard case let .plan(done) = state.screen else { Issue.record("left the plan screen"); return }
        #expect(done.plan == journey)
    }

    @Test func f5PlansTheSameJourneyStepFreeAndBack() {
        var state = KioskFixtures.stopState("2010")
        for c in "5007" { _ = state.handle(.key(.character(c)), now: t0) }
        _ = state.handle(.matchesLoaded(query: "5007", matches: []), now: t0)
        _ = state.handle(.key(.enter), now: t0)
        _ = state.handle(.planLoaded(.success(KioskFixtures.plan(from: "2010", to: "5007"))), now: t0)
        guard case let .plan(ordinary) = state.screen else { Issue.record("not on the plan screen"); return }
        #expect(KioskScreenBuilder.footerKeys(state).contains(.keyStepFree(on: false)))
        let effects = state.handle(.key(.function(5)), now: t0)
        #expect(effects == [.plan(from: ordinary.from.stop, to: .typed("5007"), stepFree: true)])
        guard case let .plan(stepFree) = state.screen else { Issue.record("left the plan screen"); return }
        // The old options are gone while the step-free ones are found; the key now offers every journey again.
        #expect(stepFree.stepFree && stepFree.plan == nil && stepFree.destinationLabel == ordinary.destinationLabel)
        #expect(KioskScreenBuilder.footerKeys(state).contains(.keyStepFree(on: true)))
        #expect(
            state.handle(.key(.function(5)), now: t0) == [
                .plan(from: ordinary.from.stop, to: .typed("5007"), stepFree: false)
            ])
    }

    @Test func enterWithoutMatchesPlansTheTypedText() {
        var state = KioskFixtures.stopState("2010")
        _ = state.handle(.key(.character("5")), now: t0)
        for c in "007" { _ = state.handle(.key(.character(c)), now: t0) }
        _ = state.handle(.matchesLoaded(query: "5007", matches: []), now: t0)
        let effects = state.handle(.key(.enter), now: t0)
        guard case let .plan(from, to, _) = effects.first else { Issue.record("no plan effect: \(effects)"); return }
        #expect(from.stop.id == "TB-COLON" && to == .typed("5007"))
    }

    @Test func scanningWhileEnteringADestinationPlansToIt() {
        var state = KioskFixtures.stopState("1121")
        _ = state.handle(.key(.enter), now: t0)
        guard case .entry = state.screen else { Issue.record("Enter did not start destination entry"); return }
        let destination = KioskFixtures.scan("5007")
        let effects = state.handle(.scan(destination), now: t0)
        guard case let .plan(from, to, _) = effects.first else { Issue.record("no plan: \(effects)"); return }
        #expect(from.stop.id == "MQ12A" && to == .resolved(destination.stop!))
        guard case let .plan(screen) = state.screen else { Issue.record("not on the plan screen"); return }
        #expect(screen.destinationLabel == "Cumbayá")
    }

    @Test func scanningAnotherStopOnAStopViewShowsThatStop() {
        var state = KioskFixtures.stopState("2010")
        let effects = state.handle(.scan(KioskFixtures.scan("3001")), now: t0)
        #expect(effects.count == 1)
        guard case let .stop(screen) = state.screen else { Issue.record("not a stop screen"); return }
        #expect(screen.stop?.stop.id == "EV-RCOCA")
    }

    @Test func scansThatAreNotStopsShowNoticesThatExpire() {
        var state = KioskFixtures.stopState("2010")
        let cases: [(ScanOutcome, KioskNotice.Kind)] = [
            (ScanOutcome(status: .notAStopCode, text: "WIFI:S:Cafe;;"), .notAStopCode(text: "WIFI:S:Cafe;;")),
            (
                ScanOutcome(
                    status: .unknownStop, text: "https://transit.example/s/9999",
                    reference: StopReference(kind: .stopCode, value: "9999", signature: .unsigned, source: .bare)),
                .unknownStop(value: "9999")
            ),
            (
                ScanOutcome(
                    status: .forged, text: "x",
                    reference: StopReference(kind: .stopCode, value: "2010", signature: .unsigned, source: .bare)),
                .forged(claimed: "2010")
            ),
            (
                ScanOutcome(
                    status: .signatureRequired, text: "x",
                    reference: StopReference(kind: .stopCode, value: "2010", signature: .unsigned, source: .bare)),
                .signatureRequired(value: "2010")
            ),
        ]
        for (outcome, kind) in cases {
            #expect(state.handle(.scan(outcome), now: t0).isEmpty)
            #expect(state.notice?.kind == kind)
            guard case .stop = state.screen else { Issue.record("a notice replaced the screen"); return }
        }
        _ = state.handle(.tick, now: t0.addingTimeInterval(state.noticeSeconds + 0.5))
        #expect(state.notice == nil)
        // A key dismisses a notice; Escape is spent on it.
        _ = state.handle(.scan(cases[0].0), now: t0)
        _ = state.handle(.key(.escape), now: t0)
        #expect(state.notice == nil)
        guard case .stop = state.screen else { Issue.record("Escape on a notice also left the stop"); return }
    }

    @Test func idleTimeoutReturnsToIdleInTheDefaultLanguage() {
        var state = KioskFixtures.stopState("2010")
        _ = state.handle(.key(.tab), now: t0)
        #expect(state.language == .en)
        #expect(state.handle(.tick, now: t0.addingTimeInterval(59)).isEmpty)
        guard case .stop = state.screen else { Issue.record("went idle too early"); return }
        let effects = state.handle(.tick, now: t0.addingTimeInterval(60))
        #expect(state.screen == .idle && state.language == .es && effects == [.loadHome])
    }

    @Test func languageKeys() {
        var state = KioskFixtures.idleState()
        _ = state.handle(.key(.tab), now: t0)
        #expect(state.language == .en)
        _ = state.handle(.key(.function(2)), now: t0)
        #expect(state.language == .es)
        #expect(state.screen == .idle)
    }

    @Test func newLiveDataAndTheLanguageKeyReloadTheBoardOnScreen() {
        var idle = KioskFixtures.idleState()
        #expect(idle.handle(.liveDataChanged, now: t0) == [.loadHome])
        var stop = KioskFixtures.stopState("2010")
        guard case let .stop(screen) = stop.screen, let resolved = screen.stop else {
            Issue.record("not on the stop screen"); return
        }
        #expect(stop.handle(.liveDataChanged, now: t0) == [.loadStop(.resolved(resolved))])
        #expect(stop.handle(.key(.tab), now: t0) == [.loadStop(.resolved(resolved))])
        _ = stop.handle(.key(.character("c")), now: t0)
        #expect(stop.handle(.liveDataChanged, now: t0).isEmpty)  // typing a destination: nothing reloads under it
    }

    @Test func newDatabaseWaitsForTheNextIdleMoment() {
        var state = KioskFixtures.stopState("2010")
        #expect(state.handle(.databaseChanged, now: t0).isEmpty)
        #expect(state.reloadPending)
        // Mid-screen: keys and ticks do not reload.
        _ = state.handle(.key(.character("x")), now: t0.addingTimeInterval(1))
        #expect(state.handle(.tick, now: t0.addingTimeInterval(2)).isEmpty)
        // Back to idle: reload now.
        #expect(state.handle(.tick, now: t0.addingTimeInterval(62)) == [.reloadDatabase])
        #expect(!state.reloadPending)
        // While idle, at once.
        #expect(state.handle(.databaseChanged, now: t0.addingTimeInterval(63)) == [.reloadDatabase])
        #expect(state.handle(.databaseStatus(KioskFixtures.readyStatus), now: t0.addingTimeInterval(63)) == [.loadHome])
    }

    @Test func escapeGoesBack() {
        var state = KioskFixtures.stopState("2010")
        _ = state.handle(.key(.character("c")), now: t0)
        let back = state.handle(.key(.escape), now: t0)
        guard case .stop = state.screen else { Issue.record("Escape from entry did not return to the stop"); return }
        #expect(back.count == 1)
        _ = state.handle(.key(.escape), now: t0)
        #expect(state.screen == .idle)
        // From idle, typing plans from the home stop.
        _ = state.handle(.key(.character("c")), now: t0)
        guard case let .entry(entry) = state.screen, case let .destination(from) = entry.purpose else {
            Issue.record("no entry from idle"); return
        }
        #expect(from.view.stop.id == "MQ09" && !entry.returnsToStop)
        _ = state.handle(.key(.escape), now: t0)
        #expect(state.screen == .idle)
    }

    @Test func withoutAHomeStopTypingFindsTheStopItself() {
        var state = KioskState(language: .en, idleTimeout: 60, hasHomeStop: false, now: t0)
        _ = state.handle(.databaseStatus(KioskFixtures.readyStatus), now: t0)
        _ = state.handle(.key(.character("1")), now: t0)
        guard case let .entry(entry) = state.screen else { Issue.record("no entry"); return }
        #expect(entry.purpose == .origin)
        for c in "091" { _ = state.handle(.key(.character(c)), now: t0) }
        #expect(state.handle(.key(.enter), now: t0) == [.loadStop(.typed("1091"))])
    }

    @Test func theBoardRefreshesEveryMinute() {
        var state = KioskFixtures.stopState("2010")
        state.idleTimeout = 600
        #expect(state.handle(.tick, now: t0.addingTimeInterval(30)).isEmpty)
        let effects = state.handle(.tick, now: t0.addingTimeInterval(61))
        guard case .loadStop = effects.first else { Issue.record("no refresh: \(effects)"); return }
    }

    @Test func lookupFailuresAreShown() {
        var state = KioskFixtures.idleState()
        _ = state.handle(.scan(KioskFixtures.scan("2010")), now: t0)
        _ = state.handle(
            .stopLoaded(
                .failure(KioskFailureBox(.outOfService(date: "2030-01-01", start: "2026-01-01", end: "2027-12-31")))),
            now: t0)
        guard case let .stop(screen) = state.screen else { Issue.record("not on the stop screen"); return }
        #expect(screen.failure == .outOfService(date: "2030-01-01", start: "2026-01-01", end: "2027-12-31"))
        #expect(KioskFailure(LookupError.databaseMissing(path: "/x")) == .databaseUnavailable(detail: "missing: /x"))
        #expect(KioskFailure(LookupError.noSuchStop(query: "zz\u{1B}[2J", suggestions: [])) == .noSuchStop(query: "zz"))
    }
}
