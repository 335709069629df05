#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// systemd's readiness and watchdog protocol (`sd_notify(3)`), written directly: one datagram of `KEY=VALUE`
/// lines to the unix socket named by `$NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace). Units with
/// `Type=notify` wait for `READY=1`; with `WatchdogSec=` systemd restarts the service when `WATCHDOG=1` stops
/// arriving for that long (`$WATCHDOG_USEC`, for this process only when `$WATCHDOG_PID` is absent or names it).
///
/// `SystemdNotifier.fromEnvironment()` is nil outside systemd (no `$NOTIFY_SOCKET`): callers then do nothing.
/// It removes the variables from the environment, so that programs this process starts (an audio player) do not
/// report on its behalf. A failed send is ignored, as `sd_notify` callers do: the service runs on and, if the
/// failures last, systemd's own timeouts take over.
public final class SystemdNotifier: Sendable {
    /// The socket's address as the environment gave it.
    public let socketPath: String
    /// How often systemd expects `WATCHDOG=1` at the latest (nil: no watchdog for this process).
    public let watchdogInterval: Duration?
    private let descriptor: Int32
    private let lastPing = Mutex<ContinuousClock.Instant?>(nil)

    /// The notifier systemd asked for through the environment, read (and removed from it) once.
    public static func fromEnvironment() -> SystemdNotifier? { environmentNotifier }

    private static let environmentNotifier: SystemdNotifier? = {
        guard let socket = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !socket.isEmpty else {
            return nil
        }
        var interval: Duration?
        if let usec = getenv("WATCHDOG_USEC").flatMap({ UInt64(String(cString: $0)) }), usec > 0 {
            let pid = getenv("WATCHDOG_PID").flatMap { Int32(String(cString: $0)) }
            if pid == nil || pid == getpid() { interval = .microseconds(Int64(clamping: usec)) }
        }
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
        return SystemdNotifier(socketPath: socket, watchdogInterval: interval)
    }()

    /// A notifier for `socketPath` (tests make their own socket); nil when no datagram socket can be made.
    public init?(socketPath: String, watchdogInterval: Duration? = nil) {
        guard socketPath.hasPrefix("/") || socketPath.hasPrefix("@"),
            socketPath.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        else { return nil }
        #if canImport(Glibc)
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_DGRAM | SOCK_CLOEXEC
        #endif
        let descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.socketPath = socketPath
        self.watchdogInterval = watchdogInterval
    }

    deinit { close(descriptor) }

    /// Sends one message (`READY=1`, `WATCHDOG=1\nSTATUS=…`); false when the datagram could not be sent.
    @discardableResult
    public func send(_ message: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // the abstract namespace
        let length = withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
            return MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (path.first == 0 ? 0 : 1)
        }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
            }
        }
        return sent == bytes.count
    }

    /// `READY=1`: start-up is over (a `Type=notify` unit counts as started only now).
    public func ready(status: String? = nil) {
        send("READY=1" + (status.map { "\nSTATUS=" + Self.line($0) } ?? ""))
    }

    /// `STOPPING=1`: shutting down on purpose (a signal), so a slow exit is not a hang.
    public func stopping() { send("STOPPING=1") }

    /// `STATUS=…`: one line `systemctl status` shows.
    public func status(_ text: String) { send("STATUS=" + Self.line(text)) }

    /// `WATCHDOG=1` if a quarter of the watchdog interval has passed since the last one (systemd's advice is to
    /// ping at half the interval; a quarter leaves room for a loop that runs late). Call it from the loop whose
    /// progress the watchdog stands for, never from a timer of its own: a hung loop must stop the pings.
    public func watchdogIfDue() {
        guard let interval = watchdogInterval else { return }
        let now = ContinuousClock.now
        let due = lastPing.withLock { last in
            guard last.map({ now - $0 >= interval / 4 }) ?? true else { return false }
            last = now
            return true
        }
        if due { send("WATCHDOG=1") }
    }

    private static func line(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
