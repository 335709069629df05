import ArgumentParser
import Foundation
import JourneyPlanner
import Realtime
import TransitModel
import TransitStore
import TripPlanning

/// From a poll's bytes to plans using them (issue 23): decode and match a TripUpdates feed (what every poll
/// already does for the board), then apply it to the planning timetable as a `TimetableOverlay` (the live copies
/// and added trips compiled, the cancelled and replaced trips flagged), published once per poll. Then plans on
/// that overlay against plans on the timetable alone, between the same random stop pairs.
struct LivePlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-plan",
        abstract: "Time from a TripUpdates poll's data to plans using it (target 1 s with 50,000 updates)."
    )

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Stop time updates in the generated feed.")
    var stopTimeUpdates = 50_000

    @Option(help: "Timed runs (after one warm-up).")
    var runs = 5

    @Option(help: "Random plans on each side of the comparison.")
    var plans = 300

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let date = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let at = date.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(12 * 3600 + 8 * 3600)
        let (data, trips) = try RealtimeBench.generateFeed(routes: routes, date: date, stopTimeUpdates: stopTimeUpdates)
        let (network, compile) = try Measure.seconds { try routes.planningNetwork(around: at) }
        let recordsRoutes = try routes.routeRecords()
        let index = TripReferenceIndex(network.timetable)
        let (stepFree, stepFreeTime) = try Measure.seconds { try routes.stepFreeOverlay(for: network, index: index) }
        var decodeTimes: [Double] = [], matchTimes: [Double] = [], overlayTimes: [Double] = [], totals: [Double] = []
        var overlay: PlanningOverlay?
        for run in 0...runs {
            let fetchedAt = Date()
            let (feed, decode) = try Measure.seconds { try RealtimeFeed.decode(data) }
            let (live, match) = try Measure.seconds {
                try TripUpdateMatcher.match(feed, database: routes, referenceTime: at)
            }
            let (built, apply) = try Measure.seconds {
                try routes.liveOverlay(
                    for: network, live: live, key: .init(headerTimestamp: feed.headerTimestamp, fetchedAt: fetchedAt),
                    routes: recordsRoutes, stepFree: stepFree, index: index)
            }
            overlay = built
            if run == 0 { continue }
            decodeTimes.append(decode); matchTimes.append(match); overlayTimes.append(apply)
            totals.append(decode + match + apply)
        }
        let live = overlay!
        // Plans between random stop pairs, with and without the overlay, on one planner each.
        let planner = Planner(timetable: network.timetable)
        var rng = SystemRandomNumberGenerator()
        let stops = network.timetable.stopCount
        let departure = network.timelineSeconds(at)
        var plain: [Double] = [], withLive: [Double] = []
        for _ in 0..<plans {
            let query = PlanQuery(
                from: Int.random(in: 0..<stops, using: &rng), to: Int.random(in: 0..<stops, using: &rng),
                departure: departure, maxTransfers: 4)
            plain.append(Measure.seconds { planner.plan(query) }.1)
            withLive.append(Measure.seconds { planner.plan(query, overlay: live.overlay) }.1)
        }
        plain.sort(); withLive.sort()
        func p(_ v: [Double], _ q: Double) -> String { Measure.ms(v[min(v.count - 1, Int(Double(v.count) * q))]) }
        print(
            """
            live-plan: TripUpdates feed of \(trips) trips, \(stopTimeUpdates) stop time updates (\(data.count / 1024) KB) on \(db), service day \(date)
              planning network (compiled once): \(network.timetable.tripCount) trips, \(network.timetable.stopEventCount) stop events, \(Measure.ms(compile)); step-free overlay \(Measure.ms(stepFreeTime))
              overlay: \(live.overlay.cancelledTripCount) trips cancelled, \(live.overlay.replacedTripCount) replaced by live copies, \(live.overlay.addedTripCount) added; \(live.overlay.memoryFootprintBytes / 1024) KB; \(live.tripsOutsideNetwork) trip instances outside the network
              decode                       min \(Measure.ms(decodeTimes.min()!))  median \(Measure.ms(Measure.median(decodeTimes)))
              match + propagate (with DB)  min \(Measure.ms(matchTimes.min()!))  median \(Measure.ms(Measure.median(matchTimes)))
              overlay for plans            min \(Measure.ms(overlayTimes.min()!))  median \(Measure.ms(Measure.median(overlayTimes)))
              poll data → plans using it   min \(Measure.ms(totals.min()!))  median \(Measure.ms(Measure.median(totals)))  (target 1 s)
              \(plans) random plans, timetable only   p50 \(p(plain, 0.5))  p99 \(p(plain, 0.99))
              \(plans) random plans, with the overlay p50 \(p(withLive, 0.5))  p99 \(p(withLive, 0.99))
            """)
    }
}
