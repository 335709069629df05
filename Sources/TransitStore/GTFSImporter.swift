import Crypto
import Foundation
import GRDB
import Logging
import SystemSupport
import TransitModel

/// What an import did, for the summary the command prints and for tests.
public struct ImportSummary: Sendable {
    public var feedName: String
    public var databasePath: String
    /// Rows per table, in `Schema.countedTables` order.
    public var counts: [(table: String, rows: Int)]
    public var serviceStart: ServiceDate?
    public var serviceEnd: ServiceDate?
    public var timeZone: String
    public var feedHash: String
    public var warnings: ImportWarnings
    /// What `--lenient` repaired or dropped (empty in a strict import), each with where it was.
    public var repairs: ImportWarnings
    /// Feed files present but not imported (shapes, fares, …), by name.
    public var skippedFiles: [String]
    /// Stop times whose missing times were interpolated between timepoints.
    public var interpolatedStopTimes: Int
    public var seconds: Double
    /// Each feed imported, in order (one for a database of one feed).
    public var feeds: [ImportedFeed] = []
    /// Places where stops of several feeds were grouped as one interchange.
    public var interchanges = 0
    /// Trips two feeds both published, and which was kept.
    public var duplicateTrips: [DuplicateTrips.Dropped] = []

    public func count(_ table: String) -> Int { counts.first { $0.table == table }?.rows ?? 0 }
}

/// Imports a GTFS feed (zip or directory) into a fresh route database, atomically.
///
/// The database is built in a temporary file beside the target, checked (all that `PRAGMA integrity_check` checks,
/// and the row counts: `ImportIntegrityCheck`), and only then renamed over the target. If anything fails — a bad
/// row, a full disk, the process killed — the previous database is untouched and still opens. Files are streamed,
/// so memory stays bounded by the number of stops and trips (kept in ID maps), never by the number of stop times.
public struct GTFSImporter {
    /// The feeds, imported one after the other into one database; with several, each feed's GTFS ids are
    /// stored as `FEEDID:ID` (see `FeedInput`).
    public var feeds: [FeedInput]
    public var databasePath: String
    public var logger: Logger
    /// Repair what can be repaired without guessing (see `ImportSession`), saying what was done; the default
    /// (strict) refuses the feed instead.
    public var lenient: Bool
    /// A transfers.txt of rules between the feeds' stops, routes and trips, named `FEEDID:ID` (several feeds
    /// only: one feed's rules belong in its own transfers.txt).
    public var regionTransfers: String?
    /// An interchanges.txt of places several feeds serve under different names or further apart than the
    /// grouping rule allows (`Interchanges`): rows of `from_stop_id,to_stop_id`, each a station or a stop
    /// without a station, named `FEEDID:ID` (several feeds only).
    public var regionInterchanges: String?
    public var limits: FeedLimits
    /// Called as the import goes: the file being read (rows so far, bytes of all imported files read so far
    /// and in all), then the finishing stages. Throttling and display are the caller's (`ProgressLine`).
    public var progress: (@Sendable (ProgressUpdate) -> Void)?
    /// Called with the finished, checked staging database just before it is renamed over the target: what is
    /// derived from the database and must be in place when it is (the planning timetable image) is written
    /// here. An error fails the import, and the previous database stays.
    public var beforeCommit: ((_ stagingPath: String) throws -> Void)?

    public init(
        feedPath: String, databasePath: String, lenient: Bool = false, limits: FeedLimits = FeedLimits(),
        logger: Logger = Logger(label: "stopkiosk.import")
    ) {
        self.init(
            feeds: [FeedInput(id: FeedInput.defaultID(for: feedPath), path: feedPath)], databasePath: databasePath,
            lenient: lenient, limits: limits, logger: logger)
    }

    public init(
        feeds: [FeedInput], databasePath: String, lenient: Bool = false, limits: FeedLimits = FeedLimits(),
        logger: Logger = Logger(label: "stopkiosk.import")
    ) {
        self.feeds = feeds
        self.databasePath = databasePath
        self.lenient = lenient
        self.limits = limits
        self.logger = logger
    }

    /// The files the importer reads; any other file in the feed is reported as skipped.
    static let importedFiles: Set<String> = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
        "calendar_dates.txt", "frequencies.txt", "transfers.txt", "feed_info.txt", "shapes.txt",
        "translations.txt",
    ]

    /// A region's file between the feeds (`--transfers`, `--interchanges`): it needs several feeds (`alone` says
    /// why, in `explain`'s words) and must be there, checked before anything is read.
    private func checkRegionFile(
        _ path: String?, _ explain: (String, ImportError) -> ImportError, alone: String
    ) throws {
        guard let path else { return }
        guard feeds.count > 1 else { throw explain(path, .inconsistentFeed(alone)) }
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileCheck.openError(path: path, errno: errno) }
    }

    public func run() throws -> ImportSummary {
        let started = DispatchTime.now()
        try FeedInput.validate(feeds)
        try checkRegionFile(
            regionTransfers, ImportError.inTransfersFile,
            alone: "transfers between feeds need several feeds; one feed's transfers belong in its transfers.txt")
        try checkRegionFile(
            regionInterchanges, ImportError.inInterchangesFile,
            alone: "interchanges join the stops of several feeds; one feed's stations are its parent_station")
        let sources = try feeds.map { feed in
            do {
                return (input: feed, source: try openFeedSource(path: feed.path, limits: limits))
            } catch let error as ImportError where feeds.count > 1 {
                throw ImportError.inFeed(id: feed.id, source: feed.path, cause: error)
            }
        }
        let target = URL(fileURLWithPath: databasePath)
        let staging = try StagingFile(target: target)
        defer { staging.discardIfPresent() }

        var summary: ImportSummary
        do {
            var session = try ImportSession(
                source: sources[0].source, stagingPath: staging.path, logger: logger, lenient: lenient,
                maximumRecordBytes: limits.maximumRecordBytes)
            session.progress = progress
            try session.importAll(sources, regionTransfers: regionTransfers, regionInterchanges: regionInterchanges)
            summary = try session.finish()
        } catch let error as DatabaseError {
            throw staging.explain(error)
        }
        if let beforeCommit {
            let derived = DispatchTime.now().uptimeNanoseconds
            try beforeCommit(staging.path)
            logger.debug("before commit: \(ImportSession.elapsed(since: derived))")
        }
        let committing = DispatchTime.now().uptimeNanoseconds
        try staging.commit()
        logger.debug("fsync and rename: \(ImportSession.elapsed(since: committing))")

        summary.databasePath = databasePath
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return summary
    }
}

/// The temporary database file an import writes, beside its target so the final rename stays on one file
/// system (and so is atomic). It is registered with `TemporaryFiles`, so the `kiosk` executable's signal
/// handling removes it; a file left by an import that was killed outright is removed by the next import.
struct StagingFile {
    let target: URL
    let path: String

    init(target: URL) throws {
        self.target = target
        let directory = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ImportError.database(path: target.path, reason: "the folder \(directory.path) does not exist")
        }
        guard access(directory.path, W_OK) == 0 else {
            throw ImportError.database(path: target.path, reason: "the folder \(directory.path) is not writable")
        }
        TemporaryFiles.removeAbandoned(besides: target.path, purpose: "import")
        path = TemporaryFiles.path(besides: target.path, purpose: "import")
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFiles.register(path)
    }

    /// Flushes the staging file to disk and renames it over the target in one step (keeping the old file's
    /// owner and mode).
    func commit() throws {
        do {
            try AtomicFile.replace(target.path, with: path)
        } catch {
            throw ImportError.database(path: target.path, reason: error.description)
        }
    }

    func discardIfPresent() {
        unlink(path)
        TemporaryFiles.unregister(path)
    }

    /// A write to the staging database failed: say why in a person's words. SQLite reports a full disk as
    /// SQLITE_FULL, and the file-size limit (`ulimit -f`, EFBIG) only as a write I/O error, recognised here by
    /// the staging file having reached the limit.
    func explain(_ error: DatabaseError) -> ImportError {
        var problem: FileError.Problem?
        if error.resultCode == .SQLITE_FULL {
            problem = .diskFull
        } else if error.resultCode == .SQLITE_IOERR {
            var limit = rlimit()
            var status = stat()
            if getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
                stat(path, &status) == 0,
                UInt64(status.st_size) + 65_536 >= UInt64(limit.rlim_cur)
            {
                problem = .fileSizeLimit
            }
        }
        if let problem { return .writeFailed(FileError(path: target.path, operation: .writing, problem: problem)) }
        return .database(path: target.path, reason: error.message ?? "\(error.resultCode)")
    }
}

