// Round-based public-transit routing (RAPTOR, Delling, Pajor, Werneck 2012) over a compiled `Timetable`.
//
// A query runs in two phases:
// 1. Forward RAPTOR from the departure time gives, for every number of rides k, the earliest arrival
//    A_k using at most k rides. Round k of RAPTOR is exactly "one more ride", so the Pareto set on
//    (arrival, rides) is every k whose A_k is strictly earlier than A_{k-1}.
// 2. For each such k, reverse RAPTOR from the destinations with deadline A_k and at most k rides computes
//    the latest moment to leave the origin. Earliest arrival is monotone in the departure time, so that
//    latest departure still achieves exactly A_k, and it needs exactly k rides (fewer would contradict
//    A_{k-1} > A_k). The reverse search records parent pointers per round, and since it runs backwards,
//    unwinding them yields the legs in travel order. Its labels are pruned by the best departure found so
//    far and, from the start, by the query's departure time, so it only explores the window
//    [departure, A_k] and is usually much cheaper than the forward search.
//
// Labels. Forward, "arrival" at a stop is the earliest arrival by a ride, and "ready" is the earliest
// moment one can board there: origin offset and walk for round 0, otherwise arrival plus the change time
// to that stop (same stop or via a walk; forbidden pairs simply have no entry). Keeping the two apart is
// what makes stop-pair transfer rules exact. Because only "ready" is used for boarding and it is updated
// after all routes of a round are scanned, a single array of best labels across rounds suffices (the
// usual RAPTOR local pruning), plus target pruning with the best destination arrival so far. The last rounds
// also skip what cannot reach a destination with the rides left (`setUpDestinationReach`): the final round scans
// only patterns that stop near a destination, the one before only those that stop where a change leads to one.
// The reverse search mirrors this with "board" (latest departure by a ride that still makes it) and
// "deadline" (latest arrival by a ride at a stop that still makes it).

/// Reusable query context: scratch arrays sized for one timetable, reset in time proportional to what the
/// previous query touched, so a kiosk (or a benchmark) can run query after query without allocating in the
/// search. Not thread-safe: use one `Planner` per thread; they can share one `Timetable`.
///
/// ```swift
/// var builder = TimetableBuilder(stopCount: 3, minTransferSeconds: 60)
/// try builder.addTrip(tripRef: 0, routeRef: 7, events: [
///     StopEvent(stop: 0, time: 8 * 3600),
///     StopEvent(stop: 1, time: 8 * 3600 + 600),
/// ])
/// try builder.addFootpath(from: 1, to: 2, seconds: 120)
/// let planner = Planner(timetable: builder.build())
/// let journeys = planner.plan(PlanQuery(from: 0, to: 2, departure: 7 * 3600 + 3000, maxTransfers: 4))
/// // One journey: ride trip 0 from stop 0 at 08:00 to stop 1, walk 120 s to stop 2, arrive 08:12.
/// ```
public final class Planner {
    public let timetable: Timetable
    private var space: SearchSpace

    public init(timetable: Timetable) {
        self.timetable = timetable
        self.space = SearchSpace(timetable.storage)
    }

    deinit { space.deallocate() }

    /// Bytes of scratch memory this planner holds.
    public var scratchBytes: Int { space.scratchBytes }

    /// Pareto-optimal journeys on (arrival, rides), ordered by increasing number of rides (and so strictly
    /// decreasing arrival). For each number of rides `k` in `1...maxTransfers + 1` there is at most one
    /// journey: the earliest arrival with at most `k` rides, listed if strictly earlier than with fewer,
    /// departing as late as possible for that arrival. Walking-only connections are not reported (the
    /// caller can offer the walk itself, see `Timetable.walkSeconds`). Empty when the destinations are
    /// unreachable or either endpoint set is empty; origins that are also destinations are not
    /// special-cased (a round trip may come back).
    ///
    /// Cost: one forward search plus one pruned reverse search per returned journey; no allocation in the
    /// searches themselves, only for the returned journeys.
    ///
    /// Preconditions (programming errors, not data errors): stops within `0..<stopCount`, offsets within
    /// `TimetableBuilder.durationRange`, `departure` within `TimetableBuilder.timeRange`,
    /// `maxTransfers` within `0...PlanQuery.maxTransfersLimit`.
    ///
    /// With an `overlay` (built for this timetable), the search reads it too: trips it makes unusable are
    /// never boarded, its live copies and added trips are, and with `query.stepFreeOnly` only trips and stops
    /// it does not restrict are used (without an overlay a step-free query finds nothing it could vouch for,
    /// so it is a programming error).
    public func plan(_ query: PlanQuery, overlay: TimetableOverlay? = nil) -> [Journey] {
        check(query, overlay: overlay)
        var s = space
        defer { space = s }
        s.setUpEndpoints(query)
        s.setUpOverlay(overlay, stepFreeOnly: query.stepFreeOnly)
        s.setUpDestinationReach()
        defer { s.resetDestinationReach(); s.resetEndpoints(); s.clearOverlay() }

        let departure = Int32(query.departure)
        let rounds = query.maxTransfers + 1
        s.forward(departure: departure, rounds: rounds)
        s.resetReverseLabels(keepingForwardBounds: true)

        var journeys: [Journey] = []
        var previous = Int32.max
        for k in 1...rounds {
            let arrival = s.roundArrival[k]
            guard arrival < previous else { continue }
            previous = arrival
            if let start = s.reverse(arrival: arrival, earliest: departure, rounds: k) {
                journeys.append(s.journey(from: start))
            } else {
                assertionFailure("reverse search found no departure for an arrival the forward search reached")
            }
            s.resetReverseLabels(keepingForwardBounds: true)
        }
        s.resetLabels()
        return journeys
    }

