// The compiled, immutable timetable and the compiler that produces it from a `TimetableBuilder`.
//
// Layout (all flat, struct-of-arrays, `Int32` unless noted), chosen so a RAPTOR round touches memory
// mostly sequentially:
// - Patterns ("RAPTOR routes"): trips with the same stop sequence *and* the same boarding/alighting
//   permissions at every position, split further until no trip overtakes another. So within a pattern the
//   trips are totally ordered at every position (by arrival and by departure), which is what lets the
//   search binary-search the earliest catchable trip and keep a single "current trip" while scanning.
// - Stop times of a pattern are stored trip-major: row `t` holds that trip's arrivals (resp. departures)
//   at every position, so following the current trip along the pattern reads consecutive `Int32`s.
// - Per-stop lists (CSR: `xStart[s]..<xStart[s+1]`) of (pattern, position) entries, walks (out and in)
//   and changes to other stops (out and in) with their effective minimum times.
//
// The arrays live in manually allocated buffers owned by one object, so that the search loops index raw
// buffers: no copy-on-write checks, no exclusivity checks, no bounds checks in release builds (they stay
// on in debug builds, which is where the tests run).

/// A compiled day-window timetable. Immutable and `Sendable`: build it once per data window and share it
/// between planners on any number of threads.
public struct Timetable: Sendable {
    let storage: TimetableStorage

    init(storage: TimetableStorage) { self.storage = storage }

    public var stopCount: Int { storage.stopCount }
    public var tripCount: Int { storage.tripCount }
    /// Number of RAPTOR routes (stop patterns after overtaking splits).
    public var patternCount: Int { storage.patternCount }
    public var stopEventCount: Int { storage.eventCount }
    /// Directed walks between different stops (explicit footpaths plus implicit station-group walks).
    public var walkCount: Int { storage.walkOutStop.count }
    /// Directed changes between different stops that are allowed (walks and pair-specific rules, minus
    /// forbidden pairs).
    public var transferCount: Int { storage.transferOutStop.count }
    public var minTransferSeconds: Int { storage.minTransferSeconds }

    /// Bytes held by the timetable's arrays (a close estimate of its resident size; per-object overhead is
    /// a few hundred bytes on top).
    public var memoryFootprintBytes: Int { storage.arena.bytes + 256 }

    /// The same trips and patterns (shared with this timetable, not copied: a mapped image stays mapped) with
    /// the walks, station groups and transfer rules of `rules` and its `minTransferSeconds` instead; the trips
    /// added to `rules` are ignored. Costs what compiling the walks and changes costs, nothing per trip.
    public func replacingTransfers(with rules: TimetableBuilder) -> Timetable {
        Timetable(storage: TimetableCompiler(rules).compileTransfers(keeping: storage))
    }

    /// Whether every trip's `tripRef` lies in `0..<limit` (a caller that indexes its own tables with them
    /// checks a loaded image once with this).
    public func tripReferencesAreBelow(_ limit: Int) -> Bool {
        let refs = storage.tripRef
        var bad = false
        for r in refs { bad = bad || r < 0 || r >= limit }
        return !bad
    }

    /// Shortest walk from `from` to `to` as the planner sees it (0 for the same stop, `nil` if none).
    public func walkSeconds(from: Int, to: Int) -> Int? {
        if from == to { return 0 }
        let s = storage
        for e in Int(s.walkOutStart[from])..<Int(s.walkOutStart[from + 1]) where Int(s.walkOutStop[e]) == to {
            return Int(s.walkOutSeconds[e])
        }
        return nil
    }

    /// Minimum time between alighting at `from` and boarding at `to` (the same stop included), or `nil`
    /// if that change is impossible or forbidden.
    public func transferSeconds(from: Int, to: Int) -> Int? {
        let s = storage
        if from == to {
            let c = s.changeSeconds[from]
            return c < 0 ? nil : Int(c)
        }
        for e in Int(s.transferOutStart[from])..<Int(s.transferOutStart[from + 1])
        where Int(s.transferOutStop[e]) == to {
            return Int(s.transferOutSeconds[e])
        }
        return nil
    }
}

