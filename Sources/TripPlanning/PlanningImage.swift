import Foundation
import JourneyPlanner
import SystemSupport
import TransitModel
import TransitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The planning timetable compiled once per import, as a file beside the route database (`routes.db` →
/// `routes.db.timetable`): a `TimetableImage` that answers the queries of a few service days (`queryDays`, from
/// the day it was made), identified by the feed hash of the database it was compiled from. Opening it maps the
/// file and checks it (header, checksum, every section's bounds and indexes); the planner then reads the mapped
/// bytes as they are.
///
/// `kiosk import` writes it from the finished staging database just before the database is renamed into place;
/// a server or kiosk writes a new one, for the days ahead, when the days it covers run out. A missing image, one
/// of another feed (stale), another format version or a damaged one is reported and not used.
public enum PlanningImage {
    /// Query days an image covers: the day it is made and the three after it (a kiosk running over a long
    /// weekend keeps planning from it; a server writes the next one before the last day).
    public static let defaultQueryDays = 4

    /// Where the image of the database at `databasePath` lives.
    public static func path(forDatabase databasePath: String) -> String { databasePath + ".timetable" }

    /// What an image says about itself beside the timetable (JSON in the image's metadata).
    struct Metadata: Codable, Equatable {
        var feedHash: String
        var timeZone: String
        var stopCount: Int
        /// Seconds since 1970 of timeline second 0.
        var reference: Double
        var firstDate: Int
        var dateCount: Int
        var firstQueryDay: Int
        var lastQueryDay: Int
        var walkRadiusMeters: Int
        var walkSpeedMetersPerSecond: Double
        var minTransferSeconds: Int
    }

    static func identity(feedHash: String) -> String { "stopkiosk-planning feed-sha256:\(feedHash)" }

    /// The first query day of an image made at `now`: that day in the feed's time zone, kept within the feed's
    /// service dates (a feed not yet in force starts at its first day; one past its end covers its last days).
    public static func firstQueryDay(
        for database: RouteDatabase, now: Date = Date(), days: Int = defaultQueryDays
    )
        -> ServiceDate
    {
        var day = ServiceDate.containing(now, in: database.timeZone)
        if let end = database.serviceEnd, day > end { day = end.adding(days: -(days - 1)) }
        if let start = database.serviceStart, day < start { day = start }
        return day
    }

    /// What writing an image cost.
    public struct Report: Sendable {
        public var path: String
        public var bytes: Int
        public var compileSeconds: Double
        public var writeSeconds: Double
        public var queryDays: ClosedRange<ServiceDate>
        public var trips: Int
        public var stopEvents: Int
    }

    /// Compiles the network of `days` query days from `firstDay` (default: today, see `firstQueryDay`) with the
    /// default planning rules and writes it to `imagePath` atomically (a temporary file beside it, flushed and
    /// renamed over it).
    @discardableResult
    public static func write(
        for database: RouteDatabase, to imagePath: String, firstDay: ServiceDate? = nil,
        days: Int = defaultQueryDays
    ) throws -> Report {
        precondition(days >= 1)
        let first = firstDay ?? firstQueryDay(for: database, days: days)
        let started = DispatchTime.now().uptimeNanoseconds
        let network = try database.planningNetwork(queryDays: first...first.adding(days: days - 1))
        let compiled = DispatchTime.now().uptimeNanoseconds
        let bytes = try write(network, database: database, to: imagePath)
        let written = DispatchTime.now().uptimeNanoseconds
        return Report(
            path: imagePath, bytes: bytes, compileSeconds: Double(compiled - started) / 1e9,
            writeSeconds: Double(written - compiled) / 1e9, queryDays: first...first.adding(days: days - 1),
            trips: network.timetable.tripCount, stopEvents: network.timetable.stopEventCount)
    }

    /// Writes `network` (compiled from `database`) as an image at `imagePath`, atomically.
    @discardableResult
    static func write(_ network: PlanningNetwork, database: RouteDatabase, to imagePath: String) throws -> Int {
        let metadata = Metadata(
            feedHash: database.feedHash, timeZone: database.timeZone.identifier,
            stopCount: network.timetable.stopCount, reference: network.reference.timeIntervalSince1970,
            firstDate: network.serviceDates[0].dayNumber, dateCount: network.serviceDates.count,
            firstQueryDay: network.queryDays.lowerBound, lastQueryDay: network.queryDays.upperBound,
            walkRadiusMeters: network.rules.walkRadiusMeters,
            walkSpeedMetersPerSecond: network.rules.walkSpeedMetersPerSecond,
            minTransferSeconds: network.rules.minTransferSeconds)
        let writer = try AtomicFileWriter(destination: imagePath, purpose: "timetable")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // the same feed and days give the same bytes
        do {
            let bytes = try TimetableImage.write(
                network.timetable, identity: identity(feedHash: database.feedHash),
                metadata: Array(try encoder.encode(metadata)), extras: network.tripInstances.columns
            ) { chunk in try writer.write(chunk) }
            try writer.commit()
            return bytes
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Opens the image at `imagePath` for `database`: maps it, checks it, and checks that it was compiled from
    /// this database's feed. The network's bytes stay as they were opened whatever happens to the file later;
    /// `onFileChanged` receives a sentence for the log when another process writes over it or truncates it (plans
    /// then go on from a private copy in memory).
    public static func load(
        _ imagePath: String, for database: RouteDatabase,
        onFileChanged: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(PlanningImageError)
        -> PlanningNetwork
    {
        let file = try MappedFile(path: imagePath, onPrivateCopy: onFileChanged)
        let loaded: LoadedTimetableImage
        do {
            loaded = try TimetableImage.read(file.bytes, owner: file)
        } catch {
            switch error.kind {
            case .notAnImage: throw PlanningImageError(path: imagePath, kind: .damaged, reason: error.reason)
            case .incompatible: throw PlanningImageError(path: imagePath, kind: .incompatible, reason: error.reason)
            case .damaged: throw PlanningImageError(path: imagePath, kind: .damaged, reason: error.reason)
            }
        }
        guard loaded.identity == identity(feedHash: database.feedHash) else {
            throw PlanningImageError(
                path: imagePath, kind: .stale,
                reason:
                    "it was compiled from another feed than \(database.path) (feed hash \(database.feedHash.prefix(12))…)"
            )
        }
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(loaded.metadata)) else {
            throw PlanningImageError(path: imagePath, kind: .damaged, reason: "its description cannot be read")
        }
        let timetable = loaded.timetable
        guard loaded.extras.count == 2, loaded.extras[0].count == loaded.extras[1].count,
            metadata.stopCount == timetable.stopCount, metadata.timeZone == database.timeZone.identifier,
            metadata.dateCount >= 1, metadata.dateCount <= 10_000,
            metadata.firstQueryDay <= metadata.lastQueryDay,
            metadata.firstQueryDay >= metadata.firstDate,
            metadata.lastQueryDay < metadata.firstDate + metadata.dateCount,
            (0...PlanningRules.walkRadiusLimit).contains(metadata.walkRadiusMeters),
            metadata.walkSpeedMetersPerSecond > 0,
            metadata.minTransferSeconds == timetable.minTransferSeconds
        else {
            throw PlanningImageError(
                path: imagePath, kind: .damaged, reason: "its description does not match its timetable")
        }
        let instances = TripInstances(trips: loaded.extras[0], days: loaded.extras[1], owner: file)
        let days = metadata.firstDate..<(metadata.firstDate + metadata.dateCount)
        for (_, day) in instances where !days.contains(Int(day)) {
            throw PlanningImageError(
                path: imagePath, kind: .damaged, reason: "a trip's service date is outside the image's")
        }
        guard timetable.tripReferencesAreBelow(instances.count) else {
            throw PlanningImageError(path: imagePath, kind: .damaged, reason: "a trip reference is out of range")
        }
        file.dropResidentPages()
        return PlanningNetwork(
            timetable: timetable, reference: Date(timeIntervalSince1970: metadata.reference),
            rules: PlanningRules(
                walkRadiusMeters: metadata.walkRadiusMeters,
                walkSpeedMetersPerSecond: metadata.walkSpeedMetersPerSecond,
                minTransferSeconds: metadata.minTransferSeconds),
            serviceDates: days.map(ServiceDate.init(dayNumber:)),
            queryDays: metadata.firstQueryDay...metadata.lastQueryDay, tripInstances: instances,
            imagePath: imagePath)
    }
}

/// Why an image was not used. The description names the file.
public struct PlanningImageError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No file at the path.
        case missing
        /// The file cannot be opened or is not a regular file.
        case unreadable
        /// Compiled from another feed than the database beside it.
        case stale
        /// Another format version, byte order or word size.
        case incompatible
        /// Truncated, overwritten or otherwise not what was written.
        case damaged
    }

    public var path: String
    public var kind: Kind
    public var reason: String

    public var description: String {
        switch kind {
        case .missing: "no timetable image at \(path)"
        case .unreadable: "the timetable image \(path) cannot be read: \(reason)"
        case .stale: "the timetable image \(path) is stale: \(reason)"
        case .incompatible: "the timetable image \(path) is of another format: \(reason)"
        case .damaged: "the timetable image \(path) is damaged: \(reason)"
        }
    }
}

/// A whole image file mapped read-only, unmapped when the last user lets go. A file renamed over the path meanwhile
/// (the next import) does not change what is mapped, and neither does one written over it in place or truncated
/// (`StableFileMapping`: the bytes as opened stay, the change is logged). A symbolic link is followed.
final class MappedFile: @unchecked Sendable {
    let path: String
    private let mapping: StableFileMapping
    var bytes: UnsafeRawBufferPointer { mapping.bytes }

    init(path: String, onPrivateCopy: @escaping @Sendable (String) -> Void = { _ in }) throws(PlanningImageError) {
        self.path = path
        // O_NONBLOCK: a FIFO at the path does not hang the open; it is refused as not a regular file below.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw PlanningImageError(
                path: path, kind: code == ENOENT ? .missing : .unreadable, reason: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw PlanningImageError(path: path, kind: .unreadable, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            close(descriptor)
            throw PlanningImageError(path: path, kind: .damaged, reason: "the file is empty")
        }
        do {
            mapping = try StableFileMapping(
                descriptor: descriptor, size: size, path: path, onPrivateCopy: onPrivateCopy)
        } catch {
            throw PlanningImageError(path: path, kind: .unreadable, reason: error.reason)
        }
    }

    /// How the bytes are kept stable (for the logs and tests).
    var protection: StableFileMapping.Protection { mapping.protection }

    /// Gives back the pages the checks read (they stay in the page cache): the process's resident size then
    /// counts only what its queries touch.
    func dropResidentPages() { mapping.dropResidentPages() }
}

extension GTFSImporter {
    /// Makes this import write the planning timetable image (`PlanningImage`) beside the database: compiled from
    /// the finished staging database and put in place just before the database is, so a server that switches to
    /// the new database finds the new image with it. `done` receives what it cost.
    public mutating func writePlanningImage(
        days: Int = PlanningImage.defaultQueryDays, now: Date = Date(),
        done: @escaping (PlanningImage.Report) -> Void = { _ in }
    ) {
        let imagePath = PlanningImage.path(forDatabase: databasePath)
        beforeCommit = { stagingPath in
            // The import's own memory is freed by now but still held by malloc; give it back before the compile
            // needs its own, so the two do not add up in the process's peak.
            FreeMemory.returnToSystem()
            do {
                let staged = try RouteDatabase(path: stagingPath)
                let report = try PlanningImage.write(
                    for: staged, to: imagePath,
                    firstDay: PlanningImage.firstQueryDay(for: staged, now: now, days: days), days: days)
                done(report)
            } catch let error as FileError {
                throw ImportError.writeFailed(error)
            } catch {
                throw ImportError.database(path: imagePath, reason: "cannot compile the planning timetable: \(error)")
            }
        }
    }
}
