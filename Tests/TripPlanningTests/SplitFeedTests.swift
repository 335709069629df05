import Foundation
import KioskTesting
import Testing
import TransitModel
import TransitStore
import TripPlanning

/// A real feed split by agency into one feed per operator, imported together (issue 24) with the transfer
/// rules between the operators as the region's transfers file, must answer as the whole feed does: the same
/// departures at every stop, and the same earliest arrivals.
@Suite struct SplitFeedTests {
    struct Setup {
        let whole: RouteDatabase
        let split: RouteDatabase
        let feedIDs: [String]
    }

    static let setup = Result { () throws -> Setup in
        let dir = TemporaryFolder.make("split")
        let (feeds, transfers) = try FeedSplitter.splitByAgency(SampleNetwork.feed, into: dir)
        let path = dir.appendingPathComponent("split.sqlite").path
        var importer = GTFSImporter(feeds: feeds, databasePath: path)
        importer.regionTransfers = transfers.path
        _ = try importer.run()
        return Setup(
            whole: try RouteDatabase(path: try SampleNetwork.databasePath()), split: try RouteDatabase(path: path),
            feedIDs: feeds.map(\.id))
    }

    @Test func everyStopShowsTheSameDepartures() throws {
        let setup = try Self.setup.get()
        #expect(setup.feedIDs == ["mq", "epmtpq"])
        let zone = setup.whole.timeZone
        var compared = 0
        for time in ["2026-11-25T07:40", "2026-11-28T12:00", "2026-11-29T22:30"] {
            let at = try #require(LocalTime.parse(time, in: zone))
            for id in try setup.whole.boardingStopIDs() {
                let expected = try setup.whole.stopView(for: try setup.whole.resolveStop(.id(id)), at: at)
                    .departures.map { "\($0.route.id) \($0.tripID) \($0.scheduledTime) \($0.headsign)" }
                var found: [String] = []
                for feed in setup.feedIDs {
                    guard let stop = try setup.split.findStop(.id("\(feed):\(id)")) else { continue }
                    found += try setup.split.stopView(for: stop, at: at).departures.map {
                        "\(setup.split.namespaces.bareID($0.route.id)) \(setup.split.namespaces.bareID($0.tripID)) \($0.scheduledTime) \($0.headsign)"
                    }
                }
                #expect(Set(found) == Set(expected), "\(id) at \(time)")
                #expect(found.count == expected.count, "\(id) at \(time)")
                compared += expected.count
            }
        }
        #expect(compared > 1000)
    }

    @Test func earliestArrivalsMatchWithinTheChangeBetweenOperators() throws {
        let setup = try Self.setup.get()
        let zone = setup.whole.timeZone
        let ids = try setup.whole.boardingStopIDs()
        let at = try #require(LocalTime.parse("2026-11-25T08:00", in: zone))
        // The feed's transfers.txt rules between the two operators' stops come with the split feeds as the
        // region's transfers file, and the operators share no stop: no change is added where the whole feed had
        // none, so every journey must arrive at the same time (cross-feed changes are walks, as in the whole feed).
        var pairs = 0
        for (i, from) in ids.enumerated() where i % 5 == 0 {
            for (j, to) in ids.enumerated() where j % 7 == 3 && j != i {
                let whole = try? setup.whole.plan(
                    from: setup.whole.resolveStop(.id(from)), to: setup.whole.resolveStop(.id(to)), at: at)
                guard let whole, let wholeArrival = whole.options.map(\.arrival).min() else { continue }
                let split = try setup.split.plan(
                    from: setup.split.resolveStop(.id(from)), to: setup.split.resolveStop(.id(to)), at: at)
                let splitArrival = try #require(split.options.map(\.arrival).min(), "\(from) → \(to)")
                pairs += 1
                #expect(splitArrival == wholeArrival, "\(from) → \(to)")
                // Every ride names its operator.
                for leg in split.options.flatMap(\.legs) where leg.kind == .ride {
                    #expect(leg.route.map { !$0.agency.isEmpty && setup.split.namespaces.feedID(of: $0.id) != nil } == true)
                }
            }
        }
        #expect(pairs > 100)
    }
}

