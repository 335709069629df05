import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing
import TransitModel
import TransitStore

/// A feed server that goes bad in every way the issue lists — down, slow, an HTML page, truncated or garbage
/// protobuf, a 100 MB body, a header from the future or years ago — and comes back: the poller keeps the last
/// good data (freshness then retires it, so the kiosk shows the timetable), reports what is wrong, and recovers
/// by itself. Against the sample network and its live scenario, with a local Python server on 127.0.0.1.
@Suite(.serialized) struct BadFeedServerTests {
    /// Serves `/feed`; `/mode/NAME` switches what it answers: a file `NAME` of the folder, or `status500`,
    /// `slow` (20 s), `huge` (100 MB without a Content-Length), `reset` (closes the connection at once).
    final class SwitchableServer: @unchecked Sendable {
        let server: ScriptedHTTPServer
        var port: Int { server.port }

        init(folder: URL) throws {
            let script = """
                import http.server, os, sys, time, threading
                folder = sys.argv[1]
                mode = ['good']
                class H(http.server.BaseHTTPRequestHandler):
                    def log_message(self, *a): pass
                    def send(self, code, body=b'', length=True):
                        self.send_response(code)
                        if length: self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def do_GET(self):
                        if self.path.startswith('/mode/'):
                            mode[0] = self.path[6:]; return self.send(200, b'ok')
                        m = mode[0]
                        if m == 'status500': return self.send(500, b'<h1>Internal Server Error</h1>')
                        if m == 'slow': time.sleep(20); return self.send(200, b'')
                        if m == 'reset': self.connection.close(); return
                        if m == 'huge':
                            self.send_response(200); self.end_headers()
                            chunk = b'\\x0a' * (1 << 20)
                            try:
                                for _ in range(100): self.wfile.write(chunk)
                            except OSError: pass
                            return
                        with open(os.path.join(folder, m), 'rb') as f: return self.send(200, f.read())
                """
            server = try ScriptedHTTPServer(handler: script, arguments: [folder.path])
        }

        var feedURL: String { "http://127.0.0.1:\(port)/feed" }

        func switchTo(_ mode: String) async throws {
            guard case .body = try await FeedFetcher(source: "http://127.0.0.1:\(port)/mode/\(mode)").fetch() else {
                throw FeedFetchError.transport(reason: "mode switch", url: mode)
            }
        }

        func stop() { server.stop() }
    }

    static let scenario = Repository.root.appendingPathComponent("assets/realtime/quito-scenario.pb")
    /// 2026-11-25T07:59:40-05:00, the scenario's header time.
    static let headerTime = Date(timeIntervalSince1970: 1_795_611_580)

    /// The files the server can answer with.
    static func folder() throws -> URL {
        let folder = TemporaryFolder.make("bad-feeds")
        let good = try Data(contentsOf: scenario)
        try good.write(to: folder.appendingPathComponent("good"))
        try good.prefix(good.count / 2).write(to: folder.appendingPathComponent("truncated"))
        var generator = SplitMix64(seed: 14)
        try Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(
            to: folder.appendingPathComponent("garbage"))
        try Data("<!DOCTYPE html><html><body>Maintenance</body></html>".utf8).write(
            to: folder.appendingPathComponent("html"))
        for (name, shift) in [("future", 400 * 86_400.0), ("old", -3 * 365 * 86_400.0)] {
            var message = try TransitRealtime_FeedMessage(serializedBytes: good)
            message.header.timestamp = UInt64(headerTime.addingTimeInterval(shift).timeIntervalSince1970)
            try message.serializedData().write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test func thePollerSurvivesEveryBadAnswerAndRecovers() async throws {
        let database = try RouteDatabase(path: try SampleNetwork.databasePath())
        let server = try SwitchableServer(folder: try Self.folder())
        defer { server.stop() }
        try #require(server.port > 0)
        let settings = RealtimeSettings(tripUpdates: server.feedURL, alerts: server.feedURL)
        // 10 s: long enough that a loaded machine's local server still answers every good or bad feed in time, and
        // still half of what `slow` waits (20 s), so that one is always cut off.
        let poller = try RealtimePoller(settings: settings, database: database, timeoutSeconds: 10)
        let clock = Self.headerTime.addingTimeInterval(20)
        let now: @Sendable () -> Date = { clock }

        // Good: live.
        let first = await poller.pollOnce(now: now)
        #expect(first.tripUpdates == .updated(entities: 5) && first.alerts == .updated(entities: 5))
        let good = await poller.live
        #expect(good.tripUpdatesFreshness(now: clock).isLive)

        // Every kind of bad answer: reported, and the last good data is kept untouched.
        let expectations: [(mode: String, says: String)] = [
            ("status500", "answered HTTP 500"), ("slow", "did not answer within 10 s"), ("html", "HTML"),
            ("truncated", ""), ("garbage", ""), ("huge", "sent more than"), ("reset", "cannot fetch"),
        ]
        for (mode, says) in expectations {
            try await server.switchTo(mode)
            let report = await poller.pollOnce(now: { clock.addingTimeInterval(30) })
            guard case let .failed(reason) = report.tripUpdates else {
                Issue.record("\(mode): accepted (\(report.tripUpdates))")
                continue
            }
            // 100 MB on a loaded machine may also outlast the 10 s timeout: either way it is refused.
            let said = says.isEmpty || reason.contains(says) || (mode == "huge" && reason.contains("did not answer"))
            #expect(said, "\(mode): \(reason)")
            let live = await poller.live
            #expect(live.tripUpdates?.fetchedAt == clock, "\(mode): the last good data was replaced")
        }
        // Three poll intervals after the last good fetch, that data no longer counts: the timetable is shown.
        let later = clock.addingTimeInterval(95)
        let stale = await poller.live
        #expect(stale.tripUpdatesFreshness(now: later).display == .scheduled)

        // A header from the future or from years ago decodes, but is not trusted as live.
        for mode in ["future", "old"] {
            try await server.switchTo(mode)
            #expect(await poller.pollOnce(now: { later }).tripUpdates == .updated(entities: 5))
            let verdict = await poller.live.tripUpdatesFreshness(now: later).verdict
            switch (mode, verdict) {
            case ("future", .headerInFuture), ("old", .headerBehind): break
            default: Issue.record("\(mode): \(verdict)")
            }
        }

        // The feed comes back: live again without a restart.
        try await server.switchTo("good")
        let back = Self.headerTime.addingTimeInterval(30)
        #expect(await poller.pollOnce(now: { back }).tripUpdates == .updated(entities: 5))
        #expect(await poller.live.tripUpdatesFreshness(now: back).isLive)
    }
}
