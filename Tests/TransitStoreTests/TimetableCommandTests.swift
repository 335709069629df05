import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// `kiosk timetable` end to end: every time printed in the PDF (read back with `pdftotext -layout`, column by
/// column) against the departures the stop view gives for each day of the column; the QR code read back with
/// zbarimg; bad input refused with exit 2 and nothing written (issue 25).
@Suite("kiosk timetable (CLI)")
struct TimetableCommandTests {
    struct Summary: Decodable {
        struct Region: Decodable {
            var page: Int, kind: String, section: Int, column: Int, x: Double, y: Double, width: Double, height: Double
        }
        var files: [String], pages: Int, regions: [Region]
    }

    /// What one column of a PDF says: times "HH:MM" with their marks, and frequency lines.
    struct PrintedColumn {
        var entries: [(time: String, marks: String)] = []
        var bands: [(headway: Int, first: String, last: String)] = []
    }

    static func printedColumns(_ pdf: String, _ summary: Summary) throws -> [String: PrintedColumn] {
        var columns: [String: PrintedColumn] = [:]
        let bandPattern = try NSRegularExpression(pattern: #"every (\d+) min from (\d\d:\d\d) to (\d\d:\d\d)"#)
        for region in summary.regions where region.kind == "column" {
            // pdftotext crops by whole points; stay a point inside the region.
            let x = Int(region.x.rounded(.up)) + 1, y = Int(region.y.rounded(.up)) + 1
            let width = Int(region.width) - 2, height = Int(region.height) - 2
            guard height > 2 else { continue }
            let result = try Programs.run(
                try #require(Programs.which("pdftotext")),
                ["-layout", "-f", "\(region.page)", "-l", "\(region.page)", "-x", "\(x)", "-y", "\(y)", "-W",
                 "\(width)", "-H", "\(height)", pdf, "-"])
            #expect(result.status == 0, "\(result.stderr)")
            var column = columns["\(region.section)/\(region.column)"] ?? PrintedColumn()
            var hour: String?
            var pending = ""  // a frequency line wrapped over several lines of a narrow column
            for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: true) {
                var text = String(line).replacingOccurrences(of: "\u{0C}", with: "")
                if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                if !pending.isEmpty { text = pending + " " + text.trimmingCharacters(in: .whitespaces) }
                let range = NSRange(text.startIndex..., in: text)
                if let match = bandPattern.firstMatch(in: text, range: range) {
                    let part = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                    column.bands.append((Int(part(1))!, part(2), part(3)))
                    pending = ""
                    continue
                }
                if text.hasPrefix("every") {
                    pending = text
                    continue
                }
                var tokens = text.split(separator: " ").map(String.init)
                if !text.hasPrefix(" ") {
                    hour = tokens.removeFirst()
                }
                let currentHour = try #require(hour, "a minutes line before any hour in region \(region): '\(text)'")
                for token in tokens {
                    let minute = String(token.prefix(2))
                    #expect(Int(minute) != nil, "not a minute: '\(token)' in '\(text)'")
                    column.entries.append(("\(currentHour):\(minute)", String(token.dropFirst(2))))
                }
            }
            columns["\(region.section)/\(region.column)"] = column
        }
        return columns
    }

    /// The stop view's departures of `date`'s service day at `stop` (every departure of that service date).
    static func stopViewDepartures(_ database: RouteDatabase, _ stop: ResolvedStop, _ date: ServiceDate) throws
        -> [Departure]
    {
        let origin = date.serviceDayOrigin(in: database.timeZone)
        return try database.departures(
            for: stop, from: origin, minutes: database.latestDepartureSeconds / 60 + 1
        ).filter { $0.serviceDate == date.description }
    }

    static func clock(_ scheduled: String) -> String {
        let parts = scheduled.split(separator: ":")
        return String(format: "%02d:%@", Int(parts[0])! % 24, String(parts[1]))
    }

    static func seconds(_ clock: String) -> Int {
        let parts = clock.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60
    }

