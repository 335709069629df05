import Foundation
import KioskConfiguration
import Testing

@testable import WebService

#if canImport(Glibc)
import Glibc
#endif

/// Issue 36: clients that pipeline requests and never read their answers cost ~5 MB each (200 took a server from
/// 79 MB to 1.1 GB); a URL longer than the request decoder takes got a bare 400. `PipelinedRequestGate` stops
/// reading a connection while its answers are unsent.
@Suite struct PipelinedClientTests {
    static let request = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    /// More than loopback's socket buffers take (~3 MB a connection) while the server reads nothing.
    static let floodBytes = 8_000_000

    /// A client that writes `bytes` of pipelined requests and never reads: the write ends when all is sent or when
    /// the server stops taking them (the send timeout: how long the test waits, not what it checks).
    static func flood(_ socket: RawSocket, bytes: Int) -> Int {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let block = Array(String(repeating: request, count: 2048).utf8)
        var sent = 0
        while sent < bytes {
            let count = block.withUnsafeBytes {
                send(socket.descriptor, $0.baseAddress!, min($0.count, bytes - sent), Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    /// 40 clients each try to pipeline 8 MB of requests (~230,000) and read nothing. Each connection holds at most
    /// 64 KiB of raw requests and a few decoded ones; `/health` is answered meanwhile; once they hang up, nothing
    /// is held.
    @Test func clientsThatPipelineAndNeverReadHoldABoundedAmount() async throws {
        var config = KioskConfig()
        config.server.idleConnectionSeconds = 3600
        config.server.slowReaderSeconds = 3600
        let service = try TestSupport.service(config: config)
        try await ConnectionLimitTests.withLiveServer(service) { port, service in
            var clients = try (0..<40).map { _ in
                try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            }
            let sent = await withTaskGroup(of: Int.self) { group in
                for client in clients { group.addTask { await offPool { Self.flood(client, bytes: Self.floodBytes) } } }
                return await group.reduce(0, +)
            }
            let statistics = service.pipelines
            // What the server kept: one read of raw bytes per connection, and the requests of one 512-byte slice
            // (a short request is 18 bytes) decoded ahead of their answers.
            #expect(statistics.largestHeldByOneConnection <= PipelinedRequestGate.heldLimit)
            #expect(
                statistics.mostRequestsWaitingOnOneConnection <= PipelinedRequestGate.sliceBytes / 18 + 1,
                "\(statistics.mostRequestsWaitingOnOneConnection) requests decoded ahead on one connection")
            #expect(statistics.heldBytes <= 40 * PipelinedRequestGate.heldLimit)
            #expect(statistics.largestHeldByOneConnection > 0, "the clients sent \(sent) bytes; the server held none?")
            // The server stopped taking them (the sends ended by their timeout, not by running out of bytes):
            // what is measured above is its steady state.
            #expect(sent < 40 * Self.floodBytes, "the server took all \(sent) bytes")
            // Everyone else is served meanwhile.
            let health = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            let answer = await FileLimitTests.exchange(health, "/health")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
            // They leave (closed with answers unread: a reset): what their connections held is let go (a bounded
            // wait for the resets to arrive).
            clients.removeAll()
            for _ in 0..<600 where statistics.heldBytes > 0 { try await Task.sleep(for: .milliseconds(100)) }
            #expect(statistics.heldBytes == 0)
        }
    }

    /// A client that pipelines and reads gets every answer, in order; the end of its input, held behind the
    /// requests, still closes the connection after the last answer.
    @Test func pipelinedRequestsAreAllAnsweredInOrder() async throws {
        let service = try TestSupport.service()
        try await ConnectionLimitTests.withLiveServer(service) { port, _ in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            let paths = (0..<300).map { $0 % 3 == 0 ? "/api/v1/stops/1091?n=\($0)" : "/health?n=\($0)" }
            let text = paths.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            #expect(socket.send(text) == .complete)
            shutdown(socket.descriptor, Int32(SHUT_WR))
            let received = await offPool { socket.readToEnd() }
            let answers = String(decoding: received.bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst()
            #expect(answers.count == paths.count, "\(answers.count) answers to \(paths.count) requests")
            #expect(answers.allSatisfy { $0.hasPrefix("200") }, "\(answers.first { !$0.hasPrefix("200") }?.prefix(200) ?? "")")
            #expect(received.closedByServer, "\(received.ending)")
        }
    }

    /// A URL longer than the decoder takes (`max_header_bytes`) is a 414 problem+json, as a shorter over-long one
    /// is (`max_url_bytes`); an over-long header is a 431 problem+json. Neither is a bare 400.
    @Test func aURLTooLongForTheDecoderIs414() async throws {
        let service = try TestSupport.service()
        try await ConnectionLimitTests.withLiveServer(service) { port, _ in
            for (length, status) in [(5000, "414"), (20_000, "414"), (80_000, "414"), (200_000, "414")] {
                let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
                let path = "/api/v1/stops/1091?x=" + String(repeating: "a", count: length)
                socket.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let received = await offPool { socket.readToEnd() }
                let text = String(decoding: received.bytes, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(length): \(text.prefix(300))")
                #expect(text.contains("application/problem+json"), "\(length): \(text.prefix(600))")
                #expect(text.contains("\"status\":\(status)"), "\(length): \(text.suffix(400))")
            }
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 40_000))\r\n\r\n")
            let received = await offPool { socket.readToEnd() }
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 431"), "\(text.prefix(300))")
            #expect(text.contains("\"status\":431") && text.contains("Content-Security-Policy"), "\(text)")
            #expect(received.closedByServer, "\(received.ending)")
        }
    }
}
