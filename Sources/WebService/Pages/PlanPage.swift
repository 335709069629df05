import Foundation
import Hummingbird
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

/// `/plan`: the form (from, to, when, leave-at or arrive-by, step-free), a list of stops to choose from when a typed
/// name is partial or shared, and each option as a timeline — times at the left, a coloured line per ride with its
/// badge and destination, walks dotted, every stop named and numbered as on the journey map below it.
extension PageRoutes {
    struct PlanPage {
        /// One line of an option's timeline: a stop (numbered as on the map), a ride or a walk.
        struct Row {
            var stop = false
            var ride = false
            var walk = false
            /// A stop: its numbers on the map (["3"], or ["3", "4"] where a walk or ride ends and the next starts),
            /// its times (arrival, then departure when they differ), name and code.
            var numbers: [String] = []
            var times: [String] = []
            var name: String?
            var code: String?
            /// A ride: the route's badge and page, where it goes, and how long.
            var colourClass: String?
            var label: String?
            var href: String?
            var linkLabel: String?
            var destination: String?
            var detail: String?
            var live: String?
            /// A walk: "Walk, 4 min".
            var text: String?
        }
        struct Option {
            var summary: String
            /// "08:03 → 10:48".
            var span: String
            var rows: [Row]
            /// The journey map, numbered as the timeline's stops; nil for options offered without one.
            var map: StopPage.Picture?
            var mapHeading: String
        }
        struct Result {
            var title: String
            var leaving: String
            var options: [Option]
            var none: String?
            /// Live data, step-free: what the plan is based on, in words (issue 23).
            var notes: [String] = []
            /// A step-free plan without options: the ordinary ones, apart.
            var ordinaryHeading: String? = nil
            var ordinary: [Option] = []
        }
        /// A typed name that matches several stops: the stops, each a link to the same plan with that stop.
        struct Choice {
            var heading: String
            var detail: String
            var candidates: [Candidate]
        }
        struct Candidate {
            var href: String
            var name: String
            var code: String?
            var station: String?
            var routes: [Badge]
        }
        struct Badge {
            var colourClass: String
            var label: String
        }
        var page: PageRenderer.Frame
        var heading: String
        var fromLabel: String
        var toLabel: String
        var whenLabel: String
        var planLabel: String
        var from: String
        var to: String
        var at: String
        var problem: String?
        var result: Result?
        /// The leave-at / arrive-by choice and the step-free box (issue 23).
        var leaveLabel = ""
        var arriveLabel = ""
        var wheelchairLabel = ""
        var arriving = false
        var wheelchair = false
        var choices: [Choice] = []
    }

    func planPage(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = language(request)
        let database = service.databases.current()
        let from = (query["from"] ?? "").trimmingCharacters(in: .whitespaces)
        let to = (query["to"] ?? "").trimmingCharacters(in: .whitespaces)
        var problem: String?
        var result: PlanPage.Result?
        var choices: [PlanPage.Choice] = []
        var status: HTTPResponse.Status = .ok
        let pageQuery: [(String, String)] = [
            ("from", from), ("to", to), ("at", query["at"] ?? ""), ("when", query["when"] ?? ""),
            ("arrive_by", query["arrive_by"] ?? ""), ("wheelchair", query["wheelchair"] ?? ""),
        ].filter { !$0.1.isEmpty }
        var fromName = from
        if !from.isEmpty && !to.isEmpty {
            do {
                // Each end a stop, or a list to choose from (never a silent pick among several).
                var ends: [String: ResolvedStop] = [:]
                for (field, text) in [("from", from), ("to", to)] {
                    switch try database.resolvePlace(text) {
                    case .stop(let stop): ends[field] = stop
                    case .choose(let candidates):
                        choices.append(
                            Self.choice(
                                field: field, text: text, candidates: candidates, query: pageQuery, language: lang))
                    }
                }
                if let origin = ends["from"] { fromName = origin.stop.name }
                if choices.isEmpty, let origin = ends["from"], let destination = ends["to"] {
                    result = try plan(
                        query, from: origin.stop.id, to: destination.stop.id, database: database, language: lang)
                }
            } catch let error as LookupError {
                problem = Self.plainMessage(error, language: lang)
                status = Problem.from(error).status
            } catch let error as Problem {
                problem = error.detail
                status = error.status
            }
        }
        let model = PlanPage(
            page: PageRenderer.Frame(
                language: lang, title: Message.webPlanTitle.text(lang), path: "/plan", query: pageQuery,
                feedTag: feedTag(database)),
            heading: Message.webPlanTitle.text(lang), fromLabel: Message.webFrom.text(lang),
            toLabel: Message.webTo.text(lang), whenLabel: Message.webWhen.text(lang),
            planLabel: Message.webFindWay.text(lang), from: fromName, to: to, at: query["at"] ?? "",
            problem: problem, result: result, leaveLabel: PlanChoiceText.leave.text(lang),
            arriveLabel: PlanChoiceText.arrive.text(lang), wheelchairLabel: PlanChoiceText.wheelchair.text(lang),
            arriving: query["when"] == "arrive" || query["arrive_by"] != nil,
            wheelchair: ["true", "1", "on", "yes"].contains(query["wheelchair"]?.lowercased() ?? ""),
            choices: choices)
        return Responses.html(
            service.pages.render(model, "plan"),
            cacheSeconds: status == .ok && choices.isEmpty ? service.config.server.cacheSeconds : nil, status: status)
    }

