import Dispatch
import Foundation
import Logging
import Synchronization
import TransitModel
import TransitStore

/// The planning networks of the route databases a process has open: each database's image (`PlanningImage`)
/// mapped once and shared by every plan on any thread, and kept with that `RouteDatabase` object, so a plan that
/// holds one database never mixes its stops with another import's timetable. When `LiveRouteDatabase` puts a
/// replacement in service, the replacement's image is opened on its first plan (a map and a check, milliseconds).
///
/// A query on a day the image does not cover, or without a usable image (missing, stale, damaged: logged, never
/// used), is answered from a network compiled in memory from the database, once per day and rules, and kept for
/// the next queries. Where `slidesImage` is set (the server and the kiosk, which run for days), the image is
/// rewritten for the days ahead instead when the clock's day (`setClock`) reaches its last day (in the background)
/// or passes it (at once, one compilation for every query waiting on it); queries on other days never rewrite it.
public final class PlanningTimetables: Sendable {
    /// The process's networks.
    public static let shared = PlanningTimetables()

    private let logger: Logger
    private let entries = Mutex<[Entry]>([])
    private let sliding = Atomic<Bool>(false)
    /// In a struct, not as a bare closure: a closure read out of a generic container (`withLock { $0 }`) comes back
    /// wrapped in reabstraction thunks, written back each time, so every read made the clock one call deeper.
    private struct Clock { let now: @Sendable () -> Date }
    private let clock = Mutex(Clock { Date() })
    /// Query days a rewritten image covers.
    let imageDays: Int

    public init(logger: Logger = Logger(label: "stopkiosk.plan"), imageDays: Int = PlanningImage.defaultQueryDays) {
        self.logger = logger
        self.imageDays = imageDays
    }

    /// Whether a missing, stale or expired image is rewritten (atomically, beside the database) for the days
    /// ahead. Off by default: a one-off `kiosk plan` only reads. Where the folder is not writable, the network is
    /// kept in memory and the failure logged once.
    public var slidesImage: Bool {
        get { sliding.load(ordering: .relaxed) }
        set { sliding.store(newValue, ordering: .relaxed) }
    }

    /// The clock whose day the image slides with (`kiosk serve --at` moves it). Only a query on that day rewrites
    /// the image: a query for any other day (an API client's `at`) is compiled in memory, never written.
    public func setClock(_ now: @escaping @Sendable () -> Date) {
        clock.withLock { $0 = Clock(now: now) }
    }

    /// One database's networks. Its lock is held while one is opened or compiled, so concurrent plans wait for
    /// that one compilation instead of each making its own.
    private final class Entry: @unchecked Sendable {
        weak var database: RouteDatabase?
        let lock = NSLock()
        /// The image's network (default rules) once opened; `imageProblem` once it could not be.
        var image: PlanningNetwork?
        var imageChecked = false
        var imageProblem: String?
        /// Networks for other rules or days, most recent last.
        var others: [(key: String, network: PlanningNetwork)] = []
        /// A background rewrite is under way.
        var rewriting = false

        init(_ database: RouteDatabase) { self.database = database }
    }

    private func entry(for database: RouteDatabase) -> Entry {
        entries.withLock { entries in
            entries.removeAll { $0.database == nil }
            if let found = entries.first(where: { $0.database === database }) { return found }
            let made = Entry(database)
            entries.append(made)
            return made
        }
    }

    /// The network that answers a query on `database` at `at` under `rules`.
    public func network(for database: RouteDatabase, at: Date, rules: PlanningRules) throws -> PlanningNetwork {
        let day = ServiceDate.containing(at, in: database.timeZone)
        let entry = entry(for: database)
        let now = clock.withLock { $0.now }
        let slides = slidesImage && day == ServiceDate.containing(now(), in: database.timeZone)
        entry.lock.lock()
        defer { entry.lock.unlock() }
        if !entry.imageChecked { openImage(entry, database) }
        if slides, let image = entry.image, image.covers(day), day.dayNumber == image.queryDays.upperBound,
            image.queryDays.lowerBound < day.dayNumber, !entry.rewriting
        {
            rewriteInBackground(entry, database, from: day)
        }
        if entry.image.map({ !$0.covers(day) }) ?? true, slides {
            rewrite(entry, database, from: day)
        }
        if let image = entry.image, image.covers(day) {
            if image.rules == rules { return image }
            return try remembered(entry, key: "rules \(Self.key(rules))") {
                try image.withRules(rules, database: database)
            }
        }
        return try remembered(entry, key: "day \(day) \(Self.key(rules))") {
            logger.notice(
                "planning \(day) from \(database.path), compiled in memory: \(entry.imageProblem ?? "the timetable image covers other days")"
            )
            return try database.planningNetwork(queryDays: day...day, rules: rules)
        }
    }