/// Owns raw allocations of trivially copyable elements and frees them together; also keeps alive other owners
/// of memory the timetable reads (a mapped image file), counting their bytes.
final class Arena: @unchecked Sendable {
    private var blocks: [UnsafeMutableRawPointer] = []
    private var owners: [AnyObject] = []
    private(set) var bytes = 0

    func freeze<T: BitwiseCopyable>(_ array: [T]) -> UnsafeBufferPointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
        array.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { pointer.initialize(from: base, count: source.count) }
        }
        blocks.append(UnsafeMutableRawPointer(pointer))
        bytes += max(array.count, 1) * MemoryLayout<T>.stride
        return UnsafeBufferPointer(start: pointer, count: array.count)
    }

    /// Keeps `owner` (and so the memory it owns) alive as long as this arena, counting `bytes` of it.
    func retain(_ owner: AnyObject, bytes: Int) {
        owners.append(owner)
        self.bytes += bytes
    }

    deinit {
        for block in blocks { block.deallocate() }
    }
}

/// Immutable after `init`; the `@unchecked Sendable` is sound because nothing ever writes through these
/// buffers once the compiler has filled them.
final class TimetableStorage: @unchecked Sendable {
    let arena: Arena
    let stopCount: Int
    let tripCount: Int
    let patternCount: Int
    let eventCount: Int
    let minTransferSeconds: Int

    // Patterns.
    let patternStopStart: UnsafeBufferPointer<Int32>  // patternCount + 1, into patternStops/Flags
    let patternStops: UnsafeBufferPointer<Int32>
    let patternFlags: UnsafeBufferPointer<UInt8>  // PatternFlag bits per position
    let patternTripStart: UnsafeBufferPointer<Int32>  // patternCount + 1, into the trip arrays
    let patternTimeStart: UnsafeBufferPointer<Int32>  // patternCount, into arrivals/departures
    let arrivals: UnsafeBufferPointer<Int32>  // trip-major per pattern
    let departures: UnsafeBufferPointer<Int32>
    // Trips, in pattern order (trip t of pattern p is global trip patternTripStart[p] + t).
    let tripPattern: UnsafeBufferPointer<Int32>
    let tripRef: UnsafeBufferPointer<Int>
    let tripRoute: UnsafeBufferPointer<Int>
    // Stop → (pattern, position) entries.
    let stopPatternStart: UnsafeBufferPointer<Int32>
    let stopPatternPattern: UnsafeBufferPointer<Int32>
    let stopPatternPosition: UnsafeBufferPointer<Int32>
    // Walks (access, egress), both directions.
    let walkOutStart: UnsafeBufferPointer<Int32>
    let walkOutStop: UnsafeBufferPointer<Int32>
    let walkOutSeconds: UnsafeBufferPointer<Int32>
    let walkInStart: UnsafeBufferPointer<Int32>
    let walkInStop: UnsafeBufferPointer<Int32>
    let walkInSeconds: UnsafeBufferPointer<Int32>
    // Changes to a different stop, both directions, with effective minimum times.
    let transferOutStart: UnsafeBufferPointer<Int32>
    let transferOutStop: UnsafeBufferPointer<Int32>
    let transferOutSeconds: UnsafeBufferPointer<Int32>
    let transferInStart: UnsafeBufferPointer<Int32>
    let transferInStop: UnsafeBufferPointer<Int32>
    let transferInSeconds: UnsafeBufferPointer<Int32>
    // Same-stop change time, -1 where changing at that stop is forbidden.
    let changeSeconds: UnsafeBufferPointer<Int32>

