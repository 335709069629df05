import Foundation
import KioskTesting
import Testing

/// `kiosk update` with several feeds (`[[update.feeds]]`, issue 24) against a local HTTP server on 127.0.0.1:
/// the first run builds the database from both, a changed feed rebuilds it, a run with nothing changed leaves
/// the database file as it was, and a feed whose server fails or sends a broken zip keeps its last good copy
/// while the other feed still updates.
@Suite(.serialized) struct UpdateFeedsTests {
    /// Serves /metro.zip and /bus.zip, each as the file `CONTROL/NAME.version` says: `v1` the sample network,
    /// `v2` the sample network with one more stop (NEW1, "Parada Nueva"), `500` a server error, `broken` a zip
    /// cut in half. /metro.zip carries an ETag (and answers 304 to it); /bus.zip carries none, so its sameness
    /// is found by content.
    final class FeedsServer: @unchecked Sendable {
        let server: ScriptedHTTPServer
        let control: URL

        init() throws {
            control = TemporaryFolder.make("update-feeds-control")
            let script = """
                import hashlib, io, os, zipfile
                folder, control = sys.argv[1], sys.argv[2]
                def make(extra):
                    buffer = io.BytesIO()
                    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as z:
                        for name in sorted(os.listdir(folder)):
                            if not name.endswith('.txt'): continue
                            data = open(os.path.join(folder, name), 'rb').read()
                            if extra and name == 'stops.txt':
                                data = data.rstrip(b'\\r\\n') + b'\\nNEW1,,Parada Nueva,,-0.2000,-78.5000,0,,,\\n'
                            z.writestr(name, data)
                    return buffer.getvalue()
                bodies = {'v1': make(False), 'v2': make(True)}
                bodies['broken'] = bodies['v1'][:len(bodies['v1']) // 2]
                class H(http.server.BaseHTTPRequestHandler):
                    def log_message(self, *a): pass
                    def send(self, code, body=b'', headers={}):
                        self.send_response(code)
                        for k, v in headers.items(): self.send_header(k, v)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def do_GET(self):
                        name = self.path.lstrip('/')
                        if name not in ('metro.zip', 'bus.zip'): return self.send(404, b'not here')
                        version = open(os.path.join(control, name[:-4] + '.version')).read().strip()
                        if version == '500': return self.send(500, b'down')
                        body = bodies[version]
                        if name == 'bus.zip': return self.send(200, body)
                        tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                        if self.headers.get('If-None-Match') == tag: return self.send(304, b'', {'ETag': tag})
                        return self.send(200, body, {'ETag': tag})
                """
            server = try ScriptedHTTPServer(handler: script, arguments: [SampleNetwork.feed.path, control.path])
            try serve(metro: "v1", bus: "v1")
        }

        func serve(metro: String, bus: String) throws {
            try Data(metro.utf8).write(to: control.appendingPathComponent("metro.version"))
            try Data(bus.utf8).write(to: control.appendingPathComponent("bus.version"))
        }

        func url(_ path: String) -> String { server.url(path) }

        func stop() { server.stop() }
    }