    /// Opens `database`'s image off the caller's thread (and, where `slidesImage` is set and it is unusable or does
    /// not cover `at`'s day, rewrites it), so that the first plan finds it ready.
    public func prepare(_ database: RouteDatabase, at: Date = Date()) {
        DispatchQueue.global(qos: .utility).async { [self] in
            _ = try? network(for: database, at: at, rules: PlanningRules())
        }
    }

    /// The image's network for `database` if it has a usable one (nil: see the log), opening it if need be.
    public func imageNetwork(for database: RouteDatabase) -> PlanningNetwork? {
        let entry = entry(for: database)
        entry.lock.lock()
        defer { entry.lock.unlock() }
        if !entry.imageChecked { openImage(entry, database) }
        return entry.image
    }

    private func openImage(_ entry: Entry, _ database: RouteDatabase) {
        entry.imageChecked = true
        let path = PlanningImage.path(forDatabase: database.path)
        do {
            entry.image = try PlanningImage.load(path, for: database) { [logger] change in
                logger.warning("the timetable image was changed in place: \(change); kiosk import replaces it safely")
            }
        } catch {
            entry.imageProblem = error.description
            switch error.kind {
            case .missing:
                logger.notice("\(error.description) (kiosk import writes it): plans are compiled in memory")
            default:
                logger.warning(
                    "\(error.description); not used: plans are compiled in memory until kiosk import rewrites it")
            }
        }
    }

    /// Compiles the image's days from `day` now (the caller holds the entry's lock) and writes it, keeping it in
    /// memory if it cannot be written.
    private func rewrite(_ entry: Entry, _ database: RouteDatabase, from day: ServiceDate) {
        let path = PlanningImage.path(forDatabase: database.path)
        do {
            let network = try database.planningNetwork(queryDays: day...day.adding(days: imageDays - 1))
            entry.image = network
            do {
                try PlanningImage.write(network, database: database, to: path)
                logger.notice("wrote the timetable image \(path) for \(day) and the \(imageDays - 1) days after")
            } catch {
                logger.warning("could not write the timetable image \(path): \(error); it is kept in memory")
            }
        } catch {
            logger.error("could not compile the timetable of \(database.path) from \(day): \(error)")
        }
    }

    /// On the image's last day, compiles the next days off the callers' threads; plans keep the current image
    /// meanwhile.
    private func rewriteInBackground(_ entry: Entry, _ database: RouteDatabase, from day: ServiceDate) {
        entry.rewriting = true
        let path = PlanningImage.path(forDatabase: database.path)
        DispatchQueue.global(qos: .utility).async { [logger, imageDays] in
            let network = try? database.planningNetwork(queryDays: day...day.adding(days: imageDays - 1))
            if let network {
                do {
                    try PlanningImage.write(network, database: database, to: path)
                } catch {
                    logger.warning("could not write the timetable image \(path): \(error); it is kept in memory")
                }
            }
            entry.lock.lock()
            if let network { entry.image = network }
            entry.rewriting = false
            entry.lock.unlock()
        }
    }

    private func remembered(
        _ entry: Entry, key: String, make: () throws -> PlanningNetwork
    ) throws -> PlanningNetwork {
        if let found = entry.others.first(where: { $0.key == key }) { return found.network }
        let made = try make()
        entry.others.append((key, made))
        if entry.others.count > 3 { entry.others.removeFirst() }
        return made
    }

    private static func key(_ rules: PlanningRules) -> String {
        "\(rules.walkRadiusMeters)/\(rules.walkSpeedMetersPerSecond)/\(rules.minTransferSeconds)"
    }
}
