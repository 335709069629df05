import Foundation
import KioskTesting
import Synchronization
import Testing
import TransitModel
import TransitStore
import TripPlanning

/// The planning timetable compiled once per import (`routes.sqlite.timetable`): plans from the mapped image are
/// the plans a timetable compiled from the database for the query's day gives; a stale, damaged or missing image is
/// reported naming the file and never used; a replaced database comes with its own timetable.
@Suite struct PlanningImageTests {
    static let zone = TimeZone(identifier: "America/Guayaquil")!

    static func instant(_ text: String) -> Date {
        guard case .instant(let date) = LocalTime.interpret(text, in: zone) else { fatalError("bad time \(text)") }
        return date
    }

    /// The sample network imported with its image, as `kiosk import` does on 2026-11-25 (the image covers the
    /// 25th to the 28th).
    static func importSample(into folder: URL, feed: URL = Repository.sampleNetwork) throws -> String {
        let path = folder.appendingPathComponent("routes.sqlite").path
        var importer = GTFSImporter(feedPath: feed.path, databasePath: path)
        importer.writePlanningImage(now: instant("2026-11-25T12:00"))
        _ = try importer.run()
        return path
    }

    static let sample: Result<String, any Error> = Result { try importSample(into: TemporaryFolder.make("image")) }

    /// A copy of the sample feed with one stop renamed: another feed hash.
    static func editedFeed() throws -> URL {
        let folder = TemporaryFolder.make("edited-feed")
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.sampleNetwork.path)
        where file.hasSuffix(".txt") {
            var text = try String(
                contentsOf: Repository.sampleNetwork.appendingPathComponent(file), encoding: .utf8)
            if file == "stops.txt" { text = text.replacingOccurrences(of: "El Ejido", with: "El Ejido Norte") }
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// The golden queries and more: mornings, late evening, after midnight, other walking rules.
    static let queries: [(from: String, to: String, at: String, maxTransfers: Int, rules: PlanningRules)] = [
        ("Cumbayá", "La Carolina", "2026-11-25T08:00", 3, PlanningRules()),
        ("1011", "1151", "2026-11-25T08:00", 3, PlanningRules()),
        ("6005", "0704", "2026-11-25T23:30", 3, PlanningRules()),
        ("5007", "3007", "2026-11-25T02:00", 0, PlanningRules()),
        ("1122", "3004", "2026-11-26T12:00", 3, PlanningRules(walkRadiusMeters: 800)),
        ("Cumbayá", "1121", "2026-11-27T07:00", 4, PlanningRules()),
        ("2010", "5007", "2026-11-28T21:40", 3, PlanningRules(walkRadiusMeters: 0, minTransferSeconds: 180)),
        ("1091", "1011", "2026-11-28T23:55", 3, PlanningRules()),
    ]

    @Test func imageCoversFourDaysFromTheImport() throws {
        let db = try RouteDatabase(path: try Self.sample.get())
        let network = try PlanningImage.load(PlanningImage.path(forDatabase: db.path), for: db)
        #expect(network.imagePath == db.path + ".timetable")
        #expect(
            network.queryDays == ServiceDate(yyyymmdd: 20261125)!.dayNumber...ServiceDate(yyyymmdd: 20261128)!.dayNumber
        )
        #expect(network.covers(ServiceDate(yyyymmdd: 20261128)!) && !network.covers(ServiceDate(yyyymmdd: 20261129)!))
    }

