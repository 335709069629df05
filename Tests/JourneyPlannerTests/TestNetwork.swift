// Test-side model of a network exactly as handed to the builder, plus the semantics of walks and
// transfers re-derived from that raw input (deliberately not reusing the library's compiled tables),
// a seeded random generator (KioskTesting's SplitMix64), and a replay validator for returned journeys.

import JourneyPlanner
import KioskTesting

struct RawTrip {
    var ref: Int
    var route: Int
    var events: [StopEvent]
}

struct RawNetwork {
    var stopCount: Int
    var minTransfer: Int
    var groups: [Int?]
    var trips: [RawTrip] = []
    var footpaths: [(from: Int, to: Int, seconds: Int)] = []
    var pairRules: [(from: Int, to: Int, seconds: Int)] = []  // last one wins
    var forbidden: [(from: Int, to: Int)] = []

    init(stopCount: Int, minTransfer: Int = 60) {
        self.stopCount = stopCount
        self.minTransfer = minTransfer
        self.groups = Array(repeating: nil, count: stopCount)
    }

    /// Feeds the builder in a scrambled order when `rng` is given: the builder must not care.
    func timetable(shuffleWith seed: UInt64? = nil) throws -> Timetable {
        var builder = TimetableBuilder(stopCount: stopCount, minTransferSeconds: minTransfer)
        var order = Array(trips.indices)
        if let seed {
            var rng = SplitMix64(seed: seed)
            for i in order.indices.reversed() where i > 0 { order.swapAt(i, rng.int(0...i)) }
        }
        for f in footpaths { try builder.addFootpath(from: f.from, to: f.to, seconds: f.seconds) }
        for t in order { try builder.addTrip(tripRef: trips[t].ref, routeRef: trips[t].route, events: trips[t].events) }
        for r in pairRules { try builder.setMinimumTransfer(from: r.from, to: r.to, seconds: r.seconds) }
        for s in 0..<stopCount { try builder.setStationGroup(groups[s], forStop: s) }
        for f in forbidden { try builder.forbidTransfer(from: f.from, to: f.to) }
        return builder.build()
    }
}

/// Walk and change times straight from the documented rules (see `TimetableBuilder`), as dense matrices.
struct Semantics {
    let n: Int
    let walk: [Int?]  // n * n; walk[a*n+a] == 0
    let transfer: [Int?]  // n * n; nil = impossible or forbidden

    init(_ net: RawNetwork) {
        let n = net.stopCount
        self.n = n
        var walk = [Int?](repeating: nil, count: n * n)
        for f in net.footpaths where f.from != f.to {
            walk[f.from * n + f.to] = min(walk[f.from * n + f.to] ?? .max, f.seconds)
        }
        for a in 0..<n {
            for b in 0..<n where a != b && walk[a * n + b] == nil {
                if let ga = net.groups[a], let gb = net.groups[b], ga == gb { walk[a * n + b] = net.minTransfer }
            }
            walk[a * n + a] = 0
        }
        var rule = [Int?](repeating: nil, count: n * n)
        for r in net.pairRules { rule[r.from * n + r.to] = r.seconds }
        var transfer = [Int?](repeating: nil, count: n * n)
        for a in 0..<n {
            for b in 0..<n {
                if a == b {
                    transfer[a * n + b] = rule[a * n + b] ?? net.minTransfer
                } else if let w = walk[a * n + b] {
                    transfer[a * n + b] = max(w, rule[a * n + b] ?? net.minTransfer)
                } else {
                    transfer[a * n + b] = rule[a * n + b]
                }
            }
        }
        for f in net.forbidden { transfer[f.from * n + f.to] = nil }
        self.walk = walk
        self.transfer = transfer
    }

    func walk(_ a: Int, _ b: Int) -> Int? { walk[a * n + b] }
    func transfer(_ a: Int, _ b: Int) -> Int? { transfer[a * n + b] }

    /// Seconds from the query start to being at `stop`, ready to board (origin offset + at most one walk).
    func access(_ query: PlanQuery) -> [Int?] {
        (0..<n).map { s in
            query.origins.compactMap { o in walk(o.stop, s).map { $0 + o.seconds } }.min()
        }
    }

    /// Seconds from alighting at `stop` to reaching the goal (at most one walk + destination offset).
    func egress(_ query: PlanQuery) -> [Int?] {
        (0..<n).map { s in
            query.destinations.compactMap { d in walk(s, d.stop).map { $0 + d.seconds } }.min()
        }
    }
}

// MARK: - Random networks

struct NetworkShape {
    var stops: ClosedRange<Int>
    var lines: ClosedRange<Int>
    var lineLength: ClosedRange<Int>
    var tripsPerLine: ClosedRange<Int>