    /// Moves a compiler's arrays into an arena, releasing each array once it is copied (so a city's stop times
    /// are never held twice).
    convenience init(_ compiler: consuming TimetableCompiler) {
        var c = consume compiler
        let counts = (trips: c.tripRef.count, patterns: c.patternTripStart.count - 1, events: c.arrivals.count)
        let arena = Arena()
        var sections: [TimetableSection: UnsafeRawBufferPointer] = [:]
        func put<T: BitwiseCopyable>(_ section: TimetableSection, _ array: inout [T]) {
            sections[section] = UnsafeRawBufferPointer(arena.freeze(array))
            array = []
        }
        put(.patternStopStart, &c.patternStopStart)
        put(.patternStops, &c.patternStops)
        put(.patternFlags, &c.patternFlags)
        put(.patternTripStart, &c.patternTripStart)
        put(.patternTimeStart, &c.patternTimeStart)
        put(.arrivals, &c.arrivals)
        put(.departures, &c.departures)
        put(.tripPattern, &c.tripPattern)
        put(.tripRef, &c.tripRef)
        put(.tripRoute, &c.tripRoute)
        put(.stopPatternStart, &c.stopPatternStart)
        put(.stopPatternPattern, &c.stopPatternPattern)
        put(.stopPatternPosition, &c.stopPatternPosition)
        put(.walkOutStart, &c.walkOut.start)
        put(.walkOutStop, &c.walkOut.stop)
        put(.walkOutSeconds, &c.walkOut.seconds)
        put(.walkInStart, &c.walkIn.start)
        put(.walkInStop, &c.walkIn.stop)
        put(.walkInSeconds, &c.walkIn.seconds)
        put(.transferOutStart, &c.transferOut.start)
        put(.transferOutStop, &c.transferOut.stop)
        put(.transferOutSeconds, &c.transferOut.seconds)
        put(.transferInStart, &c.transferIn.start)
        put(.transferInStop, &c.transferIn.stop)
        put(.transferInSeconds, &c.transferIn.seconds)
        put(.changeSeconds, &c.changeSeconds)
        self.init(
            arena: arena, stopCount: c.stopCount, tripCount: counts.trips, patternCount: counts.patterns,
            eventCount: counts.events, minTransferSeconds: c.minTransferSeconds
        ) { sections[$0]! }
    }

    /// The storage over buffers someone else filled: a compiler's arrays, or a mapped image's sections (whose
    /// owner `arena` retains). `section` gives each section's bytes, of the element type `TimetableSection`
    /// names; the caller has checked them (`TimetableImage` validates every count and index).
    init(
        arena: Arena, stopCount: Int, tripCount: Int, patternCount: Int, eventCount: Int, minTransferSeconds: Int,
        section: (TimetableSection) -> UnsafeRawBufferPointer
    ) {
        self.arena = arena
        self.stopCount = stopCount
        self.tripCount = tripCount
        self.patternCount = patternCount
        self.eventCount = eventCount
        self.minTransferSeconds = minTransferSeconds
        func int32(_ s: TimetableSection) -> UnsafeBufferPointer<Int32> { section(s).bindMemory(to: Int32.self) }
        patternStopStart = int32(.patternStopStart)
        patternStops = int32(.patternStops)
        patternFlags = section(.patternFlags).bindMemory(to: UInt8.self)
        patternTripStart = int32(.patternTripStart)
        patternTimeStart = int32(.patternTimeStart)
        arrivals = int32(.arrivals)
        departures = int32(.departures)
        tripPattern = int32(.tripPattern)
        tripRef = section(.tripRef).bindMemory(to: Int.self)
        tripRoute = section(.tripRoute).bindMemory(to: Int.self)
        stopPatternStart = int32(.stopPatternStart)
        stopPatternPattern = int32(.stopPatternPattern)
        stopPatternPosition = int32(.stopPatternPosition)
        walkOutStart = int32(.walkOutStart)
        walkOutStop = int32(.walkOutStop)
        walkOutSeconds = int32(.walkOutSeconds)
        walkInStart = int32(.walkInStart)
        walkInStop = int32(.walkInStop)
        walkInSeconds = int32(.walkInSeconds)
        transferOutStart = int32(.transferOutStart)
        transferOutStop = int32(.transferOutStop)
        transferOutSeconds = int32(.transferOutSeconds)
        transferInStart = int32(.transferInStart)
        transferInStop = int32(.transferInStop)
        transferInSeconds = int32(.transferInSeconds)
        changeSeconds = int32(.changeSeconds)
    }

