import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import NIOCore
import Testing

@testable import WebService

/// gzip from `kiosk serve` itself (issue 26, "the server on its own"): negotiated from `Accept-Encoding`, the
/// compressed bytes inflate to exactly the identity answer, each variant has its own `ETag` and `304`, streams
/// are left alone, and the shared "now" answers are kept compressed.
@Suite struct CompressionTests {
    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("GZIP;Q=1.0", true), ("x-gzip", true), ("*", true),
        ("deflate, gzip;q=0.001", true), ("identity;q=0.5, gzip", true), ("identity;q=0, *;q=0.5", true),
        ("", false), ("identity", false), ("br", false), ("gzip;q=0", false), ("gzip;q=0.000", false),
        ("*;q=0", false), ("gzip;q=0, *", false), ("gzip;q=0.5, identity", false), ("gzip;q=abc", false),
        ("gzip;q=2", false),
    ])
    func negotiation(header: String, gzip: Bool) {
        #expect(Gzip.accepted([header]) == gzip, "Accept-Encoding: \(header)")
    }

    @Test func noHeaderAndSeveralHeaderLines() {
        #expect(!Gzip.accepted([]))
        #expect(Gzip.accepted(["br", "gzip"]))
        #expect(!Gzip.accepted(["identity", "gzip;q=0"]))
    }

    @Test func theBytesInflateBackAndTheSystemGzipReadsThem() throws {
        let text = String(repeating: "{\"stop\":\"Estación Río Coca\",\"minutes\":[1,4,9]}\n", count: 200)
        let compressed = Gzip.compress(ByteBuffer(string: text))
        #expect(compressed.readableBytes < text.utf8.count / 10)
        #expect(Gzip.inflate(compressed).map { String(buffer: $0) } == text)
        // Deterministic: the same bytes give the same gzip bytes (every instance the same variant).
        #expect(Gzip.compress(ByteBuffer(string: text)) == compressed)
        // Not ours: a truncated member, and a limit.
        #expect(Gzip.inflate(compressed.getSlice(at: 0, length: compressed.readableBytes - 4)!) == nil)
        #expect(Gzip.inflate(compressed, limit: 100) == nil)
        // An independent reader: the system's gzip.
        let folder = TemporaryFolder.make("gzip-bytes")
        let file = folder.appendingPathComponent("body.gz")
        try Data(compressed.readableBytesView).write(to: file)
        let output = folder.appendingPathComponent("body.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc \"$0\" > \"$1\"", file.path, output.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == text)
    }

    struct Reply: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
        var text: String { String(buffer: body) }
        var vary: [String] {
            headers[values: .vary].flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
    }

    static func get(
        _ client: any TestClientProtocol, _ uri: String, _ headers: HTTPFields = [:]
    ) async throws -> Reply {
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            Reply(status: response.status, headers: response.headers, body: response.body)
        }
    }

    /// The same answer for every way of asking: gzip only where accepted, the bytes the same once inflated, `Vary`
    /// on every compressible answer, and a tag of its own for the compressed variant. Through the shared "now"
    /// answers (a stop view), an answer nobody shares (a given `at`), a page, and problem+json.
    @Test(arguments: [
        "/api/v1/stops/1091", "/api/v1/stops/1091?at=2026-11-25T09:00", "/s/1091", "/api/v1/openapi.json",
        "/api/v1/stops/nope-this-stop-is-not-in-the-sample-network-at-all-and-its-name-is-long-enough-for-gzip-to-pay",
    ])
    func everyVariantIsTheSameAnswer(uri: String) async throws {
        let service = try TestSupport.service()
        try await TestSupport.withRouter(service) { client in
            let identity = try await Self.get(client, uri)
            #expect(identity.headers[.contentEncoding] == nil)
            #expect(identity.vary.contains("Accept-Encoding"), "\(identity.headers)")
            for (header, gzip) in [
                ("gzip", true), ("identity", false), ("gzip;q=0", false), ("br, *", true), ("gzip;q=0, br", false),
            ] {
                let reply = try await Self.get(client, uri, [.acceptEncoding: header])
                #expect(reply.status == identity.status)
                #expect(reply.vary.contains("Accept-Encoding"))
                #expect(reply.headers[.contentType] == identity.headers[.contentType])
                if gzip {
                    #expect(reply.headers[.contentEncoding] == "gzip", "\(uri) with \(header)")
                    #expect(reply.body.readableBytes < identity.body.readableBytes)
                    #expect(Gzip.inflate(reply.body).map { String(buffer: $0) } == identity.text, "\(uri)")
                    #expect(reply.headers[.contentLength] == String(reply.body.readableBytes))
                    if let tag = identity.headers[.eTag] {
                        #expect(reply.headers[.eTag] == Gzip.etag(tag) && Gzip.etag(tag) != tag)
                    }
                } else {
                    #expect(reply.headers[.contentEncoding] == nil, "\(uri) with \(header)")
                    #expect(reply.text == identity.text)
                    #expect(reply.headers[.eTag] == identity.headers[.eTag])
                }
            }
        }
    }

    @Test func notModifiedForEachVariantAndOnlyForItsOwnTag() async throws {
        let service = try TestSupport.service()
        try await TestSupport.withRouter(service) { client in
            for uri in ["/api/v1/stops/1091", "/api/v1/stops/1091?at=2026-11-25T09:00", "/s/1091"] {
                let identity = try await Self.get(client, uri)
                let gzip = try await Self.get(client, uri, [.acceptEncoding: "gzip"])
                let plainTag = try #require(identity.headers[.eTag])
                let gzipTag = try #require(gzip.headers[.eTag])
                #expect(plainTag != gzipTag)
                for (encoding, tag, status) in [
                    ("gzip", gzipTag, HTTPResponse.Status.notModified), ("identity", plainTag, .notModified),
                    ("gzip", "W/" + gzipTag, .notModified), ("gzip", "\"x\", " + gzipTag, .notModified),
                    ("gzip", "*", .notModified),
                    // A cache holding the other variant gets the one it asked for.
                    ("gzip", plainTag, .ok), ("identity", gzipTag, .ok),
                ] {
                    let reply = try await Self.get(client, uri, [.acceptEncoding: encoding, .ifNoneMatch: tag])
                    #expect(reply.status == status, "\(uri) \(encoding) If-None-Match: \(tag)")
                    if status == .notModified {
                        #expect(reply.body.readableBytes == 0)
                        #expect(reply.headers[.eTag] == (encoding == "gzip" ? gzipTag : plainTag))
                        #expect(reply.vary.contains("Accept-Encoding"))
                        #expect(reply.headers[.contentEncoding] == nil)
                        #expect(reply.headers[.contentSecurityPolicy] != nil)
                        #expect(reply.headers[.cacheControl] == identity.headers[.cacheControl])
                    } else {
                        #expect(reply.headers[.contentEncoding] == (encoding == "gzip" ? "gzip" : nil))
                    }
                }
            }
        }
    }

    @Test func smallAndDenseAnswersAreSentAsTheyAre() async throws {
        let service = try TestSupport.service()
        try await TestSupport.withRouter(service) { client in
            // /health is JSON but below Gzip.minimumBytes: identity, still `Vary` (another answer may be larger).
            let health = try await Self.get(client, "/health", [.acceptEncoding: "gzip"])
            #expect(health.status == .ok && health.headers[.contentEncoding] == nil)
            #expect(health.body.readableBytes < Gzip.minimumBytes)
            #expect(health.vary.contains("Accept-Encoding"))
        }
    }

    /// The event stream is a stream: never compressed, never read whole by the middleware (it would never end).
    @Test func theEventStreamIsNotCompressed() async throws {
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service()) { port, service in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /kiosk/events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            let opening = await offPool { socket.read(until: ": connected") }
            #expect(opening.hasPrefix("HTTP/1.1 200") && opening.contains("text/event-stream"), "\(opening)")
            #expect(!opening.lowercased().contains("content-encoding"), "\(opening)")
            service.scans.publish(event: "scan", json: #"{"status":"stop","stop_id":"MQ12A"}"#)
            let event = await offPool { socket.read(until: #"MQ12A"}"# + "\n\n") }
            #expect(event.contains("event: scan\ndata: {\"status\":\"stop\",\"stop_id\":\"MQ12A\"}"), "\(event)")
            socket.hangUp()
        }
    }

    /// The shared "now" answers are stored gzip, and the bound counts the stored bytes: served as they are to a
    /// gzip client, inflated to exactly the rendered bytes for an identity client.
    @Test func theNowCacheKeepsTheCompressedBytes() async throws {
        let service = try TestSupport.service()
        try await TestSupport.withRouter(service) { client in
            let rendered = try await Self.get(client, "/api/v1/stops/1091")  // the miss: rendered
            #expect(service.nowCache.count == 1)
            let gzip = try await Self.get(client, "/api/v1/stops/1091", [.acceptEncoding: "gzip"])
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(service.nowCache.bytes == gzip.body.readableBytes, "the cache holds the gzip bytes, no more")
            #expect(service.nowCache.bytes * 3 < rendered.body.readableBytes)
            let again = try await Self.get(client, "/api/v1/stops/1091")  // a hit, inflated
            #expect(again.text == rendered.text && again.headers[.eTag] == rendered.headers[.eTag])
            let metrics = try await Self.get(client, "/metrics")
            #expect(metrics.text.contains("stopkiosk_now_cache_bytes \(service.nowCache.bytes)"), "\(metrics.text)")
        }
    }

    @Test func theBoundCountsStoredBytes() {
        let body = String(repeating: "{\"departures\":[]}", count: 600)  // 10,200 bytes, compresses to ~100
        let answer = Answers.json(body, cacheSeconds: 60)
        let cache = NowCache(byteLimit: 2000)
        for key in ["a", "b", "c"] {
            cache.keep(answer, for: key, minute: 100, feedHash: "f") { _ in answer }
        }
        #expect(cache.count == 3, "three answers of 10 KB fit in 2,000 bytes once compressed")
        #expect(cache.bytes < 2000 && cache.bytes == 3 * cache.answer("a", minute: 100, feedHash: "f")!.body.readableBytes)
        let stored = cache.answer("a", minute: 100, feedHash: "f")!
        #expect(stored.headers[.contentEncoding] == "gzip")
        #expect(stored.body.capacity == stored.body.readableBytes, "kept in memory of its own size")
        #expect(WebService.variant(of: stored, gzip: false).body == answer.body)
        #expect(WebService.variant(of: stored, gzip: false).headers[.contentEncoding] == nil)
        #expect(WebService.variant(of: stored, gzip: true).body == stored.body)
    }
}

/// The access log's duration, written without a number formatter: tenths of a millisecond, rounded.
@Suite struct AccessLogDurationTests {
    @Test(arguments: [
        (Duration.zero, "0.0"), (.microseconds(49), "0.0"), (.microseconds(50), "0.1"), (.microseconds(1_234), "1.2"),
        (.microseconds(1_250), "1.3"), (.milliseconds(999_999), "999999.0"), (.seconds(3) + .microseconds(450), "3000.5"),
    ])
    func durationsAreTenthsOfAMillisecond(duration: Duration, text: String) {
        #expect(AccessLogMiddleware.milliseconds(duration) == text)
    }
}

/// The Swift-only trimming the request path uses trims what Foundation's `.whitespaces` trims.
@Suite struct SpaceTrimmingTests {
    @Test(arguments: ["", " ", "\t gzip ;q=0.5 \t", "\u{00A0}a b\u{2003}", "\n x \n", "é ", "  \u{1F68C} "])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }
}
