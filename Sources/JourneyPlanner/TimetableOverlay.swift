// What the planner reads beside a compiled `Timetable`: the realtime changes of one poll and the
// restrictions of step-free travel, kept apart from the timetable so that the compiled (or mapped) image is
// never copied or modified. OpenTripPlanner's raptor module reads its data through a narrow provider in the
// same spirit; MOTIS swaps in a new realtime timetable per poll. Here the changes are small beside the
// timetable, so a poll compiles only the trips it changes:
//
// - every base trip carries a byte of flags: `unusable` (cancelled, or replaced by its live copy) and
//   `notStepFree` (wheelchair_accessible is not 1);
// - changed and added trips are compiled, with the timetable's own compiler, into a second small timetable
//   ("extra") whose patterns the planner scans beside the base ones. A delayed trip whose new times overtake
//   another trip of its base pattern is therefore never a problem: its copy lives in a pattern of its own
//   (split by the compiler as usual), and the base pattern only loses it, which keeps the base's order;
// - every stop carries `notStepFree` (wheelchair_boarding is not 1, itself or through its station).
//
// Trip indexes in the flags run over the base trips, then the extra ones.

/// Trip and stop flags the planner honours. Internal: the overlay builder sets them.
enum OverlayFlag {
    /// Never boarded: cancelled, deleted, or replaced by its live copy.
    static let unusable: UInt8 = 1
    /// Not known to take a wheelchair (trip), or not known to be step-free to board and alight (stop).
    static let notStepFree: UInt8 = 2
}

/// An immutable set of changes to one `Timetable` for the planner: trips that cannot be used, live copies
/// of changed trips, added trips, and step-free restrictions. Build it once (per network, per realtime poll)
/// with `TimetableOverlayBuilder` and share it: `Sendable`, read-only, any number of planners at once. A
/// query keeps the overlay it started with, so a new poll's overlay can be published while queries run.
public final class TimetableOverlay: @unchecked Sendable {
    let base: TimetableStorage
    let extra: TimetableStorage?
    let arena = Arena()
    /// Base trips (in the timetable's order), then extra trips.
    let tripFlags: UnsafeBufferPointer<UInt8>
    let stopFlags: UnsafeBufferPointer<UInt8>
    /// Base trips made unusable (cancelled or replaced), trips replaced, trips added.
    public let cancelledTripCount: Int
    public let replacedTripCount: Int
    public let addedTripCount: Int
    /// Whether any trip or stop carries a step-free restriction (else a step-free query plans nothing).
    public let hasStepFreeData: Bool

    init(
        base: TimetableStorage, extra: TimetableStorage?, tripFlags: [UInt8], stopFlags: [UInt8],
        cancelled: Int, replaced: Int, added: Int, hasStepFreeData: Bool
    ) {
        self.base = base
        self.extra = extra
        self.tripFlags = arena.freeze(tripFlags)
        self.stopFlags = arena.freeze(stopFlags)
        cancelledTripCount = cancelled
        replacedTripCount = replaced
        addedTripCount = added
        self.hasStepFreeData = hasStepFreeData
    }

    /// Whether this overlay was built for `timetable`.
    public func belongs(to timetable: Timetable) -> Bool { base === timetable.storage }

    /// Bytes held (flags and the extra timetable).
    public var memoryFootprintBytes: Int { arena.bytes + (extra?.arena.bytes ?? 0) }

    /// Trips in the extra timetable (live copies and added trips).
    public var extraTripCount: Int { extra?.tripCount ?? 0 }
}

/// Maps the caller's trip references to the timetable's trips. Build it once per timetable (it costs one
/// pass over the trips) and hand it to every `TimetableOverlayBuilder`.
public final class TripReferenceIndex: Sendable {
    let storage: TimetableStorage
    private let offset: Int
    private let dense: [Int32]?
    private let sparse: [Int: Int32]

