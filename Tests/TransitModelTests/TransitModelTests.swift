import Foundation
import Testing

@testable import TransitModel

@Suite struct GTFSTimeTests {
    @Test(arguments: [
        ("06:00:00", 21_600), ("6:00:00", 21_600), ("25:10:00", 90_600), (" 08:05:09 ", 29_109), ("0:00:00", 0),
        ("100:00:00", 360_000),
    ])
    func parsesValidTimes(text: String, seconds: Int) {
        #expect(GTFSTime(parsing: text)?.seconds == seconds)
    }

    @Test(arguments: [
        "", "8", "8:00", "08:0:00", "08:60:00", "08:00:60", "8h00", "-1:00:00", "08:00:00:00", "08 :00:00",
        "1000:00:00",
    ])
    func rejectsInvalidTimes(text: String) {
        #expect(GTFSTime(parsing: text) == nil)
    }

    @Test func formatsPastMidnight() {
        #expect(GTFSTime(seconds: 90_600).description == "25:10:00")
        #expect(GTFSTime(seconds: 90_600).clockText == "01:10")
    }
}

@Suite struct ServiceDateTests {
    @Test func dayNumbersRoundTrip() {
        for dayNumber in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(ServiceDate(dayNumber: dayNumber).dayNumber == dayNumber)
        }
        #expect(ServiceDate(yyyymmdd: 19700101)?.dayNumber == 0)
        #expect(ServiceDate(yyyymmdd: 20000301)?.dayNumber == 11_017)
    }

    @Test func weekdaysAndValidation() {
        #expect(ServiceDate(yyyymmdd: 20261125)?.isoWeekday == 3)  // a Wednesday
        #expect(ServiceDate(yyyymmdd: 20261129)?.isoWeekday == 7)
        #expect(ServiceDate(yyyymmdd: 20260229) == nil)
        #expect(ServiceDate(yyyymmdd: 20240229) != nil)
        #expect(ServiceDate(yyyymmdd: 20261301) == nil)
        #expect(ServiceDate.parse(bytes: Array("2026112".utf8)) == nil)
        #expect(ServiceDate(parsing: "2026-11-25")?.yyyymmdd == 20261125)
        #expect(ServiceDate(yyyymmdd: 20261231)!.adding(days: 1).yyyymmdd == 20270101)
    }

    @Test func serviceDayOriginOnDaylightSavingDays() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        // 2026-03-08: clocks go 02:00 → 03:00. Noon is EDT (UTC−4), so the origin is 00:00 UTC−4 = 23:00 EST the evening before.
        let spring = ServiceDate(yyyymmdd: 20260308)!.serviceDayOrigin(in: newYork)
        #expect(spring == ISO8601DateFormatter().date(from: "2026-03-08T04:00:00Z"))
        // 2026-11-01: clocks go 02:00 → 01:00. Noon is EST (UTC−5): origin 07:00 UTC−5 … i.e. 01:00 EDT.
        let autumn = ServiceDate(yyyymmdd: 20261101)!.serviceDayOrigin(in: newYork)
        #expect(autumn == ISO8601DateFormatter().date(from: "2026-11-01T05:00:00Z"))
    }
}

@Suite struct GeoTests {
    @Test func distanceAndBearing() {
        let a = Coordinate(latitude: -0.2, longitude: -78.5)
        let north = Coordinate(latitude: -0.19, longitude: -78.5)
        #expect(abs(a.distance(to: north) - 1111.95) < 1)
        #expect(CompassPoint(bearing: a.bearing(to: north)) == .n)
        #expect(CompassPoint(bearing: a.bearing(to: Coordinate(latitude: -0.21, longitude: -78.49))) == .se)
        #expect(CompassPoint(bearing: 359) == .n)
        #expect(CompassPoint(bearing: 292) == .w)
    }
}

@Suite struct TextTests {
    @Test(arguments: [
        ("Cumbayá", "cumbaya"), ("La Y", "la y"), ("Av. 10 de Agosto", "av 10 de agosto"),
        ("  Iñaquito—Norte ", "inaquito norte"), ("ŽIEDAS", "ziedas"),
    ])
    func searchKeys(text: String, key: String) {
        #expect(TextFolding.searchKey(text) == key)
    }

    @Test func terminalSanitizerStripsControlAndEscapes() {
        #expect(TerminalText.sanitize("El\u{1B}[2J Ejido\u{1B}]0;pwned\u{07}!") == "El Ejido!")
        // U+009B is the 8-bit CSI: it and its final byte ("f") go together.
        #expect(TerminalText.sanitize("a\tb\nc\u{0}d\u{7F}e\u{9B}f") == "a b cde")
        #expect(TerminalText.sanitize("\u{202E}evil") == "evil")
        #expect(TerminalText.sanitize(String(repeating: "x", count: 500), maxLength: 10) == "xxxxxxxxxx…")
        #expect(TerminalText.sanitize("Bijūnų žiedas 東京") == "Bijūnų žiedas 東京")
    }

    @Test func routeModes() {
        #expect(RouteMode(gtfsType: 800) == .trolleybus)
        #expect(RouteMode(gtfsType: 3) == .bus)
        #expect(RouteMode(gtfsType: 1100) == .other)
        #expect(RouteMode.isKnownGTFSType(1100))
        #expect(!RouteMode.isKnownGTFSType(42))
    }
}
