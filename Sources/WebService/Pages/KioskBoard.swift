import Foundation
import StopPresentation
import TransitModel
import TransitStore

/// The `/kiosk` board of one stop, a fixed display read from a couple of metres: the stop's name and code, a clock,
/// whether the times are live or from the timetable, one row per route and destination with its next few times
/// ("CX → Centennial Express · now · 14 · 29 min", the group leaving next first), and the stop's alerts condensed
/// to a line. The page's script pages the rows and the alerts when more than fit (`KioskScript`).
struct KioskBoard {
    struct Time {
        /// "now", "14" (minutes), "≈14" (from a headway), or a clock beyond the hour ("09:41").
        var text: String
        /// " · " before every time but the first (in the text, not only drawn, so it is read and copied).
        var separator: String?
        /// "●" live, "✕" cancelled; nil for a timetable time.
        var mark: String?
        /// "min" after the row's last time in minutes.
        var unit: String?
        /// The time in words for the `title`: its clock and live mark ("08:14 ● live +4 min (scheduled 08:10)").
        var title: String
        var live: Bool
        var canceled: Bool
    }
    struct Row {
        var colourClass: String
        var label: String
        var destination: String
        /// The operator at an interchange of several, the platform at a station of several.
        var extra: String?
        var times: [Time]
    }
    struct Alert {
        var header: String
        /// "Alert 1 of 3" when there are several (the line pages through them).
        var count: String?
    }
    var name: String
    var fullName: String?
    var code: String?
    var facts: String?
    var source: String
    var sourceLive: Bool
    var clock: ClockFace
    var liveNotice: String?
    var serviceNotice: String?
    var serviceNoticeDetail: String?
    var departuresHeading: String
    var rows: [Row]
    var alertsHeading: String
    var alerts: [Alert]
    var emptyNote: String?
    var nextNote: String?
    /// "Page {n} of {total}" in the board's language, for the script's page indicator.
    var pageWords: String
    var has_rows = false
    var has_alerts = false

    /// The board's clock: the server's time (the page ticks it on), the stop's offset from UTC, and the
    /// passenger locale's clock for the page to tick on in: 12 or 24 hours and its words for before and after noon.
    struct ClockFace {
        var text: String
        var nowMillis: Int64
        var offsetSeconds: Int
        var hours: Int
        var am: String
        var pm: String

        init(_ at: Date, zone: TimeZone, locale: PassengerLocale = .standard) {
            text = locale.clock(at, in: zone)
            nowMillis = Int64((at.timeIntervalSince1970 * 1000).rounded())
            offsetSeconds = zone.secondsFromGMT(for: at)
            hours = locale.clock == .twelveHour ? 12 : 24
            // The words as the locale writes them after 12:00 ("12:00 AM", "12:00 p. m.").
            let suffix = { (seconds: Int) in
                String(locale.clock(serviceSeconds: seconds).drop(while: { $0 != " " }).dropFirst())
            }
            am = hours == 12 ? suffix(0) : ""
            pm = hours == 12 ? suffix(12 * 3600) : ""
        }
    }

    /// Times shown per row: the next three, as stop monitors do.
    static let timesPerRow = 3

    /// `hidden`: the ids of alerts that already take the screen (the takeover band), not repeated in the line.
    /// `conventions`: the process's passenger locale, whose clock the board's times are on.
    init(
        _ view: StopView, language lang: Language, conventions: PassengerLocale = .standard, hidden: Set<String>,
        serviceNotice: (heading: String, detail: String)?
    ) {
        let zone = TimeZone(identifier: view.timeZone) ?? .current
        let locale = conventions.speaking(lang)
        name = FeedText.shown(view.stop.name)
        fullName = FeedText.whole(view.stop.name)
        code = view.stop.code.map { FeedText.shown($0, limit: 40) }
        var facts: [String] = []
        if let platform = view.stop.platformCode {
            facts.append(Message.platform(FeedText.shown(platform, limit: 40)).text(lang))
        }
        if view.stop.wheelchairBoarding == .accessible { facts.append("♿") }
        self.facts = facts.isEmpty ? nil : facts.joined(separator: " · ")
        sourceLive = view.realtimeStatus == .live
        source = (sourceLive ? BoardMessage.liveTimes : .timetableTimes).text(lang)
        clock = ClockFace(view.at, zone: zone, locale: locale)
        liveNotice = LiveText.notice(view, language: lang, zone: zone)
        self.serviceNotice = serviceNotice?.heading
        serviceNoticeDetail = serviceNotice?.detail
        departuresHeading = Message.departures(minutes: view.windowMinutes).text(lang)
        rows = Self.rows(view, locale: locale, zone: zone)
        alertsHeading = Message.alertsHeading.text(lang)
        let shown = (view.alerts ?? []).filter { !hidden.contains($0.id) }
        alerts = shown.enumerated().map { index, alert in
            Alert(
                header: FeedText.shown(alert.header, limit: 240),
                count: shown.count > 1 ? BoardMessage.alertCount(index + 1, of: shown.count).text(lang) : nil)
        }
        // The line's last turn says how many the view left out ("… and 35 more alerts"), as the phone page does.
        if let notShown = view.alertsNotShown, !alerts.isEmpty {
            alerts.append(Alert(header: "… " + Message.moreAlerts(notShown).text(lang), count: nil))
        }
        if view.departures.isEmpty && serviceNotice == nil {
            emptyNote = Message.noDeparturesInWindow(minutes: view.windowMinutes).text(lang)
            if let next = view.nextDeparture {
                nextNote =
                    Message.nextDeparture(
                        clock: locale.clock(next.time, in: zone),
                        dayOffset: LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
                    ).text(lang)
                    + " · \(FeedText.shown(next.route.label, limit: 40)) → \(FeedText.shown(next.destination))"
            } else {
                nextNote = Message.noDeparturesThisWeek.text(lang)
            }
        }
        pageWords = BoardMessage.page("{n}", of: "{total}").text(lang)
        has_rows = !rows.isEmpty
        has_alerts = !alerts.isEmpty
    }