    public init(_ timetable: Timetable) {
        let s = timetable.storage
        storage = s
        var low = Int.max, high = Int.min
        for t in 0..<s.tripCount {
            low = min(low, s.tripRef[t])
            high = max(high, s.tripRef[t])
        }
        if s.tripCount > 0, high - low < 4 * s.tripCount + 1024 {
            var dense = [Int32](repeating: -1, count: high - low + 1)
            for t in 0..<s.tripCount { dense[s.tripRef[t] - low] = Int32(t) }
            offset = low
            self.dense = dense
            sparse = [:]
        } else {
            var sparse: [Int: Int32] = [:]
            sparse.reserveCapacity(s.tripCount)
            for t in 0..<s.tripCount { sparse[s.tripRef[t]] = Int32(t) }
            offset = 0
            dense = nil
            self.sparse = sparse
        }
    }

    /// The events of a timetable trip as the planner holds them (boarding at the last stop and alighting at
    /// the first are always off), or nil for an unknown reference.
    public func events(ofTrip ref: Int) -> [StopEvent]? {
        guard let t = trip(ref) else { return nil }
        let s = storage
        let p = Int(s.tripPattern[t])
        let base = Int(s.patternStopStart[p])
        let length = Int(s.patternStopStart[p + 1]) - base
        let row = Int(s.patternTimeStart[p]) + (t - Int(s.patternTripStart[p])) * length
        return (0..<length).map { i in
            let f = s.patternFlags[base + i]
            return StopEvent(
                stop: Int(s.patternStops[base + i]), arrival: Int(s.arrivals[row + i]),
                departure: Int(s.departures[row + i]), canBoard: f & PatternFlag.board != 0,
                canAlight: f & PatternFlag.alight != 0)
        }
    }

    /// Whether this index was built for `timetable`.
    public func belongs(to timetable: Timetable) -> Bool { storage === timetable.storage }

    /// The timetable's trip index of a trip reference, or nil if the timetable has no such trip.
    func trip(_ ref: Int) -> Int? {
        if let dense {
            let i = ref - offset
            guard i >= 0 && i < dense.count, dense[i] >= 0 else { return nil }
            return Int(dense[i])
        }
        return sparse[ref].map(Int.init)
    }
}

/// Collects changes to a timetable and builds a `TimetableOverlay`.
///
/// ```swift
/// var changes = TimetableOverlayBuilder(index: TripReferenceIndex(timetable))
/// changes.cancel(trip: 17)
/// if var events = changes.events(ofTrip: 18) {
///     for i in events.indices { events[i].arrival += 120; events[i].departure += 120 }
///     try changes.replace(trip: 18, events: events)
/// }
/// let overlay = changes.build()
/// let journeys = Planner(timetable: timetable).plan(query, overlay: overlay)
/// ```
public struct TimetableOverlayBuilder: Sendable {
    public let index: TripReferenceIndex
    private var tripFlags: [UInt8]
    private var stopFlags: [UInt8]
    private var extra: TimetableBuilder
    private var extraFlags: [UInt8] = []
    private var extraRefs: Set<Int> = []
    private var cancelled = 0, replaced = 0, added = 0
    private var hasStepFreeData: Bool

    /// No changes yet.
    public init(index: TripReferenceIndex) {
        self.index = index
        let s = index.storage
        tripFlags = Array(repeating: 0, count: s.tripCount)
        stopFlags = Array(repeating: 0, count: s.stopCount)
        extra = TimetableBuilder(stopCount: s.stopCount, minTransferSeconds: s.minTransferSeconds)
        hasStepFreeData = false
    }

    /// Starts from the base flags (step-free restrictions, cancellations) of an existing overlay, without its
    /// extra trips: a realtime poll starts from the network's step-free overlay.
    public init(index: TripReferenceIndex, startingFrom overlay: TimetableOverlay) {
        precondition(overlay.base === index.storage, "the overlay belongs to another timetable")
        self.init(index: index)
        tripFlags = Array(overlay.tripFlags[0..<index.storage.tripCount])
        stopFlags = Array(overlay.stopFlags)
        hasStepFreeData = overlay.hasStepFreeData
    }