    /// Prints `stop`'s poster for `span` and checks every column against the stop view of each of its days.
    static func checkPoster(database path: String, stop query: String, arguments: [String]) throws {
        let folder = TemporaryFolder.make("timetable-pdf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("poster.pdf").path
        let result = try Programs.runKiosk(
            ["timetable", query, "--db", path, "--lang", "en", "--json", "--proof", "--out", pdf] + arguments)
        try #require(result.status == 0, "\(result)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let summary = try decoder.decode(Summary.self, from: Data(result.stdout.utf8))
        let printed = try printedColumns(pdf, summary)

        // The sections and their columns' dates, as the store made them (what the poster was drawn from).
        let database = try RouteDatabase(path: path)
        let stop = try database.resolveStop(.idOrCode(query))
        let dateArgument = arguments.firstIndex(of: "--date").map { arguments[$0 + 1] }
        let dateText = try #require(dateArgument)
        let day = try #require(ServiceDate(parsing: dateText))
        let span: TimetableSpan = arguments.contains("--week") ? .week(containing: day) : .day(day)
        let timetable = try database.stopTimetable(for: stop, span: span)
        var perDate: [String: [Departure]] = [:]
        for date in timetable.dates { perDate[date] = try stopViewDepartures(database, stop, ServiceDate(parsing: date)!) }
        var checkedTimes = 0
        for (sectionIndex, section) in timetable.sections.enumerated() {
            let dayMarks = Set(section.footnotes.compactMap { note -> String? in
                if case .destination = note.kind { return nil }
                return note.mark
            })
            for (columnIndex, column) in section.columns.enumerated() {
                let where_ = "stop \(query), \(section.route.label) to \(section.headsign), \(column.dayType.dates)"
                let paper = try #require(printed["\(sectionIndex)/\(columnIndex)"], "no printed column: \(where_)")
                // Exact departures: the printed multiset is the union of the column's days; a time without a day
                // mark runs on every day of the column.
                var union: [String: Int] = [:]
                var bandTimes: [[Int]] = []
                for date in column.dayType.dates {
                    let departures = perDate[date]!.filter {
                        $0.route.id == section.route.id && $0.directionID == section.directionID
                    }
                    var counts: [String: Int] = [:]
                    for departure in departures where !departure.approximate {
                        counts[clock(departure.scheduledTime), default: 0] += 1
                    }
                    for (time, count) in counts { union[time] = max(union[time] ?? 0, count) }
                    for (time, count) in counts {
                        let onPaper = paper.entries.filter { $0.time == time }.count
                        #expect(onPaper >= count, "\(where_): \(date) has \(count)× \(time), the poster \(onPaper)×")
                    }
                    let unmarked = Dictionary(
                        grouping: paper.entries.filter { entry in !entry.marks.contains { dayMarks.contains(String($0)) } },
                        by: \.time
                    ).mapValues(\.count)
                    for (time, count) in unmarked {
                        #expect((counts[time] ?? 0) >= count, "\(where_): \(time) has no day mark but does not run on \(date)")
                    }
                    bandTimes.append(
                        departures.filter(\.approximate).map { seconds(clock($0.scheduledTime)) })
                }
                let printedCounts = Dictionary(grouping: paper.entries, by: \.time).mapValues(\.count)
                #expect(printedCounts == union, "\(where_): printed \(printedCounts.count) times, the stop view \(union.count)")
                checkedTimes += paper.entries.count + paper.bands.count
                // Frequency-based departures: each lies on a printed band (first + k × headway ≤ last).
                for times in bandTimes {
                    for time in times {
                        let covered = paper.bands.contains { band in
                            let first = seconds(band.first), last = seconds(band.last)
                            return time >= first && time <= last && (time - first) % (band.headway * 60) == 0
                        }
                        #expect(covered, "\(where_): the approximate departure \(TimetableText.clock(time)) is on no printed band")
                    }
                }
                if bandTimes.allSatisfy(\.isEmpty) { #expect(paper.bands.isEmpty, "\(where_): a band without frequency service") }
            }
        }
        #expect(checkedTimes > 0, "no time or frequency line was checked for stop \(query)")
    }

    @Test(
        "every printed time is a stop-view departure of each day of its column (sample network, two weeks, a day)",
        arguments: ["1091", "1101", "5007", "3001", "1122"])
    func sampleStops(stop: String) throws {
        let path = try SampleNetwork.databasePath()
        // The week of 25 November 2026, and the week of the 2–3 November holidays.
        try Self.checkPoster(database: path, stop: stop, arguments: ["--date", "2026-11-25", "--week"])
        try Self.checkPoster(database: path, stop: stop, arguments: ["--date", "2026-11-03", "--week", "--layout", "a3"])
        try Self.checkPoster(database: path, stop: stop, arguments: ["--date", "2026-11-29"])
    }

    @Test("the busiest stop of vilnius: every printed time against the stop view", .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func vilnius() throws {
        let feed = try #require(SharedData.folder).appendingPathComponent("gtfs/vilnius.zip")
        let path = TemporaryFolder.make("timetable-vilnius").appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", feed.path, "--db", path, "--progress", "off"])
        try #require(imported.status == 0, "\(imported)")
        let busiest = try #require(try RouteDatabase(path: path).busiestStopIDs(limit: 1).first)
        try Self.checkPoster(database: path, stop: busiest, arguments: ["--date", "2016-08-29", "--week"])
    }

    @Test("the QR code on the poster is the stop's label URL, signed like its label, and reads back with zbarimg")
    func qrReadBack() throws {
        let folder = TemporaryFolder.make("timetable-qr")
        defer { try? FileManager.default.removeItem(at: folder) }
        let zbarimg = try #require(Programs.which("zbarimg"), "zbarimg (zbar-tools) is needed")
        let keys = try Programs.runKiosk(["keys", "generate", "--out", folder.path])
        try #require(keys.status == 0, "\(keys)")
        let key = folder.appendingPathComponent("label-signing.key").path
        let label = try Programs.runKiosk(
            [
                "labels", "--stops", "1091", "--sign-key", key, "--json", "--proof", "--out",
                folder.appendingPathComponent("l.pdf").path,
            ])
        try #require(label.status == 0, "\(label)")
        let payload = try #require(
            (try JSONSerialization.jsonObject(with: Data(label.stdout.utf8)) as? [String: Any])
                .flatMap { ($0["labels"] as? [[String: Any]])?.first?["payload"] as? String })
        let png = folder.appendingPathComponent("poster.png").path
        let poster = try Programs.runKiosk(
            ["timetable", "1091", "--date", "2026-11-25", "--sign-key", key, "--dpi", "150", "--proof", "--out", png])
        try #require(poster.status == 0, "\(poster)")
        let read = try Programs.run(zbarimg, ["--raw", "-q", png])
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == payload)
        #expect(payload.hasPrefix("https://transit.example/s/1091?k="))
        // Unsigned: the plain URL.
        let plain = try Programs.runKiosk(
            ["timetable", "1091", "--date", "2026-11-25", "--layout", "single", "--dpi", "150", "--proof", "--out", png])
        try #require(plain.status == 0, "\(plain)")
        #expect(try Programs.run(zbarimg, ["--raw", "-q", png]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "https://transit.example/s/1091")
    }

    @Test("bad input exits 2 with a clear message and writes nothing")
    func badInput() throws {
        let folder = TemporaryFolder.make("timetable-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("t.pdf").path
        let cases: [([String], String)] = [
            (["no-such-stop", "--date", "2026-11-25"], "no such stop"),
            (["1091", "--route", "NOPE", "--date", "2026-11-25"], "no such route"),
            (["1091", "--date", "2031-01-01"], "is outside the timetable"),
            (["--route", "NOPE", "--date", "2026-11-25"], "no such route"),
            (["--route", "L1", "--date", "2031-01-01"], "is outside the timetable"),
            (["--route", "L1", "--week"], "use --date, not --week"),
            (["1091", "--date", "25/11/2026"], "--date must be a date"),
            (["1091", "--week", "--route", "L1", "--layout", "a5"], "a5"),
        ]
        for (arguments, message) in cases {
            let result = try Programs.runKiosk(["timetable"] + arguments + ["--out", out])
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments) wrote \(out)")
        }
        // A route that runs no trips that day, and a stop with no departures: from a feed made for it.
        var files = TimetableModelTests.holidayFeed()
        files["calendar_dates.txt"]! += "SU,20260118,2\n"
        let feed = TestSupport.writeFeed(files)
        let db = folder.appendingPathComponent("r.sqlite").path
        try #require(try Programs.runKiosk(["import", feed.path, "--db", db]).status == 0)
        for (arguments, message) in [
            (["--route", "1", "--date", "2026-01-18"], "runs no trips"),
            (["S3", "--date", "2026-01-12"], "nothing departs from stop"),
        ] {
            let result = try Programs.runKiosk(["timetable", "--db", db] + arguments + ["--out", out])
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments) wrote \(out)")
        }
    }

    @Test("--all-stops prints every stop with departures into a folder; a route timetable repeats the stop column")
    func allStopsAndRoute() throws {
        let folder = TemporaryFolder.make("timetable-all")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("posters").path
        let result = try Programs.runKiosk(
            [
                "timetable", "--all-stops", "--date", "2026-11-25", "--week", "--progress", "lines", "--proof", "--out",
                out,
            ])
        try #require(result.status == 0, "\(result)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".pdf") }
        #expect(written.contains("1091.pdf"))
        #expect(result.stdout.contains("Wrote \(written.count) stop timetables"), "\(result.stdout)")
        #expect(result.stderr.contains("progress stage=posters"), "\(result.stderr)")

        let route = folder.appendingPathComponent("route.pdf").path
        let table = try Programs.runKiosk(["timetable", "--route", "L1", "--date", "2026-11-25", "--lang", "en", "--out", route])
        try #require(table.status == 0, "\(table)")
        let text = try Programs.run(try #require(Programs.which("pdftotext")), ["-layout", route, "-"]).stdout
        let pages = text.split(separator: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(pages.count > 1)
        for page in pages {
            #expect(page.contains("Stop") && page.contains("Quitumbe") && page.contains("El Labrador [1151]"))
        }
    }
}