    /// The bytes of one section (for writing an image, or for sharing sections with another storage).
    func bytes(of section: TimetableSection) -> UnsafeRawBufferPointer {
        switch section {
        case .patternStopStart: UnsafeRawBufferPointer(patternStopStart)
        case .patternStops: UnsafeRawBufferPointer(patternStops)
        case .patternFlags: UnsafeRawBufferPointer(patternFlags)
        case .patternTripStart: UnsafeRawBufferPointer(patternTripStart)
        case .patternTimeStart: UnsafeRawBufferPointer(patternTimeStart)
        case .arrivals: UnsafeRawBufferPointer(arrivals)
        case .departures: UnsafeRawBufferPointer(departures)
        case .tripPattern: UnsafeRawBufferPointer(tripPattern)
        case .tripRef: UnsafeRawBufferPointer(tripRef)
        case .tripRoute: UnsafeRawBufferPointer(tripRoute)
        case .stopPatternStart: UnsafeRawBufferPointer(stopPatternStart)
        case .stopPatternPattern: UnsafeRawBufferPointer(stopPatternPattern)
        case .stopPatternPosition: UnsafeRawBufferPointer(stopPatternPosition)
        case .walkOutStart: UnsafeRawBufferPointer(walkOutStart)
        case .walkOutStop: UnsafeRawBufferPointer(walkOutStop)
        case .walkOutSeconds: UnsafeRawBufferPointer(walkOutSeconds)
        case .walkInStart: UnsafeRawBufferPointer(walkInStart)
        case .walkInStop: UnsafeRawBufferPointer(walkInStop)
        case .walkInSeconds: UnsafeRawBufferPointer(walkInSeconds)
        case .transferOutStart: UnsafeRawBufferPointer(transferOutStart)
        case .transferOutStop: UnsafeRawBufferPointer(transferOutStop)
        case .transferOutSeconds: UnsafeRawBufferPointer(transferOutSeconds)
        case .transferInStart: UnsafeRawBufferPointer(transferInStart)
        case .transferInStop: UnsafeRawBufferPointer(transferInStop)
        case .transferInSeconds: UnsafeRawBufferPointer(transferInSeconds)
        case .changeSeconds: UnsafeRawBufferPointer(changeSeconds)
        }
    }
}

/// Compressed adjacency lists: neighbours of `s` are `stop[start[s]..<start[s+1]]`.
struct Adjacency {
    var start: [Int32]
    var stop: [Int32]
    var seconds: [Int32]

    /// Counting sort by `from` (stable, so the caller's order within a row is kept).
    init(stopCount: Int, from: [Int32], to: [Int32], seconds: [Int32]) {
        var start = [Int32](repeating: 0, count: stopCount + 1)
        for f in from { start[Int(f) + 1] += 1 }
        for s in 0..<stopCount { start[s + 1] += start[s] }
        var cursor = start
        var stopOut = [Int32](repeating: 0, count: from.count)
        var secondsOut = [Int32](repeating: 0, count: from.count)
        for e in from.indices {
            let slot = Int(cursor[Int(from[e])])
            cursor[Int(from[e])] += 1
            stopOut[slot] = to[e]
            secondsOut[slot] = seconds[e]
        }
        self.start = start
        self.stop = stopOut
        self.seconds = secondsOut
    }
}

