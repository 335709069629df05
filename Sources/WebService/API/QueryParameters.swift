import Foundation
import Hummingbird
import KioskConfiguration
import TransitModel

/// The query string, decoded strictly: `+` is a space (HTML forms), `%XX` must be two hex digits and the result
/// UTF-8, or the request is a 400 (Hummingbird's own parser would pass a malformed value on as it is).
struct QueryParameters {
    private var values: [(String, String)] = []

    init(_ request: Request) throws {
        guard let query = request.uri.query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // A form's "+" is a space (in Swift alone: Foundation's replacingOccurrences showed in every request).
            func spaced(_ text: Substring) -> String { String(text.map { $0 == "+" ? " " : $0 }) }
            guard let name = Self.percentDecode(spaced(parts[0])),
                let value = Self.percentDecode(parts.count > 1 ? spaced(parts[1]) : "")
            else {
                throw Problem.badRequest(
                    "the query has a malformed percent-encoding in '\(String(pair.prefix(60)))' (a % must be followed by two hex digits, and the text must be UTF-8)"
                )
            }
            values.append((name, value))
        }
    }

    subscript(_ name: String) -> String? { values.first { $0.0 == name }?.1 }

    /// A whole number in `range`, or nil when absent; 400 naming the parameter otherwise.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text.trimmingSpaces()), range.contains(value) else {
            throw Problem.badRequest(
                "\(name) must be a whole number between \(range.lowerBound) and \(range.upperBound) (got '\(String(text.prefix(40)))')"
            )
        }
        return value
    }

    /// Non-empty text, at most `RouteDatabase.maxQueryLength` long, required.
    func require(_ name: String, example: String) throws -> String {
        guard let value = self[name]?.trimmingSpaces(), !value.isEmpty else {
            throw Problem.badRequest("the query parameter '\(name)' is required, e.g. \(example)")
        }
        return value
    }

    /// The years `at` may name: wider than any timetable, narrow enough for the calendar to be exact.
    static let acceptedYears = 1900...2199

    /// `at`: a local date-time in the agency's zone (as `kiosk lookup --at`); absent → `now` to the minute, so
    /// that answers within one minute are identical and cacheable.
    func instant(in timeZone: TimeZone, now: Date) throws -> (date: Date, given: Bool) {
        guard let text = self["at"], !text.isEmpty else {
            return (Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60), false)
        }
        // A year far from any timetable (0001, 9999) is refused for what it is, before the calendar arithmetic
        // (which turns Julian centuries and local mean time into a "does not exist" answer) sees it.
        let trimmed = text.trimmingSpaces()
        if let year = Int(trimmed.prefix(4)), trimmed.prefix(4).allSatisfy({ $0.isASCII && $0.isNumber }),
            trimmed.dropFirst(4).first == "-", !Self.acceptedYears.contains(year)
        {
            throw Problem.badRequest(
                "at: '\(String(text.prefix(40)))' is outside the accepted range: a local date-time from \(Self.acceptedYears.lowerBound)-01-01T00:00 to \(Self.acceptedYears.upperBound)-12-31T23:59"
            )
        }
        switch LocalTime.interpret(text, in: timeZone) {
        case .instant(let date): return (date, true)
        case .nonexistent:
            throw Problem.badRequest(
                "at: '\(String(text.prefix(40)))' does not exist in \(timeZone.identifier): the clocks skip it when daylight saving time starts"
            )
        case .unreadable:
            throw Problem.badRequest(
                "at: cannot read the time '\(String(text.prefix(40)))'; use a local date-time such as 2026-11-25T08:00")
        }
    }

    /// Decodes `%XX` escapes; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecode(_ text: some StringProtocol) -> String? {
        guard text.contains("%") else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else {
                    return nil
                }
                output.append(high << 4 | low)
            } else {
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// The reader's language: `?lang=`, else the first `Accept-Language` we speak, else the config's.
enum LanguageChoice {
    static func pick(request: Request, config: KioskConfig, strict: Bool = false) -> Language {
        (try? choose(request: request, config: config, strict: false)) ?? config.language
    }

    /// With `strict`, an unknown `?lang=` is a 400 (the API); pages fall back instead.
    static func choose(request: Request, config: KioskConfig, strict: Bool) throws -> Language {
        if let requested = (try? QueryParameters(request))?["lang"], !requested.isEmpty {
            if let language = Language(rawValue: requested.lowercased()) { return language }
            if strict {
                throw Problem.badRequest("lang must be 'es' or 'en' (got '\(String(requested.prefix(20)))')")
            }
        }
        if let header = request.headers[.acceptLanguage] {
            // The tags by quality, ties in the order listed (the sort is by position too, so the rule is pinned:
            // kiosk/deploy/nginx/stopkiosk.conf keys its cache on the first es/en item when that one item has no
            // parameters, which is this choice only while ties keep their order). Empty pieces are kept, so that
            // `;en` and `-en` are not English.
            let ranked = header.split(separator: ",").enumerated().compactMap { index, item -> (String, Double, Int)? in
                let parts = item.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
                guard let tag = parts.first?.lowercased(), !tag.isEmpty else { return nil }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return (String(tag.split(separator: "-", omittingEmptySubsequences: false)[0]), quality, index)
            }.filter { $0.1 > 0 }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }
            for (tag, _, _) in ranked {
                if let language = Language(rawValue: tag) { return language }
            }
        }
        return config.language
    }
}
