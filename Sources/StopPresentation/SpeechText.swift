import Foundation
import TransitModel

/// How much a spoken rendering says. A kiosk speaks the short form first; the passenger asks for the full one.
public enum SpeechDetail: String, Sendable, CaseIterable, Codable {
    /// The stop (or journey), alerts, and the next departures of the first few lines: about 15 seconds.
    case short
    /// Adds the station, platform and accessibility, more lines and times, first and last service, every option.
    case full
}

/// A stop view as text for a speech synthesiser: built from the same `StopView` the screen draws, written for
/// the ear ("Parada El Ejido. Línea L1 hacia El Labrador, en 3 minutos, luego en 7 minutos."). Alerts come
/// first; live states are said in words; feed text is sanitised (no control characters, capped lengths).
///
/// The speech is plain text (no SSML): the synthesiser must be called without markup parsing, so feed text
/// cannot inject voice commands.
public enum StopViewSpeech {
    public static func text(_ view: StopView, language: Language, detail: SpeechDetail = .short) -> String {
        let zone = TimeZone(identifier: view.timeZone) ?? .current
        let say = { (message: Message) in message.text(language) }
        let clean = { (text: String) in SpeechText.clean(text) }
        var sentences = [say(.speechStop(clean(view.stop.name)))]
        if detail == .full {
            if let station = view.stop.parentStationName { sentences.append(say(.speechStation(clean(station)))) }
            if let platform = view.stop.platformCode { sentences.append(say(.speechPlatform(clean(platform)))) }
            switch view.stop.wheelchairBoarding {
            case .accessible: sentences.append(say(.speechAccessible(true)))
            case .notAccessible: sentences.append(say(.speechAccessible(false)))
            case .unknown: break
            }
        }

        // Alerts first, the most severe first.
        let alerts = (view.alerts ?? []).enumerated().sorted {
            (SpeechText.severityRank($0.element.severity), $0.offset) < (
                SpeechText.severityRank($1.element.severity), $1.offset
            )
        }.map(\.element)
        let alertLimit = detail == .short ? 2 : 6
        for alert in alerts.prefix(alertLimit) {
            var text = SpeechText.trimmingFinalStop(clean(alert.header))
            if detail == .full, let description = alert.description.map({ SpeechText.clean($0, maxLength: 240) }),
                !description.isEmpty
            {
                text += ". " + SpeechText.trimmingFinalStop(description)
            }
            sentences.append(say(.speechAlert(text)))
        }
        let alertCount = alerts.count + (view.alertsNotShown ?? 0)
        if alertCount > alertLimit {
            sentences.append(say(.speechMoreAlerts(alertCount - min(alerts.count, alertLimit))))
        }

        if view.departures.contains(where: { $0.realtime?.state == .updated || $0.realtime?.state == .added }) {
            sentences.append(say(.speechLiveTimes))
        }

        // Departures grouped by line and destination, in the order of each group's first departure (as the board).
        let groups = DepartureGroup.grouping(view.departures, timesPerGroup: .max)
        let groupLimit = detail == .short ? 3 : 8
        let timesPerGroup = detail == .short ? 2 : 3
        for group in groups.prefix(groupLimit) {
            // A group may hold several trains: the line is said, not one train's number.
            var sentence = say(.speechLine(route: clean(group.route.label), headsign: clean(group.destination)))
            for (index, departure) in group.departures.prefix(timesPerGroup).enumerated() {
                let when = phrase(departure, zone: zone, language: language)
                switch index {
                case 0: sentence += ", " + when
                case 1: sentence += ", " + say(.speechThen(when))
                default: sentence += " " + say(.speechAndThen(when))
                }
            }
            sentences.append(sentence + ".")
        }
        if groups.count > groupLimit { sentences.append(say(.speechMoreLines(groups.count - groupLimit))) }

        if view.departures.isEmpty {
            sentences.append(say(.speechNoDepartures(minutes: view.windowMinutes)))
            if let next = view.nextDeparture {
                let line = say(.speechLine(route: clean(next.routeAndTripNumber), headsign: clean(next.destination)))
                sentences.append(
                    say(
                        .speechNextDeparture(
                            line: SpeechText.lowercasingFirst(line, language),
                            when: SpeechText.clock(next.time, zone: zone, language: language),
                            dayOffset: LocalTime.dayDifference(from: view.at, to: next.time, in: zone))))
            } else {
                sentences.append(say(.speechNoDeparturesThisWeek))
            }
        }

        if detail == .full {
            for span in view.serviceSpans.prefix(8) {
                let headsigns = span.headsigns.map(clean).joined(separator: language == .es ? " o " : " or ")
                sentences.append(
                    say(
                        .speechFirstLast(
                            line: say(.speechLine(route: clean(span.route.label), headsign: headsigns)),
                            first: SpeechText.clock(span.first, zone: zone, language: language),
                            last: SpeechText.clock(span.last, zone: zone, language: language))))
            }
        }
        return sentences.joined(separator: " ")
    }