    /// The plan between two resolved stops, as the page shows it.
    private func plan(
        _ query: QueryParameters, from: String, to: String, database: RouteDatabase, language lang: Language
    ) throws -> PlanPage.Result {
        let at = try query.instant(in: database.timeZone, now: service.now())
        var (options, earliest) = try query.planOptions(in: database.timeZone, at: at, now: service.now())
        if query["when"] == "arrive", options.arriveBy == nil {
            // The form's one time field, read as the moment to arrive by.
            options.arriveBy = at.date
            earliest = max(at.date.addingTimeInterval(-PlanOptions.arriveByWindow), service.now())
        }
        let plan = try JourneyPlanning.plan(
            from: from, to: to, at: earliest, maxTransfers: service.config.maxTransfers, database: database,
            config: service.config, options: options, live: service.live?.live, now: service.now())
        let stepFreeKnown = plan.stepFree == true ? ((try? database.hasStepFreeData()) ?? true) : true
        return Self.planModel(
            plan, language: lang, conventions: service.config.passengerLocale, stepFreeDataKnown: stepFreeKnown)
    }

    static func choice(
        field: String, text: String, candidates: [PlaceCandidate], query: [(String, String)], language lang: Language
    ) -> PlanPage.Choice {
        PlanPage.Choice(
            heading: (field == "from" ? PhoneMessage.fromField : PhoneMessage.toField).text(lang) + ": "
                + PhoneMessage.choosePlace(FeedText.shown(text, limit: 80)).text(lang),
            detail: PhoneMessage.choosePlaceDetail.text(lang),
            candidates: candidates.map { candidate in
                // The code when the stop has one (a URL value is a code before an ID: the one URL rule), else the ID.
                let value = candidate.stop.code.flatMap { $0.isEmpty ? nil : $0 } ?? candidate.stop.id
                let chosen = query.map { $0.0 == field ? ($0.0, value) : $0 } + [("lang", lang.rawValue)]
                var seen = Set<String>()
                return PlanPage.Candidate(
                    href: "/plan?"
                        + chosen.map { "\(PageRenderer.Frame.encode($0.0))=\(PageRenderer.Frame.encode($0.1))" }
                        .joined(separator: "&"),
                    name: FeedText.shown(candidate.stop.name),
                    code: candidate.stop.code.map { FeedText.shown($0, limit: 40) },
                    station: candidate.stop.parentStationName.map { Message.station(FeedText.shown($0)).text(lang) },
                    routes: candidate.routes.filter { seen.insert($0.label).inserted }.prefix(12).map {
                        PlanPage.Badge(
                            colourClass: RouteColours.className($0), label: FeedText.shown($0.label, limit: 40))
                    })
            })
    }

    static func plainMessage(_ error: LookupError, language: Language) -> String {
        switch error {
        case .noSuchStop(let query, _): return Message.noSuchStop(query).text(language)
        case .outsideServiceRange(_, let start, let end):
            return Message.outOfService(start: start.description, end: end.description).text(language)
        default: return error.description
        }
    }