/// Turns the builder's flat input into `TimetableStorage`. Build cost is dominated by one hash of each
/// trip's stop sequence and one sort per pattern, i.e. roughly linear in the number of stop events.
struct TimetableCompiler {
    var input: TimetableBuilder
    let stopCount: Int
    let minTransferSeconds: Int

    var patternStopStart: [Int32] = [0]
    var patternStops: [Int32] = []
    var patternFlags: [UInt8] = []
    var patternTripStart: [Int32] = [0]
    var patternTimeStart: [Int32] = []
    var arrivals: [Int32] = []
    var departures: [Int32] = []
    var tripPattern: [Int32] = []
    var tripRef: [Int] = []
    var tripRoute: [Int] = []
    var stopPatternStart: [Int32] = []
    var stopPatternPattern: [Int32] = []
    var stopPatternPosition: [Int32] = []
    var walkOut = Adjacency(stopCount: 0, from: [], to: [], seconds: [])
    var walkIn = Adjacency(stopCount: 0, from: [], to: [], seconds: [])
    var transferOut = Adjacency(stopCount: 0, from: [], to: [], seconds: [])
    var transferIn = Adjacency(stopCount: 0, from: [], to: [], seconds: [])
    var changeSeconds: [Int32] = []

    init(_ input: TimetableBuilder) {
        self.input = input
        self.stopCount = input.stopCount
        self.minTransferSeconds = input.minTransferSeconds
    }

    consuming func compile() -> TimetableStorage {
        precondition(input.tripEventCount < Int(Int32.max), "too many stop events for Int32 offsets")
        compilePatterns()
        input.dropTrips()  // (the patterns hold them now: a city's events are not kept twice)
        compileStopPatterns()
        compileWalksAndTransfers()
        return TimetableStorage(self)
    }

    /// A storage with `base`'s trips and patterns (shared, not copied) and the walks and changes of this
    /// compiler's input (whose trips are ignored).
    consuming func compileTransfers(keeping base: TimetableStorage) -> TimetableStorage {
        precondition(stopCount == base.stopCount, "the rules are for another stop numbering")
        compileWalksAndTransfers()
        let arena = Arena()
        arena.retain(base.arena, bytes: base.arena.bytes)
        var fresh: [TimetableSection: UnsafeRawBufferPointer] = [:]
        func put(_ section: TimetableSection, _ array: [Int32]) {
            fresh[section] = UnsafeRawBufferPointer(arena.freeze(array))
        }
        put(.walkOutStart, walkOut.start)
        put(.walkOutStop, walkOut.stop)
        put(.walkOutSeconds, walkOut.seconds)
        put(.walkInStart, walkIn.start)
        put(.walkInStop, walkIn.stop)
        put(.walkInSeconds, walkIn.seconds)
        put(.transferOutStart, transferOut.start)
        put(.transferOutStop, transferOut.stop)
        put(.transferOutSeconds, transferOut.seconds)
        put(.transferInStart, transferIn.start)
        put(.transferInStop, transferIn.stop)
        put(.transferInSeconds, transferIn.seconds)
        put(.changeSeconds, changeSeconds)
        return TimetableStorage(
            arena: arena, stopCount: base.stopCount, tripCount: base.tripCount, patternCount: base.patternCount,
            eventCount: base.eventCount, minTransferSeconds: minTransferSeconds
        ) { fresh[$0] ?? base.bytes(of: $0) }
    }

    // MARK: Patterns

