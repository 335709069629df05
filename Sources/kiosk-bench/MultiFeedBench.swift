import ArgumentParser
import Foundation
import JourneyPlanner
import TransitModel
import TransitStore
import TripPlanning
import ZIPFoundation

/// Issue 24's figures: a feed split into several feeds holding the same data (by agency, else by route type),
/// imported together, against the feed imported whole (ratio ≤ 1.1), the row counts of both databases, and
/// stop view and planner latency on both (unchanged within noise).
struct MultiFeedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "multi-feed", abstract: "Several feeds in one database against the same data as one feed.")

    @Argument(help: "A GTFS feed (.zip or folder), e.g. vilnius.zip scaled ×3 with scale-gtfs.")
    var feed: String

    @Option(help: "Measured import runs of each side, alternating (after one warm-up of each).")
    var runs = 3

    @Option(help: "Stop views per database.")
    var lookups = 1000

    @Option(help: "Random stop-to-stop plans per database.")
    var plans = 300

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-multi-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // Both sides read plain folders, so neither pays for inflating an archive the other does not.
        let whole: URL
        if feed.lowercased().hasSuffix(".zip") {
            whole = work.appendingPathComponent("whole")
            try FileManager.default.createDirectory(at: whole, withIntermediateDirectories: true)
            let archive = try Archive(url: URL(fileURLWithPath: feed), accessMode: .read)
            for entry in archive where entry.type == .file && !entry.path.contains("/") {
                _ = try archive.extract(entry, to: whole.appendingPathComponent(entry.path))
            }
        } else {
            whole = URL(fileURLWithPath: feed)
        }
        let (split, splitSeconds) = try Measure.seconds {
            try StreamingFeedSplitter(source: whole).split(into: work.appendingPathComponent("split"))
        }
        print(
            "split \(feed) by \(split.criterion) into \(split.feeds.map { "\($0.id) (\(split.written[$0.id]?["stop_times.txt"] ?? 0) stop_times)" }.joined(separator: ", ")) in \(Measure.format(splitSeconds)); peak resident \(String(format: "%.0f", Measure.peakResidentMB())) MB"
        )
        if !split.ignoredFiles.isEmpty {
            print("  files not carried into the split feeds: \(split.ignoredFiles.joined(separator: ", "))")
        }

        let wholeDB = work.appendingPathComponent("whole.sqlite").path
        let splitDB = work.appendingPathComponent("split.sqlite").path
        func clear(_ path: String) {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
        var wholeTimes: [Double] = [], splitTimes: [Double] = [], ratios: [Double] = []
        var wholeSummary: ImportSummary?, splitSummary: ImportSummary?
        for run in 0...runs {
            clear(wholeDB)
            let (a, wholeTime) = try Measure.seconds {
                try GTFSImporter(feedPath: whole.path, databasePath: wholeDB, logger: Measure.quietLogger).run()
            }
            clear(splitDB)
            let (b, splitTime) = try Measure.seconds {
                try GTFSImporter(feeds: split.feeds, databasePath: splitDB, logger: Measure.quietLogger).run()
            }
            wholeSummary = a; splitSummary = b
            if run == 0 { continue }  // warm-up: page cache, first-touch allocation
            wholeTimes.append(wholeTime); splitTimes.append(splitTime); ratios.append(splitTime / wholeTime)
            print(
                "run \(run): whole \(Measure.format(wholeTime))  split \(Measure.format(splitTime))  ratio \(String(format: "%.3f", splitTime / wholeTime))"
            )
        }
        print(
            """
            import of one feed:            min \(Measure.format(wholeTimes.min()!))  median \(Measure.format(Measure.median(wholeTimes)))
            import of \(split.feeds.count) feeds together:    min \(Measure.format(splitTimes.min()!))  median \(Measure.format(Measure.median(splitTimes)))
            ratio split/whole:             min \(String(format: "%.3f", ratios.min()!))  median \(String(format: "%.3f", Measure.median(ratios)))  (target ≤ 1.1)
            """)
        rowCounts(whole: wholeSummary!, split: splitSummary!, written: split)

        let wholeRoutes = try RouteDatabase(path: wholeDB), splitRoutes = try RouteDatabase(path: splitDB)
        try stopViews(wholeRoutes, splitRoutes, feedIDs: split.feeds.map(\.id))
        try planLatency(wholeRoutes, splitRoutes, feedIDs: split.feeds.map(\.id))
    }

    /// Each table's rows in both databases. They must be equal except where splitting itself copies rows into
    /// several feeds (a stop or shape used by several, the calendar and feed_info every feed carries): the
    /// expected split count is what the split feeds hold, checked too.
    private func rowCounts(whole: ImportSummary, split: ImportSummary, written: StreamingFeedSplitter.Result) {
        let files: [String: String] = [
            "agency": "agency.txt", "stops": "stops.txt", "routes": "routes.txt", "trips": "trips.txt",
            "stop_times": "stop_times.txt", "calendar": "calendar.txt", "calendar_dates": "calendar_dates.txt",
            "frequencies": "frequencies.txt", "transfers": "transfers.txt", "feed_info": "feed_info.txt",
        ]
        print("rows            whole       split   (split feeds' files hold; differences)")
        var unexplained: [String] = []
        var tables = whole.counts.map(\.table)
        for t in split.counts.map(\.table) where !tables.contains(t) { tables.append(t) }
        for table in tables {
            let a = whole.count(table), b = split.count(table)
            var note = ""
            if table == "shapes" {
                note = "(\(written.shapeCopies) shapes in the split feeds)"
                if a != b {
                    note += b == written.shapeCopies ? "  copies made by the split" : "  UNEXPECTED"
                    if b != written.shapeCopies { unexplained.append(table) }
                }
            } else if let file = files[table] {
                let held = written.feeds.reduce(0) { $0 + (written.written[$1.id]?[file] ?? 0) }
                note = "(\(held))"
                if a != b {
                    note += b == held ? "  copies made by the split" : "  UNEXPECTED"
                    if b != held && table != "feed_info" { unexplained.append(table) }
                }
            } else if table == "services", b == a * written.feeds.count {
                note = a == b ? "" : "(every feed carries the whole calendar)"
            } else if a != b {
                note = "UNEXPECTED"
                unexplained.append(table)
            }
            print(
                "  \(table.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(format: "%9d   %9d", a, b))   \(note)"
            )
        }
        print(
            unexplained.isEmpty
                ? "row check: equal, or differing only by rows the split feeds themselves repeat"
                : "row check FAILED: \(unexplained.joined(separator: ", "))")
    }

    /// The same stop in the split database by its own id there, `FEEDID:ID`, as labels and pages name it; a stop
    /// several feeds have (an interchange) by its first feed's id, which stands for every feed's stop there.
    /// Found before the timing. `shared` counts the stops several feeds have.
    private func splitStopID(
        _ id: String, _ routes: RouteDatabase, feedIDs: [String], shared: inout Int
    ) throws
        -> String
    {
        let ids = try feedIDs.map { "\($0):\(id)" }.filter { try routes.findStop(.id($0)) != nil }
        guard let first = ids.first else { throw ValidationError("stop \(id) is not in the split database") }
        if ids.count > 1 { shared += 1 }
        return first
    }

    private func summary(_ name: String, _ a: [Double], _ b: [Double]) -> String {
        let a = a.sorted(), b = b.sorted()
        func figures(_ s: [Double]) -> String {
            "min \(Measure.ms(s.first!))  p50 \(Measure.ms(Measure.percentile(s, 50)))  p99 \(Measure.ms(Measure.percentile(s, 99)))"
        }
        let ratio = { (p: Double) in String(format: "%.2f", Measure.percentile(b, p) / Measure.percentile(a, p)) }
        return """
              \(name), whole: \(figures(a))
              \(name), split: \(figures(b))
              \(name) ratio split/whole: p50 \(ratio(50))  p99 \(ratio(99))
            """
    }

    /// The same random stops and times on both databases, alternating, one warm pass first: each stop by its own
    /// id (`FEEDID:ID` in the split database), the departures compared, the latency at stops of one feed and at
    /// interchanges apart; then what a bare id costs to resolve in each.
    private func stopViews(_ whole: RouteDatabase, _ split: RouteDatabase, feedIDs: [String]) throws {
        guard let start = whole.serviceStart, let end = whole.serviceEnd else {
            throw ValidationError("no service dates")
        }
        var rng = SplitMix64(seed: seed)
        let ids = try whole.boardingStopIDs()
        var all: ([Double], [Double]) = ([], []), oneFeed: ([Double], [Double]) = ([], [])
        var interchange: ([Double], [Double]) = ([], []), bare: ([Double], [Double]) = ([], [])
        var departures = (0, 0), differing = 0, shared = 0
        func shown(_ view: StopView) -> [String] {
            view.departures.map { "\($0.time.timeIntervalSince1970) \($0.route.shortName ?? "") \($0.headsign)" }
                .sorted()
        }
        for pass in 0..<2 {
            for _ in 0..<lookups {
                let id = ids[Int(rng.next() % UInt64(ids.count))]
                let date = ServiceDate(
                    dayNumber: start.dayNumber + Int(rng.next() % UInt64(end.dayNumber - start.dayNumber + 1)))
                let at = date.serviceDayOrigin(in: whole.timeZone).addingTimeInterval(
                    Double(5 * 3600 + Int(rng.next() % (19 * 3600))))
                var sharedHere = 0
                let splitID = try splitStopID(id, split, feedIDs: feedIDs, shared: &sharedHere)
                let (x, tx) = try Measure.seconds { try whole.stopView(for: try whole.resolveStop(.id(id)), at: at) }
                let (y, ty) = try Measure.seconds {
                    try split.stopView(for: try split.resolveStop(.id(splitID)), at: at)
                }
                let (_, bx) = try Measure.seconds { try whole.resolveStop(.id(id)) }
                let (place, by) = try Measure.seconds { try split.resolveStop(.id(id)) }
                guard pass == 1 else { continue }
                shared += sharedHere
                all.0.append(tx); all.1.append(ty)
                bare.0.append(bx); bare.1.append(by)
                if Set(place.platforms.compactMap(\.feedID)).count > 1 {
                    interchange.0.append(tx); interchange.1.append(ty)
                } else {
                    oneFeed.0.append(tx); oneFeed.1.append(ty)
                }
                departures.0 += x.departures.count; departures.1 += y.departures.count
                if shown(x) != shown(y) { differing += 1 }
            }
        }
        print(
            """
            stop views: \(lookups) random stops and times (after a warm pass), each by its own id; \(interchange.0.count) at interchanges (\(shared) at stops several feeds publish)
              departures shown: \(departures.0) whole, \(departures.1) split; views whose departures differ (time, route short name, headsign): \(differing)
            \(summary("stop view", all.0, all.1))
            \(summary("at a stop of one feed", oneFeed.0, oneFeed.1))
            \(interchange.0.isEmpty ? "" : summary("at an interchange", interchange.0, interchange.1))
            \(summary("resolving a bare id", bare.0, bare.1))
            """)
    }

    /// The same random stop pairs at the same times on the busiest day, planner alone and the whole answer.
    private func planLatency(_ whole: RouteDatabase, _ split: RouteDatabase, feedIDs: [String]) throws {
        guard let day = whole.busiestServiceDate() else { throw ValidationError("no service dates") }
        let rules = PlanningRules(walkRadiusMeters: 400)
        let morning = day.serviceDayOrigin(in: whole.timeZone).addingTimeInterval(7 * 3600)
        let sides = try [whole, split].map { routes in
            let network = try routes.planningNetwork(queryDays: day...day, rules: rules)
            return (routes, network, Planner(timetable: network.timetable))
        }
        let stops = try whole.boardingStopIDs()
        var rng = SplitMix64(seed: seed ^ 0x5EED)
        var raw: [[Double]] = [[], []], dressed: [[Double]] = [[], []]
        var answered = [0, 0], sameArrival = 0, shared = 0, differing: [String] = []
        var earlier = 0, later = 0
        var pairs = 0
        while pairs < plans {
            let a = stops[Int(rng.next() % UInt64(stops.count))], b = stops[Int(rng.next() % UInt64(stops.count))]
            guard a != b else { continue }
            let offset = Double(rng.next() % (14 * 3600))
            let from = try whole.resolveStop(.id(a)), to = try whole.resolveStop(.id(b))
            let splitFrom = try split.resolveStop(.id(try splitStopID(a, split, feedIDs: feedIDs, shared: &shared)))
            let splitTo = try split.resolveStop(.id(try splitStopID(b, split, feedIDs: feedIDs, shared: &shared)))
            guard Set(from.platformIndexes).isDisjoint(with: to.platformIndexes),
                Set(splitFrom.platformIndexes).isDisjoint(with: splitTo.platformIndexes)
            else { continue }
            let at = morning.addingTimeInterval(offset)
            var arrivals: [Date?] = []
            for (side, (routes, network, planner)) in sides.enumerated() {
                let (from, to) = side == 0 ? (from, to) : (splitFrom, splitTo)
                let query = PlanQuery(
                    origins: from.platforms.compactMap { routes.plannerIndex(ofStopID: $0.id) }.map {
                        StopOffset(stop: $0)
                    },
                    destinations: to.platforms.compactMap { routes.plannerIndex(ofStopID: $0.id) }.map {
                        StopOffset(stop: $0)
                    },
                    departure: network.timelineSeconds(at), maxTransfers: 4)
                let (journeys, t) = Measure.seconds { planner.plan(query) }
                let (plan, d) = try Measure.seconds {
                    try routes.plan(
                        from: from, to: to, at: at, maxTransfers: 4, rules: rules, network: network, planner: planner)
                }
                raw[side].append(t); dressed[side].append(d)
                if !journeys.isEmpty { answered[side] += 1 }
                arrivals.append(plan.options.map(\.arrival).min())
            }
            pairs += 1
            if arrivals[0] == arrivals[1] {
                sameArrival += 1
            } else {
                if let x = arrivals[0], let y = arrivals[1] { if y < x { earlier += 1 } else { later += 1 } }
            }
            if arrivals[0] != arrivals[1], differing.count < 5 {
                func text(_ date: Date?) -> String { date.map { LocalTime.iso8601($0, in: whole.timeZone) } ?? "none" }
                differing.append(
                    "\(a) → \(b) at \(LocalTime.iso8601(at, in: whole.timeZone)): whole \(text(arrivals[0])), split \(text(arrivals[1]))"
                )
            }
        }
        print(
            """
            plans: \(plans) random stop pairs on \(day) from 07:00 (max 4 transfers, 400 m walks); with a journey: whole \(answered[0]), split \(answered[1]); same earliest arrival \(sameArrival) of \(plans) (split earlier \(earlier), later \(later))
            \(summary("planner alone", raw[0], raw[1]))
            \(summary("whole answer ", dressed[0], dressed[1]))
            """)
        for line in differing { print("  earliest arrival differs: \(line)") }
    }
}