    /// Plans from the image (shared, other rules recompiled over its trips) equal plans from a network compiled
    /// from the database for the query's day alone.
    @Test func imagePlansAsTheDatabaseDoes() throws {
        let db = try RouteDatabase(path: try Self.sample.get())
        let timetables = PlanningTimetables()
        for query in Self.queries {
            let at = Self.instant(query.at)
            let day = ServiceDate.containing(at, in: db.timeZone)
            let shared = try timetables.network(for: db, at: at, rules: query.rules)
            #expect(shared.imagePath != nil, "\(query.at) not planned from the image")
            let compiled = try db.planningNetwork(queryDays: day...day, rules: query.rules)
            #expect(compiled.imagePath == nil)
            let origin = try db.resolveEndpoint(query.from), destination = try db.resolveEndpoint(query.to)
            let fromImage = try db.plan(
                from: origin, to: destination, at: at, maxTransfers: query.maxTransfers, rules: query.rules,
                network: shared)
            let fromDatabase = try db.plan(
                from: origin, to: destination, at: at, maxTransfers: query.maxTransfers, rules: query.rules,
                network: compiled)
            #expect(fromImage == fromDatabase, "\(query.from) → \(query.to) at \(query.at)")
            #expect(!fromImage.options.isEmpty || query.maxTransfers == 0, "\(query.from) → \(query.to)")
        }
    }

    /// The sample feed plus a Saturday-only route between two stops of its own, far from the others.
    static func saturdayRouteFeed() throws -> URL {
        let folder = TemporaryFolder.make("saturday-feed")
        let additions = [
            "stops.txt":
                "SAT1,9901,Sábado Uno,,-0.600000,-78.200000,0,,,\nSAT2,9902,Sábado Dos,,-0.620000,-78.200000,0,,,\n",
            "routes.txt": "SAT-R,MQ,S1,Solo sábados,,3,000000,FFFFFF,99\n",
            "calendar.txt": "SATONLY,0,0,0,0,0,1,0,20260101,20271231\n",
            "trips.txt": "SAT-R,SATONLY,SAT-T1,Sábado Dos,,0,\n",
            "stop_times.txt": "SAT-T1,08:00:00,08:00:00,SAT1,1,,,1\nSAT-T1,08:20:00,08:20:00,SAT2,2,,,1\n",
        ]
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.sampleNetwork.path)
        where file.hasSuffix(".txt") {
            var text = try String(contentsOf: Repository.sampleNetwork.appendingPathComponent(file), encoding: .utf8)
            if let extra = additions[file] {
                if !text.hasSuffix("\n") { text += "\n" }
                text += extra
            }
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// The image holds four days' trips, but a plan rides only trips of its own service day and the next, as a
    /// timetable compiled for that day does: on Wednesday the Saturday-only route is no direct option (it was,
    /// leaving three days later, before plans were limited so); on Friday evening Saturday's trip is one.
    @Test func plansRideOnlyTheQueryDayAndTheNext() throws {
        let path = try Self.importSample(into: TemporaryFolder.make("saturday"), feed: try Self.saturdayRouteFeed())
        let db = try RouteDatabase(path: path)
        let timetables = PlanningTimetables()
        let origin = try db.resolveEndpoint("9901"), destination = try db.resolveEndpoint("9902")
        for (at, expected) in [
            ("2026-11-25T08:00", nil), ("2026-11-27T20:00", "2026-11-28"), ("2026-11-28T07:00", "2026-11-28"),
        ] {
            let instant = Self.instant(at)
            let day = ServiceDate.containing(instant, in: db.timeZone)
            let shared = try timetables.network(for: db, at: instant, rules: PlanningRules())
            #expect(shared.imagePath != nil, "\(at) not planned from the image")
            let fromImage = try db.plan(from: origin, to: destination, at: instant, maxTransfers: 0, network: shared)
            let fromDatabase = try db.plan(
                from: origin, to: destination, at: instant, maxTransfers: 0,
                network: try db.planningNetwork(queryDays: day...day))
            #expect(fromImage == fromDatabase, "at \(at)")
            #expect(fromImage.options.first?.legs.first?.serviceDate == expected, "at \(at): \(fromImage.options)")
        }
    }

    /// A day the image does not cover is compiled in memory (once), not refused.
    @Test func dayOutsideTheImageIsCompiledInMemory() throws {
        let db = try RouteDatabase(path: try Self.sample.get())
        let timetables = PlanningTimetables()
        let at = Self.instant("2026-12-02T08:00")
        let network = try timetables.network(for: db, at: at, rules: PlanningRules())
        #expect(network.imagePath == nil)
        #expect(try timetables.network(for: db, at: at, rules: PlanningRules()) === network)
        #expect(
            try timetables.network(for: db, at: Self.instant("2026-11-26T08:00"), rules: PlanningRules()).imagePath
                != nil)
    }