    private mutating func compilePatterns() {
        let start = input.eventStart
        let arr = input.eventArrival
        let dep = input.eventDeparture
        let template = input.tripTemplate, shift = input.tripShift
        let tripCount = input.tripRefs.count

        // Pattern key of a template: per event, its stop and permissions. Boarding at the last stop and alighting
        // at the first are meaningless, so they are normalised away instead of splitting patterns over them. Only
        // the distinct keys are kept (a key per event would be the largest array of a city's compilation).
        func key(ofTemplate j: Int, into key: inout [Int64]) {
            let first = Int(start[j]), last = Int(start[j + 1]) - 1
            key.removeAll(keepingCapacity: true)
            for e in first...last {
                var flags = input.eventFlags[e]
                if e == first { flags &= ~PatternFlag.alight }
                if e == last { flags &= ~PatternFlag.board }
                key.append(Int64(input.eventStop[e]) << 2 | Int64(flags))
            }
        }

        var groupOf: [[Int64]: Int] = [:]
        var groupKeys: [[Int64]] = []
        var groups: [[Int32]] = []
        var templateKey: [Int64] = []
        var templateGroup = [Int](repeating: -1, count: start.count - 1)
        for t in 0..<tripCount {
            let j = Int(template[t])
            if templateGroup[j] < 0 {
                key(ofTemplate: j, into: &templateKey)
                if let g = groupOf[templateKey] {
                    templateGroup[j] = g
                } else {
                    templateGroup[j] = groups.count
                    groupOf[templateKey] = groups.count
                    groupKeys.append(templateKey)
                    groups.append([])
                }
            }
            groups[templateGroup[j]].append(Int32(t))
        }
        groupOf = [:]
        templateGroup = []

        // Lexicographic order of (arr0, dep0, arr1, dep1, …) extends the "never later at any position"
        // partial order, so first-fit into chains yields chains that are totally ordered.
        func precedes(_ a: Int32, _ b: Int32) -> Bool {
            let ea = Int(start[Int(template[Int(a)])]), eb = Int(start[Int(template[Int(b)])])
            let sa = shift[Int(a)], sb = shift[Int(b)]
            let n = Int(start[Int(template[Int(a)]) + 1]) - ea
            for i in 0..<n {
                if arr[ea + i] &+ sa != arr[eb + i] &+ sb { return arr[ea + i] &+ sa < arr[eb + i] &+ sb }
                if dep[ea + i] &+ sa != dep[eb + i] &+ sb { return dep[ea + i] &+ sa < dep[eb + i] &+ sb }
            }
            return a < b
        }
        func notLater(_ a: Int32, _ b: Int32) -> Bool {
            let ea = Int(start[Int(template[Int(a)])]), eb = Int(start[Int(template[Int(b)])])
            let sa = shift[Int(a)], sb = shift[Int(b)]
            let n = Int(start[Int(template[Int(a)]) + 1]) - ea
            for i in 0..<n where arr[ea + i] &+ sa > arr[eb + i] &+ sb || dep[ea + i] &+ sa > dep[eb + i] &+ sb {
                return false
            }
            return true
        }

        arrivals.reserveCapacity(input.tripEventCount)
        departures.reserveCapacity(input.tripEventCount)
        tripPattern.reserveCapacity(tripCount)
        tripRef.reserveCapacity(tripCount)
        tripRoute.reserveCapacity(tripCount)

        for (var trips, patternKey) in zip(groups, groupKeys) {
            trips.sort(by: precedes)
            var chains: [[Int32]] = []
            for t in trips {
                if let c = chains.firstIndex(where: { notLater($0[$0.count - 1], t) }) {
                    chains[c].append(t)
                } else {
                    chains.append([t])
                }
            }
            let length = patternKey.count
            for chain in chains {
                let pattern = Int32(patternTripStart.count - 1)
                for k in patternKey {
                    patternStops.append(Int32(truncatingIfNeeded: k >> 2))
                    patternFlags.append(UInt8(truncatingIfNeeded: k & 3))
                }
                patternStopStart.append(Int32(patternStops.count))
                patternTimeStart.append(Int32(arrivals.count))
                for t in chain {
                    let e = Int(start[Int(template[Int(t)])]), s = shift[Int(t)]
                    for i in e..<e + length {
                        arrivals.append(arr[i] &+ s)
                        departures.append(dep[i] &+ s)
                    }
                    tripPattern.append(pattern)
                    tripRef.append(input.tripRefs[Int(t)])
                    tripRoute.append(input.routeRefs[Int(t)])
                }
                patternTripStart.append(Int32(tripRef.count))
            }
        }
    }

