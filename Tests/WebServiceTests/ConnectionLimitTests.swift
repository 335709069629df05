import Foundation
import Hummingbird
import KioskConfiguration
import Logging
import NIOCore
import ServiceLifecycle
import Testing
import WebService

#if canImport(Glibc)
import Glibc
#endif

/// What the HTTP server itself enforces, over a real socket: the idle-connection timeout and the header limit.
///
/// Nothing here depends on how fast the machine is. The server runs without a test client of its own (the live
/// test framework's client connects at once and, on a loaded machine, was itself closed by the 1 s idle timeout
/// before it sent its first request: "I/O on closed channel"), and a connection the server closes counts the
/// same whether it closes before, while or after the test writes. Socket reads have a receive timeout of
/// `hangGuardSeconds`, far past anything a test waits for: a guard against hanging, never what a test measures.
@Suite struct ConnectionLimitTests {
    static let hangGuardSeconds = 300

    /// Starts the service on a free loopback port and runs `body` with the port.
    func withLiveServer(_ config: KioskConfig, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await Self.withLiveServer(try TestSupport.service(config: config)) { port, _ in try await body(port) }
    }

    /// Runs the service's application (and `services`) on a free port of 127.0.0.1, calls `body` with the port
    /// once the server listens, then shuts the server down gracefully. No client connects on its own.
    static func withLiveServer(
        _ service: WebService, services: [any Service] = [],
        _ body: @escaping @Sendable (Int, WebService) async throws -> Void
    ) async throws {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = service.application(host: "127.0.0.1", port: 0, services: services) { channel in
            if let port = channel.localAddress?.port { portContinuation.yield(port) }
            portContinuation.finish()
        }
        var logger = Logger(label: "test.web.live")
        logger.logLevel = .critical
        let group = ServiceGroup(services: [app], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that stops (or fails to start) ends the wait for its port below.
                defer { portContinuation.finish() }
                try await group.run()
            }
            var listening = ports.makeAsyncIterator()
            guard let port = await listening.next() else {
                try await tasks.waitForAll()  // rethrows why the server did not start
                throw FixtureError("the server stopped before it listened on 127.0.0.1")
            }
            do {
                try await body(port, service)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        var config = KioskConfig()
        config.server.idleConnectionSeconds = 1
        try await withLiveServer(config) { port in
            let socket = try RawSocket(port: port, readTimeoutSeconds: Self.hangGuardSeconds)
            // Send nothing: the server closes the connection after its idle timeout (1 s), however late this
            // read starts. Only a connection still open after the hang guard fails the test.
            let received = await offPool { socket.readToEnd() }
            #expect(received.bytes.isEmpty, "\(String(decoding: received.bytes, as: UTF8.self).prefix(200))")
            #expect(
                received.closedByServer,
                "the server kept an idle connection open (\(received.ending); hang guard \(Self.hangGuardSeconds) s)")
        }
    }

    @Test func oversizedHeadersAreRefused() async throws {
        var config = KioskConfig()
        config.server.maxHeaderBytes = 2048
        // The idle timeout is not what this test is about: long enough that it never closes a connection first.
        config.server.idleConnectionSeconds = 3600
        try await withLiveServer(config) { port in
            let socket = try RawSocket(port: port, readTimeoutSeconds: Self.hangGuardSeconds)
            // The server may refuse and close while the request is still being written; whether the write was cut
            // short or not, what counts is that nothing but a 4xx comes back and the connection ends.
            let sent = socket.send(
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 8000))\r\n\r\n")
            let received = await offPool { socket.readToEnd() }
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(!text.contains("200 OK"), "\(text.prefix(200))")
            #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 4"), "\(text.prefix(200))")
            #expect(
                received.closedByServer,
                "the connection stayed open after an oversized header (\(received.ending); write: \(sent))")
            // A normal request still works on a new connection.
            let ok = try RawSocket(port: port, readTimeoutSeconds: Self.hangGuardSeconds)
            #expect(ok.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == .complete)
            let answer = await offPool { ok.readToEnd() }
            #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "\(answer.ending)")
        }
    }
}

/// Runs blocking socket calls on a thread of their own: a test blocked in `recv` on one of the (two) cooperative
/// threads would starve the server it is waiting for.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// A blocking TCP client on loopback, with a receive timeout so no read can hang a test.
final class RawSocket: Sendable {
    let descriptor: Int32

    /// How a write ended: all of it sent, or cut short because the server had already closed the connection
    /// (EPIPE, ECONNRESET: as much an answer as a response is), or another error.
    enum Sent: Equatable, CustomStringConvertible {
        case complete
        case closedByServer(sentBytes: Int)
        case failed(errno: Int32)
        var description: String {
            switch self {
            case .complete: "complete"
            case .closedByServer(let sent): "the server closed the connection after \(sent) bytes"
            case .failed(let code): "failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// How a read to the end ended.
    enum Ending: Equatable, CustomStringConvertible {
        /// The server closed the connection (end of file).
        case closed
        /// The server reset the connection (it closed with bytes of ours unread).
        case reset
        /// Still open when the receive timeout (the hang guard) ran out.
        case stillOpen
        case failed(errno: Int32)
        var description: String {
            switch self {
            case .closed: "closed by the server"
            case .reset: "reset by the server"
            case .stillOpen: "still open when the receive timeout ran out"
            case .failed(let code): "read failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// `receiveBufferBytes`: a small receive buffer (set before connecting, so the window starts small) for a
    /// client that is to stop reading before loopback's buffers swallow the answers.
    init(port: Int, readTimeoutSeconds: Int, receiveBufferBytes: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var bytes = receiveBufferBytes {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw FixtureError("cannot connect to 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// Sends all of `text` (a blocking socket may take it in several calls).
    @discardableResult
    func send(_ text: String) -> Sent {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EPIPE || errno == ECONNRESET) {
                return .closedByServer(sentBytes: offset)
            } else {
                return .failed(errno: count < 0 ? errno : 0)
            }
        }
        return .complete
    }

    /// Reads until the text received contains `marker`, the peer closes, an error, or the receive timeout.
    func read(until marker: String) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if String(decoding: bytes, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a read to the end gave: the bytes, and how it ended.
    struct Received {
        var bytes: [UInt8]
        var ending: Ending
        /// The server ended the connection, by closing it or resetting it: both are its answer.
        var closedByServer: Bool { ending == .closed || ending == .reset }
    }

    /// Reads until the server closes or resets the connection, another error, or the receive timeout.
    func readToEnd() -> Received {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 {
                return Received(bytes: bytes, ending: .closed)
            } else {
                switch errno {
                case EINTR: continue
                case ECONNRESET: return Received(bytes: bytes, ending: .reset)
                case EAGAIN, EWOULDBLOCK: return Received(bytes: bytes, ending: .stillOpen)
                default: return Received(bytes: bytes, ending: .failed(errno: errno))
                }
            }
        }
    }
}
