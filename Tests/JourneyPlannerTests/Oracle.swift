// Brute-force reference: reachability in an explicit time-expanded graph, independent of RAPTOR's
// patterns, rounds, pruning and binary searches.
//
// Nodes: for every trip event, "on board, departing position i" and "on board, arrived at position i";
// for every stop, one waiting node per distinct boardable departure time, chained in time order.
// Edges: waiting → next waiting (0), waiting → board an event departing at that time (cost 1 = one ride),
// departing i → arrived i+1 (0), arrived i → departing i on the same vehicle (0), arrived i (where
// alighting is allowed) → the first waiting node at every stop s' reachable by a permitted change, at
// or after arrival + change time (0). Since every node carries its own time, "earliest arrival with at
// most k rides" is just "the earliest alighting event, reached with ≤ k cost-1 edges, plus egress", found
// with a breadth-first search by levels of rides; "latest departure" is the same search run backwards
// from the alighting events that make the deadline.

import JourneyPlanner

struct Oracle {
    let net: RawNetwork
    let sem: Semantics
    private var out: [[(to: Int, cost: Int)]] = []
    private var into: [[(from: Int, cost: Int)]] = []
    private var waitTimes: [[Int]]  // per stop, sorted
    private var waitNode: [[Int]]  // per stop, parallel to waitTimes
    private var alightings: [(node: Int, stop: Int, time: Int)] = []
    private var boardings: [(node: Int, stop: Int, time: Int)] = []  // node = the "departing" node

    init(_ net: RawNetwork) {
        self.net = net
        self.sem = Semantics(net)
        let n = net.stopCount
        var nodeCount = 0
        func newNode() -> Int { nodeCount += 1; return nodeCount - 1 }

        waitTimes = Array(repeating: [], count: n)
        for trip in net.trips {
            for (i, e) in trip.events.enumerated() where e.canBoard && i < trip.events.count - 1 {
                waitTimes[e.stop].append(e.departure)
            }
        }
        waitTimes = waitTimes.map { Array(Set($0)).sorted() }
        waitNode = waitTimes.map { $0.map { _ in newNode() } }

        var edges: [(Int, Int, Int)] = []
        for s in 0..<n where waitNode[s].count > 1 {
            for m in 0..<(waitNode[s].count - 1) { edges.append((waitNode[s][m], waitNode[s][m + 1], 0)) }
        }
        for trip in net.trips {
            let count = trip.events.count
            let departing = (0..<count).map { $0 < count - 1 ? newNode() : -1 }
            let arrived = (0..<count).map { $0 > 0 ? newNode() : -1 }
            for (i, e) in trip.events.enumerated() {
                if i < count - 1 {
                    edges.append((departing[i], arrived[i + 1], 0))
                    if e.canBoard {
                        let m = waitTimes[e.stop].firstIndex(of: e.departure)!
                        edges.append((waitNode[e.stop][m], departing[i], 1))
                        boardings.append((departing[i], e.stop, e.departure))
                    }
                }
                if i > 0 {
                    if i < count - 1 { edges.append((arrived[i], departing[i], 0)) }
                    if e.canAlight {
                        alightings.append((arrived[i], e.stop, e.arrival))
                        for s in 0..<n {
                            guard let change = sem.transfer(e.stop, s) else { continue }
                            if let m = waitTimes[s].firstIndex(where: { $0 >= e.arrival + change }) {
                                edges.append((arrived[i], waitNode[s][m], 0))
                            }
                        }
                    }
                }
            }
        }
        out = Array(repeating: [], count: nodeCount)
        into = Array(repeating: [], count: nodeCount)
        for (a, b, c) in edges {
            out[a].append((b, c))
            into[b].append((a, c))
        }
    }

    /// Minimum number of cost-1 edges from any source, by levels (0-1 BFS), capped at `limit`.
    private func levels(from sources: [Int], forward: Bool, limit: Int) -> [Int] {
        var level = [Int](repeating: .max, count: out.count)
        var frontier = sources
        var r = 0
        while !frontier.isEmpty && r <= limit {
            var stack: [Int] = []
            for v in frontier where level[v] > r {
                level[v] = r
                stack.append(v)
            }
            var next: [Int] = []
            while let v = stack.popLast() {
                for (w, cost) in forward ? out[v] : into[v].map({ ($0.from, $0.cost) }) {
                    if cost == 0 {
                        if level[w] > r {
                            level[w] = r
                            stack.append(w)
                        }
                    } else if level[w] > r + 1 {
                        next.append(w)
                    }
                }
            }
            frontier = next
            r += 1
        }
        return level
    }

    /// `result[k]` = earliest arrival at the goal with at most k rides (index 0 unused), k ≤ maxTransfers + 1.
    func earliestArrivals(_ query: PlanQuery, departure: Int? = nil) -> [Int?] {
        let start = departure ?? query.departure
        let access = sem.access(query), egress = sem.egress(query)
        var sources: [Int] = []
        for s in 0..<net.stopCount {
            guard let a = access[s], let m = waitTimes[s].firstIndex(where: { $0 >= start + a }) else { continue }
            sources.append(waitNode[s][m])
        }
        let rounds = query.maxTransfers + 1
        let level = levels(from: sources, forward: true, limit: rounds)
        var best = [Int?](repeating: nil, count: rounds + 1)
        for a in alightings where level[a.node] <= rounds {
            guard let e = egress[a.stop] else { continue }
            for k in level[a.node]...rounds { best[k] = min(best[k] ?? .max, a.time + e) }
        }
        return best
    }

    /// The Pareto set on (arrival, rides): rides k whose earliest arrival beats every smaller k.
    func paretoFront(_ query: PlanQuery) -> [(rides: Int, arrival: Int)] {
        let best = earliestArrivals(query)
        var front: [(Int, Int)] = []
        var previous = Int.max
        for k in 1..<best.count {
            if let a = best[k], a < previous {
                front.append((k, a))
                previous = a
            }
        }
        return front
    }

    /// Latest start time from which the goal can be reached by `arrival` with at most `rides` rides.
    func latestDeparture(_ query: PlanQuery, arrival: Int, rides: Int) -> Int? {
        let access = sem.access(query), egress = sem.egress(query)
        let sinks = alightings.filter { a in egress[a.stop].map { a.time + $0 <= arrival } ?? false }.map(\.node)
        let level = levels(from: sinks, forward: false, limit: rides)
        var latest: Int?
        for b in boardings where level[b.node] < rides {
            guard let a = access[b.stop] else { continue }
            latest = max(latest ?? .min, b.time - a)
        }
        return latest
    }
}
