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
        // F2's other language keeps the conventions.
        state.language = .es
        #expect(state.locale.region == "US" && state.locale.language == .es)
    }
}
