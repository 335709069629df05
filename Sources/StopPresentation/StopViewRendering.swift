import Foundation
import TransitModel

/// The stop view as plain text for `kiosk lookup`: readable at a glance, in the chosen language, with every
/// string from the feed sanitised for the terminal.
public enum StopViewText {
    /// - Parameter strikeThrough: cancelled departures are struck through with ANSI SGR 9 (for a terminal);
    ///   they always carry the word too.
    public static func render(_ view: StopView, language: Language, strikeThrough: Bool = false) -> String {
        render(view, locale: PassengerLocale.standard.speaking(language), strikeThrough: strikeThrough)
    }

    /// In the passenger's locale: its language, clock, date style and units.
    public static func render(_ view: StopView, locale: PassengerLocale, strikeThrough: Bool = false) -> String {
        let language = locale.language
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
        facts.append("\(locale.dateAndClock(view.at, in: zone)) \(view.timeZone)")
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
        if let notice = LiveText.notice(view, locale: locale, zone: zone) { lines.append("  " + notice) }
        if view.departures.isEmpty && view.realtimeStatus == .withheld {
            // online mode: nothing rather than stale data (the notice says why)
        } else if view.departures.isEmpty {
            lines.append("  " + Message.noDeparturesInWindow(minutes: view.windowMinutes).text(language))
            if let next = view.nextDeparture {
                let day = LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
                lines.append(
                    "  "
                        + Message.nextDeparture(clock: locale.clock(next.time, in: zone), dayOffset: day).text(
                            language)
                        + "  \(clean(next.routeAndTripNumber)) → \(clean(next.destination))")
            } else {
                lines.append("  " + Message.noDeparturesThisWeek.text(language))
            }
        }
        // Wide enough for a train number beside its route ("AVE 03083") where the feed gives trips one.
        let routeWidth = view.departures.reduce(6) { max($0, TerminalWidth.of(clean($1.routeAndTripNumber))) }
        for departure in view.departures where departure.realtime?.state != .skipped {
            let when =
                departure.minutesFromNow <= 0
                ? Message.now.text(language) : Message.minutesAway(departure.minutesFromNow).text(language)
            var line =
                "  \(padLeft(locale.clock(departure.expectedTime, in: zone), locale.clockWidth))  \(pad(clean(departure.routeAndTripNumber), routeWidth)) \(pad(clean(departure.destination), 28)) \(pad(when, 7))"
            if view.platforms.count > 1, let platform = departure.platformCode {
                line += " " + Message.platform(clean(platform)).text(language)
            }
            if departure.approximate { line += " (\(Message.approximate.text(language)))" }
            if let mark = LiveText.mark(departure, locale: locale, zone: zone) { line += "  " + mark }
            if strikeThrough && departure.realtime?.state == .canceled {
                let body = line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                line = "  \u{1B}[9m" + body.dropFirst(2) + "\u{1B}[29m"
            }
            lines.append(line)
        }
        if let alerts = view.alerts, !alerts.isEmpty {
            lines.append("")
            lines.append(Message.alertsHeading.text(language))
            for alert in alerts {
                lines.append("  ⚠ " + TerminalText.sanitize(alert.header, maxLength: 160))
                if let description = alert.description, !description.isEmpty {
                    lines.append("    " + TerminalText.sanitize(description, maxLength: 400))
                }
            }
            if let more = view.alertsNotShown, more > 0 { lines.append("  … " + Message.moreAlerts(more).text(language)) }
        }

        if !view.serviceSpans.isEmpty {
            lines.append("")
            lines.append(locale.firstAndLastHeading(serviceDate: view.serviceDate))
            for span in view.serviceSpans {
                let towards = span.headsigns.isEmpty ? "" : clean(span.headsigns.joined(separator: " / "))
                lines.append(
                    "  \(pad(clean(span.route.label), 6)) \(pad(towards, 28)) \(locale.clock(span.first, in: zone)) – \(locale.clock(span.last, in: zone))"
                )
            }
        }

        lines.append("")
        lines.append(locale.nearbyHeading(meters: view.nearbyRadiusMeters))
        if view.nearby.isEmpty {
            lines.append("  " + locale.noNearbyStops(meters: view.nearbyRadiusMeters))
        }
        for near in view.nearby {
            let code = near.stop.code.map { " [\(clean($0))]" } ?? ""
            lines.append(
                "  \(pad(clean(near.stop.name) + code, 34)) \(padLeft(locale.distance(meters: near.distanceMeters), 6)) \(pad(near.direction.rawValue, 2))  \(near.routes.map(clean).joined(separator: ", "))"
            )
        }
        return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(
            separator: "\n")
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        let used = TerminalWidth.of(text)
        return used >= width ? text : String(repeating: " ", count: width - used) + text
    }

