import Foundation
import TransitModel

/// The stop view as plain text for `kiosk lookup`: readable at a glance, in the chosen language, with every
/// string from the feed sanitised for the terminal.
public enum StopViewText {
    public static func render(_ view: StopView, language: Language) -> String {
        let zone = TimeZone(identifier: view.timeZone) ?? .current
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 80) }
        var lines: [String] = []

        var title = clean(view.stop.name)
        if let code = view.stop.code { title += "  [\(clean(code))]" }
        lines.append(title)
        var facts: [String] = []
        if let station = view.stop.parentStationName { facts.append(Message.station(clean(station)).text(language)) }
        if let platform = view.stop.platformCode { facts.append(Message.platform(clean(platform)).text(language)) }
        switch view.stop.wheelchairBoarding {
        case .accessible: facts.append(Message.wheelchairAccessible.text(language))
        case .notAccessible: facts.append(Message.notWheelchairAccessible.text(language))
        case .unknown: break
        }
        facts.append(
            "\(LocalTime.iso8601(view.at, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")) \(view.timeZone)"
        )
        lines.append(facts.joined(separator: " · "))

        lines.append("")
        lines.append(Message.routes.text(language))
        for entry in view.routes {
            let headsigns = entry.directions.flatMap(\.headsigns).map(clean)
            lines.append(
                "  \(pad(clean(entry.route.label), 6)) \(pad(entry.route.mode.name(language), 10)) → \(headsigns.joined(separator: " / "))"
            )
        }

        lines.append("")
        lines.append(Message.departures(minutes: view.windowMinutes).text(language))
        if view.departures.isEmpty {
            lines.append("  " + Message.noDeparturesInWindow(minutes: view.windowMinutes).text(language))
            if let next = view.nextDeparture {
                let day = LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
                lines.append(
                    "  "
                        + Message.nextDeparture(clock: LocalTime.clock(next.time, in: zone), dayOffset: day).text(
                            language)
                        + "  \(clean(next.route.label)) → \(clean(next.headsign))")
            } else {
                lines.append("  " + Message.noDeparturesThisWeek.text(language))
            }
        }
        for departure in view.departures {
            let when =
                departure.minutesFromNow <= 0
                ? Message.now.text(language) : Message.minutesAway(departure.minutesFromNow).text(language)
            var line =
                "  \(LocalTime.clock(departure.time, in: zone))  \(pad(clean(departure.route.label), 6)) \(pad(clean(departure.headsign), 28)) \(pad(when, 7))"
            if view.platforms.count > 1, let platform = departure.platformCode {
                line += " " + Message.platform(clean(platform)).text(language)
            }
            if departure.approximate { line += " (\(Message.approximate.text(language)))" }
            lines.append(line)
        }

        if !view.serviceSpans.isEmpty {
            lines.append("")
            lines.append(Message.firstAndLast(date: view.serviceDate).text(language))
            for span in view.serviceSpans {
                let towards = span.headsigns.isEmpty ? "" : clean(span.headsigns.joined(separator: " / "))
                lines.append(
                    "  \(pad(clean(span.route.label), 6)) \(pad(towards, 28)) \(LocalTime.clock(span.first, in: zone)) – \(LocalTime.clock(span.last, in: zone))"
                )
            }
        }

        lines.append("")
        lines.append(Message.nearby(meters: view.nearbyRadiusMeters).text(language))
        if view.nearby.isEmpty {
            lines.append("  " + Message.noNearbyStops(meters: view.nearbyRadiusMeters).text(language))
        }
        for near in view.nearby {
            let code = near.stop.code.map { " [\(clean($0))]" } ?? ""
            lines.append(
                "  \(pad(clean(near.stop.name) + code, 34)) \(String(format: "%4d", near.distanceMeters)) m \(pad(near.direction.rawValue, 2))  \(near.routes.map(clean).joined(separator: ", "))"
            )
        }
        return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(
            separator: "\n")
    }

    /// Pads to a display width, counting wide (CJK) characters as two columns.
    static func pad(_ text: String, _ width: Int) -> String {
        let used = TerminalWidth.of(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }
}

/// The JSON every headless consumer reads. Times are ISO 8601 with the agency's offset; see the README for
/// the field list.
public enum KioskJSON {
    public static func encode<T: Encodable>(_ value: T, timeZone: TimeZone) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(LocalTime.iso8601(date, in: timeZone))
        }
        return JSONText.escapingInvisibleControls(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// Terminal column widths: combining marks take none, East Asian wide and fullwidth characters two.
public enum TerminalWidth {
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }
}