    /// One row per route and destination, the one leaving next first (by the live time where there is one).
    static func rows(_ view: StopView, locale: PassengerLocale, zone: TimeZone) -> [Row] {
        let lang = locale.language
        let departures = view.departures.filter { $0.realtime?.state != .skipped }
            .enumerated().sorted { ($0.element.expectedTime, $0.offset) < ($1.element.expectedTime, $1.offset) }
            .map(\.element)
        let severalOperators = Set(departures.compactMap(\.route.feedID)).count > 1
        return DepartureGroup.grouping(departures, timesPerGroup: timesPerRow).map { group in
            var extra: [String] = []
            if severalOperators { extra.append(FeedText.shown(group.route.agency, limit: 60)) }
            if view.platforms.count > 1, let platform = group.departures.first?.platformCode {
                extra.append(Message.platform(FeedText.shown(platform, limit: 20)).text(lang))
            }
            var times = group.departures.map { time($0, at: view.at, locale: locale, zone: zone) }
            for index in times.indices.dropFirst() { times[index].separator = " · " }
            if let last = times.lastIndex(where: { !$0.text.contains(":") && $0.text != Message.now.text(lang) }) {
                times[last].unit = BoardMessage.minutesUnit.text(lang)
            }
            return Row(
                colourClass: RouteColours.className(group.route), label: FeedText.shown(group.route.label, limit: 40),
                destination: FeedText.shown(group.destination),
                extra: extra.isEmpty ? nil : extra.joined(separator: " · "),
                times: times)
        }
    }

    static func time(_ departure: Departure, at: Date, locale: PassengerLocale, zone: TimeZone) -> Time {
        let lang = locale.language
        let expected = departure.expectedTime
        let minutes = Int((expected.timeIntervalSince(at) / 60).rounded(.down))
        var text =
            minutes <= 0 ? Message.now.text(lang) : minutes < 60 ? "\(minutes)" : locale.clock(expected, in: zone)
        if departure.approximate && minutes > 0 { text = "≈" + text }
        let state = departure.realtime?.state
        let live = state == .updated || state == .added
        let canceled = state == .canceled
        let mark = LiveText.mark(departure, language: lang, zone: zone)
        return Time(
            text: text, separator: nil, mark: canceled ? "✕" : live ? "●" : nil, unit: nil,
            title: locale.clock(expected, in: zone) + (mark.map { " " + $0 } ?? ""), live: live, canceled: canceled)
    }

    /// The home screen without a stop: the scan prompt, large, under the clock.
    struct Prompt {
        var heading: String
        var detail: String
        var clock: ClockFace
    }
}

/// A plan on the kiosk's on-screen planner: each option's summary and its steps in words, no maps (one option at a
/// time fits the screen; the phone's `/plan` has the maps).
struct KioskPlan {
    struct Leg {
        var colourClass: String?
        var label: String?
        var text: String
    }
    struct Option {
        var summary: String
        var legs: [Leg]
    }
    var title: String
    var leaving: String
    var notes: [String]
    var options: [Option]
    var none: String?
    var problem: String?

    init(problem: String) {
        title = ""
        leaving = ""
        notes = []
        options = []
        self.problem = problem
    }

    init(_ plan: JourneyPlan, language lang: Language, conventions: PassengerLocale = .standard) {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let locale = conventions.speaking(lang)
        let clock = { (date: Date) in locale.clock(date, in: zone) }
        title = Message.journeyHeading(from: FeedText.shown(plan.from.name), to: FeedText.shown(plan.to.name))
            .text(lang)
        leaving = Message.leavingFrom(clock(plan.at)).text(lang)
        notes = []
        options = plan.options.enumerated().map { number, option in
            let transfers =
                option.transfers == 0 ? Message.direct.text(lang) : Message.transferCount(option.transfers).text(lang)
            return Option(
                summary: Message.option(
                    number: number + 1, departure: clock(option.departure), arrival: clock(option.arrival),
                    minutes: option.durationMinutes, transfers: transfers
                ).text(lang),
                legs: option.legs.map { step in
                    switch step.kind {
                    case .walk:
                        return Leg(
                            colourClass: nil, label: nil,
                            text: clock(step.departure) + " "
                                + Message.walkTo(minutes: step.minutes, stop: FeedText.shown(step.to.name)).text(lang))
                    case .ride:
                        let towards = step.destination ?? step.headsign ?? ""
                        return Leg(
                            colourClass: step.route.map(RouteColours.className),
                            label: step.route.map { FeedText.shown($0.label, limit: 40) },
                            text: clock(step.realtime?.predictedDeparture ?? step.departure) + " "
                                + Message.take(
                                    route: FeedText.shown(step.route?.label ?? "?", limit: 40),
                                    headsign: FeedText.shown(towards), stop: FeedText.shown(step.from.name)
                                ).text(lang) + " · " + clock(step.realtime?.predictedArrival ?? step.arrival) + " "
                                + Message.getOffAt(stop: FeedText.shown(step.to.name), stops: step.stops ?? 0)
                                .text(lang))
                    }
                })
        }
        none = options.isEmpty ? Message.noJourney(maxTransfers: plan.maxTransfers).text(lang) : nil
        problem = nil
    }
}
