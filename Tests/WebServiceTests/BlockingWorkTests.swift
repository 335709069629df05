import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import Logging
import NIOCore
import NIOEmbedded
import SystemSupport
import Testing

@testable import WebService

/// Blocking work (database reads, searches, pictures, pages) runs on the pool's own threads, with a short queue and
/// 503 beyond it, so `/health` and the shared "now" answers are answered while every thread of the pool is taken.
///
/// The pool's jobs are held at a gate the test opens: the threads and the queue fill in a known state, whatever the
/// machine's speed, and the cheap answers are asked for and received while the gate is still shut — they cannot
/// have waited for the pool. The pool has as many threads as the machine has cores, as Swift's cooperative pool
/// does: had the held handlers run on the cooperative threads, nothing else could be answered until the gate opened.
@Suite struct BlockingWorkTests {
    static let search = "/api/v1/stops?q=a"

    @Test func cheapAnswersAreServedWhileThePoolIsHeld() async throws {
        let service = try TestSupport.service()
        let blocking = service.blocking
        blocking.setWaiting(2)
        try await TestSupport.withRouter(service) { client in
            // The shared "now" answers, rendered once (on the pool) before it fills.
            var shared: [String: String] = [:]
            for uri in ["/api/v1/stops/1091", "/s/1091"] {
                shared[uri] = try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    return String(buffer: response.body)
                }
            }
            // A thread is given back just after its answer is handed over.
            try await PlanAdmissionTests.waitFor { blocking.load.active == 0 }
            let gate = DispatchSemaphore(value: 0)
            blocking.gate.withLock { $0 = gate }
            let before = blocking.load.admitted
            let held = blocking.threads + blocking.waiting
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for i in 0..<held {
                    let uri = i.isMultiple(of: 2) ? Self.search : "/routes?i=\(i)"
                    group.addTask { try await client.execute(uri: uri, method: .get) { $0.status } }
                }
                try await PlanAdmissionTests.waitFor {
                    blocking.load.admitted == before + held && blocking.load.active == blocking.threads
                }
                #expect(blocking.load.queued == blocking.waiting)

                // The pool is full: more blocking work is refused at once, the API's as problem+json.
                for uri in [Self.search + "&limit=5", "/r/1", "/api/v1/stops/1011", "/s/1011/timetable"] {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .serviceUnavailable, "\(uri)")
                        #expect(response.headers[.retryAfter] == "2", "\(uri)")
                        if uri.hasPrefix("/api") {
                            #expect(response.headers[.contentType] == "application/problem+json", "\(uri)")
                            #expect(String(buffer: response.body).contains("ask again in a few seconds"), "\(uri)")
                        }
                    }
                }
                // The cheap answers come back while every job is still held at the gate.
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
                for (uri, body) in shared {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok, "\(uri)")
                        #expect(String(buffer: response.body) == body, "\(uri)")
                    }
                }
                try await client.execute(uri: "/style.css", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let text = String(buffer: response.body)
                    #expect(text.contains("stopkiosk_blocking_refused_total 4"), "\(text)")
                    #expect(text.contains("stopkiosk_blocking_jobs{state=\"running\"} \(blocking.threads)"), "\(text)")
                }
                // None of them went through the pool, which is still held.
                #expect(blocking.load.admitted == before + held)
                #expect(blocking.load.active == blocking.threads && blocking.load.queued == blocking.waiting)

                gate.signal()
                var answered = 0
                for try await status in group {
                    #expect(status == .ok)
                    answered += 1
                }
                #expect(answered == held)
            }
        }
        #expect(blocking.load.refused == 4)
        try await PlanAdmissionTests.waitFor { blocking.load.active == 0 && blocking.load.queued == 0 }
    }

    /// Jobs start in the order they came as threads free up, and give their result or their error back.
    @Test func waitingJobsRunInOrderAndTheOverflowIsRefused() async throws {
        let pool = BlockingWork(threads: 1, waiting: 3)
        let gate = DispatchSemaphore(value: 0)
        pool.gate.withLock { $0 = gate }
        let order = SharedLog<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<4 {
                group.addTask { try await pool.run { order.append(i) } }
                try await PlanAdmissionTests.waitFor { pool.load.admitted == i + 1 }
            }
            let refusal = await #expect(throws: Problem.self) { try await pool.run {} }
            #expect(refusal?.status == .serviceUnavailable && refusal?.retryAfter == 2)
            gate.signal()
            try await group.waitForAll()
        }
        #expect(order.values == [0, 1, 2, 3])
        #expect(try await pool.run { 6 * 7 } == 42)
        await #expect(throws: FixtureError.self) { try await pool.run { throw FixtureError("inside") } }
        #expect(pool.load.refused == 1 && pool.load.admitted == 6)
    }

    /// Every thread of a pool carries the pool's name, however soon it starts running after it is created. (Named
    /// through Foundation, a thread that ran before its creator's `start` returned kept its creator's name: one
    /// thread in about 40 here.)
    @Test func everyThreadOfAPoolCarriesItsName() async throws {
        let pools = 16
        let threads = 8
        let names = SharedLog<String>()
        for _ in 0..<pools {
            let pool = BlockingWork(threads: threads, niceness: 0, threadName: "kiosk-named")
            let gate = DispatchSemaphore(value: 0)
            pool.gate.withLock { $0 = gate }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<threads {
                    group.addTask { try await pool.run { names.append(ThreadName.current) } }
                }
                // All held at the gate at once: each job is on a thread of its own.
                try await PlanAdmissionTests.waitFor { pool.load.active == threads }
                gate.signal()
                try await group.waitForAll()
            }
        }
        #expect(names.values == Array(repeating: "kiosk-named", count: pools * threads))
    }
}

