import Foundation

/// A stop's printed timetable: per route and direction, the departures of each day type grouped by hour, as a
/// poster at the stop shows them. `kiosk timetable STOP` draws it; `/s/{stop}/timetable` shows it as HTML.
///
/// Times are seconds from the service day's origin (noon minus 12 h), so a departure at 25:10 belongs to the
/// evening before; `TimetableText.clock` writes it as 01:10. Frequency-based service with `exact_times` 0 is a
/// `FrequencyBand` ("every 10 min from 06:00 to 08:50"), never a list of invented times.
public struct StopTimetable: Sendable, Codable, Equatable {
    public var stop: StopInfo
    /// The operators of the routes shown, in route order, without repeats.
    public var agencies: [AgencyInfo]
    public var timeZone: String
    /// A single day (`--date`) or the day types of a week.
    public var single: Bool
    /// The dates the columns were computed from (`YYYY-MM-DD`): one, or the week's dates inside the feed.
    public var dates: [String]
    /// The timetable holds from `validFrom` to `validUntil`: every date between them runs the same services at
    /// this stop as its weekday (or, for a holiday, as the Sunday) of the dates computed.
    public var validFrom: String
    public var validUntil: String
    /// Dates within the validity other than Sundays that run the Sunday service (`YYYY-MM-DD`).
    public var holidays: [String]
    public var sections: [TimetableSection]

    enum CodingKeys: String, CodingKey {
        case stop, agencies, timeZone = "time_zone", single, dates, validFrom = "valid_from",
            validUntil = "valid_until", holidays, sections
    }

    public init(
        stop: StopInfo, agencies: [AgencyInfo], timeZone: String, single: Bool, dates: [String], validFrom: String,
        validUntil: String, holidays: [String], sections: [TimetableSection]
    ) {
        self.stop = stop
        self.agencies = agencies
        self.timeZone = timeZone
        self.single = single
        self.dates = dates
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.holidays = holidays
        self.sections = sections
    }
}

/// One route and direction at a stop: a column per day type, and the footnotes its entries refer to.
public struct TimetableSection: Sendable, Codable, Equatable {
    public var route: RouteInfo
    public var directionID: Int?
    /// Where most of its departures go (the most common headsign of trips to the main destination).
    public var headsign: String
    public var columns: [TimetableColumn]
    public var footnotes: [TimetableFootnote]

    enum CodingKeys: String, CodingKey {
        case route, directionID = "direction_id", headsign, columns, footnotes
    }

    public init(
        route: RouteInfo, directionID: Int?, headsign: String, columns: [TimetableColumn],
        footnotes: [TimetableFootnote]
    ) {
        self.route = route
        self.directionID = directionID
        self.headsign = headsign
        self.columns = columns
        self.footnotes = footnotes
    }
}

/// What days a column stands for.
public struct DayType: Sendable, Codable, Equatable, Hashable {
    /// ISO weekdays (1 Monday … 7 Sunday), ascending.
    public var weekdays: [Int]
    /// The column is also the service of holidays (it holds the Sunday service and the validity has holidays).
    public var holidays: Bool
    /// The date of a single-day timetable (`YYYY-MM-DD`).
    public var date: String?
    /// The computed dates the column covers.
    public var dates: [String]

    public init(weekdays: [Int], holidays: Bool, date: String?, dates: [String]) {
        self.weekdays = weekdays
        self.holidays = holidays
        self.date = date
        self.dates = dates
    }
}

public struct TimetableColumn: Sendable, Codable, Equatable {
    public var dayType: DayType
    /// Hours with departures, in service-day order (hours past 24 after 23).
    public var hours: [TimetableHour]
    public var bands: [FrequencyBand]

    enum CodingKeys: String, CodingKey {
        case dayType = "day_type", hours, bands
    }

    public init(dayType: DayType, hours: [TimetableHour], bands: [FrequencyBand]) {
        self.dayType = dayType
        self.hours = hours
        self.bands = bands
    }

    public var isEmpty: Bool { hours.isEmpty && bands.isEmpty }
}

public struct TimetableHour: Sendable, Codable, Equatable {
    /// The service-day hour (0…47; 25 is 01 of the next calendar day).
    public var hour: Int
    public var entries: [TimetableEntry]