/// Splits a GTFS folder into one feed per agency: each gets its agency, routes, trips, stop times and
/// frequencies, the stops its trips use (with their stations), the whole calendar, and the transfers between
/// its own stops. Fields are read and written as RFC 4180 CSV.
enum FeedSplitter {
    /// The feeds, and a transfers file of the rules between them (ids as FEEDID:ID).
    static func splitByAgency(_ folder: URL, into dir: URL) throws -> (feeds: [FeedInput], transfers: URL) {
        func table(_ name: String) throws -> (header: [String], rows: [[String]]) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let records = parseCSV(text)
            return (records[0], Array(records.dropFirst()))
        }
        func column(_ header: [String], _ name: String) -> Int { header.firstIndex(of: name)! }
        let agency = try table("agency.txt"), routes = try table("routes.txt"), trips = try table("trips.txt")
        let stopTimes = try table("stop_times.txt"), stops = try table("stops.txt")
        let routeAgency = Dictionary(
            uniqueKeysWithValues: routes.rows.map {
                ($0[column(routes.header, "route_id")], $0[column(routes.header, "agency_id")])
            })
        let tripAgency = Dictionary(
            uniqueKeysWithValues: trips.rows.map {
                ($0[column(trips.header, "trip_id")], routeAgency[$0[column(trips.header, "route_id")]]!)
            })
        let parent = Dictionary(
            uniqueKeysWithValues: stops.rows.map {
                ($0[column(stops.header, "stop_id")], $0[column(stops.header, "parent_station")])
            })
        var feeds: [FeedInput] = []
        var feedOfStop: [String: [String]] = [:]
        for agencyRow in agency.rows {
            let id = agencyRow[column(agency.header, "agency_id")]
            let feed = dir.appendingPathComponent(id.lowercased())
            try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
            func write(_ name: String, _ header: [String], _ rows: [[String]]) throws {
                let text = ([header] + rows).map { $0.map(quoteCSV).joined(separator: ",") }.joined(separator: "\n") + "\n"
                try text.write(to: feed.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let ownTrips = Set(tripAgency.filter { $0.value == id }.keys)
            let ownStopTimes = stopTimes.rows.filter { ownTrips.contains($0[column(stopTimes.header, "trip_id")]) }
            var used = Set(ownStopTimes.map { $0[column(stopTimes.header, "stop_id")] })
            used.formUnion(used.compactMap { parent[$0] }.filter { !$0.isEmpty })
            for stop in used { feedOfStop[stop, default: []].append(id.lowercased()) }
            try write("agency.txt", agency.header, [agencyRow])
            try write("routes.txt", routes.header, routes.rows.filter { $0[column(routes.header, "agency_id")] == id })
            try write("trips.txt", trips.header, trips.rows.filter { ownTrips.contains($0[column(trips.header, "trip_id")]) })
            try write("stop_times.txt", stopTimes.header, ownStopTimes)
            try write("stops.txt", stops.header, stops.rows.filter { used.contains($0[column(stops.header, "stop_id")]) })
            let frequencies = try table("frequencies.txt")
            try write(
                "frequencies.txt", frequencies.header,
                frequencies.rows.filter { ownTrips.contains($0[column(frequencies.header, "trip_id")]) })
            let transfers = try table("transfers.txt")
            try write(
                "transfers.txt", transfers.header,
                transfers.rows.filter {
                    used.contains($0[column(transfers.header, "from_stop_id")])
                        && used.contains($0[column(transfers.header, "to_stop_id")])
                })
            for name in ["calendar.txt", "calendar_dates.txt", "feed_info.txt"] {
                let whole = try table(name)
                try write(name, whole.header, whole.rows)
            }
            feeds.append(FeedInput(id: id.lowercased(), path: feed.path))
        }
        // The rules between stops of different feeds, their ids in their feeds' namespaces.
        let transfers = try table("transfers.txt")
        let from = column(transfers.header, "from_stop_id"), to = column(transfers.header, "to_stop_id")
        var between: [[String]] = []
        for row in transfers.rows {
            let fromFeeds = feedOfStop[row[from]] ?? [], toFeeds = feedOfStop[row[to]] ?? []
            for a in fromFeeds {
                for b in toFeeds where a != b {
                    var rule = row
                    rule[from] = "\(a):\(row[from])"
                    rule[to] = "\(b):\(row[to])"
                    between.append(rule)
                }
            }
        }
        let url = dir.appendingPathComponent("region-transfers.txt")
        let text = ([transfers.header] + between).map { $0.map(quoteCSV).joined(separator: ",") }.joined(separator: "\n") + "\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        return (feeds, url)
    }

    static func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, afterQuote = false
        for character in text {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else { field.append(character) }
                continue
            }
            switch character {
            case "\"":
                if afterQuote { field.append("\"") }
                quoted = true
            case ",": record.append(field); field = ""
            case "\n", "\r\n":
                record.append(field); field = ""
                records.append(record); record = []
            default: field.append(character)
            }
            afterQuote = false
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }

    static func quoteCSV(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
