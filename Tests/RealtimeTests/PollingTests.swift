import Foundation
import KioskTesting
import Realtime
import Testing
import TransitModel
import TransitStore

/// Fetching and polling against a local Python HTTP server on 127.0.0.1 (started and stopped by each test).
@Suite(.serialized) struct PollingTests {
    typealias S = RealtimeSupport

    /// A tiny server: /feed.pb with an ETag (304 on If-None-Match), /slow (answers after 20 s: far past any timeout a test sets, even on a starved machine), /big (2 MB),
    /// /html (an error page with status 200), /secret (401 without X-Api-Key: k). Requests are counted at /count.
    final class LocalServer: @unchecked Sendable {
        let server: ScriptedHTTPServer
        var port: Int { server.port }

        init(feed: URL) throws {
            let script = """
                import http.server, sys, time, threading
                feed = open(sys.argv[1], 'rb').read()
                count = [0]
                class H(http.server.BaseHTTPRequestHandler):
                    def log_message(self, *a): pass
                    def send(self, code, body=b'', headers={}):
                        self.send_response(code)
                        for k, v in headers.items(): self.send_header(k, v)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def do_GET(self):
                        count[0] += 1
                        if self.path == '/feed.pb':
                            if self.headers.get('If-None-Match') == '"v1"': return self.send(304, b'', {'ETag': '"v1"'})
                            return self.send(200, feed, {'ETag': '"v1"', 'Content-Type': 'application/x-protobuf'})
                        if self.path == '/slow':
                            time.sleep(20); return self.send(200, feed)
                        if self.path == '/big': return self.send(200, b'x' * (2 << 20))
                        if self.path == '/html': return self.send(200, b'<html><body>Maintenance</body></html>', {'Content-Type': 'text/html'})
                        if self.path == '/secret':
                            return self.send(200, feed) if self.headers.get('X-Api-Key') == 'k' else self.send(401, b'no')
                        if self.path == '/count': return self.send(200, str(count[0] - 1).encode())
                        self.send(404, b'')
                """
            server = try ScriptedHTTPServer(handler: script, arguments: [feed.path])
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        func stop() { server.stop() }
    }

    func feedFile() throws -> URL {
        let url = S.temporaryDirectory("feed").appendingPathComponent("feed.pb")
        try S.message(timestamp: 1_800_000_000, [S.tripUpdate("T1", [S.stop(sequence: 20, departureDelay: 60)])])
            .serializedData().write(to: url)
        return url
    }

    @Test func conditionalGetTimeoutSizeCapAndHeaders() async throws {
        let server = try LocalServer(feed: try feedFile())
        defer { server.stop() }
        try #require(server.port > 0)
        let fetcher = FeedFetcher(source: server.url("/feed.pb"))
        guard case let .body(data) = try await fetcher.fetch() else { Issue.record("no body"); return }
        #expect(try RealtimeFeed.decode(data).contents.tripUpdates == 1)
        #expect(try await fetcher.fetch() == .notModified)  // If-None-Match: "v1"

        await #expect(throws: FeedFetchError.timedOut(seconds: 1, url: server.url("/slow"))) {
            try await FeedFetcher(source: server.url("/slow"), timeoutSeconds: 1).fetch()
        }
        await #expect(throws: FeedFetchError.tooLarge(limit: 1 << 20, url: server.url("/big"))) {
            try await FeedFetcher(source: server.url("/big"), sizeLimit: 1 << 20).fetch()
        }
        await #expect(throws: FeedFetchError.httpStatus(code: 401, url: server.url("/secret"))) {
            try await FeedFetcher(source: server.url("/secret")).fetch()
        }
        guard case .body = try await FeedFetcher(source: server.url("/secret"), headers: ["X-Api-Key": "k"]).fetch()
        else {
            Issue.record("the API key header was not sent"); return
        }
        // An HTML page with status 200 arrives, and decoding says what it is.
        guard case let .body(page) = try await FeedFetcher(source: server.url("/html")).fetch() else {
            Issue.record("no page"); return
        }
        #expect(throws: FeedDecodingError.self) { try RealtimeFeed.decode(page) }
    }

    @Test func fileSourceIsUnchangedWhileItsModificationTimeIs() async throws {
        let file = try feedFile()
        let fetcher = FeedFetcher(source: file.path)
        guard case .body = try await fetcher.fetch() else { Issue.record("no body"); return }
        #expect(try await fetcher.fetch() == .notModified)
        await #expect(throws: FeedFetchError.self) { try await FeedFetcher(source: "/nonexistent/feed.pb").fetch() }
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func pollerKeepsLiveDataAndOfflineNeverFetches() async throws {
        let database = try #require(S.caltrain)
        let db = try database.get()
        let capture = S.capture("caltrain/ct-trip-updates.pb")!
        let server = try LocalServer(feed: capture)
        defer { server.stop() }
        let settings = RealtimeSettings(
            tripUpdates: server.url("/feed.pb"),
            alerts: capture.deletingLastPathComponent().appendingPathComponent("ct-service-alerts.pb").path)
        let poller = try RealtimePoller(settings: settings, database: db)
        let first = await poller.pollOnce()
        #expect(first.tripUpdates == .updated(entities: 19) && first.alerts == .updated(entities: 0))
        #expect(await poller.live.tripUpdates?.value.statistics.tripsMatched == 19)
        let second = await poller.pollOnce()
        #expect(second.tripUpdates == .notModified && second.alerts == .notModified)

        let offline = try RealtimePoller(
            settings: RealtimeSettings(tripUpdates: server.url("/feed.pb"), mode: .offline), database: db)
        #expect(await offline.pollOnce() == RealtimePoller.Report())
        guard case let .body(count) = try await FeedFetcher(source: server.url("/count")).fetch() else {
            Issue.record("no count"); return
        }
        #expect(String(decoding: count, as: UTF8.self) == "2")  // the two polls above; none from the offline poller

        let broken = try RealtimePoller(settings: RealtimeSettings(tripUpdates: server.url("/html")), database: db)
        guard case let .failed(reason) = await broken.pollOnce().tripUpdates else {
            Issue.record("an HTML page was accepted"); return
        }
        #expect(reason.contains("an HTML page"))
        #expect(await broken.live.tripUpdates == nil)
    }
}
