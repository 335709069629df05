import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// The store's stop and route timetables on small feeds built here: day types merged when identical and split
/// when not, holidays from calendar_dates, footnotes, validity, frequency bands (issue 25).
@Suite("Timetables: day types, holidays, footnotes, frequencies")
struct TimetableModelTests {
    /// A week from Monday 2026-01-12 in a feed running 2026-01-05 to 2026-02-28. R1 runs S1 → S2 → S3; WK
    /// Monday–Friday (08:00, 09:00), FR Fridays only (an extra 17:00), SA Saturdays and SU Sundays (both 10:00, so
    /// their columns merge), a short working to S2 on weekdays (12:00). calendar_dates makes Wednesday
    /// 2026-01-14 a holiday: WK removed, SU added.
    static func holidayFeed(fridayExtras: Int = 1, frequencies: String? = nil) -> [String: String] {
        var trips = "route_id,service_id,trip_id,trip_headsign\nR1,WK,W8,Tercera\nR1,WK,W9,Tercera\nR1,WK,WS,Segunda\n"
        trips += "R1,SA,A10,Tercera\nR1,SU,U10,Tercera\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        func trip(_ id: String, _ hour: Int, short: Bool = false) {
            let h = String(format: "%02d", hour)
            times += "\(id),\(h):00:00,\(h):00:00,S1,1\n\(id),\(h):10:00,\(h):10:00,S2,2\n"
            if !short { times += "\(id),\(h):20:00,\(h):20:00,S3,3\n" }
        }
        trip("W8", 8)
        trip("W9", 9)
        trip("WS", 12, short: true)
        trip("A10", 10)
        trip("U10", 10)
        for index in 0..<fridayExtras {
            trips += "R1,FR,F\(index),Tercera\n"
            trip("F\(index)", 17 + index)
        }
        var feed = TestSupport.minimalFeed
        feed["trips.txt"] = trips
        feed["stop_times.txt"] = times
        feed["calendar.txt"] =
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "WK,1,1,1,1,1,0,0,20260105,20260228\nFR,0,0,0,0,1,0,0,20260105,20260228\n"
            + "SA,0,0,0,0,0,1,0,20260105,20260228\nSU,0,0,0,0,0,0,1,20260105,20260228\n"
        feed["calendar_dates.txt"] = "service_id,date,exception_type\nWK,20260114,2\nSU,20260114,1\n"
        if let frequencies { feed["frequencies.txt"] = frequencies }
        return feed
    }

    static func open(_ files: [String: String]) throws -> RouteDatabase {
        let feed = TestSupport.writeFeed(files)
        let path = TemporaryFolder.make("timetable-db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    static let monday = ServiceDate(year: 2026, month: 1, day: 12)!

    @Test("a week: Monday–Friday with a Friday-only trip footnoted, Saturday and Sunday merged with the holiday")
    func weekWithHoliday() throws {
        let database = try Self.open(Self.holidayFeed())
        let stop = try database.resolveStop(.id("S1"))
        let timetable = try database.stopTimetable(for: stop, span: .week(containing: Self.monday.adding(days: 2)))
        #expect(timetable.dates.first == "2026-01-12" && timetable.dates.last == "2026-01-18")
        #expect(timetable.holidays == ["2026-01-14"])
        #expect(timetable.validFrom == "2026-01-05" && timetable.validUntil == "2026-02-28")
        try #require(timetable.sections.count == 1)
        let section = timetable.sections[0]
        #expect(section.headsign == "Tercera")
        let types = section.columns.map(\.dayType)
        #expect(types.map(\.weekdays) == [[1, 2, 3, 4, 5], [6, 7]], "\(types)")
        #expect(types[0].dates == ["2026-01-12", "2026-01-13", "2026-01-15", "2026-01-16"])
        #expect(types[1].dates == ["2026-01-14", "2026-01-17", "2026-01-18"] && types[1].holidays)
        #expect(TimetableText.dayType(types[1], .en) == "Saturdays, Sundays and holidays")
        #expect(TimetableText.dayType(types[0], .es) == "Lunes a viernes")

        let weekday = section.columns[0]
        let entries = weekday.hours.flatMap(\.entries)
        #expect(entries.map { TimetableText.clock($0.seconds) } == ["08:00", "09:00", "12:00", "17:00"])
        func footnote(_ mark: String) -> TimetableFootnote.Kind? { section.footnotes.first { $0.mark == mark }?.kind }
        #expect(entries[0].marks.isEmpty && entries[1].marks.isEmpty)
        #expect(entries[2].marks.map(footnote) == [.destination("Segunda")])
        #expect(entries[3].marks.map(footnote) == [.onlyOn([.weekday(5)])])
        #expect(TimetableText.footnote(.onlyOn([.weekday(5)]), .en) == "only on Fridays")
        #expect(section.columns[1].hours.flatMap(\.entries).map { TimetableText.clock($0.seconds) } == ["10:00"])
    }

    @Test("a Friday that differs by more than a third gets its own column; a single day is one dated column")
    func splitAndSingleDay() throws {
        let database = try Self.open(Self.holidayFeed(fridayExtras: 3))
        let stop = try database.resolveStop(.id("S1"))
        let week = try database.stopTimetable(for: stop, span: .week(containing: Self.monday))
        let types = week.sections[0].columns.map(\.dayType)
        #expect(types.map(\.weekdays) == [[1, 2, 3, 4], [5], [6, 7]], "\(types)")
        #expect(TimetableText.dayType(types[0], .en) == "Mon–Thu")
        #expect(week.sections[0].columns[1].hours.flatMap(\.entries).allSatisfy { $0.marks.allSatisfy { mark in
            week.sections[0].footnotes.first { $0.mark == mark }.map { if case .destination = $0.kind { true } else { false } } ?? false
        } })

        let holiday = try database.stopTimetable(for: stop, span: .day(Self.monday.adding(days: 2)))
        #expect(holiday.single && holiday.validFrom == "2026-01-14" && holiday.validUntil == "2026-01-14")
        let column = try #require(holiday.sections.first?.columns.first)
        #expect(column.dayType.date == "2026-01-14")
        #expect(column.hours.flatMap(\.entries).map { TimetableText.clock($0.seconds) } == ["10:00"])
    }

    @Test("frequency-based service: a band without exact times, expanded times with exact_times 1")
    func frequencies() throws {
        let frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\nW8,06:00:00,08:00:00,600,0\nW9,20:00:00,21:00:00,1200,1\n"
        let database = try Self.open(Self.holidayFeed(frequencies: frequencies))
        let s2 = try database.resolveStop(.id("S2"))
        let day = try database.stopTimetable(for: s2, span: .day(Self.monday))
        let column = try #require(day.sections.first?.columns.first)
        // At S2, 10 minutes after the trip's start: every 10 min from 06:10 to 08:00 (the last start is 07:50).
        #expect(column.bands.count == 1)
        #expect(column.bands.first.map { TimetableText.frequency($0, .en) } == "every 10 min from 06:10 to 08:00")
        #expect(column.bands.first.map { TimetableText.frequency($0, .es) } == "cada 10 min de 06:10 a 08:00")
        let times = column.hours.flatMap(\.entries).map { TimetableText.clock($0.seconds) }
        #expect(times == ["20:10", "20:30", "20:50"], "\(times)")  // the short working ends at S2: no departure
    }

    @Test("bad input: an unknown route at the stop, nothing departing that day, a date outside the feed")
    func badInput() throws {
        var files = Self.holidayFeed()
        files["calendar_dates.txt"]! += "SU,20260118,2\n"  // no service on Sunday 18 January
        let database = try Self.open(files)
        let stop = try database.resolveStop(.id("S3"))  // the last stop: nothing departs
        #expect(throws: TimetableError.self) { try database.stopTimetable(for: stop, span: .day(Self.monday)) }
        #expect(throws: LookupError.self) {
            try database.stopTimetable(
                for: try database.resolveStop(.id("S1")), span: .day(ServiceDate(year: 2027, month: 1, day: 1)!))
        }
        #expect(throws: RouteQueryError.self) {
            try database.stopTimetable(for: try database.resolveStop(.id("S1")), span: .day(Self.monday), routes: ["9"])
        }
        #expect(throws: TimetableError.self) {
            try database.routeTimetable("1", date: ServiceDate(year: 2026, month: 1, day: 18)!)
        }
    }

    @Test("a route timetable: stops down, trips across in departure order, the short working ending at S2")
    func routeTimetable() throws {
        let database = try Self.open(Self.holidayFeed())
        let table = try database.routeTimetable("1", date: Self.monday.adding(days: 4))  // Friday
        #expect(table.stops.map(\.id) == ["S1", "S2", "S3"])
        #expect(!table.timepointsOnly)
        #expect(table.trips.map(\.tripID) == ["W8", "W9", "WS", "F0"])
        #expect(table.trips[2].times.map { $0.map(TimetableText.clock) } == ["12:00", "12:10", nil])
        #expect(table.headsign == "Tercera")
    }
}