    /// The page's options of `plan`. `stepFreeDataKnown` false: the feed says nothing about step-free access, so a
    /// step-free plan found none for that reason — the page says so and shows the ordinary journeys.
    /// `conventions`: the process's passenger locale, whose clock and date style the times are written in.
    static func planModel(
        _ plan: JourneyPlan, language lang: Language, conventions: PassengerLocale = .standard,
        stepFreeDataKnown: Bool = true
    ) -> PlanPage.Result {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let locale = conventions.speaking(lang)
        let clock = { (date: Date) in locale.clock(date, in: zone) }
        // Each list of options with the plan its maps are drawn from: the ordinary journeys offered beside a
        // step-free plan that found none are the options of a plan without the step-free choice.
        func model(_ plan: JourneyPlan, maps: Bool) -> [PlanPage.Option] {
            plan.options.enumerated().map { number, option in
                let transfers =
                    option.transfers == 0
                    ? Message.direct.text(lang) : Message.transferCount(option.transfers).text(lang)
                return PlanPage.Option(
                    summary: PhoneMessage.option(
                        number: number + 1, duration: DurationText.minutes(option.durationMinutes),
                        transfers: transfers
                    ).text(lang),
                    span: "\(clock(option.departure)) → \(clock(option.arrival))",
                    rows: timeline(option, clock: clock, language: lang),
                    map: maps
                        ? StopPage.Picture(
                            href: StopLinks.journeyMap(plan, option: number + 1, language: lang),
                            alt: Message.journeyMapTitle(option: number + 1, from: plan.from.name, to: plan.to.name)
                                .text(lang)) : nil,
                    mapHeading: PhoneMessage.journeyMap.text(lang))
            }
        }
        var options = model(plan, maps: true)
        var notes: [String] = []
        switch (plan.liveTimesUsed, plan.realtimeStatus) {
        case (true?, _): notes.append(PlanMessage.plansUseLiveTimes.text(lang))
        case (false?, _):
            notes.append(PlanMessage.plansOnTimetableSince(plan.realtimeUnavailableSince.map(clock)).text(lang))
        case (nil, _): break
        }
        var ordinaryPlan = plan
        ordinaryPlan.options = plan.withoutStepFree ?? []
        ordinaryPlan.stepFree = nil
        ordinaryPlan.withoutStepFree = nil
        var ordinary: [PlanPage.Option] = []
        var none: String?
        if plan.stepFree == true && !stepFreeDataKnown && options.isEmpty {
            // Nothing to choose step-free journeys by: say that, and show the usual journeys as the options.
            notes.append(PhoneMessage.stepFreeUnknownFeed.text(lang))
            options = model(ordinaryPlan, maps: true)
            if options.isEmpty { none = Message.noJourney(maxTransfers: plan.maxTransfers).text(lang) }
        } else {
            if plan.stepFree == true {
                notes.append(PlanMessage.stepFreeOnly.text(lang))
                notes.append(PlanMessage.stepFreeUnknownValues.text(lang))
            }
            ordinary = plan.stepFree == true && options.isEmpty ? model(ordinaryPlan, maps: true) : []
            none =
                options.isEmpty
                ? (plan.stepFree == true
                    ? PlanMessage.noStepFreeJourney.text(lang)
                    : Message.noJourney(maxTransfers: plan.maxTransfers).text(lang)) : nil
        }
        return PlanPage.Result(
            title: Message.journeyHeading(from: FeedText.shown(plan.from.name), to: FeedText.shown(plan.to.name))
                .text(lang),
            leaving: plan.arriveBy.map {
                PlanMessage.arrivingBy(locale.dateAndClock($0, in: zone), earliest: clock(plan.at)
                ).text(lang)
            }
                ?? Message.leavingFrom(locale.dateAndClock(plan.at, in: zone)).text(lang),
            options: options, none: none, notes: notes,
            ordinaryHeading: ordinary.isEmpty ? nil : PlanMessage.ordinaryJourneysHeading.text(lang),
            ordinary: ordinary)
    }

    /// An option as a timeline whose stops carry the journey map's numbers (`JourneyMapSVG.points`: a walk numbers
    /// where it ends, a ride where it is boarded and where it is left). Where one leg ends at the stop the next
    /// starts from, the two are one stop row with both numbers and both times.
    static func timeline(
        _ option: JourneyOption, clock: (Date) -> String, language lang: Language
    ) -> [PlanPage.Row] {
        var rows: [PlanPage.Row] = []
        var number = 0
        var lastStopID: String?
        func stop(_ info: StopInfo, time: Date, numbered: Bool) {
            var numberText: String?
            if numbered {
                number += 1
                numberText = "\(number)"
            }
            if lastStopID == info.id, var last = rows.popLast() {
                last.numbers += [numberText].compactMap { $0 }
                if last.times.last != clock(time) { last.times.append(clock(time)) }
                rows.append(last)
            } else {
                rows.append(
                    PlanPage.Row(
                        stop: true, numbers: [numberText].compactMap { $0 }, times: [clock(time)],
                        name: FeedText.shown(info.name), code: info.code.map { FeedText.shown($0, limit: 40) }))
            }
            lastStopID = info.id
        }
        for (index, step) in option.legs.enumerated() {
            switch step.kind {
            case .walk:
                if index == 0 { stop(step.from, time: step.departure, numbered: false) }
                rows.append(PlanPage.Row(walk: true, text: PhoneMessage.walk(minutes: step.minutes).text(lang)))
                lastStopID = nil
                stop(step.to, time: step.arrival, numbered: true)
            case .ride:
                let scheduled = clock(step.departure)
                stop(step.from, time: step.realtime?.predictedDeparture ?? step.departure, numbered: true)
                let label = step.route.map { FeedText.shown($0.label, limit: 40) }
                var detail = [
                    PhoneMessage.rideStops(step.stops ?? 0).text(lang), DurationText.minutes(step.minutes),
                ]
                if let number = step.tripShortName, !number.isEmpty, number != step.route?.label {
                    detail.insert(FeedText.shown(number, limit: 20), at: 0)
                }
                rows.append(
                    PlanPage.Row(
                        ride: true, colourClass: step.route.map(RouteColours.className), label: label,
                        href: step.route.map { RouteLinks.page($0, from: step.from, language: lang) },
                        linkLabel: label.map { BrowseMessage.routeLink($0).text(lang) },
                        destination: FeedText.shown(step.destination ?? step.headsign ?? step.route?.longName ?? ""),
                        detail: detail.joined(separator: " · "),
                        live: step.realtime.map { JourneyPlanText.rideMark($0, scheduled: scheduled, language: lang) }))
                lastStopID = nil
                stop(step.to, time: step.realtime?.predictedArrival ?? step.arrival, numbered: true)
            }
        }
        return rows
    }
}