    /// Arrive by: the journeys that reach a destination by `deadline` and leave as late as possible, one per
    /// number of rides that leaves strictly later than with fewer (so ordered by increasing rides and
    /// departure), never leaving before `query.departure`; each arrives as early as it can for its departure.
    /// The same overlay rules as `plan(_:overlay:)` apply.
    ///
    /// Cost: one reverse search from the deadline, then per returned journey one forward and one reverse
    /// search.
    public func plan(_ query: PlanQuery, arrivingBy deadline: Int, overlay: TimetableOverlay? = nil) -> [Journey] {
        check(query, overlay: overlay)
        precondition(TimetableBuilder.timeRange.contains(deadline), "deadline out of range")
        var s = space
        defer { space = s }
        s.setUpEndpoints(query)
        s.setUpOverlay(overlay, stepFreeOnly: query.stepFreeOnly)
        s.setUpDestinationReach()
        defer { s.resetDestinationReach(); s.resetEndpoints(); s.clearOverlay() }

        let earliest = Int32(query.departure)
        let rounds = query.maxTransfers + 1
        guard Int32(deadline) >= earliest else { return [] }
        _ = s.reverse(arrival: Int32(deadline), earliest: earliest, rounds: rounds)
        let latest = (0...rounds).map { s.roundDeparture[$0] }
        s.resetLabels()

        var journeys: [Journey] = []
        var previous = earliest - 1
        for k in 1...rounds {
            let leave = latest[k]
            guard leave > previous else { continue }
            previous = leave
            s.forward(departure: leave, rounds: k)
            let arrival = s.roundArrival[k]
            s.resetReverseLabels(keepingForwardBounds: true)
            defer { s.resetLabels() }
            guard arrival <= Int32(deadline),
                let start = s.reverse(arrival: arrival, earliest: leave, rounds: k)
            else {
                assertionFailure("the forward search from the latest departure missed the deadline")
                continue
            }
            journeys.append(s.journey(from: start))
        }
        return journeys
    }

    private func check(_ query: PlanQuery, overlay: TimetableOverlay?) {
        let n = timetable.stopCount
        precondition((0...PlanQuery.maxTransfersLimit).contains(query.maxTransfers), "maxTransfers out of range")
        precondition(TimetableBuilder.timeRange.contains(query.departure), "departure out of range")
        for ends in [query.origins, query.destinations] {
            for end in ends {
                precondition(end.stop >= 0 && end.stop < n, "query stop \(end.stop) out of range")
                precondition(TimetableBuilder.durationRange.contains(end.seconds), "query offset out of range")
            }
        }
        if let overlay { precondition(overlay.base === timetable.storage, "the overlay belongs to another timetable") }
        precondition(!query.stepFreeOnly || overlay != nil, "a step-free query needs an overlay with step-free data")
    }
}

/// A set of stops with O(1) insertion and O(size) clearing.
struct StopSet {
    let items: UnsafeMutablePointer<Int32>
    let member: UnsafeMutablePointer<Bool>
    var count = 0

    init(capacity: Int) {
        items = .allocate(capacity: max(capacity, 1))
        member = .allocate(capacity: max(capacity, 1))
        member.initialize(repeating: false, count: max(capacity, 1))
    }

    @inline(__always) mutating func insert(_ stop: Int) {
        if !member[stop] {
            member[stop] = true
            items[count] = Int32(truncatingIfNeeded: stop)
            count &+= 1
        }
    }

    mutating func removeAll() {
        for i in 0..<count { member[Int(items[i])] = false }
        count = 0
    }

    func deallocate() {
        items.deallocate()
        member.deallocate()
    }
}

/// Where a reverse search found the latest departure: the first boarding stop and the round (rides).
struct ReverseStart {
    var stop: Int
    var round: Int
    var departure: Int32
}

/// All scratch state of a planner. A struct so the search methods work on an exclusive local copy:
/// no runtime exclusivity checks on class properties in the hot loops.
struct SearchSpace {
    static let none = Int32.max  // unreached, forward labels and endpoint data
    static let noneBack = Int32.min  // unreached, reverse labels
    static let maxRounds = PlanQuery.maxTransfersLimit + 1

