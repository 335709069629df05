import Foundation
import KioskConfiguration
import Logging
import ScanService
import Scanning
import StopCodes
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What arrives on the kiosk's event queue: the state machine's events, and the runtime's own.
enum RuntimeEvent: Sendable {
    case kiosk(KioskEvent)
    /// A scan, with the monotonic time its frame arrived (for the scan-to-screen latency figure).
    case scanned(ScanOutcome, arrivalNanos: UInt64)
    /// A key pressed by the demo's recorded passenger (does not make the demo step back).
    case scriptedKey(KioskKey)
    case resize
    case quit(signal: Int32)
    case replayEnded
    case inputClosed
    /// An utterance ended (finished, interrupted or failed), posted from the speaker's thread.
    case speechEnded(utterance: Int)
}

/// A thread-safe queue the input threads post to and the main loop drains.
final class RuntimeEventQueue: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var events: [RuntimeEvent] = []

    func post(_ event: RuntimeEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// Everything queued, waiting until `deadline` for at least one event.
    func drain(until deadline: Date) -> [RuntimeEvent] {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        let taken = events
        events.removeAll()
        return taken
    }
}

/// Shared between the main loop and the scanning thread.
final class ScanControl: @unchecked Sendable {
    // All state is guarded by `lock`.
    private let lock = NSLock()
    private var _stopped = false
    private var _paused = false
    private var _database: RouteDatabase?
    private var _generation = 0

    var stopped: Bool { lock.lock(); defer { lock.unlock() }; return _stopped }
    func stop() { lock.lock(); _stopped = true; lock.unlock() }
    var paused: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _paused }
        set { lock.lock(); _paused = newValue; lock.unlock() }
    }

    /// The database scans resolve against; a new generation makes the scanning thread rebuild its pipeline.
    func setDatabase(_ database: RouteDatabase?) {
        lock.lock(); _database = database; _generation += 1; lock.unlock()
    }

    var database: (RouteDatabase?, Int) { lock.lock(); defer { lock.unlock() }; return (_database, _generation) }
}