    /// The stop ids of the database that start with `prefix`.
    static func stops(_ db: String, like prefix: String) throws -> Set<String> {
        let result = try Programs.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import sqlite3, sys; c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True); print('\\n'.join(r[0] for r in c.execute('SELECT stop_id FROM stops WHERE stop_id LIKE ?', (sys.argv[2] + '%',))))",
                db, prefix,
            ])
        #expect(result.status == 0, "\(result)")
        return Set(result.stdout.split(separator: "\n").map(String.init))
    }

    @Test func updatesEachFeedRebuildsOnlyOnChangeAndKeepsABrokenFeedsLastGoodCopy() throws {
        let server = try FeedsServer()
        defer { server.stop() }
        try #require(server.server.port > 0)
        let folder = TemporaryFolder.make("update-feeds")
        let db = folder.appendingPathComponent("routes.sqlite").path
        let config = folder.appendingPathComponent("kiosk.toml")
        try Data(
            """
            [database]
            path = "\(db)"
            [update]
            [[update.feeds]]
            id = "metro"
            url = "\(server.url("/metro.zip"))"
            [[update.feeds]]
            id = "bus"
            url = "\(server.url("/bus.zip"))"

            """.utf8
        ).write(to: config)
        func update() throws -> ProcessResult { try Programs.runKiosk(["update", "--config", config.path]) }
        func database() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: db)) }

        // First run: both feeds downloaded, the database built with both, each in its namespace.
        let first = try update()
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("metro: updated") && first.stdout.contains("bus: updated"), "\(first.stdout)")
        #expect(first.stdout.contains("Rebuilt \(db) from 2 feeds"), "\(first.stdout)")
        #expect(try Self.stops(db, like: "metro:").contains("metro:MQ01"))
        #expect(try Self.stops(db, like: "bus:").contains("bus:MQ01"))
        #expect(try !Self.stops(db, like: "").contains { $0.hasSuffix(":NEW1") })
        for id in ["metro", "bus"] {
            #expect(FileManager.default.fileExists(atPath: "\(db).feed.\(id).zip"), "no good copy of \(id)")
        }
        let built = try database()

        // Nothing changed (metro: 304; bus: the same bytes again): no rebuild, the file as it was.
        let same = try update()
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.contains("metro: unchanged") && same.stdout.contains("bus: unchanged"), "\(same.stdout)")
        #expect(same.stdout.contains("No feed changed: \(db) unchanged."), "\(same.stdout)")
        #expect(!same.stdout.contains("Rebuilt"), "\(same.stdout)")
        #expect(try database() == built, "the database was rebuilt although no feed changed")

        // One feed changed: the database is rebuilt and has its new stop, in its namespace only.
        try server.serve(metro: "v1", bus: "v2")
        let busChanged = try update()
        #expect(busChanged.status == 0, "\(busChanged)")
        #expect(
            busChanged.stdout.contains("metro: unchanged") && busChanged.stdout.contains("bus: updated"),
            "\(busChanged.stdout)")
        #expect(busChanged.stdout.contains("Rebuilt"), "\(busChanged.stdout)")
        #expect(try Self.stops(db, like: "bus:").contains("bus:NEW1"))
        #expect(try !Self.stops(db, like: "metro:").contains("metro:NEW1"))

        // The bus server fails while metro changes: metro still updates, bus keeps its last good copy (v2).
        try server.serve(metro: "v2", bus: "500")
        let busDown = try update()
        #expect(busDown.status == 1, "\(busDown)")
        #expect(busDown.stdout.contains("metro: updated"), "\(busDown.stdout)")
        #expect(busDown.stdout.contains("bus: failed (kept the last good copy since 20"), "\(busDown.stdout)")
        #expect(
            busDown.stderr.contains("feed bus (\(server.url("/bus.zip")))")
                && busDown.stderr.contains("answered HTTP 500"), "\(busDown.stderr)")
        #expect(try Self.stops(db, like: "metro:").contains("metro:NEW1"))
        #expect(try Self.stops(db, like: "bus:").contains("bus:NEW1"))
        let afterBusDown = try database()

        // A broken zip from the bus server, nothing new from metro: bus keeps its copy, nothing is rebuilt.
        try server.serve(metro: "v2", bus: "broken")
        let busBroken = try update()
        #expect(busBroken.status == 1, "\(busBroken)")
        #expect(busBroken.stdout.contains("metro: unchanged"), "\(busBroken.stdout)")
        #expect(busBroken.stdout.contains("bus: failed (kept the last good copy since 20"), "\(busBroken.stdout)")
        #expect(
            busBroken.stderr.contains("feed bus (") && busBroken.stderr.contains("was refused"), "\(busBroken.stderr)")
        #expect(busBroken.stdout.contains("No feed changed"), "\(busBroken.stdout)")
        #expect(try database() == afterBusDown, "the database changed although only a broken feed came")

        // The bus feed back to its first version: it updates and the database is rebuilt without bus:NEW1.
        try server.serve(metro: "v2", bus: "v1")
        let busBack = try update()
        #expect(busBack.status == 0, "\(busBack)")
        #expect(busBack.stdout.contains("bus: updated") && busBack.stdout.contains("Rebuilt"), "\(busBack.stdout)")
        #expect(try !Self.stops(db, like: "bus:").contains("bus:NEW1"))
        #expect(try Self.stops(db, like: "metro:").contains("metro:NEW1"))

        // The region's transfers file is part of what the database is built from: a bad one is refused with
        // the feeds together, and the previous database stays.
        let transfers = folder.appendingPathComponent("between.txt")
        try Data("from_stop_id,to_stop_id,transfer_type\ntram:MQ01,bus:MQ01,0\n".utf8).write(to: transfers)
        let withTransfers = try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: "[update]\n", with: "[update]\ntransfers = \"\(transfers.path)\"\n")
        try Data(withTransfers.utf8).write(to: config)
        let beforeTransfers = try database()
        let refused = try update()
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stdout.contains("metro: unchanged") && refused.stdout.contains("bus: unchanged"), "\(refused)")
        #expect(
            refused.stderr.contains("the feeds together were refused") && refused.stderr.contains("between.txt"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("The database at \(db) was not changed."), "\(refused.stderr)")
        #expect(try database() == beforeTransfers, "the database changed although the feeds were refused")

        // Nothing half-written is left beside the database.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aFeedWithoutAGoodCopyBlocksTheFirstBuildAndSaysSo() throws {
        let server = try FeedsServer()
        defer { server.stop() }
        try #require(server.server.port > 0)
        try server.serve(metro: "v1", bus: "500")
        let folder = TemporaryFolder.make("update-feeds-first")
        let db = folder.appendingPathComponent("routes.sqlite").path
        let config = folder.appendingPathComponent("kiosk.toml")
        try Data(
            """
            [database]
            path = "\(db)"
            [[update.feeds]]
            id = "metro"
            url = "\(server.url("/metro.zip"))"
            [[update.feeds]]
            id = "bus"
            url = "\(server.url("/bus.zip"))"

            """.utf8
        ).write(to: config)
        let result = try Programs.runKiosk(["update", "--config", config.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("metro: updated"), "\(result.stdout)")
        #expect(result.stdout.contains("bus: failed (no good copy of it yet)"), "\(result.stdout)")
        #expect(result.stderr.contains("without a good copy of bus"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // Once the bus feed comes, the database is built from metro's kept copy and the new bus feed.
        try server.serve(metro: "v1", bus: "v1")
        let later = try Programs.runKiosk(["update", "--config", config.path])
        #expect(later.status == 0, "\(later)")
        #expect(later.stdout.contains("metro: unchanged") && later.stdout.contains("bus: updated"), "\(later.stdout)")
        #expect(try Self.stops(db, like: "bus:").contains("bus:MQ01"))
    }
}