    let tt: TimetableStorage
    let n: Int
    // The overlay of the current query: extra patterns numbered after the base ones, extra trips after the
    // base trips; trip and stop flags with the bits this query honours (0: ignore them).
    var extra: TimetableStorage?
    var basePatternCount: Int
    var baseTripCount: Int
    var tripFlags: UnsafePointer<UInt8>?
    var tripMask: UInt8 = 0
    var stopFlags: UnsafePointer<UInt8>?
    var stopMask: UInt8 = 0
    var patternCapacity: Int
    // Endpoint data for the current query.
    let originOffset: UnsafeMutablePointer<Int32>
    let destinationOffset: UnsafeMutablePointer<Int32>
    let access: UnsafeMutablePointer<Int32>  // min over origins (offset + walk)
    let accessFrom: UnsafeMutablePointer<Int32>
    let egress: UnsafeMutablePointer<Int32>  // min over destinations (walk + offset)
    let egressTo: UnsafeMutablePointer<Int32>
    var accessStops: StopSet
    var egressStops: StopSet
    var endpointStops: StopSet
    // Labels.
    let bestArrival: UnsafeMutablePointer<Int32>
    let bestReady: UnsafeMutablePointer<Int32>
    let bestBoard: UnsafeMutablePointer<Int32>
    let bestDeadline: UnsafeMutablePointer<Int32>
    var touched: StopSet
    var marked: StopSet
    var improved: StopSet
    /// Set while `bestArrival` and `bestReady` hold the forward search of the same query (departure and
    /// overlay): the reverse searches then skip every boarding and alighting that the forward search shows no
    /// journey from the origin can make in time.
    var forwardBounds = false
    /// The forward search's best arrival. It labelled only times before its target of the moment, so a stop's
    /// earliest time is at least the smaller of its label and this: the reverse searches prune below that.
    var forwardTarget = Int32.max
    // Per-round reverse labels and parents, index round * n + stop.
    let roundDeadline: UnsafeMutablePointer<Int32>
    let roundDeadlineVia: UnsafeMutablePointer<Int32>
    let roundBoardTrip: UnsafeMutablePointer<Int32>
    let roundBoardPosition: UnsafeMutablePointer<Int32>
    let roundAlightPosition: UnsafeMutablePointer<Int32>
    let roundTouched: UnsafeMutablePointer<Int32>
    var roundTouchedCount = 0
    // Patterns to scan in the current round, with their first (forward) or last (reverse) position.
    var patternMark: UnsafeMutablePointer<Int32>
    var patternQueue: UnsafeMutablePointer<Int32>
    var patternQueueCount = 0
    // Destination reach (see `setUpDestinationReach`). `reachEnd[(m - 1) * patternCapacity + p]`: one past the
    // last position of pattern p where alighting leaves at most m - 1 more rides to a destination (0: none).
    // `boardReach[s]`: the least m such that boarding at s can reach one with m rides; `alightReach[s]`: one more
    // than the fewest rides left after alighting at s (both 0: not within `reachLevels`). `reachPatterns` holds
    // pattern numbers (a StopSet over patterns).
    var reachEnd: UnsafeMutablePointer<Int32>
    var reachPatterns: StopSet
    let boardReach: UnsafeMutablePointer<UInt8>
    let alightReach: UnsafeMutablePointer<UInt8>
    var reachStops: StopSet
    var alightStops: StopSet
    // Forward result: earliest arrival at the destination with at most k rides, k = 1...rounds.
    let roundArrival: UnsafeMutablePointer<Int32>
    // Reverse result: latest departure with at most k rides, k = 1...rounds (`earliest - 1`: none).
    let roundDeparture: UnsafeMutablePointer<Int32>

