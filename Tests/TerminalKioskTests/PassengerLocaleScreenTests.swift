import Foundation
import Testing
import TransitModel

@testable import TerminalKiosk

/// The kiosk screen writes distances and dates in the passenger locale's conventions (`KioskState.conventions`).
@Suite struct PassengerLocaleScreenTests {
    @Test func aUSLocaleShowsFeetMilesAndMonthFirstDates() {
        var state = KioskFixtures.stopState("1121", language: .en)
        state.conventions = PassengerLocale(language: .es, region: "US")
        let text = KioskScreenBuilder.build(state, width: 120, height: 40, context: ScreenContext()).text
        #expect(text.contains("Nearby stops (within 0.2 mi)"), "\(text)")
        #expect(text.contains(" ft ") || text.contains(" mi "), "\(text)")
        #expect(text.contains("First and last departure (11/25/2026)"), "\(text)")
        // The clock in the header, the departures and first and last times on a 12-hour clock.
        #expect(text.contains("8:00 AM  [Tab: Español]"), "\(text)")
        #expect(!text.contains("08:0"), "\(text)")
        for size in [(80, 24), (120, 40)] {
            let canvas = KioskScreenBuilder.build(state, width: size.0, height: size.1, context: ScreenContext())
            #expect(canvas.rows.allSatisfy { $0.count == size.0 })
        }
        // F2's other language keeps the conventions.
        state.language = .es
        #expect(state.locale.region == "US" && state.locale.language == .es)
    }
}
