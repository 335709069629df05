import Foundation
import KioskTesting
import StopCodes
import Testing
import TransitModel

@testable import Labels

/// What a passenger sees on paper (issue 37): poster headings wrap instead of being cut, a route timetable fills
/// its landscape pages, and a printout whose QR code carries the placeholder address is refused unless it is a
/// proof copy, which says so on the page. Pages are read back with poppler (pdftotext, pdftoppm) and zbar.
@Suite("Printouts: headings, route timetable pages, proof copies")
struct PrintoutLayoutTests {
    static let longHeadsign =
        "109 Maryland Pkwy Northbound via Flamingo Road, the University Campus and the Convention Center"

    static let longStopName =
        "Terminal Terrestre Interprovincial Plaza Grande – Andén Norte (hacia El Labrador y Universidad Central)"

    static func stopTimetable(headsign: String, stopName: String = longStopName) -> StopTimetable {
        var timetable = TimetablePosterTests.timetable
        timetable.sections[0].headsign = headsign
        timetable.stop.name = stopName
        return timetable
    }

    /// A route timetable of `trips` trips over `stops` stops, one trip every 20 minutes from 05:00.
    static func routeTimetable(trips: Int, stops: Int) -> RouteTimetable {
        let stopInfos = (0..<stops).map {
            StopInfo(
                id: "S\($0)", code: "\(1000 + $0)", name: "Parada número \($0 + 1) – Avenida", parentStationID: nil,
                parentStationName: nil, platformCode: nil, wheelchairBoarding: .unknown, latitude: nil,
                longitude: nil, locationType: 0)
        }
        let tripValues = (0..<trips).map { trip in
            RouteTimetableTrip(
                tripID: "T\(trip)", headsign: "Terminal Norte",
                times: (0..<stops).map { 5 * 3600 + trip * 1200 + $0 * 120 })
        }
        return RouteTimetable(
            route: TimetablePosterTests.route, agency: AgencyInfo(id: "A", name: "Agencia", url: nil, phone: nil),
            directionID: 0, headsign: "Terminal Norte", date: "2026-01-12", timeZone: "America/Guayaquil",
            timepointsOnly: false, stops: stopInfos, trips: tripValues)
    }