    static let small = NetworkShape(stops: 3...14, lines: 1...7, lineLength: 2...6, tripsPerLine: 1...8)
    static let medium = NetworkShape(stops: 20...60, lines: 8...25, lineLength: 3...12, tripsPerLine: 2...15)
    /// Lines with many trips: a trip search that steps a few trips before searching takes both paths.
    static let frequent = NetworkShape(stops: 15...40, lines: 4...10, lineLength: 3...10, tripsPerLine: 20...60)
}

/// A random network exercising every feature: after-midnight trips (times up to ~2 days), overtaking
/// trips on shared stop sequences, loops, boarding/alighting restrictions, footpaths (some zero-length),
/// station groups, pair-specific and forbidden transfers (also at the same stop), zero change times.
func randomNetwork(seed: UInt64, shape: NetworkShape) -> RawNetwork {
    var rng = SplitMix64(seed: seed)
    let n = rng.int(shape.stops)
    // Feeds mostly publish whole minutes, so ties between trips, walks and changes are the norm; half
    // of the networks are quantised to provoke every `<` versus `<=` decision.
    let grain = [1, 60, 60, 300][rng.int(0...3)]
    func q(_ seconds: Int) -> Int { seconds / grain * grain }
    var net = RawNetwork(stopCount: n, minTransfer: q(rng.chance(0.2) ? 0 : rng.int(0...180)))
    for s in 0..<n where rng.chance(0.3) { net.groups[s] = rng.int(0...2) }

    var sequences: [[Int]] = []
    var tripRef = 1000
    for line in 0..<rng.int(shape.lines) {
        var stops: [Int]
        if !sequences.isEmpty && rng.chance(0.25) {
            stops = sequences[rng.int(0...(sequences.count - 1))]  // another route on the same street
        } else {
            stops = [rng.int(0...(n - 1))]
            for _ in 1..<rng.int(shape.lineLength) {
                var next = rng.int(0...(n - 1))
                if next == stops.last! && !rng.chance(0.05) { next = (next + 1) % n }
                stops.append(next)
            }
        }
        sequences.append(stops)
        let baseRun = stops.map { _ in rng.int(0...600) }
        let lineBoard = stops.map { _ in !rng.chance(0.12) }
        let lineAlight = stops.map { _ in !rng.chance(0.12) }
        let regular = rng.chance(0.5)
        var first = rng.int(0...150_000)
        let headway = rng.int(120...3600)
        for _ in 0..<rng.int(shape.tripsPerLine) {
            first = regular ? first + headway : rng.int(0...160_000)
            var time = first
            var events: [StopEvent] = []
            let ownFlags = rng.chance(0.2)
            for (i, stop) in stops.enumerated() {
                if i > 0 { time += max(0, baseRun[i] + (rng.chance(0.3) ? rng.int(-300...300) : 0)) }
                let arrival = time
                if rng.chance(0.3) { time += rng.int(0...90) }
                events.append(
                    StopEvent(
                        stop: stop, arrival: q(arrival), departure: q(time),
                        canBoard: ownFlags ? !rng.chance(0.15) : lineBoard[i],
                        canAlight: ownFlags ? !rng.chance(0.15) : lineAlight[i]))
            }
            net.trips.append(RawTrip(ref: tripRef, route: line, events: events))
            tripRef += 1
            if stops.count > 2 && rng.chance(0.3) {
                // A twin that meets this trip at a timing point: shifted (earlier or identical) before it,
                // identical there, shifted either way after it. Same pattern, and equal times exactly where
                // RAPTOR must choose between two trips with `<=`/`>=` rather than `<`/`>`.
                let meet = rng.int(1...(stops.count - 2))
                let before = q(-rng.int(0...300)), after = q(rng.int(-240...240))
                var twin = events
                for j in twin.indices where j != meet {
                    let shift = j < meet ? before : after
                    twin[j].arrival += shift
                    twin[j].departure += shift
                }
                for j in 1..<twin.count {
                    twin[j].arrival = max(twin[j].arrival, twin[j - 1].departure)
                    twin[j].departure = max(twin[j].departure, twin[j].arrival)
                }
                net.trips.append(RawTrip(ref: tripRef, route: line, events: twin))
                tripRef += 1
            }
        }
    }
    for _ in 0..<rng.int(0...(2 * n)) {
        let a = rng.int(0...(n - 1)), b = rng.int(0...(n - 1))
        let seconds = q(rng.chance(0.1) ? 0 : rng.int(1...900))
        net.footpaths.append((a, b, seconds))
        if rng.chance(0.6) { net.footpaths.append((b, a, seconds + q(rng.chance(0.2) ? rng.int(0...200) : 0))) }
    }
    for _ in 0..<rng.int(0...(n / 2 + 1)) {
        let a = rng.int(0...(n - 1))
        let b = rng.chance(0.35) ? a : rng.int(0...(n - 1))
        net.pairRules.append((a, b, q(rng.int(0...600))))
    }
    for _ in 0..<rng.int(0...(n / 3 + 1)) {
        let a = rng.int(0...(n - 1))
        net.forbidden.append((a, rng.chance(0.4) ? a : rng.int(0...(n - 1))))
    }
    return net
}

