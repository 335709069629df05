import Logging
import Prometheus
import NIOCore

extension WebService {
    /// Puts the `ConnectionGate` first on the listening socket once the server listens: raises the soft file limit
    /// to the hard one, works out the `ConnectionBudget` from it and the descriptors open now, and logs it.
    func installConnectionGate(on channel: any Channel) async {
        FileLimit.raiseSoftToHard()
        let budget = ConnectionBudget.current(configured: config.server.maxConnections)
        logger.info("connections: \(budget)")
        let logger = self.logger
        let statistics = connections
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(
                    ConnectionGate(budget: budget, logger: logger, statistics: statistics), position: .first)
            }.get()
        } catch {
            logger.error("cannot limit connections: \(error)")
        }
    }
}

extension WebService {
    /// A connection's `SlowReaderGuard` installer (one per connection): closes it when its client takes none of
    /// its answer for `[server] slow_reader_seconds`.
    func slowReaderGuard() -> SlowReaderGuard.Installer {
        SlowReaderGuard.Installer(
            stallLimit: .seconds(Int64(config.server.slowReaderSeconds)), statistics: slowReaders)
    }
}

extension WebMetrics {
    /// The `ConnectionGate`'s figures as `/metrics` shows them (called when it is scraped):
    /// `stopkiosk_connections_open`, `stopkiosk_connections_refused_total` (answered 503 because the budget's
    /// connections were open) and `stopkiosk_accept_failures_total` (accept calls that failed for want of
    /// descriptors or memory; each began or continued a backoff).
    func updateConnections(_ statistics: ConnectionGateStatistics) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "connections_open", unitName: "",
                helpText: "HTTP connections being served")
        ).set(Double(statistics.open))
        let (refused, failed) = statistics.takeUnreported()
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "connections_refused", unitName: "total",
                helpText: "Connections answered 503 because as many as the server may hold were open")
        ).increment(by: Int64(refused))
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "accept_failures", unitName: "total",
                helpText: "accept calls that failed for want of file descriptors or memory (the server backed off)")
        ).increment(by: Int64(failed))
    }

    /// The blocking pool and the slow-reader guard as `/metrics` shows them (called when it is scraped):
    /// `stopkiosk_blocking_jobs{state="running"|"waiting"}` now, `stopkiosk_blocking_refused_total` (answered 503
    /// because the pool's queue was full) and `stopkiosk_slow_readers_closed_total`.
    func updateLoad(blocking: BlockingWork, slowReaders: SlowReaderStatistics) {
        let load = blocking.load
        for (state, value) in [("running", load.active), ("waiting", load.queued)] {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "stopkiosk", metricName: "blocking_jobs", unitName: "",
                    helpText: "Blocking requests (database reads, searches, pictures, pages) computing and waiting"),
                labels: [("state", state)]
            ).set(Double(value))
        }
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "blocking_refused", unitName: "total",
                helpText: "Blocking requests answered 503 because the pool's threads and queue were full")
        ).increment(by: Int64(blocking.takeUnreportedRefusals()))
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "slow_readers_closed", unitName: "total",
                helpText: "Connections closed because their client took none of its answer for slow_reader_seconds")
        ).increment(by: Int64(slowReaders.takeUnreported()))
    }
}
