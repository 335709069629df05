import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing
import WebService

#if canImport(Glibc)
import Glibc
#endif

/// What the HTTP server itself enforces, over a real socket: the idle-connection timeout and the header limit.
@Suite struct ConnectionLimitTests {
    /// Starts the service on a free loopback port and runs `body` with the port.
    func withLiveServer(_ config: KioskConfig, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await Self.withLiveServer(try TestSupport.service(config: config)) { port, _ in try await body(port) }
    }

    static func withLiveServer(
        _ service: WebService, services: [any Service] = [],
        _ body: @escaping @Sendable (Int, WebService) async throws -> Void
    ) async throws {
        let port = Mutex<Int?>(nil)
        let app = service.application(host: "127.0.0.1", port: 0, services: services) { channel in
            port.withLock { $0 = channel.localAddress?.port }
        }
        try await app.test(.live) { client in
            // The live client has connected once the test closure runs: the port is known.
            try await client.execute(uri: "/health", method: .get) { _ in }
            try await body(try #require(port.withLock { $0 }), service)
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        var config = KioskConfig()
        config.server.idleConnectionSeconds = 1
        try await withLiveServer(config) { port in
            let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
            // Send nothing: the server closes the connection after its idle timeout (1 s); a connection still open
            // when the 30 s receive timeout ends the read is not `closedByPeer`.
            let received = await offPool { socket.readAll() }
            #expect(received.closedByPeer, "the server kept an idle connection open")
        }
    }

    @Test func oversizedHeadersAreRefused() async throws {
        var config = KioskConfig()
        config.server.maxHeaderBytes = 2048
        try await withLiveServer(config) { port in
            let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
            socket.send(
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 8000))\r\n\r\n")
            let received = await offPool { socket.readAll() }
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(!text.contains("200 OK"), "\(text.prefix(200))")
            #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 4"), "\(text.prefix(200))")
            // A normal request still works on a new connection.
            let ok = try RawSocket(port: port, readTimeoutSeconds: 30)
            ok.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = await offPool { ok.readAll().bytes }
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
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

    init(port: Int, readTimeoutSeconds: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the text received contains `marker`, the peer closes, an error, or the receive timeout.
    func read(until marker: String) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<10_000 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if String(decoding: bytes, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads until the peer closes (`closedByPeer`), an error, or the receive timeout.
    func readAll() -> (bytes: [UInt8], closedByPeer: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<10_000 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 {
                return (bytes, true)
            } else {
                return (bytes, errno == ECONNRESET)
            }
        }
        return (bytes, false)
    }
}