    /// When one departure leaves, as said: "en 3 minutos", "ahora", "a las 9 y 15" (an hour or more away), with
    /// its live state in words when live data is in force.
    public static func phrase(_ departure: Departure, zone: TimeZone, language: Language) -> String {
        let say = { (message: Message) in message.text(language) }
        let clock = SpeechText.clock(departure.time, zone: zone, language: language)
        let minutes = departure.minutesFromNow
        let when =
            minutes <= 0
            ? say(.speechNow)
            : minutes >= 60 ? clock : say(.speechInMinutes(minutes, approximate: departure.approximate))
        guard let status = status(departure.realtime) else { return when }
        switch departure.realtime?.state {
        case .canceled?, .skipped?: return clock + ", " + say(status)  // the timetable time that will not run
        default: return when + ", " + say(status)
        }
    }

    /// The live state of a departure as a word, or nil when there is nothing to say: no live data, or a live
    /// prediction within a minute of the timetable (its time is already the predicted one).
    public static func status(_ realtime: DepartureRealtime?) -> Message? {
        guard let realtime else { return nil }
        switch realtime.state {
        case .scheduled: return .speechOnSchedule
        case .canceled: return .speechCanceled
        case .skipped: return .speechSkipped
        case .added: return .speechAdded
        case .updated:
            let minutes = Int((Double(realtime.delaySeconds ?? 0) / 60).rounded())
            if minutes >= 2 { return .speechLate(minutes: minutes) }
            if minutes <= -2 { return .speechEarly(minutes: -minutes) }
            return nil
        }
    }
}

/// A journey plan as text for a speech synthesiser. The short form says the best option and how many others
/// there are; the full form says every option. What the screen says of the plan is said too: arrive-by, live
/// times (a live ride's predicted time and its delay, as the board says a departure's), step-free only, and the
/// ordinary options offered when no step-free one exists.
public enum JourneyPlanSpeech {
    public static func text(_ plan: JourneyPlan, language: Language, detail: SpeechDetail = .short) -> String {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let say = { (message: Message) in message.text(language) }
        // The screen's sentences without its symbols (● ○) and with a heading's colon as a full stop.
        let sayPlan = { (message: PlanMessage) in
            var text = message.text(language).replacingOccurrences(of: "● ", with: "")
            if text.hasSuffix(":") { text = String(text.dropLast()) + "." }
            return text
        }
        let clean = { (text: String) in SpeechText.clean(text) }
        let clock = { (date: Date) in SpeechText.clock(date, zone: zone, language: language) }
        var sentences = [say(.speechJourney(from: clean(plan.from.name), to: clean(plan.to.name)))]
        if let deadline = plan.arriveBy {
            sentences.append(
                sayPlan(.arrivingBy(LocalTime.clock(deadline, in: zone), earliest: LocalTime.clock(plan.at, in: zone)))
                    + ".")
        }
        switch (plan.liveTimesUsed, plan.realtimeStatus) {
        case (true?, _): sentences.append(sayPlan(.plansUseLiveTimes))
        case (false?, _?):
            sentences.append(sayPlan(.plansOnTimetableSince(plan.realtimeUnavailableSince.map(clock))))
        default: break
        }
        var options = plan.options
        if plan.stepFree == true {
            sentences.append(sayPlan(.stepFreeOnly))
            if options.isEmpty {
                sentences.append(sayPlan(.noStepFreeJourney))
                if let ordinary = plan.withoutStepFree, !ordinary.isEmpty {
                    sentences.append(sayPlan(.ordinaryJourneysHeading))
                    options = ordinary
                }
            }
        }
        if options.isEmpty {
            sentences.append(say(.speechNoJourney(maxTransfers: plan.maxTransfers)))
        }
        let shown = detail == .short ? 1 : 3
        for (number, option) in options.prefix(shown).enumerated() {
            if detail == .full && options.count > 1 { sentences.append(say(.speechOption(number + 1))) }
            sentences.append(
                say(
                    .speechLeaveArrive(
                        leave: clock(option.departure), arrive: clock(option.arrival),
                        minutes: option.durationMinutes, transfers: option.transfers)))
            for step in option.legs {
                switch step.kind {
                case .walk:
                    sentences.append(say(.speechWalk(minutes: max(1, step.minutes), stop: clean(step.to.name))))
                case .ride:
                    var when = clock(step.realtime?.predictedDeparture ?? step.departure)
                    if let live = step.realtime,
                        let status = StopViewSpeech.status(
                            DepartureRealtime(
                                state: live.state, delaySeconds: live.delaySeconds,
                                predictedTime: live.predictedDeparture))
                    {
                        when += ", " + say(status)
                    }
                    sentences.append(
                        say(
                            .speechTake(
                                route: clean(step.routeAndTripNumber ?? "?"), headsign: clean(step.shownDestination),
                                stop: clean(step.from.name), when: when)))
                    sentences.append(say(.speechGetOff(stop: clean(step.to.name), stops: step.stops ?? 1)))
                }
            }
        }
        if options.count > shown { sentences.append(say(.speechMoreOptions(options.count - shown))) }
        return sentences.joined(separator: " ")
    }
}