/// Splits a GTFS folder into feeds holding the same data, streaming the big files (stop_times, shapes) line
/// by line: by agency when the feed has several, else by route type. Each feed gets its agency, its routes,
/// their trips, stop_times and frequencies, the stops its trips use with their stations, the shapes its trips
/// use, the transfers between its own stops, and the whole calendar, calendar_dates and feed_info. Records are
/// copied byte for byte.
struct StreamingFeedSplitter {
    let source: URL

    struct Result {
        var feeds: [FeedInput]
        var criterion: String
        /// Rows written per feed id and file.
        var written: [String: [String: Int]]
        var ignoredFiles: [String]
        /// Shape ids summed over the split feeds (a shape several feeds' trips use is in each).
        var shapeCopies: Int
    }

    static let routeTypeNames: [String: String] = [
        "0": "tram", "1": "metro", "2": "rail", "3": "bus", "4": "ferry", "5": "cablecar", "6": "aerial",
        "7": "funicular", "11": "trolleybus", "12": "monorail", "700": "bus", "800": "trolleybus", "900": "tram",
    ]

    func split(into dir: URL) throws -> Result {
        let fm = FileManager.default
        func path(_ name: String) -> String { source.appendingPathComponent(name).path }
        func exists(_ name: String) -> Bool { fm.fileExists(atPath: path(name)) }

        // Which feed each route belongs to.
        let agencies = try CSVRecords.readAll(path("agency.txt"))
        let routes = try CSVRecords.readAll(path("routes.txt"))
        // Routes that do not name their agency leave only their type to split by.
        let byAgency = agencies.rows.count > 1 && routes.columns.contains("agency_id")
        let routeColumn = try routes.column("route_id")
        let keyColumn = byAgency ? try routes.column("agency_id") : try routes.column("route_type")
        var feedIDs: [String] = [], feedOfKey: [String: Int] = [:]
        var routeFeed: [String: Int] = [:]
        for row in routes.rows {
            let key = row[keyColumn]
            let feed: Int
            if let known = feedOfKey[key] {
                feed = known
            } else {
                var id = byAgency ? key.lowercased() : (Self.routeTypeNames[key] ?? "type\(key)")
                id = String(
                    id.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(
                        Character.init))
                if id.isEmpty || feedIDs.contains(id) { id = "feed\(feedIDs.count + 1)" }
                feed = feedIDs.count
                feedIDs.append(String(id.prefix(32)))
                feedOfKey[key] = feed
            }
            routeFeed[row[routeColumn]] = feed
        }
        guard feedIDs.count > 1 else {
            throw ValidationError("\(source.path) has one agency and one route type: nothing to split")
        }
        let folders = feedIDs.map { dir.appendingPathComponent($0) }
        for folder in folders { try fm.createDirectory(at: folder, withIntermediateDirectories: true) }
        var written: [String: [String: Int]] = [:]
        var writers: [CSVWriter] = []
        func open(_ name: String, header: [UInt8]) throws {
            writers = try folders.map { try CSVWriter(path: $0.appendingPathComponent(name).path, header: header) }
        }
        func close(_ name: String) {
            for (i, writer) in writers.enumerated() {
                writer.close()
                written[feedIDs[i], default: [:]][name] = writer.rows
            }
            writers = []
        }

        // agency.txt: a feed's own agency (by agency), or the single agency for each.
        try open("agency.txt", header: agencies.headerBytes)
        for (row, bytes) in zip(agencies.rows, agencies.rawRows) {
            if byAgency, let agencyColumn = agencies.columns.firstIndex(of: "agency_id") {
                if let feed = feedOfKey[row[agencyColumn]] { writers[feed].write(bytes) }
            } else {
                for writer in writers { writer.write(bytes) }
            }
        }
        close("agency.txt")

        try open("routes.txt", header: routes.headerBytes)
        for (row, bytes) in zip(routes.rows, routes.rawRows) { writers[routeFeed[row[routeColumn]]!].write(bytes) }
        close("routes.txt")

        // trips.txt, streamed: the dictionary trip → feed decides every later file.
        var tripFeed: [String: UInt8] = [:]
        var shapeFeeds: [String: UInt32] = [:]
        do {
            let reader = try CSVRecords(path: path("trips.txt"))
            let trip = try reader.column("trip_id"), route = try reader.column("route_id")
            let shape = reader.columns.firstIndex(of: "shape_id")
            try open("trips.txt", header: reader.headerBytes)
            while let record = try reader.next() {
                guard let feed = routeFeed[record.field(route)] else {
                    throw ValidationError("trips.txt line \(reader.line): unknown route_id \(record.field(route))")
                }
                tripFeed[record.field(trip)] = UInt8(feed)
                if let shape {
                    let id = record.field(shape)
                    if !id.isEmpty { shapeFeeds[id, default: 0] |= 1 << UInt32(feed) }
                }
                writers[feed].write(record.bytes)
            }
            close("trips.txt")
        }

        var usedStops = [Set<String>](repeating: [], count: feedIDs.count)
        func byTrip(_ name: String, stops: Bool) throws {
            guard exists(name) else { return }
            let reader = try CSVRecords(path: path(name))
            let trip = try reader.column("trip_id")
            let stop = stops ? try reader.column("stop_id") : 0
            try open(name, header: reader.headerBytes)
            while let record = try reader.next() {
                guard let feed = tripFeed[record.field(trip)].map(Int.init) else {
                    throw ValidationError("\(name) line \(reader.line): unknown trip_id \(record.field(trip))")
                }
                if stops { usedStops[feed].insert(record.field(stop)) }
                writers[feed].write(record.bytes)
            }
            close(name)
        }
        try byTrip("stop_times.txt", stops: true)
        try byTrip("frequencies.txt", stops: false)

        // stops.txt: the stops each feed's trips use, and their stations (up the parent chain).
        do {
            let stops = try CSVRecords.readAll(path("stops.txt"))
            let id = try stops.column("stop_id")
            let parentColumn = stops.columns.firstIndex(of: "parent_station")
            var parent: [String: String] = [:]
            if let parentColumn {
                for row in stops.rows where !row[parentColumn].isEmpty { parent[row[id]] = row[parentColumn] }
            }
            for feed in usedStops.indices {
                for stop in usedStops[feed] {
                    var next = parent[stop]
                    while let station = next, usedStops[feed].insert(station).inserted { next = parent[station] }
                }
            }
            try open("stops.txt", header: stops.headerBytes)
            for (row, bytes) in zip(stops.rows, stops.rawRows) {
                for feed in usedStops.indices where usedStops[feed].contains(row[id]) { writers[feed].write(bytes) }
            }
            close("stops.txt")
        }

        if exists("shapes.txt") {
            let reader = try CSVRecords(path: path("shapes.txt"))
            let shape = try reader.column("shape_id")
            try open("shapes.txt", header: reader.headerBytes)
            while let record = try reader.next() {
                let feeds = shapeFeeds[record.field(shape)] ?? 0
                for feed in writers.indices where feeds & (1 << UInt32(feed)) != 0 { writers[feed].write(record.bytes) }
            }
            close("shapes.txt")
        }

        if exists("transfers.txt") {
            let reader = try CSVRecords(path: path("transfers.txt"))
            let from = try reader.column("from_stop_id"), to = try reader.column("to_stop_id")
            try open("transfers.txt", header: reader.headerBytes)
            while let record = try reader.next() {
                let a = record.field(from), b = record.field(to)
                for feed in writers.indices where usedStops[feed].contains(a) && usedStops[feed].contains(b) {
                    writers[feed].write(record.bytes)
                }
            }
            close("transfers.txt")
        }

        for name in ["calendar.txt", "calendar_dates.txt", "feed_info.txt"] where exists(name) {
            let reader = try CSVRecords(path: path(name))
            try open(name, header: reader.headerBytes)
            while let record = try reader.next() { for writer in writers { writer.write(record.bytes) } }
            close(name)
        }

        let carried: Set<String> = [
            "agency.txt", "routes.txt", "trips.txt", "stop_times.txt", "frequencies.txt", "stops.txt", "shapes.txt",
            "transfers.txt", "calendar.txt", "calendar_dates.txt", "feed_info.txt",
        ]
        let ignored = try fm.contentsOfDirectory(atPath: source.path).filter {
            $0.hasSuffix(".txt") && !carried.contains($0)
        }
        return Result(
            feeds: zip(feedIDs, folders).map { FeedInput(id: $0, path: $1.path) },
            criterion: byAgency
                ? "agency" : agencies.rows.count > 1 ? "route_type (routes.txt names no agency_id)" : "route_type",
            written: written, ignoredFiles: ignored.sorted(),
            shapeCopies: shapeFeeds.values.reduce(0) { $0 + $1.nonzeroBitCount })
    }
}