    /// The events of a base trip as the planner holds them (boarding at the last stop and alighting at the
    /// first are always off), or nil for an unknown reference.
    public func events(ofTrip ref: Int) -> [StopEvent]? { index.events(ofTrip: ref) }

    /// The route reference of a base trip.
    public func route(ofTrip ref: Int) -> Int? { index.trip(ref).map { index.storage.tripRoute[$0] } }

    /// The trip is not boarded at all. Returns false for an unknown reference.
    @discardableResult
    public mutating func cancel(trip ref: Int) -> Bool {
        guard let t = index.trip(ref) else { return false }
        if tripFlags[t] & OverlayFlag.unusable == 0 { cancelled += 1 }
        tripFlags[t] |= OverlayFlag.unusable
        return true
    }

    /// The trip runs with these events instead (new times; stops it skips with neither boarding nor
    /// alighting). The copy keeps the reference, the route and the step-free flag, and journeys on it report
    /// event indexes into `events`. Returns false for an unknown reference.
    @discardableResult
    public mutating func replace(trip ref: Int, events: [StopEvent]) throws(TimetableError) -> Bool {
        guard let t = index.trip(ref), !extraRefs.contains(ref) else { return false }
        extraRefs.insert(ref)
        let before = extra.tripRefs.count
        try extra.addTrip(tripRef: ref, routeRef: index.storage.tripRoute[t], events: events)
        if tripFlags[t] & OverlayFlag.unusable == 0 { replaced += 1 }
        tripFlags[t] |= OverlayFlag.unusable
        if extra.tripRefs.count > before { extraFlags.append(tripFlags[t] & OverlayFlag.notStepFree) }
        return true
    }

    /// A trip the timetable does not have. `ref` must not collide with the timetable's references.
    public mutating func add(trip ref: Int, route: Int, events: [StopEvent], stepFree: Bool) throws(TimetableError) {
        precondition(index.trip(ref) == nil && !extraRefs.contains(ref), "trip reference \(ref) is already used")
        extraRefs.insert(ref)
        let before = extra.tripRefs.count
        try extra.addTrip(tripRef: ref, routeRef: route, events: events)
        if extra.tripRefs.count > before {
            extraFlags.append(stepFree ? 0 : OverlayFlag.notStepFree)
            added += 1
        }
    }

    /// The base trip is not known to take a wheelchair (its live copy inherits this).
    public mutating func markNotStepFree(trip ref: Int) {
        hasStepFreeData = true
        if let t = index.trip(ref) { tripFlags[t] |= OverlayFlag.notStepFree }
    }

    /// Boarding and alighting at the stop are not known to be step-free.
    public mutating func markNotStepFree(stop: Int) {
        precondition(stop >= 0 && stop < stopFlags.count, "stop out of range")
        hasStepFreeData = true
        stopFlags[stop] |= OverlayFlag.notStepFree
    }

    /// Records that step-free data was read even if nothing was marked (every trip and stop accessible).
    public mutating func noteStepFreeData() { hasStepFreeData = true }

    public func build() -> TimetableOverlay {
        let extraStorage: TimetableStorage? = extra.tripRefs.isEmpty ? nil : TimetableCompiler(extra).compile()
        var flags = tripFlags
        if let extraStorage {
            // The compiler orders trips by pattern: look each one up by its position in the builder.
            var position: [Int: Int] = [:]
            position.reserveCapacity(extra.tripRefs.count)
            for (i, ref) in extra.tripRefs.enumerated() { position[ref] = i }
            for t in 0..<extraStorage.tripCount {
                flags.append(position[extraStorage.tripRef[t]].map { extraFlags[$0] } ?? OverlayFlag.notStepFree)
            }
        }
        return TimetableOverlay(
            base: index.storage, extra: extraStorage, tripFlags: flags, stopFlags: stopFlags,
            cancelled: cancelled, replaced: replaced, added: added, hasStepFreeData: hasStepFreeData)
    }
}