func randomQuery(_ rng: inout SplitMix64, stopCount n: Int) -> PlanQuery {
    let grain = rng.chance(0.5) ? 60 : 1
    func ends() -> [StopOffset] {
        (0..<rng.int(1...3)).map { _ in
            StopOffset(stop: rng.int(0...(n - 1)), seconds: rng.chance(0.5) ? 0 : rng.int(0...400) / grain * grain)
        }
    }
    let origins = ends()
    let destinations = rng.chance(0.05) ? origins : ends()
    let maxTransfers = rng.chance(0.1) ? PlanQuery.maxTransfersLimit : rng.int(0...4)
    return PlanQuery(
        origins: origins, destinations: destinations,
        departure: rng.int(-1000...170_000) / grain * grain, maxTransfers: maxTransfers)
}

// MARK: - Replay validation

/// Replays `journey` step by step against the raw network; returns a description of every violation.
func violations(of journey: Journey, for query: PlanQuery, in net: RawNetwork, _ sem: Semantics) -> [String] {
    var problems: [String] = []
    func check(_ ok: Bool, _ message: @autoclosure () -> String) { if !ok { problems.append(message()) } }

    guard let originOffset = query.origins.filter({ $0.stop == journey.originStop }).map(\.seconds).min() else {
        return ["origin \(journey.originStop) is not a query origin"]
    }
    guard
        let destinationOffset = query.destinations.filter({ $0.stop == journey.destinationStop })
            .map(\.seconds).min()
    else {
        return ["destination \(journey.destinationStop) is not a query destination"]
    }
    check(journey.departure >= query.departure, "departs \(journey.departure) before the query \(query.departure)")
    check(journey.rides >= 1, "no ride")
    var here = journey.originStop
    var now = journey.departure + originOffset
    var lastAlight: (stop: Int, time: Int)?
    var previousWasWalk = false
    for (index, leg) in journey.legs.enumerated() {
        switch leg {
        case .walk(let w):
            check(!previousWasWalk, "two walks in a row at leg \(index)")
            check(w.fromStop == here, "walk \(index) starts at \(w.fromStop), passenger is at \(here)")
            check(w.fromStop != w.toStop, "walk \(index) goes nowhere")
            check(w.departure >= now, "walk \(index) leaves at \(w.departure) before \(now)")
            let expected: Int?
            if let alight = lastAlight, index != journey.legs.count - 1 {
                expected = sem.transfer(alight.stop, w.toStop)  // a change between rides
            } else {
                expected = sem.walk(w.fromStop, w.toStop)  // first or last mile
            }
            check(
                expected != nil && w.arrival - w.departure == expected!,
                "walk \(index) \(w.fromStop)→\(w.toStop) takes \(w.arrival - w.departure), expected \(String(describing: expected))"
            )
            here = w.toStop
            now = w.arrival
            previousWasWalk = true
        case .ride(let r):
            previousWasWalk = false
            guard let trip = net.trips.first(where: { $0.ref == r.tripRef }) else {
                problems.append("unknown trip \(r.tripRef)")
                return problems
            }
            let b = r.boardEventIndex, a = r.alightEventIndex
            guard b >= 0 && b < a && a < trip.events.count else {
                problems.append("ride \(index) has event indices \(b)…\(a) for a trip of \(trip.events.count)")
                return problems
            }
            check(r.routeRef == trip.route, "ride \(index) route ref \(r.routeRef) != \(trip.route)")
            check(r.boardStop == here, "ride \(index) boards at \(r.boardStop), passenger is at \(here)")
            check(
                trip.events[b].stop == r.boardStop && trip.events[b].departure == r.boardTime,
                "ride \(index) board event mismatch")
            check(trip.events[b].canBoard, "ride \(index) boards where boarding is not allowed")
            check(
                trip.events[a].stop == r.alightStop && trip.events[a].arrival == r.alightTime,
                "ride \(index) alight event mismatch")
            check(trip.events[a].canAlight, "ride \(index) alights where alighting is not allowed")
            check(r.boardTime >= now, "ride \(index) departs \(r.boardTime) before the passenger is there at \(now)")
            if let alight = lastAlight {
                if let change = sem.transfer(alight.stop, r.boardStop) {
                    check(
                        r.boardTime >= alight.time + change,
                        "change \(alight.stop)→\(r.boardStop) gets \(r.boardTime - alight.time) s, needs \(change)")
                } else {
                    problems.append("change \(alight.stop)→\(r.boardStop) is not allowed")
                }
            }
            lastAlight = (r.alightStop, r.alightTime)
            here = r.alightStop
            now = r.alightTime
        }
    }
    check(here == journey.destinationStop, "ends at \(here), not at destination \(journey.destinationStop)")
    check(
        journey.arrival == now + destinationOffset, "arrival \(journey.arrival) != replayed \(now + destinationOffset)")
    return problems
}
