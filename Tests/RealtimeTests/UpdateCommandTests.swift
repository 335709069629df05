import Foundation
import KioskTesting
import Testing

/// `kiosk update` against a local HTTP server on 127.0.0.1: a first import, "not modified" on the second run
/// (conditional GET with the remembered ETag), and every failure — a server error, a cut download, a file that is
/// not a zip, a feed that does not validate — leaving the previous database byte for byte as it was.
@Suite(.serialized) struct UpdateCommandTests {
    /// Serves the sample network zipped at /gtfs.zip (ETag "g1", 304 on If-None-Match), the same zip cut in half
    /// at /cut (Content-Length of the whole), random bytes at /garbage.zip, a zip whose stop_times.txt has a bad
    /// time at /invalid.zip, and 404 elsewhere. /count says how many full downloads /gtfs.zip served.
    final class FeedServer: @unchecked Sendable {
        let server: ScriptedHTTPServer
        var port: Int { server.port }

        init() throws {
            let script = """
                import http.server, io, os, random, sys, threading, zipfile
                folder = sys.argv[1]
                def make(bad):
                    buffer = io.BytesIO()
                    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as z:
                        for name in sorted(os.listdir(folder)):
                            if not name.endswith('.txt'): continue
                            data = open(os.path.join(folder, name), 'rb').read()
                            if bad and name == 'stop_times.txt':
                                data = data.replace(b',05:32:00,', b',05:xx:00,', 1)
                            z.writestr(name, data)
                    return buffer.getvalue()
                good, invalid = make(False), make(True)
                random.seed(14)
                garbage = bytes(random.getrandbits(8) for _ in range(5000))
                served = [0]
                class H(http.server.BaseHTTPRequestHandler):
                    def log_message(self, *a): pass
                    def send(self, code, body=b'', headers={}):
                        self.send_response(code)
                        for k, v in headers.items(): self.send_header(k, v)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def do_GET(self):
                        if self.path == '/gtfs.zip':
                            if self.headers.get('If-None-Match') == '"g1"': return self.send(304, b'', {'ETag': '"g1"'})
                            served[0] += 1
                            return self.send(200, good, {'ETag': '"g1"', 'Last-Modified': 'Mon, 23 Nov 2026 03:00:00 GMT'})
                        if self.path == '/cut':
                            self.send_response(200)
                            self.send_header('Content-Length', str(len(good)))
                            self.end_headers()
                            self.wfile.write(good[:len(good) // 2]); self.wfile.flush()
                            self.connection.shutdown(2); self.close_connection = True; return
                        if self.path == '/garbage.zip': return self.send(200, garbage)
                        if self.path == '/invalid.zip': return self.send(200, invalid)
                        if self.path == '/count': return self.send(200, str(served[0]).encode())
                        self.send(404, b'not here')
                """
            server = try ScriptedHTTPServer(handler: script, arguments: [SampleNetwork.feed.path])
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        func stop() { server.stop() }
    }

    @Test func updatesOnceKeepsTheDatabaseOnEveryFailureAndSaysWhy() throws {
        let server = try FeedServer()
        defer { server.stop() }
        try #require(server.port > 0)
        let folder = TemporaryFolder.make("update")
        let db = folder.appendingPathComponent("routes.sqlite").path
        let config = folder.appendingPathComponent("kiosk.toml")
        try Data("[database]\npath = \"\(db)\"\n[update]\ngtfs_url = \"\(server.url("/gtfs.zip"))\"\n".utf8).write(
            to: config)

        let first = try Programs.runKiosk(["update", "--config", config.path])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("Downloaded") && first.stdout.contains("Imported"), "\(first.stdout)")
        let state = try String(contentsOfFile: db + ".update.json", encoding: .utf8)
        #expect(state.contains("\\\"g1\\\"") && state.contains("/gtfs.zip"), "\(state)")
        let imported = try Data(contentsOf: URL(fileURLWithPath: db))

        let second = try Programs.runKiosk(["update", "--config", config.path])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("has not changed since the last update"), "\(second.stdout)")

        let failures: [(path: String, status: Int32, says: String)] = [
            ("/missing.zip", 1, "answered HTTP 404"),
            ("/cut", 1, "was cut after"),
            ("/garbage.zip", 2, "was refused"),
            ("/invalid.zip", 2, "'05:xx:00'"),
        ]
        for (path, status, says) in failures {
            let result = try Programs.runKiosk(["update", "--config", config.path, "--url", server.url(path)])
            #expect(result.status == status, "\(path): \(result)")
            #expect(result.stderr.contains(says), "\(path): \(result.stderr)")
            #expect(result.stderr.contains("The database at \(db) was not changed."), "\(path): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == imported, "\(path): the database changed")
        }
        // Nothing half-written is left beside the database.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")

        // Standard error is not a terminal: no progress unless asked for.
        #expect(!first.stderr.contains("progress"), "\(first.stderr)")
        // --force downloads again although nothing changed; --progress lines reports the download, then the import.
        let forced = try Programs.runKiosk(["update", "--config", config.path, "--force", "--progress", "lines"])
        #expect(forced.status == 0, "\(forced)")
        let lines = forced.stderr.split(separator: "\n").filter { $0.hasPrefix("progress ") }
        let download = lines.filter { $0.contains("stage=download") }
        #expect(!download.isEmpty && download.allSatisfy { $0.contains("unit=bytes") }, "\(forced.stderr)")
        let downloadIndex = try #require(lines.firstIndex { $0.contains("stage=download") })
        let importIndex = try #require(lines.firstIndex { $0.contains("stage=stop_times.txt") }, "\(forced.stderr)")
        #expect(downloadIndex < importIndex)
        #expect(lines.last?.contains("stage=done") == true, "\(forced.stderr)")
        let count = try Programs.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import urllib.request; print(urllib.request.urlopen('\(server.url("/count"))').read().decode())",
            ])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")

        let noURL = folder.appendingPathComponent("bare.toml")
        try Data("[database]\npath = \"\(db)\"\n".utf8).write(to: noURL)
        let usage = try Programs.runKiosk(["update", "--config", noURL.path])
        #expect(usage.status == 2 && usage.stderr.contains("no GTFS URL"), "\(usage)")
    }
}
