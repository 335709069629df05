import Dispatch
import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where the server's blocking work runs: database reads, name searches, stop views rendered afresh, SVG pictures,
/// route and timetable pages. Hummingbird runs every handler as a task on Swift's cooperative threads, one per core;
/// a handler that reads SQLite or renders for milliseconds holds one of them, and a few such requests at once
/// would hold them all, so `/health` and the shared "now" answers would wait behind them. Handlers hand such work
/// to `run`, which computes it on threads of this pool's own and suspends the handler meanwhile.
///
/// Bounded: `threads` jobs compute at once (the machine's cores), at most `waiting` more wait their turn in order, and
/// any more are refused at once with 503 problem+json and `Retry-After`, so a flood costs a short queue, never an
/// unbounded one. The threads run at a lower scheduling priority (`niceness`) than the event loops and the
/// cooperative threads: when the cores are busy, the cheap answers go first.
///
/// Journey plans, the server's most expensive answers, have a pool of their own (`plans`), so that a flood of plans
/// never holds up the other blocking work, nor the other way round.
public final class BlockingWork: Sendable {
    /// Jobs computing at once: the pool's threads.
    public let threads: Int
    /// Jobs waiting for a free thread; beyond that, 503.
    public var waiting: Int { queue.state.withLock { $0.waitingLimit } }
    /// How much lower than the server's other threads the pool's threads are scheduled (Linux `nice`, 0–19).
    public let niceness: Int32
    /// The threads' name, as `ps -L` shows it (at most 15 bytes).
    let threadName: String
    /// What a refusal's problem says: its title, and what the busy threads are doing ("3 answers are being
    /// computed and 64 are waiting").
    let busyTitle: String, busyWork: String
    private let queue: JobQueue
    /// Tests: while set, every job waits for it before computing (so the threads and the queue fill up in a known
    /// order, without timing).
    let gate = Mutex<DispatchSemaphore?>(nil)

    /// - Parameters:
    ///   - threads: jobs computing at once; default the machine's active processors.
    ///   - waiting: jobs waiting beyond those; default 64 or 16 per thread, whichever is more (the jobs are
    ///     milliseconds each: a full queue is a wait of tens of milliseconds, not seconds).
    ///   - niceness: the threads' `nice` relative to the process (0 for none).
    ///   - threadName: what `ps -L` calls the threads.
    ///   - busyTitle, busyWork: what a refusal says (see the properties).
    public init(
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, waiting: Int? = nil, niceness: Int32 = 5,
        threadName: String = "kiosk-blocking", busyTitle: String = "Server busy",
        busyWork: String = "answers are being computed"
    ) {
        let threads = max(1, threads)
        self.threads = threads
        self.niceness = niceness
        self.threadName = threadName
        self.busyTitle = busyTitle
        self.busyWork = busyWork
        queue = JobQueue(threads: threads, waitingLimit: max(0, waiting ?? max(64, 16 * threads)))
    }

    /// The pool where journey plans are made: `threads` at once (the machine's cores), at most `waiting` more (default
    /// 16 or four per core, whichever is more: 16 clients asking plans at once are served, not refused), at `nice` 5
    /// as the other blocking work. (On Dispatch's threads plans competed with the event loops as equals: with both
    /// cores planning, `/health` waited up to 20–36 ms.)
    public static func plans(
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, waiting: Int? = nil
    ) -> BlockingWork {
        BlockingWork(
            threads: threads, waiting: waiting ?? max(16, 4 * max(1, threads)), threadName: "kiosk-plans",
            busyTitle: "Planner busy", busyWork: "journey plans are being made")
    }

    deinit { queue.stop() }

    /// Tests: another queue length for the jobs admitted from now on.
    func setWaiting(_ waiting: Int) { queue.state.withLock { $0.waitingLimit = max(0, waiting) } }

    /// Jobs computing and waiting now; admitted and refused so far.
    public var load: (active: Int, queued: Int, admitted: Int, refused: Int) {
        queue.state.withLock { ($0.active, $0.waitingCount, $0.admitted, $0.refused) }
    }

