import Foundation
import KioskTesting
import Scanning
import StopCodes
import Testing

/// `kiosk labels` and `kiosk keys` as staff run them, against the bundled sample network (76 boarding stops).
@Suite("kiosk labels and kiosk keys (CLI)")
struct LabelsCommandTests {
    struct Summary: Decodable {
        struct Label: Decodable {
            var stopId: String, stopCode: String?, value: String, payload: String, page: Int
        }
        var files: [String], pages: Int, template: String, feedId: String, keyId: String?, labels: [Label],
            warnings: [String]
    }

    /// `kiosk labels`; a proof copy unless `proof` is false (the sample network's template is the placeholder).
    func labels(_ arguments: [String], environment: [String: String] = [:], proof: Bool = true) throws
        -> ProcessResult
    {
        try Programs.runKiosk(["labels"] + arguments + (proof ? ["--proof"] : []), environment: environment)
    }

    func summary(_ result: ProcessResult) throws -> Summary {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Summary.self, from: Data(result.stdout.utf8))
    }

    func newKey(_ dir: URL) throws -> (privatePath: String, publicLine: String) {
        let result = try Programs.runKiosk(["keys", "generate", "--out", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let key = dir.appendingPathComponent("label-signing.key").path
        let show = try Programs.runKiosk(["keys", "show", key])
        #expect(show.status == 0, "\(show.stderr)")
        return (key, show.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    // MARK: - Hostile key files

    @Test("--sign-key on a device, a directory, a FIFO or a 1 GB file: exit 2 at once, nothing written")
    func signKeyThatIsNotAKeyFile() throws {
        let dir = TemporaryFolder.make("hostile-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("key.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let huge = dir.appendingPathComponent("huge.key").path
        try #require(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 1 << 30) == 0)
        let out = dir.appendingPathComponent("labels.pdf")
        let cases = [
            ("/dev/zero", "is a character device, not a key file"), (dir.path, "is a directory, not a key file"),
            (fifo, "is a FIFO (named pipe), not a key file"),
            (huge, "1073741824 bytes or more is too large for a key file"),
        ]
        for (key, reason) in cases {
            let result = try labels(["--stops", "1091", "--sign-key", key, "--out", out.path])
            #expect(result.status == 2, "\(key): \(result.stderr)")
            #expect(result.stderr.contains("--sign-key: \(key): cannot read key file (\(reason)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    // MARK: - Round trip

    @Test(
        "every stop of the sample network: PDF → pdftoppm → zbar → payload → signature verifies → kiosk lookup finds the same stop"
    )
    func roundTripEveryStop() throws {
        let dir = TemporaryFolder.make("roundtrip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = try newKey(dir.appendingPathComponent("keys"))
        let out = dir.appendingPathComponent("all.pdf")
        let result = try labels(["--all", "--sign-key", key.privatePath, "--out", out.path, "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let run = try summary(result)
        #expect(run.labels.count == 76)
        #expect(Set(run.labels.map(\.stopId)).count == 76)
        #expect(run.pages == 10)

        let pages = try TestSupport.rasterise(pdf: out)
        let decoded = try pages.flatMap { try TestSupport.decodeQRCodes($0) }
        #expect(decoded.count == 76)
        #expect(decoded.sorted() == run.labels.map(\.payload).sorted())

        let publicKey = try PublicKey(encoded: key.publicLine)
        #expect(publicKey.keyID == run.keyId)
        let parser = PayloadParser(
            feedID: run.feedId, ownTemplates: [try StopURLTemplate(run.template)], trustedKeys: [publicKey],
            policy: .require)
        let byPayload = Dictionary(uniqueKeysWithValues: run.labels.map { ($0.payload, $0) })
        for payload in decoded {
            guard let label = byPayload[payload] else {
                Issue.record("decoded a payload no label has: \(payload)"); continue
            }
            guard case .stopReference(let reference) = parser.parse(payload),
                case .verified(let keyID) = reference.signature
            else {
                Issue.record("stop \(label.stopId): not accepted as a verified label: \(parser.parse(payload))");
                continue
            }
            #expect(keyID == publicKey.keyID)
            #expect(reference.kind == .stopCode && reference.value == label.stopCode)
            // The kiosk's own lookup resolves the label's URL (without the signature: `kiosk lookup` trusts no
            // key of its own) to the labelled stop.
            let url = try StopURLTemplate(run.template).url(for: reference.value)
            let lookup = try Programs.runKiosk(["lookup", url, "--json"])
            #expect(lookup.status == 0, "\(lookup.stderr)")
            let view = try JSONSerialization.jsonObject(with: Data(lookup.stdout.utf8)) as? [String: Any]
            let stop = view?["stop"] as? [String: Any]
            #expect(stop?["id"] as? String == label.stopId, "lookup \(url)")
        }

        // And the whole kiosk path at once: `kiosk scan` decodes the pages, checks each signature against the
        // public key under the `require` policy, and resolves the stop in the database.
        let scan = try Programs.runKiosk(
            ["scan", "--images"] + pages.map(\.path)
                + ["--policy", "require", "--public-key", key.publicLine, "--json", "--debounce", "0"])
        #expect(scan.status == 0, "\(scan.stderr)")
        var scanned: [String: String] = [:]
        for line in scan.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["status"] as? String == "stop", "\(line)")
            if let text = object?["text"] as? String, let id = (object?["stop"] as? [String: Any])?["id"] as? String {
                scanned[text] = id
            }
        }
        #expect(scanned.count == 76)
        for (payload, id) in scanned { #expect(byPayload[payload]?.stopId == id, "\(payload)") }
    }

    @Test("kiosk lookup refuses a signed label whose key it does not hold, and reads the unsigned URL")
    func lookupOfLabelURLs() throws {
        let dir = TemporaryFolder.make("lookupurl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = try newKey(dir)
        let result = try labels([
            "--stops", "1011", "--sign-key", key.privatePath, "--out", dir.appendingPathComponent("x.pdf").path,
            "--json",
        ])
        let payload = try #require(try summary(result).labels.first?.payload)
        let signed = try Programs.runKiosk(["lookup", payload])
        #expect(signed.status == 2)
        #expect(signed.stderr.contains("forged or damaged label"), "\(signed.stderr)")
        let unsigned = try Programs.runKiosk(["lookup", "https://transit.example/s/1011", "--json"])
        #expect(unsigned.status == 0)
        #expect(unsigned.stdout.contains("\"MQ01A\""))
    }

    @Test("a label signed with another key is refused by a kiosk trusting only ours")
    func otherKeyRefused() throws {
        let dir = TemporaryFolder.make("otherkey")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = try newKey(dir.appendingPathComponent("ours"))
        let theirs = try newKey(dir.appendingPathComponent("theirs"))
        let out = dir.appendingPathComponent("one.png")
        let result = try labels([
            "--stops", "1011", "--layout", "single", "--sign-key", theirs.privatePath, "--out", out.path, "--json",
        ])
        try #require(result.status == 0, "\(result.stderr)")
        let symbols = try TestSupport.decode(out, symbologies: [.qrCode])
        try #require(symbols.count == 1)
        let parser = PayloadParser(
            feedID: "transit.example", ownTemplates: [try StopURLTemplate("https://transit.example/s/{stop_code}")],
            trustedKeys: [try PublicKey(encoded: ours.publicLine)], policy: .prefer)
        guard case .forged(.unknownKey, let claimed) = parser.parse(symbols[0].lossyText) else {
            Issue.record("accepted: \(parser.parse(symbols[0].lossyText))"); return
        }
        #expect(claimed.value == "1011")
    }

    // MARK: - Choosing stops

    @Test("--stops takes IDs and codes; a station means its platforms; a route gives its stops in travel order")
    func selections() throws {
        let dir = TemporaryFolder.make("select")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.pdf").path
        let byStop = try summary(try labels(["--stops", "1011", "TB-EJIDO-N", "MQ02", "--out", out, "--json"]))
        #expect(byStop.labels.map(\.stopId) == ["MQ01A", "TB-EJIDO-N", "MQ02A", "MQ02B"])
        let route = try summary(try labels(["--route", "L1", "--out", out, "--json"]))
        #expect(route.labels.count == 30)
        #expect(route.labels.first?.stopId == "MQ01A")
        #expect(route.labels.prefix(15).map(\.stopId) == (1...15).map { String(format: "MQ%02dA", $0) })
        #expect(try summary(try labels(["--route", "MQ-L1", "--out", out, "--json"])).labels.count == 30)
    }

    @Test("unknown stops are all listed and nothing is written")
    func unknownStops() throws {
        let dir = TemporaryFolder.make("unknown")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try labels([
            "--stops", "1011", "NOPE-1", "9999", "--out", dir.appendingPathComponent("x.pdf").path,
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("'NOPE-1'") && result.stderr.contains("'9999'")
                && result.stderr.contains("nothing was written"))
        #expect(!result.stderr.contains("'1011'"))
        #expect(TestSupport.listing(dir).isEmpty)
    }

    @Test("a route without stops, and an unknown route, are clear errors")
    func emptyRoute() throws {
        let dir = TemporaryFolder.make("emptyroute")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = TemporaryFolder.make(
            "feed",
            files: [
                "agency.txt":
                    "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://a.example,America/Guayaquil\n",
                "stops.txt":
                    "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,101,Primera,-0.20,-78.50\nS2,102,Segunda,-0.21,-78.50\n",
                "routes.txt":
                    "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Uno,3\nR2,A,2,Dos (sin viajes),3\n",
                "calendar.txt":
                    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
                "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\n",
            ])
        defer { try? FileManager.default.removeItem(at: feed) }
        let db = dir.appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", feed.path, "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
        let out = dir.appendingPathComponent("x.pdf").path
        let empty = try labels(["--db", db, "--route", "R2", "--out", out])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("'R2' has no stops"), "\(empty.stderr)")
        let unknown = try labels(["--db", db, "--route", "R9", "--out", out])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains("no route 'R9'") && unknown.stderr.contains("routes include"), "\(unknown.stderr)")
        let fine = try labels(["--db", db, "--route", "1", "--out", out, "--json"])
        #expect(try summary(fine).labels.map(\.stopId) == ["S1", "S2"])
        #expect(!TestSupport.listing(dir).contains { $0.hasPrefix(".x.pdf") })
    }

    @Test("--config: the kiosk config's template and feed ID, so labels and kiosks agree; options override it")
    func configFile() throws {
        let dir = TemporaryFolder.make("config")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.toml")
        try Data("[labels]\nurl_template = \"https://q.example/p/{stop_id}\"\nfeed_id = \"quito-sample\"\n".utf8).write(
            to: config)
        let out = dir.appendingPathComponent("x.pdf").path
        let run = try summary(try labels(["--stops", "1011", "--config", config.path, "--out", out, "--json"]))
        #expect(run.template == "https://q.example/p/{stop_id}")
        #expect(run.feedId == "quito-sample")
        #expect(run.labels.map(\.payload) == ["https://q.example/p/MQ01A"])
        let overridden = try summary(
            try labels([
                "--stops", "1011", "--config", config.path, "--template", "https://t.example/{stop_code}",
                "--feed-id", "other", "--out", out, "--json",
            ]))
        #expect(overridden.labels.map(\.payload) == ["https://t.example/1011"])
        #expect(overridden.feedId == "other")
        let broken = dir.appendingPathComponent("broken.toml")
        try Data("[labels]\nurl_template = \"https://q.example/p/\"\n".utf8).write(to: broken)
        let refused = try labels(["--stops", "1011", "--config", broken.path, "--out", out])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("broken.toml") && refused.stderr.contains("labels.url_template"),
            "\(refused.stderr)")
    }

    // MARK: - Keys

    @Test(
        "keys generate writes a 0600 private key and prints its ID; keys show prints the public line from either file")
    func keys() throws {
        let dir = TemporaryFolder.make("keys").appendingPathComponent("new")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let result = try Programs.runKiosk(["keys", "generate", "--out", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let privatePath = dir.appendingPathComponent("label-signing.key").path
        let mode = (try FileManager.default.attributesOfItem(atPath: privatePath)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        let loaded = try KeyFile.loadPrivateKey(from: privatePath)
        #expect(result.stdout.contains("Key ID: \(loaded.keyPair.keyID)"))
        for file in ["label-signing.key", "label-signing.pub"] {
            let show = try Programs.runKiosk(["keys", "show", dir.appendingPathComponent(file).path])
            #expect(show.status == 0)
            #expect(show.stdout == loaded.keyPair.publicKey.encoded + "\n")
            #expect(show.stderr.contains(loaded.keyPair.keyID))
        }
        let again = try Programs.runKiosk(["keys", "generate", "--out", dir.path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists"))
        #expect(
            try KeyFile.loadPrivateKey(from: privatePath).keyPair.keyID == loaded.keyPair.keyID,
            "the key was not replaced")
    }

    @Test("a missing or malformed key file is an error naming it; a key others can read is a warning")
    func badKeys() throws {
        let dir = TemporaryFolder.make("badkeys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.pdf").path
        let missing = try labels([
            "--stops", "1011", "--sign-key", dir.appendingPathComponent("none.key").path, "--out", out,
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.key") && missing.stderr.contains("no such key file"))

        let malformed = dir.appendingPathComponent("bad.key")
        try Data("stopkiosk-ed25519-private-v1:not*base64\n".utf8).write(to: malformed)
        chmod(malformed.path, 0o600)
        let bad = try labels(["--stops", "1011", "--sign-key", malformed.path, "--out", out])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.key:1") && bad.stderr.contains("malformed key"), "\(bad.stderr)")

        let key = try newKey(dir.appendingPathComponent("k"))
        let pub = dir.appendingPathComponent("k/label-signing.pub").path
        let wrongKind = try labels(["--stops", "1011", "--sign-key", pub, "--out", out])
        #expect(wrongKind.status == 2)
        #expect(wrongKind.stderr.contains("expected a private key"))

        chmod(key.privatePath, 0o644)
        let exposed = try labels(["--stops", "1011", "--sign-key", key.privatePath, "--out", out])
        #expect(exposed.status == 0, "\(exposed.stderr)")
        #expect(exposed.stderr.contains("warning:") && exposed.stderr.contains("chmod 600"))
        #expect(TestSupport.file(URL(fileURLWithPath: out)))
        #expect(TestSupport.listing(dir).filter { $0.hasPrefix(".") }.isEmpty)
    }

    // MARK: - Other bad input

    @Test("templates, outputs, layouts and options: clear errors, exit 2, nothing written")
    func badInput() throws {
        let dir = TemporaryFolder.make("bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.pdf").path
        let cases: [([String], String)] = [
            (
                ["--stops", "1011", "--template", "https://transit.example/s/", "--out", out],
                "no {stop}, {stop_code} or {stop_id} placeholder"
            ),
            (
                ["--stops", "1011", "--template", "https://transit.example/s/{stop_name}", "--out", out],
                "unknown placeholder {stop_name}"
            ),
            (["--stops", "1011", "--out", "/nonexistent-dir/x.pdf"], "/nonexistent-dir/x.pdf: there is no folder /nonexistent-dir"),
            (["--stops", "1011", "--out", dir.path], "\(dir.path): is a folder, not a file"),
            (["--stops", "1011", "--layout", "a3", "--out", out], "unknown --layout 'a3'"),
            (["--stops", "1011", "--all", "--out", out], "exactly one of --stops"),
            (["--out", out], "exactly one of --stops"),
            (["--stops", "1011"], "--out PATH is required"),
            (["--stops", "1011", "--dpi", "20", "--out", out], "--dpi must be between"),
            (["--stops", "1011", "--ecc", "X", "--out", out], "--ecc"),
            (["--stops", "1011", "--format", "svg", "--print"], "--print sends PDF only"),
            (["--stops", "1011", "--printer", "office", "--out", out], "--printer needs --print"),
            (
                [
                    "--all", "--layout", "a4-21", "--ecc", "H", "--template",
                    "https://transport.city-of-example.example/stops/labels/version-one/{stop_code}",
                    "--sign-key", "KEY", "--out", out,
                ], "QR modules would be"
            ),
        ]
        let key = try newKey(dir.appendingPathComponent("k"))
        for (arguments, expected) in cases {
            let result = try labels(arguments.map { $0 == "KEY" ? key.privatePath : $0 })
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(TestSupport.listing(dir) == ["k"])
    }

    @Test("--print without CUPS says so, exits 1 and writes nothing")
    func printWithoutCUPS() throws {
        let dir = TemporaryFolder.make("print")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A PATH without lp (an empty directory).
        let result = try labels(
            ["--stops", "1011", "--print", "--out", dir.appendingPathComponent("x.pdf").path],
            environment: ["PATH": dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("CUPS is not installed") && result.stderr.contains("no 'lp' on PATH"))
        #expect(TestSupport.listing(dir).isEmpty)
    }

    @Test("--print hands the PDF to lp with the chosen printer")
    func printWithFakeLP() throws {
        let dir = TemporaryFolder.make("fakelp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("lp.log")
        let lp = dir.appendingPathComponent("lp")
        try Data(
            "#!/bin/sh\necho \"$@\" > \(log.path)\nfor last; do :; done\nhead -c 5 \"$last\" >> \(log.path)\n".utf8
        ).write(to: lp)
        chmod(lp.path, 0o755)
        let result = try labels(
            ["--stops", "1011", "--print", "--printer", "oficina"], environment: ["PATH": dir.path + ":/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(logged.hasPrefix("-d oficina -t StopKiosk labels -- /"), "\(logged)")
        #expect(logged.hasSuffix("%PDF-"))
    }

    // MARK: - The placeholder address (issue 37)

    @Test("labels and posters with the placeholder address: exit 2 naming the setting; --proof prints a marked copy")
    func placeholderAddressNeedsAProof() throws {
        let dir = TemporaryFolder.make("placeholder-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("labels.pdf").path
        let poster = dir.appendingPathComponent("poster.pdf").path
        let posters = dir.appendingPathComponent("posters").path
        let refusals = [
            try labels(["--stops", "1091", "--out", out], proof: false),
            try Programs.runKiosk(["timetable", "1091", "--date", "2026-11-25", "--out", poster]),
            try Programs.runKiosk(["timetable", "--all-stops", "--date", "2026-11-25", "--week", "--out", posters]),
        ]
        for result in refusals {
            #expect(result.status == 2, "\(result)")
            for words in ["transit.example", "[labels]", "url_template", "--template URL", "--proof"] {
                #expect(result.stderr.contains(words), "\(words): \(result.stderr)")
            }
            #expect(result.stderr.hasSuffix("Nothing was written.\n"), "\(result.stderr)")
        }
        #expect(TestSupport.listing(dir).isEmpty, "\(TestSupport.listing(dir))")

        let pdftotext = try #require(Programs.which("pdftotext"), "pdftotext (poppler-utils) is needed")
        let proof = try labels(["--stops", "1091", "--out", out, "--json"])
        #expect(proof.status == 0, "\(proof)")
        #expect(proof.stdout.contains("\"proof\" : true"), "\(proof.stdout)")
        let text = try Programs.run(pdftotext, [out, "-"]).stdout
        #expect(text.contains("PROOF — placeholder address, not for posting"), "\(text)")
        let posterProof = try Programs.runKiosk(
            ["timetable", "1091", "--date", "2026-11-25", "--lang", "es", "--proof", "--out", poster])
        #expect(posterProof.status == 0, "\(posterProof)")
        let posterText = try Programs.run(pdftotext, [poster, "-"]).stdout
        #expect(posterText.contains("PRUEBA — dirección de ejemplo, no para colocar"), "\(posterText)")

        // This network's own address: printed as it is, with no mark.
        let real = try labels(
            ["--stops", "1091", "--template", "https://stops.quito.test/s/{stop}", "--out", out], proof: false)
        #expect(real.status == 0, "\(real)")
        #expect(!(try Programs.run(pdftotext, [out, "-"]).stdout.contains("PROOF")))
        // A route timetable has no QR code: --proof there is a usage error.
        let route = try Programs.runKiosk(
            ["timetable", "--route", "L1", "--date", "2026-11-25", "--proof", "--out", poster])
        #expect(route.status == 2 && route.stderr.contains("a route timetable has none"), "\(route)")
    }
}