/// What reading the files gathers besides rows: the feed hash and text problems. A class, so that the row
/// loops (closures that mutate the session) can share it.
final class ReadTally {
    /// SHA-256 over each imported table's name and bytes, in import order: files the importer does not use
    /// are never opened, so they are not part of the hash either.
    var hasher = SHA256()
    var warnings = ImportWarnings()
    /// What `--lenient` dropped while reading (a last record cut short), listed with the session's repairs.
    var repairs = ImportWarnings(exampleLimit: 50)
    /// Bytes of imported files read so far, and the total the feed declares (for progress).
    var bytesRead: Int64 = 0
    var bytesTotal: Int64 = 0
}

/// The state of one import: ID maps from GTFS identifiers to dense keys, warnings and counts.
///
/// Strict (the default) refuses a feed with a dangling reference, agencies in different time zones or a
/// broken row. Lenient repairs only what has one clear repair, and lists every repair:
/// - a stop_times, frequencies or transfers row naming a stop or trip that does not exist is dropped;
/// - agencies whose agency_timezone disagree get the zone of the agencies that run the trips (refused when
///   those disagree among themselves);
/// - an agency row that is broken (no name, no valid time zone) and used by no route is dropped.
struct ImportSession {
    /// The feed being read (one after the other in a database of several feeds).
    var source: FeedSource
    /// Written before every GTFS id this feed stores ("metro:") when the database holds several feeds; empty
    /// for one feed, whose ids stay as the feed has them. The ID maps below hold the feed's own ids.
    var namespace = ""
    let stagingPath: String
    let logger: Logger
    let queue: DatabaseQueue
    let lenient: Bool
    let maximumRecordBytes: Int
    let reading = ReadTally()

    var warnings = ImportWarnings()
    var repairs = ImportWarnings(exampleLimit: 50)
    /// Valid agencies: key, agency_id, zone, line.
    var agencyZones: [(key: Int, id: String, zone: String, line: Int)] = []
    /// Agency rows a lenient import set aside, by key: dropped unless a route uses them.
    var brokenAgencies: [Int: (line: Int, id: String, error: ImportError)] = [:]
    var routeAgency: [Int] = [0]  // route key → agency key
    var agenciesWithTrips: Set<Int> = []
    var agencyKeys: [String: Int] = [:]
    /// The last key given, for each keyed table (keys run on across feeds; ID maps start again per feed).
    var agencyCount = 0, serviceCount = 0, tripCount = 0, shapeCount = 0
    /// The first agency key of the feed being read: a route without agency_id runs for the feed's only agency.
    var feedFirstAgency = 1
    var timeZone = ""
    var stopKeys: [String: Int] = [:]
    var stopLines: [Int] = [0]  // stop_idx → line in stops.txt, for duplicate messages (1-based keys)
    var stopHasCoordinates: [Bool] = [false]
    var routeKeys: [String: Int] = [:]
    var serviceKeys: [String: Int] = [:]
    var servicesWithCalendar: Set<Int> = []
    var tripKeys: [String: Int] = [:]
    /// The shape_ids trips name: shapes.txt keeps only these.
    var tripShapeIDs: Set<String> = []
    var interpolated = 0
    /// Set when a stop time without any time was stored: only then is there anything to interpolate.
    var storedUntimedStopTimes = false
    var stopSummary = StopServiceSummary()
    var progress: (@Sendable (ProgressUpdate) -> Void)?
    /// The feeds read so far, and the keys each was given.
    var importedFeeds: [ImportedFeed] = []
    var feedKeys: [FeedKeys] = []
    /// Files present but not imported ("metro/fare_rules.txt" with several feeds).
    var skippedFiles: [String] = []
    /// The feeds' prefixes ("metro:") while a region's file is read, whose bare ids may name several feeds.
    var regionPrefixes: [String] = []
    /// The SHA-256 of the region's transfers file, when there is one (part of the database's feed hash).
    var regionTransfersHash: String?
    /// The SHA-256 of the region's interchanges file, when there is one (part of the database's feed hash).
    var regionInterchangesHash: String?
    /// The places the interchanges file declares one, with its lines.
    var declaredInterchanges: [Interchanges.Declared] = []
    /// Places where stops of several feeds were grouped as one (`Interchanges`).
    var interchanges = 0
    var duplicateTrips: [DuplicateTrips.Dropped] = []

    init(
        source: FeedSource, stagingPath: String, logger: Logger, lenient: Bool = false,
        maximumRecordBytes: Int = CSVStreamParser.defaultMaximumRecordBytes
    ) throws {
        self.source = source
        self.stagingPath = stagingPath
        self.logger = logger
        self.lenient = lenient
        self.maximumRecordBytes = maximumRecordBytes
        var configuration = Configuration()
        configuration.label = "import"
        configuration.prepareDatabase { db in
            // A staging file that is discarded on any failure needs no journal and no fsync per commit.
            try db.execute(
                sql:
                    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -32768"
            )
        }
        do {
            queue = try DatabaseQueue(path: stagingPath, configuration: configuration)
            try Schema.migrator().migrate(queue)
        } catch let error as DatabaseError {
            // The importer explains it (`StagingFile.explain`): the empty schema alone is over 128 KB, so a small
            // file-size limit is already reached here, and is said by name.
            throw error
        } catch {
            throw ImportError.database(path: stagingPath, reason: "\(error)")
        }
    }

