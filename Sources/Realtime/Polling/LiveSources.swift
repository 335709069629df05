import Foundation
import TransitModel

/// Live data of which several sources' values merge into one (alerts of several feeds, several publishers'
/// trip updates).
public protocol MergeableLiveData: Sendable {
    init(merging parts: [Self])
}

/// The last good data of each source of one kind, merged into the one value stop views and plans read.
///
/// Each source keeps its own clocks: a source that stopped answering (or sends what cannot be decoded) keeps its
/// last data until freshness retires it, and from then on only the sources still live are merged.
public struct LiveSources<Value: MergeableLiveData>: Sendable {
    public private(set) var latest: [LiveData.Fetched<Value>?]

    public init(count: Int) { latest = Array(repeating: nil, count: count) }

    public mutating func update(_ index: Int, _ fetched: LiveData.Fetched<Value>) { latest[index] = fetched }

    /// A source answered "not modified": its data is confirmed as of `at`.
    public mutating func confirm(_ index: Int, at: Date) { latest[index]?.fetchedAt = at }

    /// What stop views read at `now`: with one source, that source as it is (its freshness judged at view time);
    /// with several, the sources live at `now` merged, aged like the oldest of them — or, when none is live, the
    /// most recently fetched one as it is, so that the board says its live data is stale.
    public func merged(now: Date, pollSeconds: Int, mode: RealtimeMode) -> LiveData.Fetched<Value>? {
        let present = latest.compactMap { $0 }
        guard latest.count > 1 else { return present.first }
        let live = present.filter {
            Freshness.evaluate(
                headerTimestamp: $0.headerTimestamp, fetchedAt: $0.fetchedAt, now: now, pollSeconds: pollSeconds,
                mode: mode
            ).isLive
        }
        guard let oldestFetch = live.map(\.fetchedAt).min() else {
            return present.max { $0.fetchedAt < $1.fetchedAt }
        }
        if live.count == 1 { return live[0] }
        return LiveData.Fetched(
            value: Value(merging: live.map(\.value)), headerTimestamp: live.compactMap(\.headerTimestamp).min(),
            fetchedAt: oldestFetch)
    }
}