/// RFC 4180 records of a CSV file, read in chunks: a record ends at a line break outside quotes. Fields are
/// decoded only when asked for.
final class CSVRecords {
    struct Record {
        var bytes: [UInt8]
        /// Field start/end offsets in `bytes` (quoted fields include their quotes).
        var bounds: [(Int, Int)]

        func field(_ index: Int) -> String {
            guard index < bounds.count else { return "" }
            let (start, end) = bounds[index]
            let slice = bytes[start..<end]
            guard slice.first == 0x22, slice.count >= 2 else {
                return String(decoding: slice, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            var out: [UInt8] = []
            var i = start + 1
            while i < end - 1 {
                out.append(bytes[i])
                i += bytes[i] == 0x22 && bytes[i + 1] == 0x22 ? 2 : 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private let file: UnsafeMutablePointer<FILE>
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var filled = 0, position = 0
    private var atEnd = false
    private(set) var line = 0
    let path: String
    private(set) var columns: [String] = []
    private(set) var headerBytes: [UInt8] = []

    init(path: String) throws {
        guard let file = fopen(path, "rb") else { throw ValidationError("cannot open \(path)") }
        self.file = file
        self.path = path
        guard var header = try next() else { throw ValidationError("\(path) is empty") }
        if header.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            header.bytes.removeFirst(3)
            header.bounds = header.bounds.map { (max(0, $0.0 - 3), $0.1 - 3) }
        }
        headerBytes = header.bytes
        columns = header.bounds.indices.map { header.field($0) }
    }

    deinit { fclose(file) }

    func column(_ name: String) throws -> Int {
        guard let index = columns.firstIndex(of: name) else { throw ValidationError("\(path) has no \(name) column") }
        return index
    }

    /// The next record without its line break; blank lines are skipped.
    func next() throws -> Record? {
        while true {
            var bytes: [UInt8] = []
            var bounds: [(Int, Int)] = []
            var fieldStart = 0, quoted = false, any = false
            while true {
                if position == filled {
                    if atEnd { break }
                    filled = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                    position = 0
                    if filled == 0 {
                        atEnd = true
                        break
                    }
                }
                let byte = buffer[position]
                position += 1
                any = true
                if byte == 0x22 {
                    quoted.toggle()
                } else if !quoted && byte == 0x0A {
                    break
                } else if !quoted && byte == 0x2C {
                    bounds.append((fieldStart, bytes.count))
                    fieldStart = bytes.count + 1
                }
                bytes.append(byte)
            }
            guard any else { return nil }
            line += 1
            if bytes.last == 0x0D { bytes.removeLast() }
            if bytes.isEmpty { continue }
            bounds.append((fieldStart, bytes.count))
            return Record(bytes: bytes, bounds: bounds)
        }
    }

    /// A small file whole: its records, decoded and raw.
    static func readAll(
        _ path: String
    ) throws -> (
        columns: [String], headerBytes: [UInt8], rows: [[String]], rawRows: [[UInt8]], column: (String) throws -> Int
    ) {
        let reader = try CSVRecords(path: path)
        var rows: [[String]] = [], raw: [[UInt8]] = []
        while let record = try reader.next() {
            rows.append(reader.columns.indices.map { record.field($0) })
            raw.append(record.bytes)
        }
        return (reader.columns, reader.headerBytes, rows, raw, reader.column)
    }
}

/// Buffered output of one split file; counts its data rows.
final class CSVWriter {
    private let file: UnsafeMutablePointer<FILE>
    private(set) var rows = 0

    init(path: String, header: [UInt8]) throws {
        guard let file = fopen(path, "wb") else { throw ValidationError("cannot write \(path)") }
        self.file = file
        write(header)
        rows = 0
    }

    func write(_ record: [UInt8]) {
        record.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fputc(0x0A, file)
        rows += 1
    }

    func close() { fclose(file) }
}
