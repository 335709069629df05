import Foundation
import Logging
import TransitModel
import TransitStore

/// Live data for a long-running process (the terminal kiosk, `kiosk serve`), polled off its main loop: a task fetches the configured feeds every `poll_seconds`
/// (each fetch with its own timeout and size cap) and leaves the latest `LiveData` here; the main loop reads it
/// when it builds a board and never waits on the network. A dead, slow or garbage feed only means the data
/// here grows old, and freshness turns the boards back to the timetable.
public final class LiveFeedPolling: @unchecked Sendable {
    // `latest` and `lastReport` are guarded by `lock`; `task` is touched by the main loop only.
    private let lock = NSLock()
    private var latest: LiveData?
    private var lastReport: RealtimePoller.Report?
    private var task: Task<Void, Never>?
    private let logger = Logger(label: "stopkiosk.realtime")

    /// The live data to apply to boards now (nil: none configured, offline, or no database).
    public var live: LiveData? { lock.withLock { latest } }

    public init() {}

    /// Starts polling `database` with `settings`; `clock` is the kiosk's clock (the demo's is shifted), which
    /// stamps what arrives. `changed` is called (from the polling task) after each poll that brought new data.
    public func start(
        settings: RealtimeSettings, database: RouteDatabase, clock: @escaping @Sendable () -> Date,
        changed: @escaping @Sendable () -> Void
    ) {
        stop()
        guard settings.hasFeeds, settings.mode != .offline else { return }
        let poller: RealtimePoller
        do {
            poller = try RealtimePoller(settings: settings, database: database)
        } catch {
            logger.error("live data unavailable", metadata: ["error": "\(error)"])
            return
        }
        let logger = self.logger
        task = Task.detached { [weak self] in
            let initial = await poller.live
            self?.lock.withLock { self?.latest = initial }
            var failing: Set<String> = []
            while !Task.isCancelled {
                let report = await poller.pollOnce(now: clock)
                let live = await poller.live
                guard let self else { return }
                self.lock.withLock {
                    self.latest = live
                    self.lastReport = report
                }
                // Each source reports on its own: one that fails leaves the others on the board.
                var outcomes: [(String, RealtimePoller.Report.Outcome)] = []
                for (publisher, part) in zip(settings.publishers.filter(\.hasFeeds), report.feeds) {
                    let feed = part.feed.isEmpty ? "" : "\(part.feed) "
                    outcomes.append(("\(feed)trip_updates", part.tripUpdates))
                    outcomes += zip(publisher.alertFeeds, part.alertSources).map { source, outcome in
                        (publisher.alertFeeds.count > 1 ? "\(feed)alerts \(source)" : "\(feed)alerts", outcome)
                    }
                    outcomes.append(("\(feed)vehicle_positions", part.vehiclePositions))
                }
                for (kind, outcome) in outcomes {
                    if case let .failed(reason) = outcome {
                        if failing.insert(kind).inserted {
                            logger.warning("live feed failing", metadata: ["feed": "\(kind)", "error": "\(reason)"])
                        }
                    } else if outcome != .notFetched, failing.remove(kind) != nil {
                        logger.notice("live feed recovered", metadata: ["feed": "\(kind)"])
                    }
                }
                changed()
                try? await Task.sleep(for: .seconds(settings.pollSeconds))
            }
        }
    }

    public func stop() {
        task?.cancel()
        task = nil
        lock.withLock { latest = nil }
    }

    deinit { task?.cancel() }
}
