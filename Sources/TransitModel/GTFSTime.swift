/// A GTFS time of day: seconds counted from "noon minus 12 h" of the service date.
///
/// GTFS lets a trip run past midnight of its service day, so `25:10:00` is a valid time (01:10 the next
/// calendar morning). On most days "noon minus 12 h" is midnight; on a daylight-saving change day it is not,
/// which is why times are offsets from that instant and never wall-clock times.
public struct GTFSTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public init(hours: Int, minutes: Int, seconds: Int = 0) {
        self.seconds = hours * 3600 + minutes * 60 + seconds
    }

    /// Parses `H:MM:SS` or `HH:MM:SS` (hours may exceed 23; GTFS allows up to any day count but real feeds
    /// stay below 48). Surrounding spaces are ignored. Returns nil for anything else.
    public init?(parsing text: Substring) {
        guard let value = GTFSTime.parse(bytes: Array(text.utf8)) else { return nil }
        self.seconds = value
    }

    public init?(parsing text: String) { self.init(parsing: Substring(text)) }

    /// The byte-level parser used by the importer's hot loop (no String is created per value).
    /// Accepts `H:MM:SS`, `HH:MM:SS` and `HHH:MM:SS`; minutes and seconds must be two digits below 60.
    @inlinable
    public static func parse<C: Collection>(bytes: C) -> Int? where C.Element == UInt8 {
        var hours = 0, minutes = 0, secs = 0
        var part = 0, digitsInPart = 0
        var sawAny = false
        var trailingSpace = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if trailingSpace { return nil }
                let digit = Int(byte &- UInt8(ascii: "0"))
                digitsInPart += 1
                sawAny = true
                switch part {
                case 0:
                    guard digitsInPart <= 3 else { return nil }
                    hours = hours * 10 + digit
                case 1: minutes = minutes * 10 + digit
                default: secs = secs * 10 + digit
                }
            case UInt8(ascii: ":"):
                if trailingSpace { return nil }
                guard digitsInPart > 0, part < 2 else { return nil }
                if part == 1 && digitsInPart != 2 { return nil }
                part += 1
                digitsInPart = 0
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if sawAny { trailingSpace = true }
            default:
                return nil
            }
        }
        guard part == 2, digitsInPart == 2, minutes < 60, secs < 60 else { return nil }
        return hours * 3600 + minutes * 60 + secs
    }

    /// `HH:MM:SS`, with hours past 23 kept as GTFS writes them (`25:10:00`).
    public var description: String {
        let h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60
        return "\(Self.twoDigits(h)):\(Self.twoDigits(m)):\(Self.twoDigits(s))"
    }

    /// `HH:MM` on the clock a passenger reads (hours folded into 0–23).
    public var clockText: String {
        let h = (seconds / 3600) % 24, m = (seconds % 3600) / 60
        return "\(Self.twoDigits(h)):\(Self.twoDigits(m))"
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    public static func < (lhs: GTFSTime, rhs: GTFSTime) -> Bool { lhs.seconds < rhs.seconds }
}
