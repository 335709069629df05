import Foundation
import ServiceLifecycle
import Synchronization
import SystemSupport

/// `kiosk serve` under systemd (`Type=notify`, `WatchdogSec=`, kiosk/stopkiosk-web.service): `READY=1` once the
/// server listens, `WATCHDOG=1` after each health probe that got an answer, `STOPPING=1` when a signal starts the
/// graceful shutdown. The probe is a real request, `GET /health` over loopback to the server's own socket, made on
/// a thread of its own: a server whose event loops or request tasks hang stops answering, the pings stop and
/// systemd restarts it. Any HTTP answer counts, a 503 too: that is a database failing reads, which the server
/// reports and a restart would not mend.
struct ServeWatchdog: Service {
    let notifier: SystemdNotifier
    let listening: ListeningAddress

    /// Runs until the graceful shutdown, which ends it at once (a service that threw would fail the group's
    /// clean exit, so cancellation ends the loop quietly).
    func run() async {
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown {
                guard let interval = notifier.watchdogInterval else {
                    try? await gracefulShutdown()
                    return
                }
                let step = interval / 4
                while !Task.isCancelled {
                    if let (host, port) = listening.address, await Self.probe(host: host, port: port, timeout: step) {
                        notifier.watchdogIfDue()
                    }
                    try? await Task.sleep(for: step)
                }
            }
        } onGracefulShutdown: {
            notifier.stopping()
        }
    }

    /// Whether `GET /health` on `host:port` got an HTTP status line within `timeout` (on a thread of its own, so a
    /// hung server cannot also hold one of the cooperative threads it needs).
    static func probe(host: String, port: Int, timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: probeNow(host: host, port: port, timeout: timeout)) }
            thread.name = "serve-watchdog-probe"
            thread.start()
        }
    }

    static func probeNow(host: String, port: Int, timeout: Duration) -> Bool {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else { return false }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return false }
        let request = Array("GET /health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var answer = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 12 {
            let count = answer.withUnsafeMutableBytes { buffer in
                recv(descriptor, buffer.baseAddress! + received, buffer.count - received, 0)
            }
            guard count > 0 else { return false }
            received += count
        }
        // "HTTP/1.1 200": any status is an answer.
        return Array(answer.prefix(9)) == Array("HTTP/1.1 ".utf8) && answer[9...11].allSatisfy { (48...57).contains($0) }
    }
}

/// Where the server listens, once it does (set from `onServerRunning`).
final class ListeningAddress: Sendable {
    private let value = Mutex<(String, Int)?>(nil)

    var address: (String, Int)? { value.withLock { $0 } }

    /// The address to probe: a wildcard listener is reached over loopback.
    func set(host: String, port: Int) {
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        value.withLock { $0 = (reachable, port) }
    }
}
