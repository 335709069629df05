import Foundation
import TransitModel

extension AlertIndex {
    /// The alerts of several indexes as one, in the order given (at most `maximumAlerts`; the rest counted).
    public init(merging indexes: [AlertIndex]) {
        entries = []
        emptySelectors = 0
        for index in indexes {
            let room = Self.maximumAlerts - entries.count
            entries += index.entries.prefix(max(0, room))
            alertsLeftOut += index.alertsLeftOut + max(0, index.entries.count - max(0, room))
            informedEntitiesLeftOut += index.informedEntitiesLeftOut
            emptySelectors += index.emptySelectors
        }
    }
}

/// The last good data of each `[realtime] alerts` source, merged into the one index stop views read.
///
/// Each source keeps its own clocks: a source that stopped answering (or sends what cannot be decoded) keeps its
/// last alerts until freshness retires them, and from then on only the sources still live are merged — a dead
/// agency feed never hides the staff messages, nor the other way round.
public struct AlertSources: Sendable {
    public private(set) var latest: [LiveData.Fetched<AlertIndex>?]

    public init(count: Int) { latest = Array(repeating: nil, count: count) }

    public mutating func update(_ index: Int, _ fetched: LiveData.Fetched<AlertIndex>) { latest[index] = fetched }

    /// A source answered "not modified": its data is confirmed as of `at`.
    public mutating func confirm(_ index: Int, at: Date) { latest[index]?.fetchedAt = at }

    /// What stop views read at `now`: with one source, that source as it is (its freshness judged at view time);
    /// with several, the sources live at `now` merged, aged like the oldest of them — or, when none is live, the
    /// most recently fetched one as it is, so that the board says the alerts are stale.
    public func merged(now: Date, pollSeconds: Int, mode: RealtimeMode) -> LiveData.Fetched<AlertIndex>? {
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
        return LiveData.Fetched(
            value: AlertIndex(merging: live.map(\.value)), headerTimestamp: live.compactMap(\.headerTimestamp).min(),
            fetchedAt: oldestFetch)
    }
}
