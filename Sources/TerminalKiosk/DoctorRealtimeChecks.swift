import Foundation
import KioskConfiguration
import Realtime
import TransitModel
import TransitStore

extension KioskDoctor {
    /// The `[realtime]` feeds: each one fetched once (reachable? within the timeout and size cap?), decoded, its
    /// age judged as the kiosk would, and trip updates matched against the database — a feed for another agency
    /// or another timetable version shows as a trip match rate near zero. A failing feed is a warning, not a
    /// problem: the kiosk keeps running on the timetable and says so on screen.
    public static func checkRealtime(
        _ settings: RealtimeSettings, databasePath: String, now: Date, timeoutSeconds: Int = 10
    ) -> [DoctorCheck] {
        guard settings.hasFeeds else {
            return [DoctorCheck(area: "realtime", status: .ok, detail: "no [realtime] feeds: timetable only")]
        }
        guard settings.mode != .offline else {
            return [
                DoctorCheck(area: "realtime", status: .ok, detail: "mode = \"offline\": the feeds are never fetched")
            ]
        }
        let database = try? RouteDatabase(path: databasePath)
        // Each publisher's ids are read in its static feed's namespace; a feed id the database does not hold is
        // refused by the kiosk at start, so it is a problem here.
        let bindings: [RealtimeBinding]
        if let database {
            do {
                bindings = try settings.bind(to: database)
            } catch {
                return [
                    DoctorCheck(
                        area: "realtime", status: .problem, detail: error.description,
                        fix:
                            "name one of the database's feeds (kiosk import lists them) in [realtime] feed or each [[realtime.feeds]] table"
                    )
                ]
            }
        } else {
            bindings = settings.publishers.filter(\.hasFeeds).map { RealtimeBinding(sources: $0, idPrefix: "") }
        }
        let severalFeeds = database.map { !$0.namespaces.isEmpty } ?? false
        var checks: [DoctorCheck] = []
        for binding in bindings {
            let sources = binding.sources
            let tag = binding.feedID.map { "\($0) " } ?? ""
            for (kind, source) in sources.sources {
                let several = sources.alertFeeds.count > 1 && kind == "alerts"
                let area = several ? "realtime \(tag)alerts \(source)" : "realtime \(tag)\(kind)"
                let data: Data
                do {
                    data = try fetchBlocking(source, headers: sources.headers, timeoutSeconds: timeoutSeconds)
                } catch {
                    checks.append(
                        DoctorCheck(
                            area: area, status: .warning, detail: "\(error)",
                            fix:
                                "check the URL, the network and [realtime] headers (API key); the kiosk shows the timetable meanwhile"
                        ))
                    continue
                }
                var feed: RealtimeFeed
                do {
                    feed = try RealtimeFeed.decode(data)
                } catch {
                    checks.append(
                        DoctorCheck(
                            area: area, status: .warning, detail: "\(source): \(error)",
                            fix: "is this the GTFS-Realtime (protobuf) URL? 'kiosk rt inspect' shows what arrives"))
                    continue
                }
                feed.readInNamespace(binding.idPrefix)
                var facts = ["\(source): \(feed.contents.entities) entities, \(feed.byteCount) bytes"]
                if feed.isStaffMessages { facts.append("staff messages (kiosk message)") }
                var status = DoctorCheck.Status.ok
                var fix: String?
                if severalFeeds, binding.feedID == nil, !feed.isStaffMessages {
                    status = .warning
                    facts.append("read with the database's own ids (FEED:ID), as no feed is named")
                    fix = "an operator's alerts use its feed's ids: give them in its [[realtime.feeds]] table"
                }
                let freshness = Freshness.evaluate(
                    headerTimestamp: feed.freshnessTimestamp, fetchedAt: now, now: now,
                    pollSeconds: settings.pollSeconds,
                    mode: settings.mode)
                if let header = feed.freshnessTimestamp {
                    facts.append("header \(Int(wholeSecondsOf: now.timeIntervalSince(header))) s old")
                }
                if !freshness.isLive {
                    status = .warning
                    facts.append(freshness.verdict.description)
                    fix = "a stuck feed or a wrong clock: compare the feed's time with this machine's (timedatectl)"
                }
                if kind == "trip_updates" {
                    if feed.contents.tripUpdates == 0 {
                        status = .warning
                        facts.append("no trip updates in this feed")
                        fix = fix ?? "is trip_updates the trip-updates URL (and not alerts or vehicle positions)?"
                    } else if let database, let timetable = try? TripUpdateMatcher.match(feed, database: database) {
                        let stats = timetable.statistics
                        let rate = stats.tripMatchRate
                        facts.append(
                            String(
                                format: "trip match rate %.1f%% (%d matched, %d unknown)", rate * 100,
                                stats.tripsMatched,
                                stats.tripsUnknown) + (binding.feedID.map { " in feed '\($0)'" } ?? ""))
                        if rate < 0.5 {
                            status = .warning
                            fix =
                                "most trips are not in the timetable: a feed for another agency, or the timetable is out of date (kiosk import)"
                        }
                    }
                }
                checks.append(DoctorCheck(area: area, status: status, detail: facts.joined(separator: "; "), fix: fix))
            }
        }
        return checks
    }

    /// One fetch from synchronous code (the doctor has nothing else to do meanwhile).
    static func fetchBlocking(_ source: String, headers: [String: String], timeoutSeconds: Int) throws -> Data {
        final class Box: @unchecked Sendable { var result: Result<FeedFetcher.Outcome, FeedFetchError>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(FeedFetchError) {
                box.result = .success(
                    try await FeedFetcher(source: source, headers: headers, timeoutSeconds: timeoutSeconds).fetch())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        guard case let .body(data) = try box.result!.get() else { return Data() }
        return data
    }
}
