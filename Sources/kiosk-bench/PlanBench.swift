import ArgumentParser
import Foundation
import JourneyPlanner
import TransitModel
import TransitStore
import TripPlanning

/// The journey planner on a real-size network: building the timetable of the days a query touches from the
/// database, its memory, and 1,000 random stop-to-stop queries (planner alone, and dressed as a JourneyPlan).
struct PlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Timetable build time, memory and query latency.")

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Random stop-to-stop queries.")
    var count = 1000

    @Option(help: "Timetable builds to time.")
    var builds = 3

    @Option(help: "Most transfers per query.")
    var maxTransfers = 4

    @Option(help: "Walking radius in metres.")
    var walkRadius = 400

    @Option(help: "Random seed.")
    var seed: UInt64 = 7

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let day = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let morning = day.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(7 * 3600)
        let rules = PlanningRules(walkRadiusMeters: walkRadius)

        var buildTimes: [Double] = []
        var network: PlanningNetwork?
        for _ in 0..<builds {
            let (built, seconds) = try Measure.seconds { try routes.planningNetwork(around: morning, rules: rules) }
            buildTimes.append(seconds)
            network = built
        }
        let timetable = network!.timetable
        print(
            """
            timetable for \(network!.serviceDates.first!)…\(network!.serviceDates.last!) around \(day) (\(timetable.tripCount) trips, \(timetable.stopEventCount) stop events, \(timetable.walkCount) walks)
              build from the database: min \(Measure.format(buildTimes.min()!))  median \(Measure.format(Measure.median(buildTimes)))  (limit 1.5 s)
              memory: \(String(format: "%.1f", Double(timetable.memoryFootprintBytes) / 1_048_576)) MB
            """)

        let planner = Planner(timetable: timetable)
        let stops = try routes.boardingStopIDs()
        var rng = SplitMix64(seed: seed)
        var plannerTimes: [Double] = [], dressedTimes: [Double] = []
        var answered = 0
        for _ in 0..<count {
            let a = stops[Int(rng.next() % UInt64(stops.count))], b = stops[Int(rng.next() % UInt64(stops.count))]
            guard a != b else { continue }
            let from = try routes.resolveStop(.id(a)), to = try routes.resolveStop(.id(b))
            guard from.stop.id != to.stop.id, Set(from.platforms.map(\.id)).isDisjoint(with: to.platforms.map(\.id))
            else { continue }
            let at = morning.addingTimeInterval(Double(rng.next() % (14 * 3600)))
            // The planner alone, as the issue's figure asks…
            let query = PlanQuery(
                origins: from.platforms.compactMap { stopIndex(of: $0, routes) }.map { StopOffset(stop: $0) },
                destinations: to.platforms.compactMap { stopIndex(of: $0, routes) }.map { StopOffset(stop: $0) },
                departure: network!.timelineSeconds(at), maxTransfers: maxTransfers)
            let (journeys, raw) = Measure.seconds { planner.plan(query) }
            plannerTimes.append(raw)
            if !journeys.isEmpty { answered += 1 }
            // …and the whole answer a passenger gets (legs resolved to stops, trips and times).
            let (_, dressed) = try Measure.seconds {
                try routes.plan(
                    from: from, to: to, at: at, maxTransfers: maxTransfers, rules: rules, network: network,
                    planner: planner)
            }
            dressedTimes.append(dressed)
        }
        plannerTimes.sort(); dressedTimes.sort()
        print(
            """
            \(plannerTimes.count) random stop-to-stop queries (max \(maxTransfers) transfers, \(walkRadius) m walks), \(answered) with a journey:
              planner:        p50 \(Measure.ms(Measure.percentile(plannerTimes, 50)))  p99 \(Measure.ms(Measure.percentile(plannerTimes, 99)))  max \(Measure.ms(plannerTimes.last!))  (limits p50 ≤ 10 ms, p99 ≤ 50 ms; goal p50 ≤ 3 ms)
              whole answer:   p50 \(Measure.ms(Measure.percentile(dressedTimes, 50)))  p99 \(Measure.ms(Measure.percentile(dressedTimes, 99)))  max \(Measure.ms(dressedTimes.last!))
              planner scratch memory: \(String(format: "%.1f", Double(planner.scratchBytes) / 1_048_576)) MB
            """)
    }

    private func stopIndex(of stop: StopInfo, _ routes: RouteDatabase) -> Int? {
        routes.plannerIndex(ofStopID: stop.id)
    }
}