    private mutating func compileStopPatterns() {
        var from: [Int32] = [], pattern: [Int32] = [], position: [Int32] = []
        from.reserveCapacity(patternStops.count)
        pattern.reserveCapacity(patternStops.count)
        position.reserveCapacity(patternStops.count)
        for p in 0..<(patternStopStart.count - 1) {
            let base = Int(patternStopStart[p])
            for i in 0..<(Int(patternStopStart[p + 1]) - base) {
                from.append(patternStops[base + i])
                pattern.append(Int32(p))
                position.append(Int32(i))
            }
        }
        // Reuse the counting sort: "seconds" carries the position.
        let adjacency = Adjacency(stopCount: stopCount, from: from, to: pattern, seconds: position)
        stopPatternStart = adjacency.start
        stopPatternPattern = adjacency.stop
        stopPatternPosition = adjacency.seconds
    }

    // MARK: Walks and transfers

    private mutating func compileWalksAndTransfers() {
        var walks: [Int64: Int32] = [:]
        for e in input.footFrom.indices {
            let k = TimetableBuilder.pairKey(Int(input.footFrom[e]), Int(input.footTo[e]))
            walks[k] = min(walks[k] ?? Int32.max, input.footSeconds[e])
        }
        var members: [Int32: [Int32]] = [:]
        for s in 0..<stopCount where input.stationGroup[s] >= 0 {
            members[input.stationGroup[s], default: []].append(Int32(s))
        }
        let implicit = Int32(minTransferSeconds)
        for (_, stops) in members where stops.count > 1 {
            for a in stops {
                for b in stops where a != b {
                    let k = TimetableBuilder.pairKey(Int(a), Int(b))
                    if walks[k] == nil { walks[k] = implicit }
                }
            }
        }

        // A change by a walk takes at least what a change at one stop takes: two platforms a few metres apart
        // (or two feeds' copies of one stop) are no quicker to change between than one platform.
        var transfers: [Int64: Int32] = [:]
        for (k, w) in walks { transfers[k] = max(w, input.pairMinimum[k] ?? implicit) }
        for (k, rule) in input.pairMinimum where k >> 32 != k & 0xFFFF_FFFF && transfers[k] == nil {
            transfers[k] = rule
        }
        for k in input.forbidden { transfers[k] = nil }

        changeSeconds = Array(repeating: Int32(minTransferSeconds), count: stopCount)
        for (k, rule) in input.pairMinimum where k >> 32 == k & 0xFFFF_FFFF { changeSeconds[Int(k >> 32)] = rule }
        for k in input.forbidden where k >> 32 == k & 0xFFFF_FFFF { changeSeconds[Int(k >> 32)] = -1 }

        (walkOut, walkIn) = Self.adjacencies(walks, stopCount: stopCount)
        (transferOut, transferIn) = Self.adjacencies(transfers, stopCount: stopCount)
    }

    /// Sorted keys make the compiled timetable (and so tie-breaking between equal journeys) independent of
    /// dictionary iteration order.
    private static func adjacencies(_ pairs: [Int64: Int32], stopCount: Int) -> (out: Adjacency, in: Adjacency) {
        let keys = pairs.keys.sorted()
        var from = [Int32](), to = [Int32](), seconds = [Int32]()
        from.reserveCapacity(keys.count)
        to.reserveCapacity(keys.count)
        seconds.reserveCapacity(keys.count)
        for k in keys {
            from.append(Int32(truncatingIfNeeded: k >> 32))
            to.append(Int32(truncatingIfNeeded: k & 0xFFFF_FFFF))
            seconds.append(pairs[k]!)
        }
        return (
            Adjacency(stopCount: stopCount, from: from, to: to, seconds: seconds),
            Adjacency(stopCount: stopCount, from: to, to: from, seconds: seconds)
        )
    }
}