    /// The image of another feed beside a database is stale: refused, named, and plans come from the database.
    @Test func staleImageIsNotUsed() throws {
        let folder = TemporaryFolder.make("stale")
        let path = try Self.importSample(into: folder, feed: try Self.editedFeed())
        let image = path + ".timetable"
        try FileManager.default.removeItem(atPath: image)
        try FileManager.default.copyItem(atPath: try Self.sample.get() + ".timetable", toPath: image)
        let db = try RouteDatabase(path: path)
        #expect {
            try PlanningImage.load(image, for: db)
        } throws: { error in
            guard let error = error as? PlanningImageError else { return false }
            return error.kind == .stale && error.description.contains(image)
        }
        let timetables = PlanningTimetables()
        let network = try timetables.network(for: db, at: Self.instant("2026-11-25T08:00"), rules: PlanningRules())
        #expect(network.imagePath == nil)
        let plan = try db.plan(
            from: try db.resolveEndpoint("1091"), to: try db.resolveEndpoint("1011"),
            at: Self.instant("2026-11-25T08:00"), network: network)
        #expect(plan.from.name == "El Ejido Norte" && !plan.options.isEmpty)
    }

    /// Truncated, scribbled, empty or foreign files, a folder and no file: each refused with its path and cause.
    @Test func damagedImagesAreRefusedNamingTheFile() throws {
        let source = try Self.sample.get()
        let db = try RouteDatabase(path: source)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source + ".timetable"))
        let folder = TemporaryFolder.make("damaged")
        var cases: [(name: String, content: Data?, kind: PlanningImageError.Kind)] = [
            ("truncated", bytes.prefix(bytes.count / 2), .damaged),
            ("header-only", bytes.prefix(200), .damaged),
            ("empty", Data(), .damaged),
            ("garbage", Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }), .damaged),
            ("database", try Data(contentsOf: URL(fileURLWithPath: source)), .damaged),
            ("missing", nil, .missing),
        ]
        var scribbled = bytes
        scribbled[300] ^= 0xFF
        cases.append(("scribbled-header", scribbled, .damaged))
        var version = bytes
        version[8] = 99
        cases.append(("version", version, .incompatible))
        for item in cases {
            let path = folder.appendingPathComponent(item.name).path
            if let content = item.content { try content.write(to: URL(fileURLWithPath: path)) }
            #expect {
                try PlanningImage.load(path, for: db)
            } throws: { error in
                guard let error = error as? PlanningImageError else { return false }
                return error.kind == item.kind && error.description.contains(path)
            }
        }
        let directory = folder.appendingPathComponent("a-folder").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(throws: PlanningImageError.self) { try PlanningImage.load(directory, for: db) }
    }

    /// An operator copies a file over the image in place, or truncates it, while plans run on it (issue 36: the
    /// server died of SIGBUS in the planner). Plans go on from the image as it was opened, equal to the plans before,
    /// and the change is reported once; an image reached through a symbolic link is used, not refused.
    @Test(arguments: [
        ("the same image copied over it", "cp \"$0.copy\" \"$0\""),
        ("a smaller file copied over it", "head -c 4096 \"$0.copy\" > \"$0\""),
        ("truncated to nothing", Programs.truncateCommand("$0", size: 0)),
    ])
    func imageWrittenOverInPlaceKeepsPlanning(attack: String, command: String) throws {
        let folder = TemporaryFolder.make("overwritten")
        let path = try Self.importSample(into: folder)
        let db = try RouteDatabase(path: path)
        let image = PlanningImage.path(forDatabase: path)
        try FileManager.default.copyItem(atPath: image, toPath: image + ".copy")
        let link = folder.appendingPathComponent("through-a-link.timetable").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: image)
        let changes = Recorder<String>()
        let network = try PlanningImage.load(link, for: db) { change in changes.append(change) }
        let queries = try Self.queries.filter { $0.rules == PlanningRules() }.map { query in
            (
                try db.resolveEndpoint(query.from), try db.resolveEndpoint(query.to), Self.instant(query.at),
                query.maxTransfers
            )
        }
        @Sendable func planAll() throws -> [JourneyPlan] {
            try queries.map { try db.plan(from: $0.0, to: $0.1, at: $0.2, maxTransfers: $0.3, network: network) }
        }
        let before = try planAll()
        #expect(before.contains { !$0.options.isEmpty })

        // Plans on other threads while the writer runs (it waits on the image's lease until the copy is made).
        let during = Recorder<[JourneyPlan]>()
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<20 { if let plans = try? planAll() { during.append(plans) } }
            }
        }
        let writer = try Programs.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command.replacingOccurrences(of: "$0", with: image)])
        #expect(writer.status == 0, "\(attack): \(writer)")
        group.wait()
        let after = try planAll()
        #expect(after == before, "\(attack)")
        #expect(during.all.count == 40 && during.all.allSatisfy { $0 == before }, "\(attack)")
        let said = changes.all
        #expect(said.count == 1 && said.first?.contains("private copy") == true, "\(attack): \(said)")
    }

    /// `kiosk import` over a database in service: the new database comes with the new image, the old one keeps its
    /// own, so no plan mixes the two.
    @Test func replacedDatabaseComesWithItsOwnTimetable() throws {
        let folder = TemporaryFolder.make("replaced")
        let path = try Self.importSample(into: folder)
        let live = try LiveRouteDatabase(path: path, checkInterval: .zero)
        let timetables = PlanningTimetables()
        let at = Self.instant("2026-11-25T08:00")
        let old = live.current()
        let before = try timetables.network(for: old, at: at, rules: PlanningRules())
        #expect(before.imagePath != nil)

        _ = try Self.importSample(into: folder, feed: try Self.editedFeed())
        let new = live.checkNow()
        #expect(new !== old && new.feedHash != old.feedHash)
        let after = try timetables.network(for: new, at: at, rules: PlanningRules())
        #expect(after.imagePath != nil && after !== before)
        #expect(try timetables.network(for: old, at: at, rules: PlanningRules()) === before)
        // The image now beside the file is the new feed's; the old database would refuse it.
        #expect(throws: PlanningImageError.self) { try PlanningImage.load(path + ".timetable", for: old) }
        let plan = try new.plan(
            from: try new.resolveEndpoint("1091"), to: try new.resolveEndpoint("1011"), at: at, network: after)
        #expect(plan.from.name == "El Ejido Norte")
    }

    /// A server or kiosk whose image has run out writes the next days' image and plans from it.
    @Test func slidingRewritesTheImageForTheDaysAhead() throws {
        let folder = TemporaryFolder.make("sliding")
        let path = try Self.importSample(into: folder)
        let db = try RouteDatabase(path: path)
        let timetables = PlanningTimetables()
        timetables.slidesImage = true
        timetables.setClock { Self.instant("2026-12-01T07:00") }
        // A query on another day than the clock's (an API client's at=) is compiled in memory, not written.
        let other = try timetables.network(for: db, at: Self.instant("2026-12-09T08:00"), rules: PlanningRules())
        #expect(other.imagePath == nil && !other.covers(ServiceDate(yyyymmdd: 20261201)!))
        #expect(try PlanningImage.load(path + ".timetable", for: db).covers(ServiceDate(yyyymmdd: 20261125)!))
        let network = try timetables.network(for: db, at: Self.instant("2026-12-01T08:00"), rules: PlanningRules())
        #expect(network.covers(ServiceDate(yyyymmdd: 20261201)!) && network.covers(ServiceDate(yyyymmdd: 20261204)!))
        let written = try PlanningImage.load(path + ".timetable", for: db)
        #expect(written.queryDays == network.queryDays)
        let replayed = try db.plan(
            from: try db.resolveEndpoint("1011"), to: try db.resolveEndpoint("1151"),
            at: Self.instant("2026-12-01T08:00"), network: written)
        let compiled = try db.plan(
            from: try db.resolveEndpoint("1011"), to: try db.resolveEndpoint("1151"),
            at: Self.instant("2026-12-01T08:00"),
            network: try db.planningNetwork(
                queryDays: ServiceDate(yyyymmdd: 20261201)!...ServiceDate(yyyymmdd: 20261201)!))
        #expect(replayed == compiled && !replayed.options.isEmpty)
    }

    /// Every plan reads the clock. Reading a closure out of a generic container (`Mutex.withLock { $0 }`) wrapped it
    /// in two more reabstraction thunks each time, written back: after a day of plans the clock was a chain of
    /// millions of calls (slower with every plan, memory that grew, and at last a stack overflow). The depth at
    /// which the clock runs must not grow with the reads.
    @Test func readingTheClockDoesNotWrapIt() throws {
        let folder = TemporaryFolder.make("clock")
        let db = try RouteDatabase(path: try Self.importSample(into: folder))
        let timetables = PlanningTimetables()
        let depths = Mutex<[UInt]>([])
        timetables.setClock {
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            depths.withLock { $0.append(address) }
            return Self.instant("2026-11-25T07:00")
        }
        timetables.slidesImage = true  // (only then is the clock read)
        for _ in 0..<40 {
            _ = try timetables.network(for: db, at: Self.instant("2026-11-25T08:00"), rules: PlanningRules())
        }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 40)
        #expect(
            Set(seen).count == 1,
            "the clock ran at \(Set(seen).count) stack depths, \(seen.first! - seen.last!) bytes apart")
    }

    /// The network lends its idle planners to plans; a planner is never lent to two plans at once. Plans on eight
    /// threads at once give exactly what the same plans give one after another.
    @Test func plansOnManyThreadsShareTheNetworksPlannersSafely() throws {
        let db = try RouteDatabase(path: try Self.sample.get())
        let network = try PlanningImage.load(PlanningImage.path(forDatabase: db.path), for: db)
        let stops = try db.boardingStopIDs()
        let pairs = (0..<800).map { i in (stops[i % stops.count], stops[(i * 7 + 3) % stops.count]) }.filter {
            $0 != $1
        }
        let at = Self.instant("2026-11-25T07:30")
        @Sendable func plan(_ pair: (String, String)) throws -> JourneyPlan {
            try db.plan(
                from: try db.resolveEndpoint(pair.0), to: try db.resolveEndpoint(pair.1), at: at, network: network)
        }
        let sequential = try pairs.map(plan)
        let results = Mutex<[Int: JourneyPlan]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (index, pair) in pairs.enumerated() where index % 8 == thread {
                if let answer = try? plan(pair) { results.withLock { $0[index] = answer } }
            }
        }
        let concurrent = results.withLock { $0 }
        #expect(concurrent.count == pairs.count)
        for index in pairs.indices { #expect(concurrent[index] == sequential[index], "plan \(index): \(pairs[index])") }
        #expect(sequential.contains { !$0.options.isEmpty })
    }

    /// The same feed and days give the same image, byte for byte: its metadata's keys are written in order (a
    /// dictionary's order changes from one process to the next).
    @Test func theImagesMetadataKeysAreSorted() throws {
        let db = try RouteDatabase(path: try Self.sample.get())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: PlanningImage.path(forDatabase: db.path)))
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let json = try #require(text.range(of: "{\"").map { text[$0.lowerBound...] })
        let object = json[..<(json.firstIndex(of: "}").map { json.index(after: $0) } ?? json.endIndex)]
        let keys = object.split(separator: ",").compactMap { pair -> String? in
            let name = pair.drop { $0 == "{" }.split(separator: ":").first
            return name.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        #expect(keys.count >= 8, "\(object)")
        #expect(keys == keys.sorted(), "\(keys)")
    }
}
