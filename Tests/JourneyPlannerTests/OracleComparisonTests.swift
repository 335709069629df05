// Planner vs. brute-force oracle on thousands of random queries over random networks. Every failure message
// carries the network seed and query index; rerun one case by putting its seed in `reproduce`.

import JourneyPlanner
import KioskTesting
import Testing

/// Compares one query; returns failure descriptions (empty = agreement).
func compare(_ planner: Planner, _ oracle: Oracle, _ query: PlanQuery, label: String) -> [String] {
    let journeys = planner.plan(query)
    let front = oracle.paretoFront(query)
    var problems: [String] = []
    let got = journeys.map { "\($0.rides)@\($0.arrival)" }
    let want = front.map { "\($0.rides)@\($0.arrival)" }
    if got != want {
        problems.append("\(label): Pareto set \(got), oracle \(want); query \(query)")
        return problems
    }
    for journey in journeys {
        for v in violations(of: journey, for: query, in: oracle.net, oracle.sem) {
            problems.append("\(label): invalid journey (\(v)): \(journey)")
        }
        // Latest departure: the backward oracle, and the forward oracle one second later.
        let latest = oracle.latestDeparture(query, arrival: journey.arrival, rides: journey.rides)
        if latest != journey.departure {
            problems.append(
                "\(label): departs \(journey.departure), latest possible \(String(describing: latest)): \(journey)")
        }
        let later = oracle.earliestArrivals(query, departure: journey.departure + 1)
        if let a = later[journey.rides], a <= journey.arrival {
            problems.append("\(label): leaving 1 s later still arrives by \(a): \(journey)")
        }
    }
    return problems
}

/// Runs `queries` random queries on the network from `seed`, with one reused planner (exercising the
/// O(touched) reset) and, every few queries, a fresh planner that must return identical journeys.
func runRandomCase(
    seed: UInt64, shape: NetworkShape, queries: Int
) throws -> (compared: Int, journeys: Int, problems: [String]) {
    let net = randomNetwork(seed: seed, shape: shape)
    let timetable = try net.timetable(shuffleWith: seed ^ 0x5555)
    let planner = Planner(timetable: timetable)
    let oracle = Oracle(net)
    var rng = SplitMix64(seed: seed ^ 0xA5A5_A5A5)
    var problems: [String] = []
    var journeys = 0
    for q in 0..<queries {
        let query = randomQuery(&rng, stopCount: net.stopCount)
        let label = "seed \(seed) query \(q)"
        problems += compare(planner, oracle, query, label: label)
        if q % 4 == 0 && Planner(timetable: timetable).plan(query) != planner.plan(query) {
            problems.append("\(label): a fresh planner disagrees with the reused one")
        }
        journeys += planner.plan(query).count
        if problems.count > 5 { break }
    }
    return (queries, journeys, problems)
}

@Suite("Planner against the time-expanded oracle")
struct OracleComparisonTests {
    /// 40 batches × 25 small networks × 8 queries = 8,000 queries.
    @Test(arguments: 0..<40)
    func smallRandomNetworks(batch: Int) throws {
        var problems: [String] = []
        var journeys = 0
        for i in 0..<25 {
            let seed = UInt64(batch * 1000 + i)
            let result = try runRandomCase(seed: seed, shape: .small, queries: 8)
            problems += result.problems
            journeys += result.journeys
            if !problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(journeys > 0)
    }

    /// 10 batches × 4 medium networks × 50 queries = 2,000 queries.
    @Test(arguments: 0..<10)
    func mediumRandomNetworks(batch: Int) throws {
        try expectNoProblems(seeds: (0..<4).map { UInt64(1_000_000 + batch * 100 + $0) }, shape: .medium, queries: 50)
    }

    /// 4 batches × 3 networks of frequent lines × 40 queries = 480 queries: earlier and later trips many places
    /// away from the one ridden.
    @Test(arguments: 0..<4)
    func frequentLineNetworks(batch: Int) throws {
        try expectNoProblems(seeds: (0..<3).map { UInt64(2_000_000 + batch * 100 + $0) }, shape: .frequent, queries: 40)
    }

    /// Runs the random cases of `seeds` in turn, stopping at the first network with a problem, and expects none.
    private func expectNoProblems(seeds: [UInt64], shape: NetworkShape, queries: Int) throws {
        var problems: [String] = []
        for seed in seeds where problems.isEmpty {
            problems += try runRandomCase(seed: seed, shape: shape, queries: queries).problems
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// Sanity check of the test itself: random queries must often have answers, sometimes several.
    @Test func randomQueriesFindJourneys() throws {
        var withJourney = 0, multi = 0
        for seed in UInt64(7_000)..<7_050 {
            let net = randomNetwork(seed: seed, shape: .medium)
            let oracle = Oracle(net)
            var rng = SplitMix64(seed: seed)
            for _ in 0..<10 {
                let front = oracle.paretoFront(randomQuery(&rng, stopCount: net.stopCount))
                if !front.isEmpty { withJourney += 1 }
                if front.count > 1 { multi += 1 }
            }
        }
        #expect(withJourney > 150)
        #expect(multi > 30)
    }
}
