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

/// The last good data of each `[realtime] alerts` source, merged into the one index stop views read: a dead
/// agency feed never hides the staff messages, nor the other way round (`LiveSources`).
public typealias AlertSources = LiveSources<AlertIndex>

extension AlertIndex: MergeableLiveData {}
