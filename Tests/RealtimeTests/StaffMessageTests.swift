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
}
