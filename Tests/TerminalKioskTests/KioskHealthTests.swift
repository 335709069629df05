import Foundation
import Synchronization
import Testing

@testable import KioskCore
@testable import TerminalKiosk

/// The health a kiosk reports (`/health` of `kiosk run --health-port`, systemd's watchdog).
struct KioskHealthTests {
    /// Every report reads the live-data source. A closure read out of a generic container (`Mutex.withLock { $0 }`)
    /// came back wrapped in reabstraction thunks, written back each time: a kiosk reporting for weeks would call its
    /// source through a chain that only grew. The depth at which the source runs must not grow with the reports.
    @Test func readingTheLiveSourceDoesNotWrapIt() {
        let health = KioskHealth(notifier: nil, hangFile: nil)
        let depths = Mutex<[UInt]>([])
        health.setLiveSource {
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            depths.withLock { $0.append(address) }
            return nil
        }
        for _ in 0..<40 { _ = health.snapshot() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 40)
        #expect(Set(seen).count == 1, "the source ran at \(Set(seen).count) stack depths")
    }
}
