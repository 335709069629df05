import Foundation
import KioskConfiguration
import Testing

@testable import WebService

/// `/kiosk/events` streams are capped in all and per client address (issue 26): a stream is never closed for being
/// idle (its heartbeat keeps it busy), so without a cap idle listeners could hold every connection.
@Suite struct EventStreamLimitTests {
    @Test func placesAreCappedPerAddressAndInAllAndGivenBack() throws {
        let scans = ScanBroadcaster()
        var held: [ScanBroadcaster.Ticket] = []
        for _ in 0..<2 {
            held.append(try #require(scans.admit(address: "10.0.0.1", total: 3, perAddress: 2)))
        }
        #expect(scans.admit(address: "10.0.0.1", total: 3, perAddress: 2) == nil, "a third from one address")
        held.append(try #require(scans.admit(address: "10.0.0.2", total: 3, perAddress: 2)))
        #expect(scans.admit(address: "10.0.0.3", total: 3, perAddress: 2) == nil, "a fourth in all")
        #expect(scans.admittedCount == 3)
        held.removeFirst()  // a stream from 10.0.0.1 ends
        #expect(scans.admittedCount == 2)
        #expect(scans.admit(address: "10.0.0.3", total: 3, perAddress: 2) != nil)
        #expect(scans.admittedCount == 2, "the ticket just given was released at once (not kept)")
        held.removeAll()
        #expect(scans.admittedCount == 0)
    }

    @Test func oneStreamTooManyIsAnswered503WithRetryAfter() async throws {
        var config = KioskConfig()
        config.server.maxEventStreams = 5
        config.server.maxEventStreamsPerAddress = 1
        config.server.idleConnectionSeconds = 3600
        let service = try TestSupport.service(config: config)
        try await ConnectionLimitTests.withLiveServer(service) { port, service in
            let first = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            first.send("GET /kiosk/events HTTP/1.1\r\nHost: x\r\n\r\n")
            let opened = await offPool { first.read(until: ": connected") }
            #expect(opened.hasPrefix("HTTP/1.1 200") && opened.contains("text/event-stream"), "\(opened.prefix(300))")
            let second = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            let answer = await FileLimitTests.exchange(second, "/kiosk/events")
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(300))")
            #expect(answer.contains("Retry-After: 30"), "\(answer)")
            #expect(service.scans.admittedCount == 1)
            first.hangUp()
        }
    }
}
