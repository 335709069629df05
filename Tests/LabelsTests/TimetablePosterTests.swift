import Foundation
import KioskTesting
import StopCodes
import Testing
import TransitModel

@testable import Labels

/// The poster check refuses what should never reach a printer: a text outside its box, two texts on top of each
/// other, a QR code that does not read back. Nothing is written then (issue 25).
@Suite("Timetable posters: the check before writing")
struct TimetablePosterTests {
    static let stop = StopInfo(
        id: "S1", code: "101", name: "Plaza Grande", parentStationID: nil, parentStationName: nil, platformCode: nil,
        wheelchairBoarding: .unknown, latitude: nil, longitude: nil, locationType: 0)
    static let route = RouteInfo(
        id: "R1", shortName: "1", longName: "Uno", mode: .bus, color: "D52B1E", textColor: "FFFFFF", agency: "Agencia")

    static let timetable: StopTimetable = {
        let hours = (5...23).map { hour in
            TimetableHour(
                hour: hour,
                entries: stride(from: 0, to: 60, by: 12).map {
                    TimetableEntry(seconds: hour * 3600 + $0 * 60, marks: hour == 22 ? ["a"] : [])
                })
        }
        let weekday = TimetableColumn(
            dayType: DayType(weekdays: [1, 2, 3, 4, 5], holidays: false, date: nil, dates: ["2026-01-12"]),
            hours: hours, bands: [FrequencyBand(first: 4 * 3600, last: 5 * 3600 - 600, headwaySeconds: 600, marks: [])])
        let weekend = TimetableColumn(
            dayType: DayType(weekdays: [6, 7], holidays: true, date: nil, dates: ["2026-01-17"]),
            hours: Array(hours.dropFirst(3)), bands: [])
        return StopTimetable(
            stop: stop, agencies: [AgencyInfo(id: "A", name: "Agencia", url: nil, phone: nil)],
            timeZone: "America/Guayaquil", single: false, dates: ["2026-01-12"], validFrom: "2026-01-05",
            validUntil: "2026-02-28", holidays: ["2026-01-14"],
            sections: [
                TimetableSection(
                    route: route, directionID: 0, headsign: "Terminal Norte", columns: [weekday, weekend],
                    footnotes: [TimetableFootnote(mark: "a", kind: .notOn([.weekday(5)]))])
            ])
    }()

    static let payloads = LabelPayloadBuilder(
        template: try! StopURLTemplate("https://stops.quito.test/s/{stop}"), feedID: "example")

    func attempt(_ tamper: ((inout [PosterPage]) -> Void)?) -> (Result<TimetablePrintResult, TimetablePrintError>, String) {
        let folder = TemporaryFolder.make("poster")
        let output = folder.appendingPathComponent("poster.pdf").path
        let printer = TimetablePrinter(options: TimetablePrintOptions(language: .en))
        printer.tamper = tamper
        return (Result { () throws(TimetablePrintError) in try printer.printStop(Self.timetable, payloads: Self.payloads, output: output) }, output)
    }

    @Test("an untouched poster passes and is written; its column areas are reported")
    func passes() throws {
        let (result, output) = attempt(nil)
        let run = try result.get()
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(run.regions.filter { $0.kind == "column" }.map(\.column).sorted() == [0, 1])
    }

    @Test("a text pushed out of its box, two texts overlapping, a QR code drawn over: refused, nothing written")
    func refusals() throws {
        let cases: [(String, (inout [PosterPage]) -> Void)] = [
            ("leaves its box", { pages in pages[0].texts[3].x += 400 }),
            ("overlap", { pages in
                var copy = pages[0].texts[5]
                copy.text = "XX"
                copy.box = Rect(x: 0, y: 0, width: pages[0].width, height: pages[0].height)
                pages[0].texts.append(copy)
            }),
            ("does not read back", { pages in
                let box = pages[0].codes[0].box
                pages[0].fills.append(PosterPage.Fill(rect: box.insetBy(box.width * 0.3, box.height * 0.3), color: .black))
            }),
        ]
        for (expected, tamper) in cases {
            let (result, output) = attempt(tamper)
            switch result {
            case .success: Issue.record("a poster that should fail (\(expected)) passed")
            case .failure(let error):
                #expect(error.description.contains(expected), "\(error)")
                if case .checkFailed = error {} else { Issue.record("not a check failure: \(error)") }
            }
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
