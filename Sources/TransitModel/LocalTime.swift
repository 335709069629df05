import Foundation

/// Reading and writing instants as the people at a stop read them: local time in the agency's time zone.
public enum LocalTime {
    /// What a typed date-time means in a time zone.
    public enum Interpretation: Equatable, Sendable {
        case instant(Date)
        /// A well-formed local time the zone's clocks skip (the daylight-saving gap, e.g. 02:30 on the night
        /// clocks jump from 02:00 to 03:00). Never silently moved to another time.
        case nonexistent
        case unreadable
    }

    /// Parses an ISO 8601 local date-time in `timeZone` — `2026-11-25T08:00`, `2026-11-25T08:00:00`,
    /// `2026-11-25 08:00` — or one with an explicit offset (`…T08:00:00-05:00`, `…Z`). Returns nil otherwise,
    /// including for impossible dates and times and for local times in a daylight-saving gap.
    public static func parse(_ text: String, in timeZone: TimeZone) -> Date? {
        if case let .instant(date) = interpret(text, in: timeZone) { return date }
        return nil
    }

    /// As `parse`, saying why a text is not an instant: unreadable, or a local time that does not exist.
    public static func interpret(_ text: String, in timeZone: TimeZone) -> Interpretation {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.unicodeScalars.count <= 40 else { return .unreadable }
        let withOffset = ISO8601DateFormatter()
        withOffset.formatOptions = [.withInternetDateTime]
        if trimmed.hasSuffix("Z") || trimmed.dropFirst(10).contains("+") || trimmed.dropFirst(10).contains("-") {
            return withOffset.date(from: trimmed.replacingOccurrences(of: " ", with: "T")).map { .instant($0) }
                ?? .unreadable
        }
        let parts = trimmed.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2, let date = ServiceDate(parsing: String(parts[0])) else { return .unreadable }
        let clock = parts[1].split(separator: ":").map { Int($0) }
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }) else { return .unreadable }
        let hour = clock[0]!, minute = clock[1]!, second = clock.count == 3 ? clock[2]! : 0
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return .unreadable }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard
            let instant = calendar.date(
                from: DateComponents(
                    year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second))
        else {
            return .unreadable
        }
        // Calendar moves a time in a gap forward by the gap's length; read the result back to notice.
        let back = localParts(instant, in: timeZone)
        guard back.day == date, back.secondOfDay == hour * 3600 + minute * 60 + second else { return .nonexistent }
        return .instant(instant)
    }

    /// `2026-11-25T08:03:30-05:00`: ISO 8601 with the zone's offset at that instant (the JSON format).
    /// Computed arithmetically: a formatter object per timestamp would dominate a stop view's JSON rendering.
    public static func iso8601(_ date: Date, in timeZone: TimeZone) -> String {
        let (day, secondOfDay, offset) = localParts(date, in: timeZone)
        let sign = offset < 0 ? "-" : "+"
        let offsetMinutes = abs(offset) / 60
        return
            "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))\(sign)\(two(offsetMinutes / 60)):\(two(offsetMinutes % 60))"
    }

    /// `08:03` on the local clock.
    public static func clock(_ date: Date, in timeZone: TimeZone) -> String {
        let secondOfDay = localParts(date, in: timeZone).secondOfDay
        return "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
    }

    /// The local calendar date, the second of that day, and the zone's offset from UTC, at `date`.
    static func localParts(_ date: Date, in timeZone: TimeZone) -> (day: ServiceDate, secondOfDay: Int, offset: Int) {
        let offset = timeZone.secondsFromGMT(for: date)
        let local = Int(wholeSecondsOf: date.timeIntervalSince1970) + offset
        let dayNumber = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (ServiceDate(dayNumber: dayNumber), local - dayNumber * 86_400, offset)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// Whole days between the local dates of two instants (0 same day, 1 tomorrow …).
    public static func dayDifference(from a: Date, to b: Date, in timeZone: TimeZone) -> Int {
        localParts(b, in: timeZone).day.dayNumber - localParts(a, in: timeZone).day.dayNumber
    }
}
