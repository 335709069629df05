import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import SystemSupport
import Testing

@testable import WebService

/// Plans are admitted (`BlockingWork.plans`): so many compute at once, a short queue waits, the rest get 503 +
/// Retry-After at once, and the other routes answer meanwhile. Plans are held at a gate the test opens, so the slots
/// and the queue fill in a known state, whatever the machine's speed. (The pool's order and bounds in general are
/// `BlockingWorkTests`'.)
@Suite struct PlanAdmissionTests {
    static let plan = "/api/v1/plan?from=1091&to=1011&at=2026-11-25T08:00"

    /// Waits (a hang guard, not a time limit) until `condition` holds.
    static func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<120_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition())
    }

    @Test func plansBeyondTheQueueAreRefusedWithRetryAfter() async throws {
        let service = try TestSupport.service(plans: .plans(threads: 2, waiting: 3))
        let gate = DispatchSemaphore(value: 0)
        service.plans.gate.withLock { $0 = gate }
        try await TestSupport.withRouter(service) { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for uri in [Self.plan, "/plan?from=1091&to=1011&at=2026-11-25T08:00", Self.plan, Self.plan, Self.plan] {
                    group.addTask { try await client.execute(uri: uri, method: .get) { $0.status } }
                }
                try await Self.waitFor { service.plans.load.admitted == 5 }
                #expect(service.plans.load.active == 2 && service.plans.load.queued == 3)
                for uri in [
                    Self.plan, "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00", "/plan?from=1091&to=1011",
                ] {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .serviceUnavailable, "\(uri)")
                        #expect(response.headers[.retryAfter] == "2", "\(uri)")
                        if uri.hasPrefix("/api") {
                            #expect(response.headers[.contentType] == "application/problem+json")
                            #expect(
                                String(buffer: response.body).contains(
                                    "2 journey plans are being made and 3 are waiting; ask again in a few seconds"))
                        }
                    }
                }
                // Everything else answers while every plan slot is held.
                for uri in ["/health", "/api/v1/stops/1091", "/s/1091"] {
                    try await client.execute(uri: uri, method: .get) { #expect($0.status == .ok, "\(uri)") }
                }
                gate.signal()
                var answered = 0
                for try await status in group {
                    #expect(status == .ok)
                    answered += 1
                }
                #expect(answered == 5)
            }
        }
        #expect(service.plans.load.refused == 3)
        // A slot is given back just after its plan's answer is handed over.
        try await Self.waitFor { service.plans.load.active == 0 && service.plans.load.queued == 0 }
    }

    /// On Linux a nice value belongs to a thread; 0 names the calling one.
    static func callingThreadNice() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    @Test("plans compute on threads of their own, at a lower scheduling priority than the rest of the server")
    func plansRunAtALowerPriority() async throws {
        let admission = BlockingWork.plans(threads: 2, waiting: 2)
        let base = Self.callingThreadNice()
        let seen = try await admission.run { (Self.callingThreadNice(), ThreadName.current) }
        #expect(seen.0 == min(19, base + admission.niceness))
        #expect(admission.niceness > 0)
        #expect(seen.1 == "kiosk-plans")
    }
}

/// Values appended from several threads, in the order they came.
final class SharedLog<Value: Sendable>: Sendable {
    private let log = Mutex<[Value]>([])
    func append(_ value: Value) { log.withLock { $0.append(value) } }
    var values: [Value] { log.withLock { $0 } }
}