    init(_ tt: TimetableStorage) {
        self.tt = tt
        let n = tt.stopCount
        self.n = n
        basePatternCount = tt.patternCount
        baseTripCount = tt.tripCount
        patternCapacity = tt.patternCount
        func array(_ count: Int, _ value: Int32) -> UnsafeMutablePointer<Int32> {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: max(count, 1))
            p.initialize(repeating: value, count: max(count, 1))
            return p
        }
        let rounds = Self.maxRounds + 1
        originOffset = array(n, Self.none)
        destinationOffset = array(n, Self.none)
        access = array(n, Self.none)
        accessFrom = array(n, -1)
        egress = array(n, Self.none)
        egressTo = array(n, -1)
        accessStops = StopSet(capacity: n)
        egressStops = StopSet(capacity: n)
        endpointStops = StopSet(capacity: n)
        bestArrival = array(n, Self.none)
        bestReady = array(n, Self.none)
        bestBoard = array(n, Self.noneBack)
        bestDeadline = array(n, Self.noneBack)
        touched = StopSet(capacity: n)
        marked = StopSet(capacity: n)
        improved = StopSet(capacity: n)
        roundDeadline = array(rounds * n, Self.noneBack)
        roundDeadlineVia = array(rounds * n, -1)
        roundBoardTrip = array(rounds * n, -1)
        roundBoardPosition = array(rounds * n, -1)
        roundAlightPosition = array(rounds * n, -1)
        roundTouched = array(rounds * n, -1)
        patternMark = array(tt.patternCount, Self.none)
        patternQueue = array(tt.patternCount, -1)
        reachEnd = array(Self.reachLevels * tt.patternCount, 0)
        reachPatterns = StopSet(capacity: tt.patternCount)
        boardReach = .allocate(capacity: max(n, 1))
        boardReach.initialize(repeating: 0, count: max(n, 1))
        alightReach = .allocate(capacity: max(n, 1))
        alightReach.initialize(repeating: 0, count: max(n, 1))
        reachStops = StopSet(capacity: n)
        alightStops = StopSet(capacity: n)
        roundArrival = array(rounds, Self.none)
        roundDeparture = array(rounds, Self.noneBack)
    }

    var scratchBytes: Int {
        let rounds = Self.maxRounds + 1
        let reach = 4 * Self.reachLevels * patternCapacity + 5 * patternCapacity + 2 * n + 2 * 5 * n
        return 4 * (10 * n + 6 * rounds * n + 2 * patternCapacity + 2 * rounds) + 3 * 5 * n + reach
    }

    func deallocate() {
        for p in [
            originOffset, destinationOffset, access, accessFrom, egress, egressTo,
            bestArrival, bestReady, bestBoard, bestDeadline,
            roundDeadline, roundDeadlineVia, roundBoardTrip, roundBoardPosition, roundAlightPosition,
            roundTouched, patternMark, patternQueue, roundArrival, roundDeparture, reachEnd,
        ] {
            p.deallocate()
        }
        boardReach.deallocate()
        alightReach.deallocate()
        for set in [
            accessStops, egressStops, endpointStops, touched, marked, improved, reachPatterns, reachStops,
            alightStops,
        ] {
            set.deallocate()
        }
    }

    // MARK: Overlay

    mutating func setUpOverlay(_ overlay: TimetableOverlay?, stepFreeOnly: Bool) {
        guard let overlay else { return }
        extra = overlay.extra
        tripFlags = overlay.tripFlags.baseAddress
        stopFlags = overlay.stopFlags.baseAddress
        tripMask = OverlayFlag.unusable | (stepFreeOnly ? OverlayFlag.notStepFree : 0)
        stopMask = stepFreeOnly ? OverlayFlag.notStepFree : 0
        let needed = basePatternCount + (overlay.extra?.patternCount ?? 0)
        if needed > patternCapacity {
            patternMark.deallocate()
            patternQueue.deallocate()
            patternMark = .allocate(capacity: needed)
            patternMark.initialize(repeating: Self.none, count: needed)
            patternQueue = .allocate(capacity: needed)
            patternQueue.initialize(repeating: -1, count: needed)
            reachEnd.deallocate()
            reachEnd = .allocate(capacity: Self.reachLevels * needed)
            reachEnd.initialize(repeating: 0, count: Self.reachLevels * needed)
            reachPatterns.deallocate()
            reachPatterns = StopSet(capacity: needed)
            patternCapacity = needed
        }
    }

    mutating func clearOverlay() {
        extra = nil
        tripFlags = nil
        stopFlags = nil
        tripMask = 0
        stopMask = 0
    }

    /// The storage holding a unified trip index, and the trip's index in it.
    @inline(__always)
    func tripStore(_ t: Int) -> (store: TimetableStorage, trip: Int) {
        t < baseTripCount ? (tt, t) : (extra!, t &- baseTripCount)
    }

    // MARK: Destination reach

    /// Levels of the destination reach: the last `reachLevels` forward rounds scan and mark only what can still
    /// reach a destination with the rides left.
    static let reachLevels = 2

    /// Which rides can still matter in the last rounds of a forward search. Level 1: the patterns that stop at an
    /// egress stop, up to the last such position, and the stops where they board before it; level m: the patterns
    /// that stop where a change or a walk leads to a stop of level m - 1, and so on. A round with m rides left
    /// then scans only the patterns (and positions) of level m, and marks for the next round only stops of level
    /// m - 1; before the last round, only stops where alighting leaves one ride to go relax their changes. This
    /// is exact: anything else it skips cannot reach a destination within the rounds left, and the labels the
    /// reverse searches prune with are still the least for every stop and ride count they ask about (a stop they
    /// reach after r of k rides is of level k - r or less). Ignores the overlay's step-free marks (a superset is
    /// still exact).
    mutating func setUpDestinationReach() {
        for i in 0..<egressStops.count { addAlight(Int(egressStops.items[i]), level: 0) }
        for m in 1...Self.reachLevels {
            reachLevel(m, alightCount: alightStops.count)
            guard m < Self.reachLevels else { break }
            // Alighting where a change or a walk leads to a stop of level m leaves m more rides.
            let start = tt.transferInStart, from = tt.transferInStop
            for i in 0..<reachStops.count {
                let b = Int(reachStops.items[i])
                guard boardReach[b] == UInt8(m) else { continue }
                if tt.changeSeconds[b] >= 0 { addAlight(b, level: m) }
                for e in Int(start[b])..<Int(start[b + 1]) { addAlight(Int(from[e]), level: m) }
            }
        }
    }

    @inline(__always)
    private mutating func addAlight(_ stop: Int, level: Int) {
        if alightReach[stop] == 0 {
            alightReach[stop] = UInt8(level + 1)
            alightStops.insert(stop)
        }
    }

    /// Level `m`'s pattern ends from the first `alightCount` alight stops (those of level m - 1 or less), then
    /// the stops boarding before them.
    private mutating func reachLevel(_ m: Int, alightCount: Int) {
        let ends = reachEnd + (m - 1) * patternCapacity
        markReachEnds(tt, offset: 0, ends: ends, alightCount: alightCount)
        if let extra { markReachEnds(extra, offset: basePatternCount, ends: ends, alightCount: alightCount) }
        let previous: UnsafeMutablePointer<Int32>? = m > 1 ? reachEnd + (m - 2) * patternCapacity : nil
        for j in 0..<reachPatterns.count {
            let q = Int(reachPatterns.items[j])
            let (store, p) = q < basePatternCount ? (tt, q) : (extra!, q &- basePatternCount)
            let base = Int(store.patternStopStart[p])
            // Positions before the previous level's end gave that level already.
            for i in Int(previous?[q] ?? 0)..<Int(ends[q]) where store.patternFlags[base + i] & PatternFlag.board != 0 {
                let s = Int(store.patternStops[base + i])
                if boardReach[s] == 0 {
                    boardReach[s] = UInt8(m)
                    reachStops.insert(s)
                }
            }
        }
    }

    private mutating func markReachEnds(
        _ store: TimetableStorage, offset: Int, ends: UnsafeMutablePointer<Int32>, alightCount: Int
    ) {
        let start = store.stopPatternStart, patterns = store.stopPatternPattern
        let positions = store.stopPatternPosition, flags = store.patternFlags
        for i in 0..<alightCount {
            let a = Int(alightStops.items[i])
            for e in Int(start[a])..<Int(start[a + 1]) {
                let p = Int(patterns[e]), position = Int(positions[e])
                guard flags[Int(store.patternStopStart[p]) + position] & PatternFlag.alight != 0 else { continue }
                let q = p &+ offset
                if Int32(position + 1) > ends[q] {
                    ends[q] = Int32(position + 1)
                    reachPatterns.insert(q)
                }
            }
        }
    }

    mutating func resetDestinationReach() {
        for i in 0..<reachPatterns.count {
            let q = Int(reachPatterns.items[i])
            for m in 0..<Self.reachLevels { reachEnd[m * patternCapacity + q] = 0 }
        }
        for i in 0..<reachStops.count { boardReach[Int(reachStops.items[i])] = 0 }
        for i in 0..<alightStops.count { alightReach[Int(alightStops.items[i])] = 0 }
        reachPatterns.removeAll()
        reachStops.removeAll()
        alightStops.removeAll()
    }

    // MARK: Endpoints

    /// Access and egress per stop: one walk at most, from an origin to a boarding stop and from an
    /// alighting stop to a destination. Direct entries are applied first so that ties prefer no walk.
    mutating func setUpEndpoints(_ query: PlanQuery) {
        for o in query.origins {
            endpointStops.insert(o.stop)
            originOffset[o.stop] = min(originOffset[o.stop], Int32(o.seconds))
        }
        for d in query.destinations {
            endpointStops.insert(d.stop)
            destinationOffset[d.stop] = min(destinationOffset[d.stop], Int32(d.seconds))
        }
        for o in query.origins where originOffset[o.stop] == Int32(o.seconds) {
            setAccess(o.stop, originOffset[o.stop], from: o.stop)
        }
        for o in query.origins where originOffset[o.stop] == Int32(o.seconds) {
            for e in Int(tt.walkOutStart[o.stop])..<Int(tt.walkOutStart[o.stop + 1]) {
                setAccess(Int(tt.walkOutStop[e]), originOffset[o.stop] + tt.walkOutSeconds[e], from: o.stop)
            }
        }
        for d in query.destinations where destinationOffset[d.stop] == Int32(d.seconds) {
            setEgress(d.stop, destinationOffset[d.stop], to: d.stop)
        }
        for d in query.destinations where destinationOffset[d.stop] == Int32(d.seconds) {
            for e in Int(tt.walkInStart[d.stop])..<Int(tt.walkInStart[d.stop + 1]) {
                setEgress(Int(tt.walkInStop[e]), destinationOffset[d.stop] + tt.walkInSeconds[e], to: d.stop)
            }
        }
    }

    private mutating func setAccess(_ stop: Int, _ seconds: Int32, from origin: Int) {
        if seconds < access[stop] {
            access[stop] = seconds
            accessFrom[stop] = Int32(origin)
            accessStops.insert(stop)
        }
    }

    private mutating func setEgress(_ stop: Int, _ seconds: Int32, to destination: Int) {
        if seconds < egress[stop] {
            egress[stop] = seconds
            egressTo[stop] = Int32(destination)
            egressStops.insert(stop)
        }
    }

    mutating func resetEndpoints() {
        for i in 0..<accessStops.count {
            let s = Int(accessStops.items[i])
            access[s] = Self.none
            accessFrom[s] = -1
        }
        for i in 0..<egressStops.count {
            let s = Int(egressStops.items[i])
            egress[s] = Self.none
            egressTo[s] = -1
        }
        for i in 0..<endpointStops.count {
            let s = Int(endpointStops.items[i])
            originOffset[s] = Self.none
            destinationOffset[s] = Self.none
        }
        accessStops.removeAll()
        egressStops.removeAll()
        endpointStops.removeAll()
    }

    /// Undoes what a reverse search wrote, and the marks the last search left, in O(stops touched); with
    /// `keepingForwardBounds`, keeps the forward search's labels for the next reverse searches to prune with.
    mutating func resetReverseLabels(keepingForwardBounds: Bool) {
        for i in 0..<touched.count {
            let s = Int(touched.items[i])
            bestBoard[s] = Self.noneBack
            bestDeadline[s] = Self.noneBack
        }
        for i in 0..<roundTouchedCount { roundDeadline[Int(roundTouched[i])] = Self.noneBack }
        roundTouchedCount = 0
        marked.removeAll()
        improved.removeAll()
        forwardBounds = keepingForwardBounds
    }

    /// Undoes everything a forward or reverse search wrote, in O(stops touched).
    mutating func resetLabels() {
        resetReverseLabels(keepingForwardBounds: false)
        for i in 0..<touched.count {
            let s = Int(touched.items[i])
            bestArrival[s] = Self.none
            bestReady[s] = Self.none
        }
        touched.removeAll()
    }

    // MARK: Forward search

    /// Fills `roundArrival[1...rounds]`.
    mutating func forward(departure: Int32, rounds: Int) {
        for i in 0..<accessStops.count {
            let q = Int(accessStops.items[i])
            let ready = departure + access[q]
            if ready < bestReady[q] {
                bestReady[q] = ready
                touched.insert(q)
                if reaches(q, rides: rounds) { marked.insert(q) }
            }
        }
        var target = Self.none
        let base = tt
        for k in 1...rounds { roundArrival[k] = Self.none }
        for k in 1...rounds {
            // With m rides left, only level m of the destination reach can still matter.
            let left = rounds - k + 1
            let ends = left <= Self.reachLevels ? reachEnd + (left - 1) * patternCapacity : nil
            queuePatterns(forward: true, ends: ends)
            for i in 0..<patternQueueCount {
                let p = Int(patternQueue[i])
                let first = Int(patternMark[p])
                let end = ends.map { Int($0[p]) } ?? Int.max
                // The base timetable through a local reference: no retain and release per pattern.
                if p < basePatternCount {
                    scanForward(base, pattern: p, tripOffset: 0, from: first, end: end, target: &target)
                } else {
                    scanForward(
                        extra!, pattern: p &- basePatternCount, tripOffset: baseTripCount, from: first, end: end,
                        target: &target)
                }
                patternMark[p] = Self.none
            }
            patternQueueCount = 0
            for j in k...rounds { roundArrival[j] = target }
            if improved.count == 0 { break }
            if k < rounds { relaxTransfersForward(target: target, ridesLeft: rounds - k) }
            improved.removeAll()
            if marked.count == 0 { break }
        }
        forwardTarget = target
    }

    /// Whether boarding at `stop` can reach a destination within `rides` (true beyond the levels computed).
    @inline(__always)
    private func reaches(_ stop: Int, rides: Int) -> Bool {
        rides > Self.reachLevels || (boardReach[stop] != 0 && Int(boardReach[stop]) <= rides)
    }

    /// Times at or after this are never pruned by the forward bounds (`Int32.min` without them).
    private var forwardCap: Int32 { forwardBounds ? forwardTarget : .min }

    /// Moves marked stops to the pattern queue, remembering per pattern the first (forward) or last
    /// (reverse) position of a marked stop, and clears the marks.
    /// With `ends` (forward), a pattern is queued from a position only if it is before the pattern's end there.
    private mutating func queuePatterns(forward: Bool, ends: UnsafeMutablePointer<Int32>? = nil) {
        queuePatterns(tt, offset: 0, forward: forward, ends: ends)
        if let extra { queuePatterns(extra, offset: basePatternCount, forward: forward, ends: ends) }
        marked.removeAll()
    }

    private mutating func queuePatterns(
        _ store: TimetableStorage, offset: Int, forward: Bool, ends: UnsafeMutablePointer<Int32>?
    ) {
        let start = store.stopPatternStart, patterns = store.stopPatternPattern
        let positions = store.stopPatternPosition
        for i in 0..<marked.count {
            let q = Int(marked.items[i])
            for e in Int(start[q])..<Int(start[q + 1]) {
                let p = Int(patterns[e]) &+ offset
                let position = positions[e]
                if let ends, position >= ends[p] { continue }
                let current = patternMark[p]
                if current == Self.none {
                    patternQueue[patternQueueCount] = Int32(p)
                    patternQueueCount &+= 1
                    patternMark[p] = position
                } else if forward ? position < current : position > current {
                    patternMark[p] = position
                }
            }
        }
    }

    private mutating func scanForward(
        _ tt: TimetableStorage, pattern p: Int, tripOffset: Int, from first: Int, end: Int, target: inout Int32
    ) {
        let base = Int(tt.patternStopStart[p])
        let length = Int(tt.patternStopStart[p + 1]) - base
        let scanEnd = min(length, end)
        let tripCount = Int(tt.patternTripStart[p + 1] - tt.patternTripStart[p])
        let timeBase = Int(tt.patternTimeStart[p])
        let stops = tt.patternStops.baseAddress! + base
        let flags = tt.patternFlags.baseAddress! + base
        let arrivals = tt.arrivals.baseAddress!, departures = tt.departures.baseAddress!
        let bestArrival = self.bestArrival, bestReady = self.bestReady, egress = self.egress
        let tripMask = self.tripMask, stopMask = self.stopMask
        let tripFlags = (self.tripFlags ?? UnsafePointer(bitPattern: 1)!) + tripOffset + Int(tt.patternTripStart[p])
        let stopFlags = self.stopFlags

        var trip = -1
        var row = 0
        for i in first..<scanEnd {
            let s = Int(stops[i])
            var f = flags[i]
            if stopMask != 0 && stopFlags![s] & stopMask != 0 { f = 0 }
            if trip >= 0 && f & PatternFlag.alight != 0 {
                let a = arrivals[row &+ i]
                if a < target && a < bestArrival[s] {
                    bestArrival[s] = a
                    touched.insert(s)
                    improved.insert(s)
                    let e = egress[s]
                    if e != Self.none && a &+ e < target { target = a &+ e }
                }
            }
            if f & PatternFlag.board != 0 {
                let ready = bestReady[s]
                guard ready < target else { continue }
                var lo: Int
                if trip < 0 {
                    // Earliest trip departing at or after `ready` (trips are ordered).
                    var upper = tripCount
                    if upper > 0 && departures[timeBase &+ (upper &- 1) &* length &+ i] < ready { continue }
                    lo = 0
                    while lo < upper {
                        let mid = (lo &+ upper) >> 1
                        if departures[timeBase &+ mid &* length &+ i] < ready { lo = mid &+ 1 } else { upper = mid }
                    }
                } else if ready <= departures[row &+ i] {
                    // An earlier trip than the one ridden: usually one or two back, so step a few before searching.
                    lo = trip
                    var steps = 0
                    while lo > 0 && steps < 4 && departures[timeBase &+ (lo &- 1) &* length &+ i] >= ready {
                        lo &-= 1
                        steps &+= 1
                    }
                    if lo == trip { continue }
                    if steps == 4 {
                        var low = 0
                        while low < lo {
                            let mid = (low &+ lo) >> 1
                            if departures[timeBase &+ mid &* length &+ i] < ready { low = mid &+ 1 } else { lo = mid }
                        }
                    }
                } else {
                    continue
                }
                if tripMask != 0 {
                    // Skip trips the overlay rules out; a later one (or the current trip) still qualifies.
                    let bound = trip < 0 ? tripCount : trip
                    while lo < bound && tripFlags[lo] & tripMask != 0 { lo &+= 1 }
                    if lo == bound { continue }
                }
                trip = lo
                row = timeBase &+ lo &* length
            }
        }
    }

    /// Marks only stops that can reach a destination within `ridesLeft`.
    private mutating func relaxTransfersForward(target: Int32, ridesLeft: Int) {
        let start = tt.transferOutStart, to = tt.transferOutStop, seconds = tt.transferOutSeconds
        // With fewer rides left than `reachLevels`, alight levels are known: a stop from which no change leads
        // to a ride that can still reach a destination has nothing to relax.
        let alightFilter = ridesLeft < Self.reachLevels
        for i in 0..<improved.count {
            let s = Int(improved.items[i])
            if alightFilter {
                let level = Int(alightReach[s])
                if level == 0 || level - 1 > ridesLeft { continue }
            }
            let a = bestArrival[s]
            let change = tt.changeSeconds[s]
            if change >= 0 {
                let ready = a &+ change
                if ready < target && ready < bestReady[s] {
                    bestReady[s] = ready
                    if reaches(s, rides: ridesLeft) { marked.insert(s) }
                }
            }
            for e in Int(start[s])..<Int(start[s + 1]) {
                let q = Int(to[e])
                let ready = a &+ seconds[e]
                if ready < target && ready < bestReady[q] {
                    bestReady[q] = ready
                    touched.insert(q)
                    if reaches(q, rides: ridesLeft) { marked.insert(q) }
                }
            }
        }
    }

    // MARK: Reverse search

    /// Latest departure (not before `earliest`) reaching a destination by `arrival` with at most `rounds`
    /// rides, or nil if there is none.
    mutating func reverse(arrival: Int32, earliest: Int32, rounds: Int) -> ReverseStart? {
        var bound = earliest - 1
        var start: ReverseStart?
        let base = tt
        for k in 0...rounds { roundDeparture[k] = bound }
        for i in 0..<egressStops.count {
            let p = Int(egressStops.items[i])
            let deadline = arrival - egress[p]
            if deadline > bound && deadline > bestDeadline[p] && (deadline >= forwardCap || deadline >= bestArrival[p])
            {
                bestDeadline[p] = deadline
                touched.insert(p)
                setRoundDeadline(round: 0, stop: p, deadline, via: egressTo[p])
                marked.insert(p)
            }
        }
        for r in 1...rounds {
            queuePatterns(forward: false)
            for i in 0..<patternQueueCount {
                let p = Int(patternQueue[i])
                let last = Int(patternMark[p])
                if p < basePatternCount {
                    scanReverse(base, pattern: p, tripOffset: 0, to: last, round: r, bound: &bound, start: &start)
                } else {
                    scanReverse(
                        extra!, pattern: p &- basePatternCount, tripOffset: baseTripCount, to: last, round: r,
                        bound: &bound, start: &start)
                }
                patternMark[p] = Self.none
            }
            patternQueueCount = 0
            for j in r...rounds { roundDeparture[j] = bound }
            if improved.count == 0 { break }
            if r < rounds { relaxTransfersReverse(round: r, bound: bound) }
            improved.removeAll()
            if marked.count == 0 { break }
        }
        return start
    }

    @inline(__always)
    private mutating func setRoundDeadline(round: Int, stop: Int, _ deadline: Int32, via: Int32) {
        let index = round &* n &+ stop
        if roundDeadline[index] == Self.noneBack {
            roundTouched[roundTouchedCount] = Int32(index)
            roundTouchedCount &+= 1
        }
        roundDeadline[index] = deadline
        roundDeadlineVia[index] = via
    }

    private mutating func scanReverse(
        _ tt: TimetableStorage, pattern p: Int, tripOffset: Int, to last: Int, round: Int,
        bound: inout Int32, start: inout ReverseStart?
    ) {
        let base = Int(tt.patternStopStart[p])
        let length = Int(tt.patternStopStart[p + 1]) - base
        let firstTrip = Int(tt.patternTripStart[p])
        let tripCount = Int(tt.patternTripStart[p + 1]) - firstTrip
        let timeBase = Int(tt.patternTimeStart[p])
        let stops = tt.patternStops.baseAddress! + base
        let flags = tt.patternFlags.baseAddress! + base
        let arrivals = tt.arrivals.baseAddress!, departures = tt.departures.baseAddress!
        let bestBoard = self.bestBoard, bestDeadline = self.bestDeadline, access = self.access
        let cap = forwardCap, bestReady = self.bestReady
        let roundBase = round &* n
        let tripMask = self.tripMask, stopMask = self.stopMask
        let tripFlags = (self.tripFlags ?? UnsafePointer(bitPattern: 1)!) + tripOffset + firstTrip
        let stopFlags = self.stopFlags
        let globalFirstTrip = tripOffset &+ firstTrip

        var trip = -1
        var row = 0
        var alightPosition = 0
        var i = last
        while i >= 0 {
            defer { i &-= 1 }
            let s = Int(stops[i])
            var f = flags[i]
            if stopMask != 0 && stopFlags![s] & stopMask != 0 { f = 0 }
            if trip >= 0 && f & PatternFlag.board != 0 {
                let d = departures[row &+ i]
                // A trip boarded before the forward search could be at the stop is no journey from the origin.
                if d > bound && d > bestBoard[s] && (d >= cap || d >= bestReady[s]) {
                    bestBoard[s] = d
                    touched.insert(s)
                    improved.insert(s)
                    roundBoardTrip[roundBase &+ s] = Int32(globalFirstTrip &+ trip)
                    roundBoardPosition[roundBase &+ s] = Int32(i)
                    roundAlightPosition[roundBase &+ s] = Int32(alightPosition)
                    let a = access[s]
                    if a != Self.none && d &- a > bound {
                        bound = d &- a
                        start = ReverseStart(stop: s, round: round, departure: bound)
                    }
                }
            }
            if f & PatternFlag.alight != 0 {
                let deadline = bestDeadline[s]
                guard deadline > bound else { continue }
                // `lower` becomes one past the latest trip arriving at or before `deadline` (trips are ordered).
                var lower: Int
                let lowest: Int
                if trip < 0 {
                    if tripCount == 0 || arrivals[timeBase &+ i] > deadline { continue }
                    lowest = 0
                    lower = 0
                    var hi = tripCount
                    while lower < hi {
                        let mid = (lower &+ hi) >> 1
                        if arrivals[timeBase &+ mid &* length &+ i] <= deadline { lower = mid &+ 1 } else { hi = mid }
                    }
                } else if deadline >= arrivals[row &+ i] {
                    // A later trip than the one ridden: usually one or two on, so step a few before searching.
                    lowest = trip &+ 1
                    lower = lowest
                    var steps = 0
                    while lower < tripCount && steps < 4 && arrivals[timeBase &+ lower &* length &+ i] <= deadline {
                        lower &+= 1
                        steps &+= 1
                    }
                    if lower == lowest { continue }
                    if steps == 4 {
                        var hi = tripCount
                        while lower < hi {
                            let mid = (lower &+ hi) >> 1
                            if arrivals[timeBase &+ mid &* length &+ i] <= deadline {
                                lower = mid &+ 1
                            } else {
                                hi = mid
                            }
                        }
                    }
                } else {
                    continue
                }
                if tripMask != 0 {
                    // Skip trips the overlay rules out; an earlier one (or the current trip) still qualifies.
                    while lower > lowest && tripFlags[lower &- 1] & tripMask != 0 { lower &-= 1 }
                    if lower == lowest { continue }
                }
                trip = lower &- 1
                row = timeBase &+ trip &* length
                alightPosition = i
            }
        }
    }

    private mutating func relaxTransfersReverse(round: Int, bound: Int32) {
        let start = tt.transferInStart, from = tt.transferInStop, seconds = tt.transferInSeconds
        // An alighting before the forward search's earliest arrival by ride at the stop cannot happen.
        let cap = forwardCap, bestArrival = self.bestArrival
        for i in 0..<improved.count {
            let q = Int(improved.items[i])
            let b = bestBoard[q]
            let change = tt.changeSeconds[q]
            if change >= 0 {
                let deadline = b &- change
                if deadline > bound && deadline > bestDeadline[q] && (deadline >= cap || deadline >= bestArrival[q]) {
                    bestDeadline[q] = deadline
                    setRoundDeadline(round: round, stop: q, deadline, via: Int32(q))
                    marked.insert(q)
                }
            }
            for e in Int(start[q])..<Int(start[q + 1]) {
                let p = Int(from[e])
                let deadline = b &- seconds[e]
                if deadline > bound && deadline > bestDeadline[p] && (deadline >= cap || deadline >= bestArrival[p]) {
                    bestDeadline[p] = deadline
                    touched.insert(p)
                    setRoundDeadline(round: round, stop: p, deadline, via: Int32(q))
                    marked.insert(p)
                }
            }
        }
    }

    // MARK: Journey reconstruction

    /// Unwinds the reverse search's parents from the first boarding to the destination.
    func journey(from start: ReverseStart) -> Journey {
        var legs: [JourneyLeg] = []
        let origin = Int(accessFrom[start.stop])
        let leave = start.departure + originOffset[origin]
        if origin != start.stop {
            legs.append(
                .walk(
                    WalkLeg(
                        fromStop: origin, toStop: start.stop,
                        departure: Int(leave), arrival: Int(start.departure + access[start.stop]))))
        }
        var stop = start.stop
        var round = start.round
        while true {
            let index = round * n + stop
            let (tt, trip) = tripStore(Int(roundBoardTrip[index]))
            let boardPosition = Int(roundBoardPosition[index])
            let alightPosition = Int(roundAlightPosition[index])
            let pattern = Int(tt.tripPattern[trip])
            let base = Int(tt.patternStopStart[pattern])
            let length = Int(tt.patternStopStart[pattern + 1]) - base
            let row = Int(tt.patternTimeStart[pattern]) + (trip - Int(tt.patternTripStart[pattern])) * length
            let alightStop = Int(tt.patternStops[base + alightPosition])
            let alightTime = Int(tt.arrivals[row + alightPosition])
            legs.append(
                .ride(
                    RideLeg(
                        tripRef: tt.tripRef[trip], routeRef: tt.tripRoute[trip],
                        boardStop: stop, boardTime: Int(tt.departures[row + boardPosition]),
                        alightStop: alightStop, alightTime: alightTime,
                        boardEventIndex: boardPosition, alightEventIndex: alightPosition)))
            // The deadline this ride was matched against: the latest round before this one that set one.
            var j = round - 1
            while roundDeadline[j * n + alightStop] == Self.noneBack { j -= 1 }
            let via = Int(roundDeadlineVia[j * n + alightStop])
            if j == 0 {
                var arrival = alightTime
                if via != alightStop {
                    arrival += Int(egress[alightStop] - destinationOffset[via])
                    legs.append(
                        .walk(
                            WalkLeg(
                                fromStop: alightStop, toStop: via,
                                departure: alightTime, arrival: arrival)))
                }
                return Journey(
                    originStop: origin, departure: Int(start.departure), destinationStop: via,
                    arrival: arrival + Int(destinationOffset[via]), legs: legs)
            }
            if via != alightStop {
                let seconds = Timetable(storage: self.tt).transferSeconds(from: alightStop, to: via)!
                legs.append(
                    .walk(
                        WalkLeg(
                            fromStop: alightStop, toStop: via,
                            departure: alightTime, arrival: alightTime + seconds)))
            }
            stop = via
            round = j
        }
    }
}
