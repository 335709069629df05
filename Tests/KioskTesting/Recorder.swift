import Synchronization

/// Values that escaping closures on any thread append to (log lines a callback receives, results of threads), read
/// back by the test.
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    public init() {}

    public func append(_ value: Value) { values.withLock { $0.append(value) } }

    /// What was appended so far, in order.
    public var all: [Value] { values.withLock { $0 } }
}