/// A client that does not take its answer is closed once it has taken nothing for the stall limit while its
/// connection is above the write buffer's mark; one that takes some keeps it. On NIO's embedded channel and clock:
/// the bytes "taken" are those the channel hands on (flushed), so nothing depends on a socket's timing.
@Suite struct SlowReaderGuardTests {
    struct Connection {
        let loop = EmbeddedEventLoop()
        let channel: EmbeddedChannel
        let statistics = SlowReaderStatistics()

        init() throws {
            channel = EmbeddedChannel(loop: loop)
            try channel.pipeline.syncOperations.addHandler(
                SlowReaderGuard(stallLimit: .seconds(5), statistics: statistics))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        /// An answer written and left pending (not flushed: not taken by the client).
        func writeAnswer(bytes: Int = 100_000) {
            channel.write(ByteBuffer(repeating: 0x61, count: bytes), promise: nil)
        }

        func setWritable(_ writable: Bool) {
            channel.isWritable = writable
            channel.pipeline.fireChannelWritabilityChanged()
        }
    }

    @Test func aReaderThatTakesNothingIsClosedAndCounted() throws {
        let connection = try Connection()
        connection.writeAnswer()
        connection.setWritable(false)
        connection.loop.advanceTime(by: .milliseconds(4999))
        #expect(connection.channel.isActive)
        connection.loop.advanceTime(by: .milliseconds(1))
        #expect(!connection.channel.isActive)
        #expect(connection.statistics.closedConnections == 1)
        #expect(connection.statistics.takeUnreported() == 1 && connection.statistics.takeUnreported() == 0)
    }

    @Test func aReaderThatTakesSomeKeepsItsConnection() throws {
        let connection = try Connection()
        connection.writeAnswer()
        connection.setWritable(false)
        connection.loop.advanceTime(by: .seconds(4))
        // The client takes what was pending; more is written and waits (the connection stays above its mark).
        connection.channel.flush()
        connection.writeAnswer()
        connection.loop.advanceTime(by: .seconds(1))
        #expect(connection.channel.isActive)
        // Then it takes nothing for a whole stall limit: closed.
        connection.loop.advanceTime(by: .seconds(5))
        #expect(!connection.channel.isActive)
        #expect(connection.statistics.closedConnections == 1)
    }