    /// Imports the feeds one after the other into one database, in one transaction; with several, every GTFS id
    /// is stored in its feed's namespace (`namespace`). A feed refused stops the whole import, named in the error.
    mutating func importAll(
        _ feeds: [(input: FeedInput, source: FeedSource)], regionTransfers: String? = nil,
        regionInterchanges: String? = nil
    ) throws {
        for (_, source) in feeds {
            for required in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]
            where !source.contains(required) {
                throw ImportError.missingFile(file: required, feed: source.displayName)
            }
            guard source.contains("calendar.txt") || source.contains("calendar_dates.txt") else {
                throw ImportError.missingFile(file: "calendar.txt or calendar_dates.txt", feed: source.displayName)
            }
            reading.bytesTotal += GTFSImporter.importedFiles.reduce(0) { $0 + (source.expectedSize($1) ?? 0) }
        }
        var committing: UInt64 = 0
        defer { if committing > 0 { logger.debug("commit: \(ImportSession.elapsed(since: committing))") } }
        try queue.inTransaction { db in
            for (input, source) in feeds {
                try inFeed(input, of: feeds.count) { session in
                    session.source = source
                    try session.importFeed(input, db)
                }
            }
            if feeds.count > 1 { try checkZones() }
            if let regionTransfers { try importRegionTransfers(regionTransfers, db) }
            if let regionInterchanges { try importRegionInterchanges(regionInterchanges, db) }
            do {
                interchanges = try Interchanges.build(
                    db, stopKeys: feedKeys.map(\.stops), declared: declaredInterchanges)
            } catch let error as ImportError where regionInterchanges != nil {
                throw ImportError.inInterchangesFile(path: regionInterchanges!, cause: error)
            }
            duplicateTrips = try DuplicateTrips.remove(db, tripKeys: feedKeys.map(\.trips))
            var started = DispatchTime.now().uptimeNanoseconds
            report("interpolation and stop summaries")
            try interpolateMissingTimes(db)
            if stopSummary.needsRebuild || !duplicateTrips.isEmpty { try stopSummary.rebuild(from: db) }
            logger.debug("interpolation: \(ImportSession.elapsed(since: started))")
            started = DispatchTime.now().uptimeNanoseconds
            try stopSummary.write(to: db)
            try Schema.fillLastStops(db)
            try StopNameIndex.build(db)
            logger.debug("stop summaries: \(ImportSession.elapsed(since: started))")
            committing = DispatchTime.now().uptimeNanoseconds
            return .commit
        }
    }

    /// Reads one feed's files (`source`), its ids in its own namespace.
    mutating func importFeed(_ input: FeedInput, _ db: Database) throws {
        agencyKeys = [:]
        stopKeys = [:]
        routeKeys = [:]
        serviceKeys = [:]
        tripKeys = [:]
        tripShapeIDs = []
        agencyZones = []
        brokenAgencies = [:]
        servicesWithCalendar = []
        timeZone = ""
        feedFirstAgency = agencyCount + 1
        reading.hasher = SHA256()
        var feed = ImportedFeed(id: input.id, source: source.displayName)
        let first = (agency: agencyCount + 1, stop: stopLines.count, route: routeAgency.count, trip: tripCount + 1)
        let firstService = serviceCount + 1

        try importAgencies(db)
        try importStops(db)
        try importRoutes(db)
        if source.contains("calendar.txt") { try importCalendar(db) }
        if source.contains("calendar_dates.txt") { try importCalendarDates(db) }
        try importTrips(db)
        try settleAgencies(db)
        if source.contains("shapes.txt") { try importShapes(db) }
        try checkTripShapes(db, fromTrip: first.trip)
        if source.contains("frequencies.txt") { try importFrequencies(db) }  // before stop times: they mark template trips
        try importStopTimes(db)
        if source.contains("transfers.txt") { try importTransfers(db) }
        if source.contains("feed_info.txt") { try importFeedInfo(db) }
        if source.contains("translations.txt") { try importTranslations(db) }
        let skipped = GTFSImporter.skippedFiles(in: source)
        skippedFiles += namespace.isEmpty ? skipped : skipped.map { "\(input.id)/\($0)" }

        feed.feedHash = reading.hasher.finalize().map { String(format: "%02x", $0) }.joined()
        feed.timeZone = timeZone
        feed.agencies = agencyCount - first.agency + 1
        feed.stops = stopLines.count - first.stop
        feed.routes = routeAgency.count - first.route
        feed.trips = tripCount - first.trip + 1
        feed.stopTimes =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM stop_times WHERE trip_idx BETWEEN ? AND ?",
                arguments: [first.trip, tripCount]) ?? 0
        let range = try Row.fetchOne(
            db,
            sql: """
                SELECT MIN(d), MAX(d) FROM (SELECT start_date AS d FROM calendar WHERE service_idx BETWEEN ?1 AND ?2
                UNION ALL SELECT end_date FROM calendar WHERE service_idx BETWEEN ?1 AND ?2
                UNION ALL SELECT date FROM calendar_dates WHERE exception_type = 1 AND service_idx BETWEEN ?1 AND ?2)
                """, arguments: [firstService, serviceCount])
        feed.serviceStart = (range?[0] as Int?).flatMap(ServiceDate.init(yyyymmdd:))
        feed.serviceEnd = (range?[1] as Int?).flatMap(ServiceDate.init(yyyymmdd:))
        feedKeys.append(
            FeedKeys(
                agencies: first.agency...max(first.agency, agencyCount),
                stops: first.stop...max(first.stop, stopLines.count - 1),
                routes: first.route...max(first.route, routeAgency.count - 1),
                trips: first.trip...max(first.trip, tripCount)))
        importedFeeds.append(feed)
    }

    /// Runs `body` for one of `count` feeds. With several feeds, its ids go in its namespace, its warnings and
    /// repairs are listed under its id ("metro: stops.txt:12 …") and an error names it.
    mutating func inFeed(_ input: FeedInput, of count: Int, _ body: (inout ImportSession) throws -> Void) throws {
        guard count > 1 else { return try body(&self) }
        namespace = input.id + ":"
        let total = try listingApart(as: "\(input.id): ", body) { error, session in
            ImportError.inFeed(id: input.id, source: session.source.displayName, cause: error)
        }
        importedFeeds[importedFeeds.count - 1].warnings = total
    }

    /// Runs `body` with its warnings and repairs listed under `label`, and its errors told by `explain`; returns
    /// how many warnings it added.
    private mutating func listingApart(
        as label: String, _ body: (inout ImportSession) throws -> Void,
        explain: (ImportError, ImportSession) -> ImportError
    ) throws -> Int {
        let kept = (warnings, repairs, reading.warnings, reading.repairs)
        warnings = ImportWarnings()
        repairs = ImportWarnings(exampleLimit: kept.1.exampleLimit)
        reading.warnings = ImportWarnings()
        reading.repairs = ImportWarnings(exampleLimit: kept.3.exampleLimit)
        do {
            try body(&self)
        } catch let error as ImportError {
            switch error {
            case .writeFailed, .database: throw error  // the disk's or the database's failure, not the feed's
            default: throw explain(error, self)
            }
        }
        var ownWarnings = reading.warnings
        ownWarnings.absorb(warnings)
        var ownRepairs = repairs
        ownRepairs.absorb(reading.repairs)
        (warnings, repairs, reading.warnings, reading.repairs) = kept
        warnings.absorb(ownWarnings, prefixingExamplesWith: label)
        repairs.absorb(ownRepairs, prefixingExamplesWith: label)
        return ownWarnings.total
    }

    /// The region's transfers between feeds (`--transfers FILE`): transfers.txt rows whose ids name their feed
    /// (`FEEDID:ID`, or a bare id exactly one feed has). A feed's own transfers.txt covers its own stops only.
    mutating func importRegionTransfers(_ path: String, _ db: Database) throws {
        source = SingleTableSource(path: path, table: "transfers.txt")
        namespace = ""
        let prefixes = importedFeeds.map { $0.id + ":" }
        regionPrefixes = prefixes
        defer { regionPrefixes = [] }
        stopKeys = try Self.regionIDs(db, "SELECT stop_id, stop_idx FROM stops", prefixes)
        routeKeys = try Self.regionIDs(db, "SELECT route_id, route_idx FROM routes", prefixes)
        tripKeys = try Self.regionIDs(db, "SELECT trip_id, trip_idx FROM trips", prefixes)
        reading.hasher = SHA256()
        _ = try listingApart(as: "\(path): ", { try $0.importTransfers(db) }) { error, _ in
            ImportError.inTransfersFile(path: path, cause: error)
        }
        regionTransfersHash = reading.hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The region's interchanges file: each row two places of different feeds that are one (a station, or a stop
    /// without one); errors name the file and line.
    mutating func importRegionInterchanges(_ path: String, _ db: Database) throws {
        source = SingleTableSource(path: path, table: "interchanges.txt")
        namespace = ""
        regionPrefixes = importedFeeds.map { $0.id + ":" }
        defer { regionPrefixes = [] }
        stopKeys = try Self.regionIDs(db, "SELECT stop_id, stop_idx FROM stops", regionPrefixes)
        reading.hasher = SHA256()
        _ = try listingApart(as: "\(path): ", { try $0.readInterchanges(db) }) { error, _ in
            ImportError.inInterchangesFile(path: path, cause: error)
        }
        regionInterchangesHash = reading.hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private mutating func readInterchanges(_ db: Database) throws {
        var c = (from: -1, to: -1)
        let file = "interchanges.txt"
        let place = try db.makeStatement(sql: "SELECT location_type, parent_idx FROM stops WHERE stop_idx = ?")
        var declared: [Interchanges.Declared] = []
        try forEachRow(file, { h in c = (try h.required("from_stop_id"), try h.required("to_stop_id")) }) { row in
            func key(_ column: Int) throws -> Int {
                guard let id = row.string(column) else { throw row.invalid(column, "a stop id") }
                guard let key = stopKeys[id] else {
                    if let ambiguity = ambiguity(row, column, id, stopKeys, "stops.txt") { throw ambiguity }
                    throw ImportError.unknownReference(
                        file: file, line: row.line, column: row.header.columnName(column), value: id,
                        target: "the feeds' stops.txt (give it as FEEDID:ID)")
                }
                let found = try Row.fetchOne(place, arguments: [key])
                let type: Int = found?[0] ?? 0
                guard type == 1 || (type == 0 && (found?[1] as Int?) == nil) else {
                    throw row.invalid(column, "a station or a stop without a station (name a platform's station)")
                }
                return key
            }
            declared.append(Interchanges.Declared(a: try key(c.from), b: try key(c.to), line: row.line))
        }
        declaredInterchanges = declared
    }

    /// Every id of a table of the database (`FEEDID:ID`), and the bare ids that one feed alone has.
    static func regionIDs(_ db: Database, _ sql: String, _ prefixes: [String]) throws -> [String: Int] {
        var keys: [String: Int] = [:]
        var bare: [String: Int?] = [:]  // nil: several feeds have it
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            let id: String = row[0], key: Int = row[1]
            keys[id] = key
            if let prefix = prefixes.first(where: { id.hasPrefix($0) }) {
                let short = String(id.dropFirst(prefix.count))
                bare[short] = bare[short] == nil ? key : .some(nil)
            }
        }
        for (id, key) in bare where keys[id] == nil {
            if let key { keys[id] = key }
        }
        return keys
    }

    /// A bare id of a region's file that several feeds' `target` have (`map` holds them as `FEEDID:ID`): the
    /// error naming them, as a lookup does; nil when it is not ambiguous.
    func ambiguity(_ row: GTFSRow, _ column: Int, _ id: String, _ map: [String: Int], _ target: String) -> ImportError? {
        let candidates = regionPrefixes.map { $0 + id }.filter { map[$0] != nil }
        guard candidates.count > 1 else { return nil }
        return .ambiguousReference(
            file: row.header.file, line: row.line, column: row.header.columnName(column), value: id, target: target,
            candidates: candidates)
    }

    /// `id` as the database stores it: in the feed's namespace when there are several feeds.
    @inline(__always) func namespaced(_ id: String) -> String { namespace.isEmpty ? id : namespace + id }

    /// A database holds one time zone: every feed's must keep the first feed's clock over the service period.
    func checkZones() throws {
        guard let first = importedFeeds.first, let zone = TimeZone(identifier: first.timeZone) else { return }
        let starts = importedFeeds.compactMap(\.serviceStart), ends = importedFeeds.compactMap(\.serviceEnd)
        guard let start = starts.min(), let end = ends.max() else { return }
        for feed in importedFeeds.dropFirst() where feed.timeZone != first.timeZone {
            guard let other = TimeZone(identifier: feed.timeZone) else { continue }
            if let moment = ZoneAgreement.firstDisagreement(
                zone, other, from: start.serviceDayOrigin(in: zone), to: end.adding(days: 2).serviceDayOrigin(in: zone))
            {
                let day = ServiceDate.containing(moment, in: zone)
                throw ImportError.inFeed(
                    id: feed.id, source: feed.source,
                    cause: .inconsistentFeed(
                        "its time zone \(feed.timeZone) keeps a different clock from \(first.timeZone), the zone of feed '\(first.id)' (they differ on \(day)): a route database holds the feeds of one time zone; import feeds of other zones into a database of their own"
                    ))
            }
        }
    }

    /// Lenient only (a strict import has refused before): drops the broken agencies no route uses, and gives
    /// every agency the time zone of the agencies that run trips.
    mutating func settleAgencies(_ db: Database) throws {
        for broken in brokenAgencies.values.sorted(by: { $0.line < $1.line }) {
            repairs.add(
                "agency.txt: dropped a broken agency row that no route uses",
                at: "agency.txt:\(broken.line) '\(broken.id)' (\(broken.error))")
        }
        guard Set(agencyZones.map(\.zone)).count > 1 else { return }
        let running = agencyZones.filter { agenciesWithTrips.contains($0.key) }
        let runningZones = Set(running.map(\.zone))
        guard runningZones.count <= 1 else {
            let list = running.map { "'\($0.id)' \($0.zone) (line \($0.line))" }.joined(separator: ", ")
            throw ImportError.inconsistentFeed(
                "agency.txt: the agencies that run trips are in different time zones (\(list)): there is no single zone to repair them to"
            )
        }
        let zone = running.first?.zone ?? agencyZones[0].zone
        timeZone = zone
        let update = try db.makeStatement(sql: "UPDATE agency SET agency_timezone = ? WHERE agency_idx = ?")
        for agency in agencyZones where agency.zone != zone {
            try update.execute(arguments: [zone, agency.key])
            repairs.add(
                "agency.txt: agency_timezone replaced by the zone of the agencies that run trips",
                at: "agency.txt:\(agency.line) '\(agency.id)' \(agency.zone) → \(zone)")
        }
    }

    // MARK: - Reading files

    /// Streams one file, calling `body` for each data row with the file's header; returns the number of rows.
    /// A NUL byte anywhere is refused (with the column); bytes that are not UTF-8 are replaced by U+FFFD and
    /// counted as a warning naming the file and line.
    /// The file is inflated, hashed and split into records on a second thread (`RecordPipeline`), a few chunks
    /// ahead of `body`, which runs on this one.
    /// `again`: a second reading of a file already read (the feed's hash, the bytes read and the UTF-8 warnings
    /// counted it the first time).
    @discardableResult
    func forEachRow(
        _ file: String, again: Bool = false, _ prepare: (TableHeader) throws -> Void,
        _ body: (GTFSRow) throws -> Void
    ) throws -> Int {
        let started = DispatchTime.now().uptimeNanoseconds
        var rows = 0
        defer { logger.debug("\(file): \(rows) rows in \(ImportSession.elapsed(since: started))") }
        var header: TableHeader?
        let tally = reading
        if !again { tally.hasher.update(data: Array("\(file)\n".utf8)) }
        let progress = again ? nil : self.progress
        /// The file's last record is shorter than the header and no line break follows it: what a file cut
        /// short looks like (a download or copy that stopped), though a writer that omits trailing empty
        /// fields and the final newline makes the same. Lenient drops it (only this record: a short record
        /// anywhere else is read as usual) and lists it; strict reads it, and if it is refused says the file
        /// looks truncated; if it imports, a warning says to check.
        func readShortLastRecord(_ record: CSVRecord, _ header: TableHeader) throws {
            let location = "\(file):\(record.line) (\(record.count) of \(header.names.count) fields)"
            if lenient {
                if !again {
                    tally.repairs.add(
                        "\(file): dropped the last record: shorter than the header and no final newline (the file looks cut short)",
                        at: location)
                }
                return
            }
            do {
                rows += 1
                try body(GTFSRow(record: record, header: header))
            } catch let error as ImportError {
                throw ImportError.truncatedRecord(
                    file: file, line: record.line, fields: record.count, columns: header.names.count, cause: error)
            }
            if !again {
                tally.warnings.add(
                    "\(file): the last record is shorter than the header and has no final newline (imported; check that the file was not cut short)",
                    at: location)
            }
        }
        func handle(_ record: CSVRecord) throws {
            if record.repairedInvalidUTF8 && !again {
                tally.warnings.add(
                    "\(file): bytes that are not UTF-8 (replaced by U+FFFD; save the file as UTF-8)",
                    at: "\(file):\(record.line)")
            }
            if let nul = record.firstFieldWithNUL {
                throw ImportError.invalidValue(
                    file: file, line: record.line, column: header?.columnName(nul) ?? "header",
                    value: record.string(nul),
                    expected: "text without NUL bytes (a NUL byte: is the file UTF-16 or binary?)")
            }
            if let header {
                if record.endsWithoutNewline && record.count < header.names.count {
                    return try readShortLastRecord(record, header)
                }
                rows += 1
                try body(GTFSRow(record: record, header: header))
            } else {
                let h = TableHeader(file: file, record: record)
                try prepare(h)
                header = h
            }
        }
        do {
            let bytesBefore = tally.bytesRead
            let hasher = try RecordPipeline.read(
                file, from: source, maximumRecordBytes: maximumRecordBytes, hashing: again ? nil : tally.hasher,
                progress: { fileBytes in
                    if !again { tally.bytesRead = bytesBefore + fileBytes }
                    progress?(
                        ProgressUpdate(
                            stage: file, done: rows, unit: "rows", workDone: tally.bytesRead,
                            workTotal: tally.bytesTotal))
                }, handle)
            if let hasher { tally.hasher = hasher }
        } catch let error as CSVError {
            switch error {
            case let .recordTooLong(line, limit): throw ImportError.recordTooLong(file: file, line: line, limit: limit)
            case let .unterminatedQuote(line): throw ImportError.unterminatedQuote(file: file, line: line)
            }
        }
        if header == nil { throw ImportError.inconsistentFeed("\(file) is empty: it has no header line") }
        return rows
    }

    /// A finishing stage (after every file is read).
    func report(_ stage: String) {
        progress?(
            ProgressUpdate(
                stage: stage, done: 0, unit: "steps", workDone: reading.bytesRead, workTotal: reading.bytesTotal))
    }

    static func elapsed(since start: UInt64) -> String {
        String(format: "%.3f s", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    // MARK: - Tables

    mutating func importAgencies(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO agency VALUES (?, ?, ?, ?, ?, ?, ?)")
        var c = (id: -1, name: -1, url: -1, tz: -1, lang: -1, phone: -1)
        var rows: [(line: Int, hasID: Bool)] = []
        try forEachRow(
            "agency.txt",
            { h in
                c = (
                    h.optional("agency_id"), try h.required("agency_name"), try h.required("agency_url"),
                    try h.required("agency_timezone"), h.optional("agency_lang"), h.optional("agency_phone")
                )
            }
        ) { row in
            let id = row.string(c.id) ?? ""
            if let first = agencyKeys[id] {
                throw ImportError.duplicateKey(
                    file: "agency.txt", line: row.line, key: "agency_id", value: id, firstLine: rows[first - 1].line)
            }
            agencyCount += 1
            let key = agencyCount
            agencyKeys[id] = key
            rows.append((row.line, !id.isEmpty))
            let name: String, tz: String
            do {
                name = try row.requiredString(c.name)
                tz = try row.requiredString(c.tz)
                guard TimeZone(identifier: tz) != nil else {
                    throw row.invalid(c.tz, "a time zone name such as America/Guayaquil")
                }
            } catch let error as ImportError where lenient {
                brokenAgencies[key] = (row.line, id, error)  // dropped later if no route uses it
                return
            }
            if let first = agencyZones.first, tz != first.zone, !lenient {
                throw ImportError.invalidValue(
                    file: "agency.txt", line: row.line, column: "agency_timezone", value: tz,
                    expected:
                        "\(first.zone), the time zone of agency '\(first.id)' on line \(first.line) (GTFS requires one zone for all agencies; --lenient uses the zone of the agencies that run trips)"
                )
            }
            agencyZones.append((key, id, tz, row.line))
            if timeZone.isEmpty { timeZone = tz }
            insert.bind(1, key); insert.bind(2, namespaced(id)); insert.bind(3, name)
            insert.bind(4, bytes: row.bytes(c.url)); insert.bind(5, tz)
            insert.bind(6, bytes: row.bytes(c.lang)); insert.bind(7, bytes: row.bytes(c.phone))
            try insert.insert()
        }
        guard !agencyZones.isEmpty else {
            if let broken = brokenAgencies.values.min(by: { $0.line < $1.line }) { throw broken.error }
            throw ImportError.inconsistentFeed("agency.txt has no agencies")
        }
        if agencyKeys.count > 1, let missing = rows.first(where: { !$0.hasID }) {
            throw ImportError.invalidValue(
                file: "agency.txt", line: missing.line, column: "agency_id", value: "",
                expected: "empty: agency_id is required when a feed has several agencies")
        }
    }

    mutating func importStops(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO stops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)")
        var c = (
            id: -1, code: -1, name: -1, desc: -1, lat: -1, lon: -1, zone: -1, type: -1, parent: -1, wheelchair: -1,
            platform: -1
        )
        var parents: [(stop: Int, parentID: String, line: Int)] = []
        try forEachRow(
            "stops.txt",
            { h in
                c = (
                    try h.required("stop_id"), h.optional("stop_code"), h.optional("stop_name"),
                    h.optional("stop_desc"),
                    h.optional("stop_lat"), h.optional("stop_lon"), h.optional("zone_id"), h.optional("location_type"),
                    h.optional("parent_station"), h.optional("wheelchair_boarding"), h.optional("platform_code")
                )
            }
        ) { row in
            let id = try row.requiredString(c.id)
            if let first = stopKeys[id] {
                throw ImportError.duplicateKey(
                    file: "stops.txt", line: row.line, key: "stop_id", value: id, firstLine: stopLines[first])
            }
            let key = stopLines.count
            stopKeys[id] = key
            stopLines.append(row.line)
            let locationType = try row.enumValue(c.type, allowed: 0...4, warnings: &warnings) ?? 0
            let lat = try row.double(c.lat), lon = try row.double(c.lon)
            if let lat, !(-90...90).contains(lat) { throw row.invalid(c.lat, "a latitude between -90 and 90") }
            if let lon, !(-180...180).contains(lon) { throw row.invalid(c.lon, "a longitude between -180 and 180") }
            let hasCoordinates = lat != nil && lon != nil && !(lat == 0 && lon == 0)
            stopHasCoordinates.append(hasCoordinates)
            if !hasCoordinates && locationType <= 2 {
                warnings.add(
                    "stops.txt: stop without coordinates (left out of nearby stops and walks)",
                    at: "\(row.location) '\(id)'")
            }
            let name = row.string(c.name)
            if name == nil && locationType <= 2 {
                warnings.add("stops.txt: stop without a name", at: "\(row.location) '\(id)'")
            }
            if let parent = row.string(c.parent) { parents.append((key, parent, row.line)) }
            insert.bind(1, key); insert.bind(2, namespaced(id)); insert.bind(3, bytes: row.bytes(c.code))
            insert.bind(4, name); insert.bind(5, bytes: row.bytes(c.desc))
            insert.bind(6, hasCoordinates ? lat : nil); insert.bind(7, hasCoordinates ? lon : nil)
            insert.bind(8, bytes: row.bytes(c.zone)); insert.bind(9, locationType)
            insert.bind(10, bytes: row.bytes(c.platform))
            insert.bind(11, try row.enumValue(c.wheelchair, allowed: 0...2, warnings: &warnings) ?? 0)
            insert.bind(12, name.map(TextFolding.searchKey) ?? "")
            try insert.insert()
        }
        let setParent = try db.makeStatement(sql: "UPDATE stops SET parent_idx = ? WHERE stop_idx = ?")
        for (stop, parentID, line) in parents {
            guard let parent = stopKeys[parentID] else {
                throw ImportError.unknownReference(
                    file: "stops.txt", line: line, column: "parent_station", value: parentID, target: "stops.txt")
            }
            try setParent.execute(arguments: [parent, stop])
        }
    }

    mutating func importRoutes(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO routes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var c = (id: -1, agency: -1, short: -1, long: -1, desc: -1, type: -1, color: -1, textColor: -1, order: -1)
        var lines: [String: Int] = [:]
        try forEachRow(
            "routes.txt",
            { h in
                c = (
                    try h.required("route_id"), h.optional("agency_id"), h.optional("route_short_name"),
                    h.optional("route_long_name"),
                    h.optional("route_desc"), try h.required("route_type"), h.optional("route_color"),
                    h.optional("route_text_color"),
                    h.optional("route_sort_order")
                )
            }
        ) { row in
            let id = try row.requiredString(c.id)
            if routeKeys[id] != nil {
                throw ImportError.duplicateKey(
                    file: "routes.txt", line: row.line, key: "route_id", value: id, firstLine: lines[id])
            }
            let key = routeAgency.count
            routeKeys[id] = key
            lines[id] = row.line
            let agency: Int
            if let agencyID = row.string(c.agency) {
                guard let known = agencyKeys[agencyID] else {
                    throw ImportError.unknownReference(
                        file: "routes.txt", line: row.line, column: "agency_id", value: agencyID, target: "agency.txt")
                }
                agency = known
            } else {
                if agencyKeys.count > 1 {
                    warnings.add(
                        "routes.txt: route without agency_id in a feed with several agencies (the first agency is assumed)",
                        at: row.location)
                }
                agency = feedFirstAgency
            }
            if let broken = brokenAgencies[agency] { throw broken.error }  // a broken agency a route uses cannot be dropped
            routeAgency.append(agency)
            guard let type = try row.int(c.type) else { throw row.invalid(c.type, "a route type") }
            if !RouteMode.isKnownGTFSType(type) {
                warnings.add("routes.txt: unknown route_type (shown as 'other')", at: "\(row.location) '\(type)'")
            }
            if row.string(c.short) == nil && row.string(c.long) == nil {
                warnings.add("routes.txt: route with neither short nor long name", at: row.location)
            }
            insert.bind(1, key); insert.bind(2, namespaced(id)); insert.bind(3, agency)
            insert.bind(4, bytes: row.bytes(c.short)); insert.bind(5, bytes: row.bytes(c.long));
            insert.bind(6, bytes: row.bytes(c.desc))
            insert.bind(7, type)
            insert.bind(8, color(row, c.color)); insert.bind(9, color(row, c.textColor))
            insert.bind(10, try row.int(c.order))
            try insert.insert()
        }
    }

    /// Route colours are six hex digits; anything else is dropped with a warning (the screen picks a default).
    private mutating func color(_ row: GTFSRow, _ column: Int) -> String? {
        guard var value = row.string(column) else { return nil }
        if value.hasPrefix("#") { value.removeFirst() }
        guard value.utf8.count == 6,
            value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) })
        else {
            warnings.add("routes.txt: colour that is not six hex digits (ignored)", at: "\(row.location) '\(value)'")
            return nil
        }
        return value.uppercased()
    }

    private mutating func serviceKey(_ id: String, _ db: Database) throws -> Int {
        if let key = serviceKeys[id] { return key }
        serviceCount += 1
        let key = serviceCount
        serviceKeys[id] = key
        try db.execute(sql: "INSERT INTO services VALUES (?, ?)", arguments: [key, namespaced(id)])
        return key
    }

    mutating func importCalendar(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO calendar VALUES (?, ?, ?, ?)")
        var c = (id: -1, days: [Int](), start: -1, end: -1)
        let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var lines: [Int: Int] = [:]
        try forEachRow(
            "calendar.txt",
            { h in
                c = (
                    try h.required("service_id"), try dayNames.map { try h.required($0) }, try h.required("start_date"),
                    try h.required("end_date")
                )
            }
        ) { row in
            let key = try serviceKey(try row.requiredString(c.id), db)
            if servicesWithCalendar.contains(key) {
                throw ImportError.duplicateKey(
                    file: "calendar.txt", line: row.line, key: "service_id", value: row.string(c.id) ?? "",
                    firstLine: lines[key])
            }
            servicesWithCalendar.insert(key)
            lines[key] = row.line
            var mask = 0
            for (bit, column) in c.days.enumerated() {
                switch try row.int(column) {
                case 1: mask |= 1 << bit
                case 0: break
                default: throw row.invalid(column, "0 or 1")
                }
            }
            guard let start = try row.date(c.start) else { throw row.invalid(c.start, "a date YYYYMMDD") }
            guard let end = try row.date(c.end) else { throw row.invalid(c.end, "a date YYYYMMDD") }
            if end < start { throw row.invalid(c.end, "a date on or after start_date \(start.yyyymmdd)") }
            insert.bind(1, key); insert.bind(2, mask); insert.bind(3, start.yyyymmdd); insert.bind(4, end.yyyymmdd)
            try insert.insert()
        }
    }

    mutating func importCalendarDates(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO calendar_dates VALUES (?, ?, ?)")
        var c = (id: -1, date: -1, type: -1)
        try forEachRow(
            "calendar_dates.txt",
            { h in
                c = (try h.required("service_id"), try h.required("date"), try h.required("exception_type"))
            }
        ) { row in
            let id = try row.requiredString(c.id)
            let key = try serviceKey(id, db)
            guard let date = try row.date(c.date) else { throw row.invalid(c.date, "a date YYYYMMDD") }
            guard let type = try row.int(c.type), type == 1 || type == 2 else {
                throw row.invalid(c.type, "1 (added) or 2 (removed)")
            }
            insert.bind(1, key); insert.bind(2, date.yyyymmdd); insert.bind(3, type)
            guard try insert.run() else {
                throw ImportError.duplicateKey(
                    file: "calendar_dates.txt", line: row.line, key: "service_id and date",
                    value: "\(id) \(date.yyyymmdd)", firstLine: nil)
            }
        }
    }

    mutating func importTrips(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO trips VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        var c = (
            route: -1, service: -1, id: -1, headsign: -1, short: -1, direction: -1, block: -1, shape: -1,
            wheelchair: -1, bikes: -1
        )
        let base = tripCount
        var lines: [Int] = [0]  // by key - base
        defer { tripCount = base + lines.count - 1 }
        try forEachRow(
            "trips.txt",
            { h in
                c = (
                    try h.required("route_id"), try h.required("service_id"), try h.required("trip_id"),
                    h.optional("trip_headsign"),
                    h.optional("trip_short_name"), h.optional("direction_id"), h.optional("block_id"),
                    h.optional("shape_id"),
                    h.optional("wheelchair_accessible"), h.optional("bikes_allowed")
                )
            }
        ) { row in
            let id = try row.requiredString(c.id)
            if let first = tripKeys[id] {
                throw ImportError.duplicateKey(
                    file: "trips.txt", line: row.line, key: "trip_id", value: id, firstLine: lines[first - base])
            }
            let routeID = try row.requiredString(c.route)
            guard let route = routeKeys[routeID] else {
                throw ImportError.unknownReference(
                    file: "trips.txt", line: row.line, column: "route_id", value: routeID, target: "routes.txt")
            }
            let serviceID = try row.requiredString(c.service)
            guard let service = serviceKeys[serviceID] else {
                throw ImportError.unknownReference(
                    file: "trips.txt", line: row.line, column: "service_id", value: serviceID,
                    target: "calendar.txt or calendar_dates.txt")
            }
            let key = base + lines.count
            tripKeys[id] = key
            lines.append(row.line)
            agenciesWithTrips.insert(routeAgency[route])
            let direction = try row.enumValue(c.direction, allowed: 0...1, warnings: &warnings)
            stopSummary.addTrip(route: route, service: service, direction: direction, headsign: row.string(c.headsign))
            insert.bind(1, key); insert.bind(2, namespaced(id)); insert.bind(3, route); insert.bind(4, service)
            insert.bind(5, bytes: row.bytes(c.headsign)); insert.bind(6, bytes: row.bytes(c.short))
            insert.bind(7, direction)
            if namespace.isEmpty {
                insert.bind(8, bytes: row.bytes(c.block)); insert.bind(9, bytes: row.bytes(c.shape))
            } else {
                insert.bind(8, row.string(c.block).map(namespaced)); insert.bind(9, row.string(c.shape).map(namespaced))
            }
            if let shape = row.string(c.shape) { tripShapeIDs.insert(shape) }
            insert.bind(10, try row.enumValue(c.wheelchair, allowed: 0...2, warnings: &warnings) ?? 0)
            insert.bind(11, try row.enumValue(c.bikes, allowed: 0...2, warnings: &warnings) ?? 0)
            try insert.insert()
        }
    }

    /// The hot loop: millions of rows. IDs are looked up once per row (the trip only when it changes, since
    /// feeds group a trip's rows), and text is bound straight from the CSV bytes.
    mutating func importStopTimes(_ db: Database) throws {
        var c = (
            trip: -1, arrival: -1, departure: -1, stop: -1, sequence: -1, headsign: -1, pickup: -1, dropOff: -1,
            dist: -1, timepoint: -1
        )
        var currentTripBytes: [UInt8] = []
        var currentTrip = 0
        var lastSequence = Int.min, lastTime = Int.min
        let writer = try StopTimeWriter(db)
        // Trips met in an earlier run of rows: a row of theirs may repeat an earlier trip and sequence.
        var tripMet = [Bool](repeating: false, count: (tripKeys.values.max() ?? 0) + 1)
        var tripRunIsFirst = false
        defer { writer.close() }
        /// The writer's failure as the import reports it.
        func explain(_ failure: Error) -> Error {
            switch failure as? StopTimeWriter.Failure {
            case let .duplicate(line, trip, sequence)?:
                let tripID = tripKeys.first { $0.value == trip }?.key ?? "?"
                return ImportError.duplicateKey(
                    file: "stop_times.txt", line: line, key: "trip_id and stop_sequence",
                    value: "\(tripID) \(sequence)",
                    firstLine: nil)
            case let .database(error)?: return error
            case nil: return failure
            }
        }
        let rows: Int
        do {
            rows = try forEachRow(
                "stop_times.txt",
                { h in
                    c = (
                        try h.required("trip_id"), h.optional("arrival_time"), h.optional("departure_time"),
                        try h.required("stop_id"),
                        try h.required("stop_sequence"), h.optional("stop_headsign"), h.optional("pickup_type"),
                        h.optional("drop_off_type"),
                        h.optional("shape_dist_traveled"), h.optional("timepoint")
                    )
                }
            ) { row in
                do {
                    try writer.check()
                    let tripBytes = row.bytes(c.trip)
                    if !tripBytes.elementsEqual(currentTripBytes) || currentTrip == 0 {
                        let tripID = String(decoding: tripBytes, as: UTF8.self)
                        guard let trip = tripKeys[tripID] else {
                            if tripBytes.isEmpty { throw row.invalid(c.trip, "a non-empty value") }
                            return try dropUnknownReference(
                                row, file: "stop_times.txt", column: "trip_id", value: tripID, target: "trips.txt")
                        }
                        currentTrip = trip
                        currentTripBytes = Array(tripBytes)
                        tripRunIsFirst = !tripMet[trip]
                        tripMet[trip] = true
                        lastSequence = Int.min
                        lastTime = Int.min
                    }
                    let stopID = String(decoding: row.bytes(c.stop), as: UTF8.self)
                    guard let stop = stopKeys[stopID] else {
                        if stopID.isEmpty { throw row.invalid(c.stop, "a non-empty value") }
                        return try dropUnknownReference(
                            row, file: "stop_times.txt", column: "stop_id", value: stopID, target: "stops.txt")
                    }
                    guard let sequence = try row.int(c.sequence), sequence >= 0 else {
                        throw row.invalid(c.sequence, "a non-negative whole number")
                    }
                    var arrival = try row.time(c.arrival)
                    var departure = try row.time(c.departure)
                    if arrival == nil { arrival = departure } else if departure == nil { departure = arrival }
                    if departure == nil { storedUntimedStopTimes = true }
                    if let arrival, let departure {
                        if departure < arrival { throw row.invalid(c.departure, "a time at or after arrival_time") }
                        if sequence > lastSequence, arrival < lastTime {
                            warnings.add(
                                "stop_times.txt: a trip's times go backwards",
                                at: "\(row.location) '\(String(decoding: tripBytes, as: UTF8.self))'")
                        }
                        if departure > 48 * 3600 {
                            warnings.add(
                                "stop_times.txt: a time beyond 48:00:00 (two days after the service day starts)",
                                at:
                                    "\(row.location) '\(String(decoding: tripBytes, as: UTF8.self))' \(GTFSTime(seconds: departure))"
                            )
                        }
                        lastTime = departure
                    }
                    let mayRepeat = !tripRunIsFirst || sequence <= lastSequence
                    if sequence > lastSequence { lastSequence = sequence }
                    if !stopHasCoordinates[stop] {
                        warnings.add(
                            "stop_times.txt: stop time at a stop without coordinates", at: "\(row.location) '\(stopID)'"
                        )
                    }
                    let pickup = try row.enumValue(c.pickup, allowed: 0...3, warnings: &warnings) ?? 0
                    let headsign = row.bytes(c.headsign)
                    stopSummary.add(
                        trip: currentTrip,
                        .init(
                            stop: Int32(stop), sequence: Int32(clamping: sequence),
                            departure: Int32(clamping: departure ?? -1),
                            pickupAllowed: pickup != 1,
                            headsign: headsign.isEmpty
                                ? -1 : stopSummary.internHeadsign(String(decoding: headsign, as: UTF8.self))))
                    let dropOff = try row.enumValue(c.dropOff, allowed: 0...3, warnings: &warnings) ?? 0
                    let timepoint =
                        try row.enumValue(c.timepoint, allowed: 0...1, warnings: &warnings) ?? (arrival == nil ? 0 : 1)
                    try writer.add(
                        .init(
                            trip: currentTrip, sequence: sequence, stop: stop, arrival: arrival, departure: departure,
                            headsignStart: 0, headsignEnd: 0, pickup: pickup, dropOff: dropOff, timepoint: timepoint,
                            dist: try row.double(c.dist), line: row.line, mayRepeat: mayRepeat),
                        headsign: headsign)
                } catch {
                    // A row written before this one that the database refused comes first.
                    do { try writer.finish() } catch let failure { throw explain(failure) }
                    throw error
                }
            }
            try writer.finish()
        } catch let failure as StopTimeWriter.Failure {
            throw explain(failure)
        } catch {
            // An error outside a row's checks (the CSV itself, a NUL byte, the archive): a row the database
            // refused earlier in the file still comes first, as errors are reported in file order.
            do { try writer.finish() } catch let failure { throw explain(failure) }
            throw error
        }
        stopSummary.finishTrip()
        if rows == 0 {
            warnings.add(
                "stop_times.txt: no stop times: the kiosk will show no departures",
                at: "stop_times.txt:1 (a header and no rows)")
        }
    }

    mutating func importFrequencies(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO frequencies VALUES (?, ?, ?, ?, ?)")
        var c = (trip: -1, start: -1, end: -1, headway: -1, exact: -1)
        try forEachRow(
            "frequencies.txt",
            { h in
                c = (
                    try h.required("trip_id"), try h.required("start_time"), try h.required("end_time"),
                    try h.required("headway_secs"), h.optional("exact_times")
                )
            }
        ) { row in
            let tripID = try row.requiredString(c.trip)
            guard let trip = tripKeys[tripID] else {
                return try dropUnknownReference(
                    row, file: "frequencies.txt", column: "trip_id", value: tripID, target: "trips.txt")
            }
            guard let start = try row.time(c.start) else { throw row.invalid(c.start, "a time HH:MM:SS") }
            guard let end = try row.time(c.end), end > start else {
                throw row.invalid(c.end, "a time after start_time")
            }
            guard let headway = try row.int(c.headway), headway > 0 else {
                throw row.invalid(c.headway, "a positive number of seconds")
            }
            stopSummary.markFrequencyBased(trip: trip)
            insert.bind(1, trip); insert.bind(2, start); insert.bind(3, end); insert.bind(4, headway)
            insert.bind(5, try row.enumValue(c.exact, allowed: 0...1, warnings: &warnings) ?? 0)
            try insert.insert()
        }
    }

    mutating func importTransfers(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO transfers VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        var c = (from: -1, to: -1, fromRoute: -1, toRoute: -1, fromTrip: -1, toTrip: -1, type: -1, time: -1)
        try forEachRow(
            "transfers.txt",
            { h in
                c = (
                    h.optional("from_stop_id"), h.optional("to_stop_id"), h.optional("from_route_id"),
                    h.optional("to_route_id"),
                    h.optional("from_trip_id"), h.optional("to_trip_id"), try h.required("transfer_type"),
                    h.optional("min_transfer_time")
                )
            }
        ) { row in
            func key(_ column: Int, _ map: [String: Int], _ target: String) throws -> Int? {
                guard let id = row.string(column) else { return nil }
                guard let key = map[id] else {
                    if let ambiguity = ambiguity(row, column, id, map, target) { throw ambiguity }
                    throw ImportError.unknownReference(
                        file: "transfers.txt", line: row.line, column: row.header.columnName(column), value: id,
                        target: target)
                }
                return key
            }
            if lenient {
                for (column, map, target) in [
                    (c.from, stopKeys, "stops.txt"), (c.to, stopKeys, "stops.txt"), (c.fromTrip, tripKeys, "trips.txt"),
                    (c.toTrip, tripKeys, "trips.txt"),
                ] {
                    if let id = row.string(column), map[id] == nil {
                        // Not a repair --lenient can make: which feed's it means is the operator's to say.
                        if let ambiguity = ambiguity(row, column, id, map, target) { throw ambiguity }
                        repairs.add(
                            "transfers.txt: dropped a row whose \(row.header.columnName(column)) is not in \(target)",
                            at: "\(row.location) '\(ImportError.quoted(id))'")
                        return
                    }
                }
            }
            insert.bind(1, try key(c.from, stopKeys, "stops.txt")); insert.bind(2, try key(c.to, stopKeys, "stops.txt"))
            insert.bind(3, try key(c.fromRoute, routeKeys, "routes.txt"));
            insert.bind(4, try key(c.toRoute, routeKeys, "routes.txt"))
            insert.bind(5, try key(c.fromTrip, tripKeys, "trips.txt"));
            insert.bind(6, try key(c.toTrip, tripKeys, "trips.txt"))
            let type = try row.int(c.type) ?? 0  // an empty transfer_type means 0 (recommended transfer point)
            guard (0...5).contains(type) else { throw row.invalid(c.type, "a transfer type 0 to 5") }
            let time = try row.int(c.time)
            // GTFS: "Non-negative integer". A negative time is no oddity to repair: which time was meant is unknown.
            if let time, time < 0 { throw row.invalid(c.time, "a non-negative whole number of seconds") }
            if type == 2 && time == nil {
                warnings.add(
                    "transfers.txt: transfer_type 2 without min_transfer_time (the default is used)", at: row.location)
            }
            insert.bind(7, type); insert.bind(8, time)
            try insert.insert()
        }
    }

    mutating func importFeedInfo(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO feed_info VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var c = (name: -1, url: -1, lang: -1, defaultLang: -1, start: -1, end: -1, version: -1, email: -1, contact: -1)
        try forEachRow(
            "feed_info.txt",
            { h in
                c = (
                    try h.required("feed_publisher_name"), h.optional("feed_publisher_url"), h.optional("feed_lang"),
                    h.optional("default_lang"),
                    h.optional("feed_start_date"), h.optional("feed_end_date"), h.optional("feed_version"),
                    h.optional("feed_contact_email"),
                    h.optional("feed_contact_url")
                )
            }
        ) { row in
            insert.bind(1, try row.requiredString(c.name)); insert.bind(2, bytes: row.bytes(c.url))
            insert.bind(3, bytes: row.bytes(c.lang)); insert.bind(4, bytes: row.bytes(c.defaultLang))
            insert.bind(5, try row.date(c.start)?.yyyymmdd); insert.bind(6, try row.date(c.end)?.yyyymmdd)
            insert.bind(7, bytes: row.bytes(c.version)); insert.bind(8, bytes: row.bytes(c.email));
            insert.bind(9, bytes: row.bytes(c.contact))
            try insert.insert()
        }
    }

    /// GTFS lets intermediate stops omit their times ("not a timepoint"). Fill them in linearly between the
    /// surrounding timepoints — by shape distance when the trip has it, by stop count otherwise — so that every
    /// stop time has a departure. A trip whose first or last stop has no time cannot be fixed and is reported.
    mutating func interpolateMissingTimes(_ db: Database) throws {
        guard storedUntimedStopTimes else { return }  // no NULL departure_time to look for
        let trips = try Int.fetchAll(db, sql: "SELECT DISTINCT trip_idx FROM stop_times WHERE departure_time IS NULL")
        guard !trips.isEmpty else { return }
        let update = try db.makeStatement(
            sql: "UPDATE stop_times SET arrival_time = ?, departure_time = ? WHERE trip_idx = ? AND stop_sequence = ?")
        for trip in trips {
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT stop_sequence, arrival_time, departure_time, shape_dist_traveled FROM stop_times WHERE trip_idx = ? ORDER BY stop_sequence",
                arguments: [trip])
            let sequences: [Int] = rows.map { $0[0] }
            var times: [Int?] = rows.map { $0[2] }
            let distances: [Double?] = rows.map { $0[3] }
            guard times.first! != nil, times.last! != nil else {
                let tripID =
                    try String.fetchOne(db, sql: "SELECT trip_id FROM trips WHERE trip_idx = ?", arguments: [trip])
                    ?? "?"
                warnings.add(
                    "stop_times.txt: trip whose first or last stop has no time (its untimed stops are not shown)",
                    at: "'\(tripID)'")
                continue
            }
            let useDistance = distances.allSatisfy { $0 != nil }
            var previous = 0
            for i in 1..<times.count where times[i] != nil {
                if i - previous > 1 {
                    let t0 = Double(times[previous]!), t1 = Double(times[i]!)
                    for j in (previous + 1)..<i {
                        let fraction =
                            useDistance && distances[i]! > distances[previous]!
                            ? (distances[j]! - distances[previous]!) / (distances[i]! - distances[previous]!)
                            : Double(j - previous) / Double(i - previous)
                        let value = Int((t0 + (t1 - t0) * fraction).rounded())
                        times[j] = value
                        try update.execute(arguments: [value, value, trip, sequences[j]])
                        interpolated += 1
                    }
                }
                previous = i
            }
        }
    }

    /// A row naming a `column` value that `target` lacks: refused, or with --lenient dropped and listed.
    mutating func dropUnknownReference(
        _ row: GTFSRow, file: String, column: String, value: String, target: String
    ) throws {
        guard lenient else {
            throw ImportError.unknownReference(file: file, line: row.line, column: column, value: value, target: target)
        }
        repairs.add(
            "\(file): dropped a row whose \(column) is not in \(target)",
            at: "\(row.location) '\(ImportError.quoted(value))'")
    }

    // MARK: - Finishing

    /// Builds the indexes, writes the metadata, checks the file and closes it, ready to be renamed into place.
    mutating func finish() throws -> ImportSummary {
        var counts: [(String, Int)] = []
        var start: ServiceDate?, end: ServiceDate?
        var feeds = importedFeeds
        let feedHash: String
        if feeds.count == 1 {
            feedHash = feeds[0].feedHash
        } else {
            // The set's hash: each feed's id and hash, in import order.
            let lines =
                feeds.map { "\($0.id) \($0.feedHash)\n" }.joined()
                + (regionTransfersHash.map { "transfers \($0)\n" } ?? "")
                + (regionInterchangesHash.map { "interchanges \($0)\n" } ?? "")
            feedHash = SHA256.hash(data: Array(lines.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        var warnings = reading.warnings
        warnings.absorb(self.warnings)
        var repairs = self.repairs
        repairs.absorb(reading.repairs)
        if feeds.count == 1 { feeds[0].warnings = warnings.total }
        let interpolated = self.interpolated
        let timeZone = feeds.first?.timeZone ?? self.timeZone
        let skipped = skippedFiles
        let feedName = feeds.count == 1 ? source.displayName : feeds.map(\.id).joined(separator: ", ")
        let feedKeys = self.feedKeys
        report("indexes")
        try queue.inTransaction { db in
            let started = DispatchTime.now().uptimeNanoseconds
            try db.execute(sql: Schema.indexesV1)
            logger.debug("indexes: \(ImportSession.elapsed(since: started))")
            var step = DispatchTime.now().uptimeNanoseconds
            for table in Schema.countedTables {
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
                counts.append((table, rows))
                try db.execute(sql: "INSERT INTO table_counts VALUES (?, ?)", arguments: [table, rows])
            }
            let range = try Row.fetchOne(
                db,
                sql: """
                    SELECT MIN(d), MAX(d) FROM (SELECT start_date AS d FROM calendar UNION ALL SELECT end_date FROM calendar
                    UNION ALL SELECT date FROM calendar_dates WHERE exception_type = 1)
                    """)
            // How far past its service date's origin any departure runs (frequency trips included): lookups
            // must consider that many previous service days. Each stop's latest comes from the end of its range
            // in the stop-time index: a seek per stop, not a scan of every stop time.
            let latest =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT MAX(t) FROM (SELECT MAX((SELECT MAX(departure_time) FROM stop_times WHERE stop_idx = s.stop_idx)) AS t FROM stops s UNION ALL
                        SELECT f.end_time + (SELECT MAX(departure_time) - MIN(departure_time) FROM stop_times s WHERE s.trip_idx = f.trip_idx) FROM frequencies f)
                        """) ?? 0
            start = (range?[0] as Int?).flatMap(ServiceDate.init(yyyymmdd:))
            end = (range?[1] as Int?).flatMap(ServiceDate.init(yyyymmdd:))
            let metadata: [(String, String)] = [
                ("schema_version", String(Schema.version)),
                ("feed_name", feedName),
                ("feed_hash", feedHash),
                ("imported_at", ISO8601DateFormatter().string(from: Date())),
                ("timezone", timeZone),
                ("service_start", start.map { String($0.yyyymmdd) } ?? ""),
                ("service_end", end.map { String($0.yyyymmdd) } ?? ""),
                ("latest_departure_seconds", String(latest)),
                ("warnings", String(warnings.total)),
                ("lenient_repairs", String(repairs.total)),
                ("interpolated_stop_times", String(interpolated)),
                ("skipped_files", skipped.joined(separator: ",")),
            ]
            for (key, value) in metadata {
                try db.execute(sql: "INSERT INTO feed_metadata VALUES (?, ?)", arguments: [key, value])
            }
            for kind in warnings.kinds {
                try db.execute(
                    sql: "INSERT INTO import_warnings VALUES (?, ?, ?)",
                    arguments: [kind.message, kind.count, kind.examples.joined(separator: "; ")])
            }
            for (feed, keys) in zip(feeds, feedKeys) {
                try FeedTable.insert(feed, keys: keys, namespaced: feeds.count > 1, db)
            }
            logger.debug("counts and metadata: \(ImportSession.elapsed(since: step))")
            step = DispatchTime.now().uptimeNanoseconds
            try db.execute(sql: "ANALYZE")
            logger.debug("analyze: \(ImportSession.elapsed(since: step))")
            return .commit
        }
        // Closed first: the check reads the file on connections of its own.
        let closing = DispatchTime.now().uptimeNanoseconds
        try queue.close()
        logger.debug("close: \(ImportSession.elapsed(since: closing))")
        report("integrity check")
        let checking = DispatchTime.now().uptimeNanoseconds
        try ImportIntegrityCheck.run(path: stagingPath, recordedRows: counts.reduce(0) { $0 + $1.1 })
        logger.debug("integrity check: \(ImportSession.elapsed(since: checking))")
        return ImportSummary(
            feedName: feedName, databasePath: "", counts: counts, serviceStart: start, serviceEnd: end,
            timeZone: timeZone, feedHash: feedHash, warnings: warnings, repairs: repairs, skippedFiles: skipped,
            interpolatedStopTimes: interpolated, seconds: 0, feeds: feeds, interchanges: interchanges,
            duplicateTrips: duplicateTrips)
    }
}

extension GTFSImporter {
    static func skippedFiles(in source: FeedSource) -> [String] {
        source.fileNames.filter { !importedFiles.contains($0) }.sorted()
    }
}
