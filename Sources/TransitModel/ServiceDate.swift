import Foundation

/// A calendar date as GTFS writes it (`YYYYMMDD`), stored as that integer so that dates sort and compare as
/// numbers in SQL and in memory. Arithmetic goes through a day number (days since 1970-01-01), computed with
/// the proleptic Gregorian algorithms of Howard Hinnant's `days_from_civil`, with no calendar object involved.
public struct ServiceDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...ServiceDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// From the `YYYYMMDD` integer; nil if that is not a real date.
    public init?(yyyymmdd value: Int) {
        self.init(year: value / 10000, month: (value / 100) % 100, day: value % 100)
    }

    /// Parses GTFS `YYYYMMDD` (exactly eight digits, surrounding spaces ignored).
    public static func parse<C: Collection>(bytes: C) -> ServiceDate? where C.Element == UInt8 {
        var value = 0, digits = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            default:
                return nil
            }
        }
        return digits == 8 ? ServiceDate(yyyymmdd: value) : nil
    }

    /// Parses ISO `YYYY-MM-DD` as well as `YYYYMMDD`.
    public init?(parsing text: String) {
        let compact = text.replacingOccurrences(of: "-", with: "")
        guard text.count == 10 || text.count == 8, let date = ServiceDate.parse(bytes: Array(compact.utf8)) else {
            return nil
        }
        self = date
    }

    public var yyyymmdd: Int { year * 10000 + month * 100 + day }

    /// Days since 1970-01-01.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    public init(dayNumber: Int) {
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> ServiceDate { ServiceDate(dayNumber: dayNumber + days) }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let w = (dayNumber + 3) % 7  // 1970-01-01 was a Thursday (ISO 4)
        return (w < 0 ? w + 7 : w) + 1
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let y = String(year), m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
        return "\(String(repeating: "0", count: max(0, 4 - y.count)))\(y)-\(m)-\(d)"
    }

    public static func < (lhs: ServiceDate, rhs: ServiceDate) -> Bool { lhs.yyyymmdd < rhs.yyyymmdd }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension ServiceDate {
    /// The instant GTFS times of this service date count from: local noon minus twelve hours.
    /// On a daylight-saving change day this is 23:00 or 01:00 local time of the previous/same day, which is
    /// exactly what makes `08:00:00` mean 08:00 on the clock that day.
    public func serviceDayOrigin(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return noon.addingTimeInterval(-12 * 3600)
    }

    /// The service date whose calendar day contains `instant` in `timeZone`.
    public static func containing(_ instant: Date, in timeZone: TimeZone) -> ServiceDate {
        LocalTime.localParts(instant, in: timeZone).day
    }
}