/// Helpers shared by the spoken renderings.
public enum SpeechText {
    /// `text` as a spoken sentence: a full stop added unless it already ends as a sentence does.
    public static func sentence(_ text: String) -> String {
        guard let last = text.last, !".?!…".contains(last) else { return text }
        return text + "."
    }

    /// Feed text made safe and short for a voice: no control, escape or bidirectional characters, one line.
    public static func clean(_ text: String) -> String { clean(text, maxLength: 80) }

    static func clean(_ text: String, maxLength: Int) -> String {
        TerminalText.sanitize(text, maxLength: maxLength).trimmingCharacters(in: .whitespaces)
    }

    /// A local clock time as said: "a las 8 y 15" / "at 8:15 am".
    public static func clock(_ date: Date, zone: TimeZone, language: Language) -> String {
        let parts = LocalTime.clock(date, in: zone).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { return LocalTime.clock(date, in: zone) }
        return Message.speechAt(hour: parts[0], minute: parts[1]).text(language)
    }

    static func severityRank(_ severity: String) -> Int {
        switch severity {
        case "severe": return 0
        case "warning": return 1
        case "info": return 2
        default: return 3
        }
    }

    static func trimmingFinalStop(_ text: String) -> String {
        var text = text
        while let last = text.last, last == "." || last == " " { text.removeLast() }
        return text
    }

    static func lowercasingFirst(_ text: String, _ language: Language) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// Numbers as a Spanish voice should say them before a noun: espeak-ng reads "1 minuto" as "uno minuto" and
/// "21 minutos" as "veintiuno minutos", so the forms ending in one are written as words (apocope: "un",
/// "veintiún", "treinta y un"; feminine "una", "veintiuna"). Other numbers stay digits, which it reads well.
public enum SpokenNumber {
    public static func es(_ n: Int, feminine: Bool = false) -> String {
        guard n > 0, n < 100, n % 10 == 1, n != 11 else { return String(n) }
        let one = feminine ? "una" : "un"
        switch n {
        case 1: return one
        case 21: return feminine ? "veintiuna" : "veintiún"
        default:
            let tens = ["", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
            return "\(tens[n / 10]) y \(one)"
        }
    }
}

/// Clock times as people say them: "a las 8 y 15", "a la una y 5", "a las veintiuna y 10"; "at 8:15 am",
/// "at 8 oh 5 am" (espeak-ng says "8:05" as "eight zero five"), "at noon", "at midnight".
public enum SpokenClock {
    public static func spanish(hour: Int, minute: Int) -> String {
        let hourText: String
        switch hour {
        case 1: hourText = "a la una"
        case 21: hourText = "a las veintiuna"
        default: hourText = "a las \(hour)"
        }
        return minute == 0 ? hourText : "\(hourText) y \(minute)"
    }

    public static func english(hour: Int, minute: Int) -> String {
        if minute == 0 && hour == 12 { return "at noon" }
        if minute == 0 && hour == 0 { return "at midnight" }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        let suffix = hour < 12 ? "am" : "pm"
        switch minute {
        case 0: return "at \(twelve) \(suffix)"
        case 1..<10: return "at \(twelve) oh \(minute) \(suffix)"
        default: return "at \(twelve):\(minute) \(suffix)"
        }
    }
}

/// Durations as said: "58 minutos", "una hora y 5 minutos"; "58 minutes", "one hour and 5 minutes".
public enum SpokenDuration {
    public static func spanish(_ minutes: Int) -> String {
        let m = minutes % 60
        let h = minutes / 60
        let minuteText = m == 1 ? "un minuto" : "\(SpokenNumber.es(m)) minutos"
        guard h > 0 else { return minuteText }
        let hourText = h == 1 ? "una hora" : "\(SpokenNumber.es(h, feminine: true)) horas"
        return m == 0 ? hourText : "\(hourText) y \(minuteText)"
    }

    public static func english(_ minutes: Int) -> String {
        let m = minutes % 60
        let h = minutes / 60
        let minuteText = m == 1 ? "one minute" : "\(m) minutes"
        guard h > 0 else { return minuteText }
        let hourText = h == 1 ? "one hour" : "\(h) hours"
        return m == 0 ? hourText : "\(hourText) and \(minuteText)"
    }
}