    static func pdftotext(_ pdf: String, layout: Bool = false) throws -> String {
        let tool = try #require(
            Programs.which("pdftotext"), "pdftotext is not on the PATH: install poppler-utils (kiosk/setup.sh does)")
        let result = try Programs.run(tool, (layout ? ["-layout"] : []) + [pdf, "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The words of `text`, white space of any kind (line breaks included) as one space.
    static func words(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    @Test(
        "a long direction heading and stop name wrap over lines, whole words, nothing cut, in every layout",
        arguments: TimetableLayout.allCases)
    func longHeadingWraps(layout: TimetableLayout) throws {
        let folder = TemporaryFolder.make("heading")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("poster.pdf").path
        let printer = TimetablePrinter(options: TimetablePrintOptions(layout: layout, language: .en))
        _ = try printer.printStop(
            Self.stopTimetable(headsign: Self.longHeadsign), payloads: TimetablePosterTests.payloads, output: pdf)
        let text = try Self.pdftotext(pdf)
        #expect(!text.contains("…"), "something was cut: \(text)")
        #expect(Self.words(text).contains("to " + Self.longHeadsign), "\(text)")
        #expect(Self.words(text).contains(Self.longStopName), "the stop's name, wrapped too: \(text)")
        // It took more than one line: the heading's last words are on a line of their own.
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!lines.contains("to " + Self.longHeadsign), "the heading fits one line; the test needs a longer one")
    }

    @Test("30 trips of one direction fill at most two landscape pages, the stop column on each")
    func routeTimetableFillsItsPages() throws {
        let folder = TemporaryFolder.make("route-pages")
        defer { try? FileManager.default.removeItem(at: folder) }
        let printer = TimetablePrinter(options: TimetablePrintOptions(language: .en))
        for stops in [6, 20, 40] {
            let pdf = folder.appendingPathComponent("route-\(stops).pdf").path
            let result = try printer.printRoute(Self.routeTimetable(trips: 30, stops: stops), output: pdf)
            #expect(result.pages <= 2, "\(stops) stops: \(result.pages) pages")
            #expect(result.pageWidth > result.pageHeight, "landscape")
            // The table uses the page: its strips cover most of the first page's height.
            let covered = result.regions.filter { $0.page == 1 && $0.kind == "route" }.map(\.height).reduce(0, +)
            #expect(
                covered > result.pageHeight * 0.45,
                "\(stops) stops: the table covers \(covered) pt of \(result.pageHeight)")
            // Every trip's first departure is printed once, and every page names the stops.
            let text = try Self.pdftotext(pdf, layout: true)
            for trip in 0..<30 {
                let first = TimetableText.clock(5 * 3600 + trip * 1200)
                #expect(text.components(separatedBy: first).count - 1 >= 1, "\(stops) stops: \(first) missing")
            }
            let pages = text.split(separator: "\u{0C}").filter {
                !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }
            for page in pages {
                #expect(page.contains("Stop") && page.contains("Parada número 1 – Avenida [1000]"))
            }
        }
        // A few stops: one page, set larger than the old fixed 7 points (rows taller than 10.5 pt).
        let small = try printer.printRoute(
            Self.routeTimetable(trips: 30, stops: 6), output: folder.appendingPathComponent("small.pdf").path)
        #expect(small.pages == 1)
        let strip = try #require(small.regions.first)
        #expect(strip.height / 6 > 10.5, "rows of \(strip.height / 6) pt")
    }

    @Test("a poster or labels with the placeholder address are refused; nothing is written")
    func placeholderRefused() throws {
        let folder = TemporaryFolder.make("placeholder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let placeholder = LabelPayloadBuilder(
            template: try StopURLTemplate("https://transit.example/s/{stop}"), feedID: "example")
        let pdf = folder.appendingPathComponent("poster.pdf").path
        let printer = TimetablePrinter(options: TimetablePrintOptions(language: .en))
        #expect {
            _ = try printer.printStop(TimetablePosterTests.timetable, payloads: placeholder, output: pdf)
        } throws: { error in
            guard case TimetablePrintError.label(.placeholderAddress(_, let host)) = error else { return false }
            let text = "\(error)"
            return host == "transit.example" && text.contains("[labels]") && text.contains("url_template")
                && text.contains("--template") && text.contains("--proof")
        }
        #expect(!FileManager.default.fileExists(atPath: pdf))
        let labels = folder.appendingPathComponent("labels.pdf").path
        let refusal = LabelError.placeholderAddress(
            template: "https://transit.example/s/{stop}", host: "transit.example")
        #expect(throws: refusal) {
            _ = try LabelRenderer(options: LabelOptions()).run(
                stops: TestSupport.stops, payloads: placeholder, output: labels)
        }
        #expect(!FileManager.default.fileExists(atPath: labels))
    }

    @Test("which addresses are placeholders")
    func placeholderHosts() throws {
        let cases: [(String, String?)] = [
            ("https://transit.example/s/{stop}", "transit.example"),
            ("HTTPS://Transit.Example./s/{stop_code}", "transit.example"),
            ("https://user@stops.example.org:8443/s/{stop}", "stops.example.org"),
            ("https://example.com/{stop_id}", "example.com"),
            ("https://stops.quito.gob.ec/s/{stop}", nil),
            ("https://myexample.com/s/{stop}", nil),
            ("https://stops.quito.test/s/{stop}", nil),
        ]
        for (pattern, host) in cases {
            #expect(PlaceholderAddress.host(of: try StopURLTemplate(pattern)) == host, "\(pattern)")
        }
    }

    @Test(
        "a proof poster says so in its language on every page, and its QR code still reads back",
        arguments: [Language.en, .es])
    func proofPoster(language: Language) throws {
        let folder = TemporaryFolder.make("proof-poster")
        defer { try? FileManager.default.removeItem(at: folder) }
        let placeholder = LabelPayloadBuilder(
            template: try StopURLTemplate("https://transit.example/s/{stop}"), feedID: "example")
        let pdf = folder.appendingPathComponent("poster.pdf").path
        let printer = TimetablePrinter(options: TimetablePrintOptions(layout: .single, language: language, proof: true))
        let result = try printer.printStop(TimetablePosterTests.timetable, payloads: placeholder, output: pdf)
        let mark =
            language == .en
            ? "PROOF — placeholder address, not for posting" : "PRUEBA — dirección de ejemplo, no para colocar"
        let pages = try Self.pdftotext(pdf).split(separator: "\u{0C}").filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        #expect(pages.count == result.pages)
        for page in pages { #expect(page.contains(mark), "\(page)") }
        let rasters = try TestSupport.rasterise(pdf: URL(fileURLWithPath: pdf), dpi: 150)
        #expect(try TestSupport.decodeQRCodes(rasters[0]) == ["https://transit.example/s/101"])
    }

    @Test("proof labels: every label and the sheet carry the mark, and every label still scans")
    func proofLabels() throws {
        let folder = TemporaryFolder.make("proof-labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let placeholder = LabelPayloadBuilder(
            template: try StopURLTemplate("https://transit.example/s/{stop_code}"), feedID: "example")
        for layout in LabelLayout.all {
            let pdf = folder.appendingPathComponent("labels-\(layout.name).pdf").path
            let run = try LabelRenderer(options: LabelOptions(layout: layout, proof: true)).run(
                stops: TestSupport.stops, payloads: placeholder, output: pdf)
            let text = Self.words(try Self.pdftotext(pdf))
            // A mark on each label, and one across the top of each sheet that has a margin for it.
            let marks = text.components(separatedBy: "PROOF").count - 1
            let sheetMarks = layout.originY >= 12 ? run.pages : 0
            #expect(marks == TestSupport.stops.count + sheetMarks, "\(layout.name): \(text)")
            if layout.name == "a4" {
                #expect(
                    text.contains(
                        "PRUEBA — dirección de ejemplo, no para colocar / "
                            + "PROOF — placeholder address, not for posting"),
                    "\(text)")
            }
            let found = try TestSupport.rasterise(pdf: URL(fileURLWithPath: pdf)).flatMap(TestSupport.decodeQRCodes)
            #expect(found.sorted() == run.labels.map(\.payload).sorted(), "\(layout.name)")
        }
    }
}
