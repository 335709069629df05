import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 connection handling with each connection's task run on its channel's own event loop
/// (a task executor preference), not on Swift Concurrency's global pool: without it every request crossed
/// threads twice (the event loop read it, a pool thread ran the router, the event loop wrote the answer), and the
/// switches, wake-ups and task allocations took most of a small answer's time (issue 41). Blocking work still
/// leaves the loop: the handlers hand it to `BlockingWork`'s threads as before.
struct EventLoopHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await http1.handle(value: value, logger: logger)
        }
    }
}

/// An event loop as a `TaskExecutor`: a job runs in the loop's own queue, between its I/O.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
