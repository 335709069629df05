import Testing
import TransitModel

@testable import StopPresentation

@Suite struct MessagesTests {
    @Test func everyMessageHasBothLanguages() {
        let samples: [Message] = [
            .routes, .departures(minutes: 60), .noDeparturesInWindow(minutes: 30),
            .nextDeparture(clock: "05:42", dayOffset: 1),
            .noDeparturesThisWeek, .firstAndLast(date: "2026-11-25"), .nearby(meters: 400), .noNearbyStops(meters: 400),
            .minutesAway(3), .now, .approximate, .towards("La Y"), .platform("1"), .station("El Ejido"),
            .wheelchairAccessible, .notWheelchairAccessible, .code("1091"),
        ]
        for message in samples {
            #expect(!message.text(.es).isEmpty && !message.text(.en).isEmpty)
        }
        #expect(Message.nextDeparture(clock: "05:42", dayOffset: 1).text(.en) == "Next departure: 05:42 tomorrow")
        #expect(Message.nextDeparture(clock: "05:42", dayOffset: 1).text(.es) == "Próxima salida: 05:42 de mañana")
    }

    @Test func terminalWidths() {
        #expect(TerminalWidth.of("Cumbayá") == 7)
        #expect(TerminalWidth.of("Cumbaya\u{301}") == 7)  // combining accent takes no column
        #expect(TerminalWidth.of("東京") == 4)
        #expect(StopViewText.pad("東京", 6) == "東京  ")
    }
}