    @Test func aConnectionBackUnderItsMarkIsNotWatched() throws {
        let connection = try Connection()
        connection.writeAnswer()
        connection.setWritable(false)
        connection.loop.advanceTime(by: .seconds(3))
        connection.setWritable(true)
        connection.loop.advanceTime(by: .seconds(60))
        #expect(connection.channel.isActive)
        #expect(connection.statistics.closedConnections == 0)
        _ = try? connection.channel.finish()
    }
}

extension SlowReaderGuardTests {
    /// Over a real socket: a client that asks for far more than loopback's buffers hold (2,000 pipelined stop
    /// views, about 20 MB) and reads none of it is closed once it has taken nothing for the stall limit, and
    /// counted; meanwhile the server answers everyone else. Nothing is timed: the test waits for the close the
    /// server owes (the hang guard only bounds the wait).
    @Test func aClientThatStopsReadingIsClosedOnALiveSocket() async throws {
        var config = KioskConfig()
        config.server.slowReaderSeconds = 1
        config.server.idleConnectionSeconds = 3600  // only the guard may close the stalled connection
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service(config: config)) { port, service in
            let hangGuard = ConnectionLimitTests.hangGuardSeconds
            let stalled = try RawSocket(port: port, readTimeoutSeconds: hangGuard, receiveBufferBytes: 4096)
            let requests = String(repeating: "GET /api/v1/stops/1091 HTTP/1.1\r\nHost: x\r\n\r\n", count: 2000)
            // The send may wait on the server's reading, which waits on the answers nobody reads: off the pool.
            let sending = Task { await offPool { stalled.send(requests) } }
            var waited = 0.0
            while service.slowReaders.closedConnections == 0 && waited < Double(hangGuard) {
                try await Task.sleep(for: .milliseconds(100))
                waited += 0.1
            }
            #expect(service.slowReaders.closedConnections == 1, "the stalled connection was not closed")
            let other = try RawSocket(port: port, readTimeoutSeconds: hangGuard)
            other.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(
                String(decoding: await offPool { other.readToEnd() }.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            // What the stalled client finds when it reads at last: part of the answers, then the end.
            let received = await offPool { stalled.readToEnd() }
            #expect(received.closedByServer, "\(received.ending)")
            #expect(received.bytes.count < 20_000_000)
            _ = await sending.value
        }
    }

    /// The server's own installer (one per connection) puts the guard in with its water mark and the configured
    /// stall limit, and what it closes reaches `/metrics`.
    @Test func theServersGuardClosesWithTheConfiguredLimitAndCountsInMetrics() async throws {
        var config = KioskConfig()
        config.server.slowReaderSeconds = 7
        let service = try TestSupport.service(config: config)
        // All of the embedded channel's work happens here, on this thread, before the first suspension.
        try {
            let loop = EmbeddedEventLoop()
            let channel = EmbeddedChannel(loop: loop)
            try channel.pipeline.syncOperations.addHandler(service.slowReaderGuard())
            _ = try channel.pipeline.syncOperations.handler(type: SlowReaderGuard.self)
            let mark = try channel.getOption(.writeBufferWaterMark).wait()
            #expect(mark.low == 32768 && mark.high == 65536)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            channel.write(ByteBuffer(repeating: 0x61, count: 100_000), promise: nil)
            channel.isWritable = false
            channel.pipeline.fireChannelWritabilityChanged()
            loop.advanceTime(by: .milliseconds(6999))
            #expect(channel.isActive)
            loop.advanceTime(by: .milliseconds(1))
            #expect(!channel.isActive)
        }()
        #expect(service.slowReaders.closedConnections == 1)
        try await TestSupport.withRouter(service) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("stopkiosk_slow_readers_closed_total 1"), "\(text)")
            }
        }
    }
}
