import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing
import TransitModel
import TransitStore

/// Staff messages (issue 26): `kiosk message add|list|remove`, the file read by Google's Python bindings, several
/// `[realtime] alerts` sources merged, and the severe messages that take over the screens.
@Suite struct StaffMessageTests {
    typealias S = RealtimeSupport

    static func kiosk(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(["message"] + arguments + ["--db", try SampleNetwork.databasePath()])
    }

    static func listing(_ file: String) throws -> [[String: AnyCodable]] {
        let result = try kiosk(["list", "--file", file, "--json"])
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode([[String: AnyCodable]].self, from: Data(result.stdout.utf8))
    }

    /// A JSON value of any kind, compared as text.
    struct AnyCodable: Decodable, Equatable, CustomStringConvertible {
        var description: String
        init(from decoder: any Swift.Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let s = try? container.decode(String.self) {
                description = s
            } else if let a = try? container.decode([String].self) {
                description = a.joined(separator: ",")
            } else if let d = try? container.decode([String: String].self) {
                description = d.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            } else {
                description = "?"
            }
        }
    }

    @Test func addUpdateListAndRemoveThroughTheCommand() throws {
        let file = S.temporaryDirectory("messages").appendingPathComponent("messages.pb").path
        var result = try Self.kiosk([
            "add", "--text-es", "Parada cerrada por obras", "--text-en", "Stop closed for works", "--stops", "1091",
            "--until", "2099-01-01T18:00", "--severity", "severe", "--out", file,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("added msg-1 (severe"), "\(result)")
        result = try Self.kiosk([
            "add", "--text-es", "Tarifa nueva", "--text-en", "New fare", "--all", "--severity", "warning", "--out",
            file,
        ])
        #expect(result.status == 0 && result.stdout.contains("added msg-2"), "\(result)")
        result = try Self.kiosk([
            "add", "--text-es", "Desvío", "--text-en", "Detour", "--routes", "TB", "--id", "detour", "--from",
            "2026-01-01", "--until", "2026-01-02 12:00", "--out", file,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("already ended"), "\(result)")

        var rows = try Self.listing(file)
        #expect(rows.map { $0["id"]?.description } == ["msg-1", "msg-2", "detour"])
        #expect(rows[0]["severity"]?.description == "severe" && rows[0]["status"]?.description == "active")
        #expect(rows[0]["stops"]?.description == "MQ09A", "the code 1091 is stored as its stop_id: \(rows[0])")
        #expect(rows[0]["until"]?.description == "2099-01-01T18:00:00-05:00")
        #expect(rows[0]["text"]?.description == "en=Stop closed for works;es=Parada cerrada por obras")
        #expect(rows[1]["agencies"]?.description == "MQ,EPMTPQ" && rows[1]["status"]?.description == "active")
        #expect(rows[2]["routes"]?.description == "EP-TB" && rows[2]["status"]?.description == "expired")
        #expect(rows[2]["from"]?.description == "2026-01-01T00:00:00-05:00")

        // The same id again updates that message in place.
        result = try Self.kiosk([
            "add", "--text-es", "Desvío por la Av. 6 de Diciembre", "--text-en", "Detour along Av. 6 de Diciembre",
            "--routes", "EP-TB", "--id", "detour", "--until", "2099-01-01", "--out", file,
        ])
        #expect(result.status == 0 && result.stdout.contains("updated detour"), "\(result)")
        rows = try Self.listing(file)
        #expect(rows.count == 3 && rows[2]["status"]?.description == "active", "\(rows)")
        #expect(rows[2]["text"]?.description.contains("en=Detour along Av. 6 de Diciembre") == true)

        let text = try Self.kiosk(["list", "--out", file])
        #expect(text.status == 0)
        #expect(text.stdout.contains("msg-1  severe  active  stops MQ09A  until 2099-01-01 18:00"), "\(text)")
        #expect(text.stdout.contains("  es: Parada cerrada por obras") && text.stdout.contains("  en: New fare"))

        result = try Programs.runKiosk(["message", "remove", "msg-2", "--file", file])
        #expect(result.status == 0 && result.stdout.contains("removed msg-2"), "\(result)")
        result = try Programs.runKiosk(["message", "remove", "msg-9", "--file", file])
        #expect(result.status == 2 && result.stderr.contains("no message 'msg-9'"), "\(result)")
        #expect(result.stderr.contains("msg-1, detour"), "\(result)")
        #expect(try Self.listing(file).map { $0["id"]?.description } == ["msg-1", "detour"])
    }

    @Test func badStopsRoutesAndTimesAreRefusedNamingTheValue() throws {
        let file = S.temporaryDirectory("messages-bad").appendingPathComponent("messages.pb").path
        let base = ["add", "--text-es", "Hola", "--text-en", "Hello", "--out", file]
        for (arguments, expected) in [
            (["--stops", "1091,99999"], "no such stop: '99999'"),
            (["--routes", "TB", "ZZ9"], "no such route: 'ZZ9'"),
            (["--all", "--until", "2026-02-30T08:00"], "--until: cannot read the time '2026-02-30T08:00'"),
            (["--all", "--from", "tomorrow"], "--from: cannot read the time 'tomorrow'"),
            (["--all", "--from", "2099-01-02", "--until", "2099-01-01T08:00"], "is not after --from 2099-01-02"),
            ([String](), "say who the message is for"),
            (["--stops", "1091", "--all"], "not several"),
        ] {
            let result = try Self.kiosk(base + arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: file), "nothing is written when the input is refused")

        // A file that is not a messages file (the agency's feed, say) is never overwritten.
        let feed = S.temporaryDirectory("messages-feed").appendingPathComponent("alerts.pb")
        let bytes = try S.message(timestamp: 1_800_000_000, []).serializedData()
        try bytes.write(to: feed)
        let result = try Self.kiosk(["add", "--text-es", "Hola", "--text-en", "Hello", "--all", "--out", feed.path])
        #expect(result.status == 2 && result.stderr.contains("not a staff messages file"), "\(result)")
        #expect(try Data(contentsOf: feed) == bytes)
    }

    /// Google's gtfs-realtime-bindings read the file the command writes: a valid FeedMessage with both texts.
    @Test func googlesPythonBindingsReadTheMessagesFile() throws {
        let file = S.temporaryDirectory("messages-python").appendingPathComponent("messages.pb").path
        let added = try Self.kiosk([
            "add", "--text-es", "Parada cerrada", "--text-en", "Stop closed", "--stops", "1091", "--from",
            "2026-11-25T08:00", "--until", "2099-11-25T18:30", "--severity", "severe", "--out", file,
        ])
        try #require(added.status == 0, "\(added)")
        let script = """
            import json, sys
            from google.transit import gtfs_realtime_pb2 as g
            m = g.FeedMessage(); m.ParseFromString(open(sys.argv[1], 'rb').read())
            e = m.entity[0]; a = e.alert
            print(json.dumps([m.header.gtfs_realtime_version, m.header.feed_version,
                g.FeedHeader.Incrementality.Name(m.header.incrementality), len(m.entity), e.id,
                sorted([t.language + ':' + t.text for t in a.header_text.translation]),
                g.Alert.SeverityLevel.Name(a.severity_level), [s.stop_id for s in a.informed_entity],
                a.active_period[0].start, a.active_period[0].end, m.IsInitialized()]))
            """
        let result = try Programs.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file])
        try #require(result.status == 0, "python3 with gtfs-realtime-bindings (run kiosk/setup.sh): \(result.stderr)")
        let zone = TimeZone(identifier: "America/Guayaquil")!
        let start = Int(LocalTime.parse("2026-11-25T08:00", in: zone)!.timeIntervalSince1970)
        let end = Int(LocalTime.parse("2099-11-25T18:30", in: zone)!.timeIntervalSince1970)
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"["2.0", "stopkiosk-messages/1", "FULL_DATASET", 1, "msg-1", ["en:Stop closed", "es:Parada cerrada"], "SEVERE", ["MQ09A"], \#(start), \#(end), true]"#,
            "\(result.stdout)")
    }

    @Test func addingReplacesByIDAndDropsMessagesThatEndedLongAgo() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func message(_ id: String, until: Date?) -> StaffMessages.Message {
            StaffMessages.Message(
                id: id, textES: "es \(id)", textEN: "en \(id)", audience: .stops(["S"]), from: nil, until: until,
                severity: .info)
        }
        let entities = [
            message("old", until: now.addingTimeInterval(-31 * 86_400)).entity,
            message("recent", until: now.addingTimeInterval(-86_400)).entity,
            message("open", until: nil).entity,
        ]
        #expect(StaffMessages.nextID(after: entities) == "msg-1")
        let added = StaffMessages.upsert(message("msg-1", until: now), into: entities, now: now)
        #expect(added.entities.map(\.id) == ["recent", "open", "msg-1"] && !added.replaced && added.pruned == ["old"])
        #expect(StaffMessages.nextID(after: added.entities) == "msg-2")
        let replaced = StaffMessages.upsert(message("open", until: now), into: added.entities, now: now)
        #expect(replaced.replaced && replaced.entities.map(\.id) == ["recent", "open", "msg-1"])
        #expect(StaffMessages.status(replaced.entities[0].alert, at: now) == .expired)
        #expect(StaffMessages.status(replaced.entities[1].alert, at: now.addingTimeInterval(-1)) == .active)
    }

    static func staffFile(_ messages: [StaffMessages.Message], in folder: URL, written: Date) throws -> URL {
        let url = folder.appendingPathComponent("messages.pb")
        try StaffMessages.write(messages.map(\.entity), to: url.path, now: written)
        return url
    }

    static func agencyAlert(_ id: String, route: String, header: String) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        var selector = TransitRealtime_EntitySelector()
        selector.routeID = route
        entity.alert.informedEntity = [selector]
        var translation = TransitRealtime_TranslatedString.Translation()
        translation.text = header
        entity.alert.headerText.translation = [translation]
        return entity
    }

    /// Two alerts sources: the agency's feed and the staff file. Both are merged while both are live; when the
    /// agency's feed disappears, its alerts age out on their own and the staff messages stay, and the poll
    /// reports the dead source by name. The staff file's age is when it was read, not when it was written.
    @Test func twoAlertSourcesMergeAndADeadOneLeavesTheOther() async throws {
        let database = try RouteDatabase(path: try SampleNetwork.databasePath())
        let folder = S.temporaryDirectory("two-sources")
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let staff = try Self.staffFile(
            [
                StaffMessages.Message(
                    id: "closed", textES: "Parada cerrada", textEN: "Stop closed", audience: .stops(["MQ09A"]),
                    from: nil, until: t0.addingTimeInterval(86_400), severity: .severe)
            ], in: folder, written: t0.addingTimeInterval(-7 * 86_400))
        let agency = folder.appendingPathComponent("agency.pb")
        try S.message(timestamp: 1_800_000_000, [Self.agencyAlert("roadworks", route: "EP-TB", header: "Roadworks")])
            .serializedData().write(to: agency)
        let settings = RealtimeSettings(alerts: agency.path, pollSeconds: 30, moreAlerts: [staff.path])
        let poller = try RealtimePoller(settings: settings, database: database)

        let first = await poller.pollOnce(now: { t0 })
        #expect(first.alertSources == [.updated(entities: 1), .updated(entities: 1)], "\(first)")
        #expect(first.alerts == .updated(entities: 2))
        var live = await poller.live
        #expect(live.alerts?.value.entries.map(\.id) == ["roadworks", "closed"])
        #expect(live.alertsFreshness(now: t0).isLive, "a staff file written a week ago is not stale")

        // The agency's feed is gone: the poll names it; after the freshness limit only the staff file is shown.
        try FileManager.default.removeItem(at: agency)
        let later = t0.addingTimeInterval(400)
        let second = await poller.pollOnce(now: { later })
        guard case let .failed(reason) = second.alerts else {
            Issue.record("the dead source was not reported: \(second)")
            return
        }
        #expect(reason.contains(agency.path), "\(reason)")
        #expect(second.alertSources.last == .notModified)
        live = await poller.live
        #expect(live.alerts?.value.entries.map(\.id) == ["closed"])
        #expect(live.alertsFreshness(now: later).isLive)
        let shown = live.screenTakeover(stops: ["MQ09A"], now: later, language: "en")
        #expect(shown.map(\.header) == ["Stop closed"])
    }

    /// The severe messages that take over: for the kiosk's stop, or for every kiosk; in the screen's language;
    /// not route messages nor milder ones; and not once their `until` has passed.
    @Test func takeoverIsSevereMessagesForTheStopOrEveryKioskUntilTheyEnd() throws {
        let database = try RouteDatabase(path: try SampleNetwork.databasePath())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let until = now.addingTimeInterval(3_600)
        func message(
            _ id: String, _ audience: StaffMessages.Audience, _ severity: StaffMessages.Severity
        )
            -> TransitRealtime_FeedEntity
        {
            StaffMessages.Message(
                id: id, textES: "es \(id)", textEN: "en \(id)", audience: audience, from: nil, until: until,
                severity: severity
            ).entity
        }
        let bytes = try StaffMessages.encode(
            [
                message("stop", .stops(["MQ09A"]), .severe),
                message("everyone", .agencies(try database.agencyIDs()), .severe),
                message("route", .routes(["EP-TB"]), .severe), message("mild", .stops(["MQ09A"]), .warning),
                message("elsewhere", .stops(["MQ10"]), .severe),
            ], now: now.addingTimeInterval(-86_400))
        let feed = try RealtimeFeed.decode(Data(bytes))
        #expect(feed.isStaffMessages && feed.freshnessTimestamp == nil && feed.headerTimestamp != nil)
        var live = try LiveData(database: database)
        try live.take(feed, fetchedAt: now, database: database)
        #expect(
            live.screenTakeover(stops: ["MQ09A"], now: now, language: "es").map(\.header) == ["es stop", "es everyone"])
        #expect(live.screenTakeover(stops: [], now: now, language: "en").map(\.header) == ["en everyone"])
        // At its `until` the message has ended (a later read, or the screen's own clock, drops it).
        #expect(live.screenTakeover(stops: ["MQ09A"], now: until, language: "es").isEmpty)
        let shown = live.screenTakeover(stops: ["MQ09A"], now: now, language: "es")
        #expect(shown.allSatisfy { $0.isInForce(at: until.addingTimeInterval(-1)) && !$0.isInForce(at: until) })
    }

    // MARK: Issue 36: writers at once, and the listing's clock

    /// Twenty `kiosk message add` at once, while five other messages are removed: each command reads, changes and
    /// replaces the file under its lock, so every message added is kept, with an id of its own, and every one
    /// removed stays removed. Without the lock 20 adds kept 3, and nine processes reported `msg-2`.
    @Test func messagesAddedAndRemovedAtOnceAreAllKept() throws {
        let file = S.temporaryDirectory("messages-at-once").appendingPathComponent("messages.pb").path
        let db = try SampleNetwork.databasePath()
        for n in 1...5 {
            let result = try Self.kiosk([
                "add", "--text-es", "Viejo \(n)", "--text-en", "Old \(n)", "--all", "--id", "old-\(n)", "--out", file,
            ])
            try #require(result.status == 0, "\(result)")
        }
        // Every process is started before any is waited for; the waits' limit only guards against a hang.
        var running: [RunningProgram] = []
        for n in 1...20 {
            running.append(
                try Programs.startKiosk([
                    "message", "add", "--text-es", "Aviso \(n)", "--text-en", "Notice \(n)", "--all", "--out", file,
                    "--db", db,
                ]))
            if n % 4 == 0 {
                running.append(try Programs.startKiosk(["message", "remove", "old-\(n / 4)", "--file", file]))
            }
        }
        let results = running.map { $0.wait() }
        for result in results { #expect(result.status == 0, "\(result)") }
        let added = results.compactMap { result -> (id: String, text: String)? in
            // "added msg-7 (info, every kiosk, until removed) in …"
            let words = result.stdout.split(separator: " ")
            return words.first == "added" ? (String(words[1]), result.stdout) : nil
        }
        #expect(added.count == 20)
        #expect(Set(added.map(\.id)) == Set((1...20).map { "msg-\($0)" }), "\(added.map(\.id).sorted())")

        let rows = try Self.listing(file)
        #expect(rows.count == 20, "\(rows.map { $0["id"]?.description ?? "?" })")
        #expect(Set(rows.compactMap { $0["id"]?.description }) == Set(added.map(\.id)))
        let texts = rows.compactMap { $0["text"]?.description }
        #expect(Set(texts) == Set((1...20).map { "en=Notice \($0);es=Aviso \($0)" }), "every text once: \(texts)")
        #expect(FileManager.default.fileExists(atPath: file + ".lock"), "the lock file stays beside the file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (file as NSString).deletingLastPathComponent)
        #expect(leftovers.sorted() == ["messages.pb", "messages.pb.lock"], "no temporary file left: \(leftovers)")
    }

    /// The lock file is made only beside a file that may be replaced: `--out /dev/null` is refused before it, so
    /// no /dev/null.lock appears (as root that would be a file in /dev), and a link's lock sits beside its target.
    @Test func theLockIsMadeOnlyBesideAFileThatMayBeReplaced() throws {
        for (out, expected) in [
            ("/dev/null", "/dev/null: is a character device, not a regular file"),
            ("/proc/self/mem", "/proc/self/mem: is on /proc, a kernel file system"),
        ] {
            let result = try Self.kiosk(["add", "--text-es", "Hola", "--text-en", "Hello", "--all", "--out", out])
            #expect(result.status == 2 && result.stderr.contains(expected), "\(result)")
            let removed = try Programs.runKiosk(["message", "remove", "msg-1", "--file", out])
            #expect(removed.status == 2 && removed.stderr.contains(expected), "\(removed)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.lock"))
        let folder = S.temporaryDirectory("messages-link")
        let file = folder.appendingPathComponent("messages.pb").path
        let link = folder.appendingPathComponent("link.pb").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "messages.pb")
        for out in [file, link] {
            let result = try Self.kiosk(["add", "--text-es", "Hola", "--text-en", "Hello", "--all", "--out", out])
            #expect(result.status == 0, "\(result)")
        }
        #expect(try Self.listing(link).count == 2 && FileManager.default.fileExists(atPath: file + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: link + ".lock"), "one lock for both spellings")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "messages.pb", "the link stays")
    }

    /// `kiosk message list` shows each message's times in the zone it was written for, whatever route database
    /// the listing runs with (without --db, the sample network's, five hours behind Madrid, which the listing
    /// used); a file that is not a messages file is refused without talk of overwriting: list only reads.
    /// Issue 37: every line the message commands print ends with a newline, on standard output and standard error,
    /// so a shell prompt or the next command's output never runs on from the last line.
    @Test func everyOutputLineOfTheMessageCommandsEnds() throws {
        let file = S.temporaryDirectory("messages-lines").appendingPathComponent("messages.pb").path
        var outputs: [(String, ProcessResult)] = []
        outputs.append(("list of no file", try Self.kiosk(["list", "--file", file])))
        outputs.append((
            "add (ended)",
            try Self.kiosk([
                "add", "--text-es", "Obras", "--text-en", "Works", "--all", "--from", "2026-01-01", "--until",
                "2026-01-02", "--out", file,
            ])))
        outputs.append(("list", try Self.kiosk(["list", "--file", file])))
        outputs.append(("list --json", try Self.kiosk(["list", "--file", file, "--json"])))
        outputs.append(("remove", try Programs.runKiosk(["message", "remove", "msg-1", "--file", file])))
        outputs.append(("list of an emptied file", try Self.kiosk(["list", "--file", file])))
        outputs.append(("remove unknown", try Programs.runKiosk(["message", "remove", "msg-1", "--file", file])))
        for (what, result) in outputs {
            #expect(!result.stdout.isEmpty || !result.stderr.isEmpty, "\(what) printed nothing")
            for stream in [result.stdout, result.stderr] where !stream.isEmpty {
                #expect(stream.hasSuffix("\n"), "\(what): \(stream.debugDescription)")
            }
        }
        #expect(outputs[1].1.stderr.contains("has already ended"), "\(outputs[1].1)")
    }

    @Test func theListingShowsTheZoneTheMessageWasWrittenFor() throws {
        let feed = TemporaryFolder.make(
            "madrid",
            files: [
                "agency.txt":
                    "agency_id,agency_name,agency_url,agency_timezone\nM,Metro de Madrid,https://m.example,Europe/Madrid\n",
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nSOL,Sol,40.4169,-3.7035\nOPE,Ópera,40.4180,-3.7090\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL2,M,2,Línea 2,1\n",
                "calendar.txt":
                    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n",
                "trips.txt": "route_id,service_id,trip_id\nL2,D,T1\n",
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,SOL,1\nT1,08:03:00,08:03:00,OPE,2\n",
            ])
        let madrid = TemporaryFolder.make("madrid-db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: madrid).run()
        let file = S.temporaryDirectory("messages-zone").appendingPathComponent("messages.pb").path
        let added = try Programs.runKiosk([
            "message", "add", "--text-es", "Sol cerrada", "--text-en", "Sol closed", "--stops", "SOL", "--from",
            "2026-11-25T08:00", "--until", "2099-11-25T18:30", "--out", file, "--db", madrid,
        ])
        try #require(added.status == 0, "\(added)")
        #expect(added.stdout.contains("2026-11-25 08:00 to 2099-11-25 18:30 Europe/Madrid"), "\(added)")

        let text = try Programs.runKiosk(["message", "list", "--file", file])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("msg-1  info  active  stops SOL  2026-11-25 08:00 → 2099-11-25 18:30\n"), "\(text)")
        #expect(text.stdout.hasSuffix("Times in Europe/Madrid.\n"), "\(text.stdout)")
        let json = try Programs.runKiosk(["message", "list", "--file", file, "--json"])
        let rows = try JSONDecoder().decode([[String: AnyCodable]].self, from: Data(json.stdout.utf8))
        #expect(rows.count == 1 && json.stdout.hasSuffix("]\n"))
        #expect(rows[0]["from"]?.description == "2026-11-25T08:00:00+01:00", "\(rows)")
        #expect(rows[0]["until"]?.description == "2099-11-25T18:30:00+01:00", "\(rows)")
        #expect(rows[0]["time_zone"]?.description == "Europe/Madrid", "\(rows)")
        // --db of another zone does not move them either.
        let other = try Self.kiosk(["list", "--file", file])
        #expect(other.stdout.contains("2026-11-25 08:00 → 2099-11-25 18:30") && other.stdout.contains("Europe/Madrid"))

        // A message of another zone added to the same file: each line says its own zone.
        let quito = try Self.kiosk([
            "add", "--text-es", "Obras", "--text-en", "Works", "--stops", "1091", "--until", "2099-01-01T18:00", "--out",
            file,
        ])
        try #require(quito.status == 0, "\(quito)")
        let both = try Programs.runKiosk(["message", "list", "--file", file])
        #expect(both.stdout.contains("→ 2099-11-25 18:30 Europe/Madrid\n"), "\(both.stdout)")
        #expect(both.stdout.contains("until 2099-01-01 18:00 America/Guayaquil\n"), "\(both.stdout)")
        #expect(!both.stdout.contains("Times in"), "\(both.stdout)")

        // Listing reads only: a file that is not a messages file is refused naming it, not "overwritten".
        let alerts = S.temporaryDirectory("messages-not").appendingPathComponent("alerts.pb")
        try S.message(timestamp: 1_800_000_000, []).serializedData().write(to: alerts)
        let refused = try Programs.runKiosk(["message", "list", "--file", alerts.path])
        #expect(refused.status == 2 && refused.stderr.contains("\(alerts.path): is a GTFS-Realtime feed but not a staff messages file"), "\(refused)")
        #expect(!refused.stderr.contains("overwrite"), "\(refused.stderr)")
        let junk = S.temporaryDirectory("messages-junk").appendingPathComponent("junk.pb")
        try Data("not a feed at all\u{1}\u{2}".utf8).write(to: junk)
        let garbage = try Programs.runKiosk(["message", "list", "--file", junk.path])
        #expect(garbage.status == 2 && garbage.stderr.contains("\(junk.path): is not a GTFS-Realtime file ("), "\(garbage)")
        #expect(!garbage.stderr.contains("overwrite") && !garbage.stderr.contains("malformedProtobuf"), "\(garbage)")
        // Adding to it still says why it is left alone.
        let kept = try Self.kiosk(["add", "--text-es", "Hola", "--text-en", "Hello", "--all", "--out", alerts.path])
        #expect(kept.status == 2 && kept.stderr.contains("refusing to overwrite it"), "\(kept)")
    }

    /// In a region's database a bare route_id or stop id that one feed has names it for --routes and --stops (README,
    /// "A region"), ids containing ':' too; one that two feeds have is refused with both.
    @Test func bareIdsOfOneFeedNameTheirRouteOrStop() throws {
        func feed(_ name: String, routes: [String], stops: [String], latitude: String) -> URL {
            TemporaryFolder.make(
                name,
                files: [
                    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nOP,\(name),https://op.example,America/Guayaquil\n",
                    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"
                        + stops.enumerated().map { "\($1),\(name) \($0),\(latitude)\($0),-78.5\n" }.joined(),
                    "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\n"
                        + routes.map { "\($0),OP,,\(name) \($0),3\n" }.joined(),
                    "calendar.txt":
                        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n",
                    "trips.txt": "route_id,service_id,trip_id\n" + routes.map { "\($0),D,T\($0)\n" }.joined(),
                    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                        + routes.map { "T\($0),08:00:00,08:00:00,\(stops[0]),1\nT\($0),08:05:00,08:05:00,\(stops[1]),2\n" }
                        .joined(),
                ])
        }
        let metro = feed("metro", routes: ["M1", "X"], stops: ["M:1", "M:2"], latitude: "-0.20")
        let bus = feed("bus", routes: ["X"], stops: ["B1", "B2"], latitude: "-0.30")
        let region = TemporaryFolder.make("region-db").appendingPathComponent("region.sqlite").path
        _ = try GTFSImporter(
            feeds: [FeedInput(id: "metro", path: metro.path), FeedInput(id: "bus", path: bus.path)],
            databasePath: region
        ).run()
        let file = S.temporaryDirectory("messages-region").appendingPathComponent("messages.pb").path
        let base = ["message", "add", "--text-es", "Hola", "--text-en", "Hello", "--out", file, "--db", region]
        var result = try Programs.runKiosk(base + ["--routes", "M1"])
        #expect(result.status == 0 && result.stdout.contains("routes metro:M1"), "\(result)")
        result = try Programs.runKiosk(base + ["--stops", "M:1", "B2"])
        #expect(result.status == 0 && result.stdout.contains("stops metro:M:1, bus:B2"), "\(result)")
        result = try Programs.runKiosk(base + ["--routes", "X"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("'X' is a route_id in several feeds: bus:X, metro:X"), "\(result)")
    }
}
