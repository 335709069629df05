/// When and how often a `ReconnectingCameraSource` tries to reopen a lost camera.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Wait before the first retry after a loss.
    public var initialDelay: Duration
    /// The wait doubles after every failed attempt up to this.
    public var maximumDelay: Duration
    /// A camera that is open but has delivered nothing for this long is closed and reopened (a wedged USB
    /// camera often recovers that way); nil never restarts a stalled camera.
    public var restartAfterStall: Duration?

    public init(
        initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(5),
        restartAfterStall: Duration? = .seconds(10)
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.restartAfterStall = restartAfterStall
    }

    /// The delay before attempt `attempt` (1-based): initial × 2^(attempt−1), capped.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        var n = 1
        while n < attempt && delay < maximumDelay {
            delay = delay * 2
            n += 1
        }
        return min(delay, maximumDelay)
    }
}

/// What a reconnecting camera is doing, for the kiosk screen ("camera unavailable") and `kiosk doctor`.
public enum CameraState: Sendable, Equatable, CustomStringConvertible {
    /// Not opened yet.
    case idle
    /// Open and streaming, in this format (nil when the opener returned a source that is not a V4L2 camera).
    case streaming(CameraFormat?)
    /// Lost or not there: `lastError` is why, `attempt` counts failed reopen attempts since the loss, and the next
    /// attempt is due `retryIn` after the state was entered.
    case reconnecting(lastError: CaptureError, attempt: Int, retryIn: Duration)
    /// Closed by its owner.
    case closed

    public var isStreaming: Bool {
        if case .streaming = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .streaming(let format?): return "streaming \(format.width)x\(format.height) \(format.pixelFormat)"
        case .streaming(nil): return "streaming"
        case .reconnecting(let error, let attempt, let retryIn):
            return "camera unavailable (\(error)); retry \(attempt + 1) in \(formatSeconds(retryIn.seconds)) s"
        case .closed: return "closed"
        }
    }
}

/// A camera that survives being unplugged: when the device vanishes or fails, it is closed and reopened with
/// exponential backoff (0.25 s doubling to 5 s by default) until it is back, and frames resume without
/// restarting the program. A camera missing at start is waited for the same way.
///
/// `nextFrame` throws the error that interrupted streaming at once (so the caller can show "camera unavailable"),
/// then, while the camera is away, waits up to `timeout` per call for it to come back and throws the latest
/// reopen error if it has not. `state` and `onStateChange` report streaming ⇄ reconnecting transitions.
///
/// Sequence numbers stay increasing across reconnections (each new stream continues after the last frame).
public final class ReconnectingCameraSource: FrameSource {
    public typealias Opener = (CameraConfiguration) throws(CaptureError) -> any FrameSource

    public let configuration: CameraConfiguration
    public let policy: ReconnectPolicy
    public var name: String { configuration.device }
    public private(set) var state: CameraState = .idle {
        didSet { if state != oldValue { onStateChange?(state) } }
    }
    /// Called on every state change, on the caller's thread, from inside `nextFrame` or `close`.
    public var onStateChange: ((CameraState) -> Void)?
    /// How many times the camera was reopened after a loss.
    public private(set) var reconnections = 0

    private let open: Opener
    private var camera: (any FrameSource)?
    private var everOpened = false
    private var nextAttemptNanos: UInt64 = 0
    private var failedAttempts = 0
    private var lastError: CaptureError?
    private var sequenceBase = 0
    private var nextSequence = 0
    private var stalledSinceNanos: UInt64?
    private var justOpened = false

    /// `open` is how the camera is opened; tests substitute scripted sources, the default is `V4L2CameraSource`.
    public init(
        _ configuration: CameraConfiguration, policy: ReconnectPolicy = ReconnectPolicy(),
        onStateChange: ((CameraState) -> Void)? = nil,
        open: @escaping Opener = { configuration throws(CaptureError) in try V4L2CameraSource(configuration) }
    ) {
        self.configuration = configuration
        self.policy = policy
        self.onStateChange = onStateChange
        self.open = open
    }

    deinit {
        camera?.close()
    }

    public func close() {
        camera?.close()
        camera = nil
        state = .closed
    }

    public func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame? {
        if case .closed = state { throw .closed(source: name) }
        let start = MonotonicClock.nanos()
        let deadline = start &+ timeout.clampedNanoseconds < start ? UInt64.max : start + timeout.clampedNanoseconds

        while true {
            if camera == nil {
                try connectOrWait(deadline: deadline)
                continue
            }
            let now = MonotonicClock.nanos()
            let remaining = deadline > now ? deadline - now : 0
            do throws(CaptureError) {
                // A camera that was just (re)opened gets a fresh window for its first frame, even when reconnecting
                // used up this call's timeout; otherwise the call keeps to its deadline.
                let floor = justOpened ? min(timeout.clampedNanoseconds, 1_000_000_000) : 1_000_000
                justOpened = false
                let wait = Duration.nanoseconds(Int64(clamping: max(remaining, floor)))
                guard var frame = try camera!.nextFrame(timeout: wait) else {
                    // A camera does not end; treat it as a loss.
                    throw CaptureError.deviceLost(device: name, reason: "the stream ended")
                }
                stalledSinceNanos = nil
                frame.sequence = max(sequenceBase + frame.sequence, nextSequence)
                nextSequence = frame.sequence + 1
                return frame
            } catch {
                try handle(error)
            }
        }
    }

    /// Decides what a camera error means: a stall is reported and, if long, turned into a restart; anything else
    /// closes the camera and starts reconnecting. Always rethrows, so the caller hears about it.
    private func handle(_ error: CaptureError) throws(CaptureError) -> Never {
        let now = MonotonicClock.nanos()
        if case .noFrame = error {
            let since = stalledSinceNanos ?? now
            stalledSinceNanos = since
            guard let limit = policy.restartAfterStall, now - since >= limit.clampedNanoseconds else { throw error }
        }
        camera?.close()
        camera = nil
        stalledSinceNanos = nil
        failedAttempts = 0
        lastError = error
        let delay = policy.initialDelay
        nextAttemptNanos = now + delay.clampedNanoseconds
        state = .reconnecting(lastError: error, attempt: 0, retryIn: delay)
        throw error
    }

    /// Tries to open when an attempt is due; otherwise sleeps until the next attempt or the deadline, and throws
    /// the latest error when the deadline comes first.
    private func connectOrWait(deadline: UInt64) throws(CaptureError) {
        let now = MonotonicClock.nanos()
        if now >= nextAttemptNanos {
            do {
                let opened = try open(configuration)
                camera = opened
                if everOpened { reconnections += 1 }
                everOpened = true
                sequenceBase = nextSequence
                failedAttempts = 0
                lastError = nil
                justOpened = true
                state = .streaming((opened as? V4L2CameraSource)?.format)
                return
            } catch {
                failedAttempts += 1
                lastError = error
                let delay = policy.delay(beforeAttempt: failedAttempts)
                nextAttemptNanos = MonotonicClock.nanos() + delay.clampedNanoseconds
                state = .reconnecting(lastError: error, attempt: failedAttempts, retryIn: delay)
            }
        }
        let after = MonotonicClock.nanos()
        if after >= deadline {
            throw lastError ?? .noSuchDevice(device: name)
        }
        let wakeUp = min(nextAttemptNanos, deadline)
        if wakeUp > after { MonotonicClock.sleep(nanos: wakeUp - after) }
        let woke = MonotonicClock.nanos()
        if woke >= deadline && woke < nextAttemptNanos {
            throw lastError ?? .noSuchDevice(device: name)
        }
    }
}