    public init(hour: Int, entries: [TimetableEntry]) {
        self.hour = hour
        self.entries = entries
    }
}

public struct TimetableEntry: Sendable, Codable, Equatable, Hashable {
    /// Seconds from the service day's origin.
    public var seconds: Int
    /// Footnote marks ("a", "b") in the order of the section's footnotes.
    public var marks: [String]

    public init(seconds: Int, marks: [String]) {
        self.seconds = seconds
        self.marks = marks
    }

    public var minute: Int { (seconds % 3600) / 60 }
}

/// Frequency-based service at the stop: a departure every `headwaySeconds` from `first` to `last`.
public struct FrequencyBand: Sendable, Codable, Equatable, Hashable {
    public var first: Int
    public var last: Int
    public var headwaySeconds: Int
    public var marks: [String]

    enum CodingKeys: String, CodingKey {
        case first, last, headwaySeconds = "headway_seconds", marks
    }

    public init(first: Int, last: Int, headwaySeconds: Int, marks: [String]) {
        self.first = first
        self.last = last
        self.headwaySeconds = headwaySeconds
        self.marks = marks
    }
}

/// A footnote of a section: a mark and what it means.
public struct TimetableFootnote: Sendable, Codable, Equatable, Hashable {
    public enum Kind: Sendable, Codable, Equatable, Hashable {
        /// The trip ends at another stop than most (a short working or a branch).
        case destination(String)
        /// The trip runs only on these days of its column (weekday numbers, or holiday dates).
        case onlyOn([DayReference])
        /// The trip runs on every day of its column except these.
        case notOn([DayReference])
    }

    public var mark: String
    public var kind: Kind

    public init(mark: String, kind: Kind) {
        self.mark = mark
        self.kind = kind
    }
}

/// A day a footnote names: a weekday, or a date (a holiday).
public enum DayReference: Sendable, Codable, Equatable, Hashable {
    case weekday(Int)
    case date(String)
}

/// A route's timetable for one direction and date: its stops as rows, its trips as columns, as printed pocket
/// timetables are. `kiosk timetable --route` draws it; `/r/{route}/timetable` shows it as HTML.
public struct RouteTimetable: Sendable, Codable, Equatable {
    public var route: RouteInfo
    public var agency: AgencyInfo
    public var directionID: Int?
    public var headsign: String
    public var date: String
    public var timeZone: String
    /// Only the stops the feed marks as timepoints are rows (the feed marks some stop times as approximate).
    public var timepointsOnly: Bool
    public var stops: [StopInfo]
    public var trips: [RouteTimetableTrip]

    enum CodingKeys: String, CodingKey {
        case route, agency, directionID = "direction_id", headsign, date, timeZone = "time_zone",
            timepointsOnly = "timepoints_only", stops, trips
    }

    public init(
        route: RouteInfo, agency: AgencyInfo, directionID: Int?, headsign: String, date: String, timeZone: String,
        timepointsOnly: Bool, stops: [StopInfo], trips: [RouteTimetableTrip]
    ) {
        self.route = route
        self.agency = agency
        self.directionID = directionID
        self.headsign = headsign
        self.date = date
        self.timeZone = timeZone
        self.timepointsOnly = timepointsOnly
        self.stops = stops
        self.trips = trips
    }
}

/// One column of a route timetable: a trip's departure at each row's stop (nil: it does not call there), or
/// a frequency-based period, whose cells give the first and last departure at each stop.
public struct RouteTimetableTrip: Sendable, Codable, Equatable {
    public var tripID: String
    public var headsign: String
    /// Seconds from the service day's origin, one per row.
    public var times: [Int?]
    /// Set for frequency-based service without exact times: a departure every this many seconds.
    public var headwaySeconds: Int?
    /// With `headwaySeconds`: the last departure at each row's stop.
    public var lastTimes: [Int?]?

    enum CodingKeys: String, CodingKey {
        case tripID = "trip_id", headsign, times, headwaySeconds = "headway_seconds", lastTimes = "last_times"
    }

    public init(tripID: String, headsign: String, times: [Int?], headwaySeconds: Int? = nil, lastTimes: [Int?]? = nil)
    {
        self.tripID = tripID
        self.headsign = headsign
        self.times = times
        self.headwaySeconds = headwaySeconds
        self.lastTimes = lastTimes
    }
}
