import Dispatch
import Foundation
import Synchronization

/// Journey plans are the server's expensive answers, so they are admitted rather than queued without end: at most
/// `running` compute at once (the machine's cores), on threads of their own at a lower scheduling priority — never
/// on the event loops or Swift's cooperative threads, so `/health`, stop views and pages keep answering at full plan
/// load, and first when the cores are busy — at most `waiting`
/// more wait their turn, in order, and any more are refused at once with 503 problem+json and `Retry-After`, as
/// the spoken stop view is.
public final class PlanAdmission: Sendable {
    /// Plans computing at once.
    public var running: Int { state.withLock { $0.running } }
    /// Plans waiting for a free slot; beyond that, 503.
    public var waiting: Int { state.withLock { $0.waiting } }
    /// Where admitted plans compute: threads at `nice` 5, as the other blocking work's. (On Dispatch's threads they
    /// competed with the event loops as equals: with both cores planning, `/health` waited up to 20–36 ms.)
    let threads = BlockingWork(niceness: 5, threadName: "kiosk-plans")
    private let state: Mutex<State>
    /// Tests: while set, every admitted plan waits for it before computing (so slots and the queue fill up in a
    /// known order, without timing).
    let gate = Mutex<DispatchSemaphore?>(nil)

    private struct State {
        var running: Int
        var waiting: Int
        var active = 0
        var queued: [Job] = []
        var refused = 0
        var admitted = 0
    }

    private enum Decision { case start, queued, refused(running: Int, waiting: Int) }

    private struct Job: Sendable {
        let run: @Sendable () -> Void
    }

    /// - Parameters:
    ///   - running: plans computing at once; default the machine's active processors.
    ///   - waiting: plans waiting beyond those; default 16 or four per core, whichever is more (16 clients asking
    ///     plans at once are served, not refused).
    public init(running: Int = ProcessInfo.processInfo.activeProcessorCount, waiting: Int? = nil) {
        let running = max(1, running)
        state = Mutex(State(running: running, waiting: max(0, waiting ?? max(16, 4 * running))))
    }

    /// Tests: other limits for the plans admitted from now on.
    func setLimits(running: Int, waiting: Int) {
        state.withLock {
            $0.running = max(1, running)
            $0.waiting = max(0, waiting)
        }
    }

    /// Plans computing and waiting now, and refused so far.
    public var load: (active: Int, queued: Int, refused: Int, admitted: Int) {
        state.withLock { ($0.active, $0.queued.count, $0.refused, $0.admitted) }
    }

    /// Runs `work` on a plan thread once a slot is free, or throws the 503 problem at once when `waiting` plans
    /// already wait.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let job = Job { [self] in
                if let held = gate.withLock({ $0 }) {
                    held.wait()
                    held.signal()  // let the next held plan through too once the test opens the gate
                }
                continuation.resume(with: Result { try work() })
            }
            let decision = state.withLock { state -> Decision in
                if state.active < state.running {
                    state.active += 1
                    state.admitted += 1
                    return .start
                }
                if state.queued.count < state.waiting {
                    state.queued.append(job)
                    state.admitted += 1
                    return .queued
                }
                state.refused += 1
                return .refused(running: state.running, waiting: state.waiting)
            }
            switch decision {
            case .start: start(job)
            case .queued: break
            case let .refused(running, waiting):
                continuation.resume(
                    throwing: Problem(
                        status: .serviceUnavailable, title: "Planner busy",
                        detail:
                            "\(running) journey plans are being made and \(waiting) are waiting; ask again in a few seconds",
                        retryAfter: 2))
            }
        }
    }

    private func start(_ job: Job) {
        threads.submit { [self] in
            job.run()
            let next = state.withLock { state -> Job? in
                if state.queued.isEmpty {
                    state.active -= 1
                    return nil
                }
                return state.queued.removeFirst()
            }
            if let next { start(next) }
        }
    }
}