    /// Jobs refused since the last call (what `/metrics` adds to its counter).
    func takeUnreportedRefusals() -> Int {
        queue.state.withLock { state in
            defer { state.reportedRefused = state.refused }
            return state.refused - state.reportedRefused
        }
    }

    /// Runs `work` on one of the pool's threads once one is free and returns its result; throws the 503 problem at
    /// once when `waiting` jobs already wait.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let job: JobQueue.Job = { [self] in
                if let held = gate.withLock({ $0 }) {
                    held.wait()
                    held.signal()  // let the next held job through too once the test opens the gate
                }
                continuation.resume(with: Result { try work() })
            }
            switch queue.admit(job) {
            case .queued(let startThreads):
                if startThreads { startThreadsOnce() }
            case .refused(let waiting):
                continuation.resume(
                    throwing: Problem(
                        status: .serviceUnavailable, title: busyTitle,
                        detail: "\(threads) \(busyWork) and \(waiting) are waiting; ask again in a few seconds",
                        retryAfter: 2))
            }
        }
    }

    /// Starts the pool's threads on first use (a service that never blocks starts none).
    private func startThreadsOnce() {
        let queue = self.queue
        let niceness = self.niceness
        let name = threadName
        for _ in 0..<threads {
            Thread {
                // Not `Thread.current.name`: Foundation drops that name when the thread runs before `start` returns.
                ThreadName.setCurrent(name)
                if niceness > 0 {
                    // On Linux a nice value belongs to a thread: 0 names the calling one.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                }
                queue.work()
            }.start()
        }
    }
}

/// The jobs waiting for the pool's threads, and the threads' loop: kept apart from `BlockingWork` so that the
/// threads do not keep it alive (its `deinit` tells them to finish).
private final class JobQueue: Sendable {
    typealias Job = @Sendable () -> Void

    struct State {
        var waitingLimit: Int
        /// The jobs in order; those taken are nil until the array is compacted.
        var jobs: [Job?] = []
        var head = 0
        var active = 0
        var admitted = 0
        var refused = 0
        var reportedRefused = 0
        var started = false
        var stopped = false
        var waitingCount: Int { jobs.count - head }
    }

    enum Admission { case queued(startThreads: Bool), refused(waiting: Int) }

    let state: Mutex<State>
    let threads: Int
    /// Signalled once per job queued, and once per thread at stop.
    private let available = DispatchSemaphore(value: 0)

    init(threads: Int, waitingLimit: Int) {
        self.threads = threads
        state = Mutex(State(waitingLimit: waitingLimit))
    }

    /// Queues `job` when fewer than `threads + waitingLimit` jobs are in the pool, else refuses it.
    func admit(_ job: @escaping Job) -> Admission {
        let admission = state.withLock { state -> Admission in
            guard state.active + state.waitingCount < threads + state.waitingLimit else {
                state.refused += 1
                return .refused(waiting: state.waitingLimit)
            }
            state.jobs.append(job)
            state.admitted += 1
            defer { state.started = true }
            return .queued(startThreads: !state.started)
        }
        if case .queued = admission { available.signal() }
        return admission
    }

    /// A thread's loop: takes the jobs in order until the queue is stopped and empty.
    func work() {
        while true {
            available.wait()
            let job = state.withLock { state -> Job? in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.jobs[state.head] = nil  // the job holds its caller's values: let them go once it has run
                state.head += 1
                if state.head > 64 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                state.active += 1
                return job
            }
            guard let job else {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            job()
            state.withLock { $0.active -= 1 }
        }
    }

    /// Lets the threads finish the jobs queued, then end: one wake-up more per thread, beyond one per job, so each
    /// thread finds the queue empty and stopped exactly once.
    func stop() {
        let started = state.withLock { state -> Bool in
            state.stopped = true
            return state.started
        }
        if started { for _ in 0..<threads { available.signal() } }
    }
}