    /// Pads to a display width, counting wide (CJK) characters as two columns.
    static func pad(_ text: String, _ width: Int) -> String {
        let used = TerminalWidth.of(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }
}

/// The live part of a stop view in words and symbols (never colour alone), shared by `kiosk lookup` and the
/// kiosk screen.
public enum LiveText {
    /// What follows a departure line: "● live +4 min (scheduled 08:03)", "○ timetable", "✕ cancelled",
    /// "● live, extra service"; nil when the view was built without live data.
    public static func mark(_ departure: Departure, language: Language, zone: TimeZone) -> String? {
        mark(departure, locale: PassengerLocale.standard.speaking(language), zone: zone)
    }

    public static func mark(_ departure: Departure, locale: PassengerLocale, zone: TimeZone) -> String? {
        let language = locale.language
        guard let realtime = departure.realtime else { return nil }
        switch realtime.state {
        case .scheduled: return Message.scheduledMark.text(language)
        case .canceled: return Message.canceled.text(language)
        case .skipped: return nil
        case .added: return Message.liveMark.text(language) + ", " + Message.addedTrip.text(language)
        case .updated:
            let minutes = delayMinutes(realtime.delaySeconds ?? 0)
            guard minutes != 0 else { return Message.liveMark.text(language) + ", " + Message.onTime.text(language) }
            return Message.liveMark.text(language) + " " + Message.delayMinutes(minutes).text(language) + " ("
                + Message.scheduledAt(locale.clock(departure.time, in: zone)).text(language) + ")"
        }
    }

    /// A delay in whole minutes as a passenger reads it: under a minute late is on time, 90 s is "+1 min".
    public static func delayMinutes(_ seconds: Int) -> Int {
        seconds >= 0 ? seconds / 60 : -((-seconds) / 60)
    }

    /// The line that says live data is not in force ("live information unavailable since 14:05"), nil when it is
    /// or the view has none.
    public static func notice(_ view: StopView, language: Language, zone: TimeZone) -> String? {
        notice(view, locale: PassengerLocale.standard.speaking(language), zone: zone)
    }

    public static func notice(_ view: StopView, locale: PassengerLocale, zone: TimeZone) -> String? {
        let language = locale.language
        let since = Message.liveUnavailableSince(view.realtimeUnavailableSince.map { locale.clock($0, in: zone) })
        switch view.realtimeStatus {
        case nil, .live?: return nil
        case .stale?: return since.text(language) + ". " + Message.showingTimetable.text(language)
        case .withheld?: return since.text(language) + ". " + Message.liveOnlyNoneShown.text(language)
        }
    }
}

/// The stop view as JSON: the one rendering `kiosk lookup --json` and the web API share (see the README for the
/// fields). Views built without live data have no live fields, so their JSON is what it always was.
public enum StopViewJSON {
    /// Written directly (`StopViewJSONWriter`), the same bytes `KioskJSON.encode` makes of the view.
    public static func render(_ view: StopView) throws -> String {
        StopViewJSONWriter.render(view)
    }
}

/// The JSON every headless consumer reads. Times are ISO 8601 with the agency's offset; see the README for
/// the field list.
public enum KioskJSON {
    /// `keysDeclaredInSnakeCase`: every type in `value` declares its keys in snake case (the stop view's types
    /// do), so Foundation's per-key conversion, which doubles the encoding time of a busy stop's view, is skipped.
    /// The output is the same either way.
    public static func encode<T: Encodable>(
        _ value: T, timeZone: TimeZone, keysDeclaredInSnakeCase: Bool = false
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if !keysDeclaredInSnakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
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
