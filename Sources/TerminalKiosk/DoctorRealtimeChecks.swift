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
        var checks: [DoctorCheck] = []
        for (kind, source) in settings.sources {
            let several = settings.alertFeeds.count > 1 && kind == "alerts"
            let area = several ? "realtime alerts \(source)" : "realtime \(kind)"
            let data: Data
            do {
                data = try fetchBlocking(source, headers: settings.headers, timeoutSeconds: timeoutSeconds)
            } catch {
                checks.append(
                    DoctorCheck(
                        area: area, status: .warning, detail: "\(error)",
                        fix:
                            "check the URL, the network and [realtime] headers (API key); the kiosk shows the timetable meanwhile"
                    ))
                continue
            }
            let feed: RealtimeFeed
            do {
                feed = try RealtimeFeed.decode(data)
            } catch {
                checks.append(
                    DoctorCheck(
                        area: area, status: .warning, detail: "\(source): \(error)",
                        fix: "is this the GTFS-Realtime (protobuf) URL? 'kiosk rt inspect' shows what arrives"))
                continue
            }
            var facts = ["\(source): \(feed.contents.entities) entities, \(feed.byteCount) bytes"]
            if feed.isStaffMessages { facts.append("staff messages (kiosk message)") }
            var status = DoctorCheck.Status.ok
            var fix: String?
            let freshness = Freshness.evaluate(
                headerTimestamp: feed.freshnessTimestamp, fetchedAt: now, now: now, pollSeconds: settings.pollSeconds,
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
                            format: "trip match rate %.1f%% (%d matched, %d unknown)", rate * 100, stats.tripsMatched,
                            stats.tripsUnknown))
                    if rate < 0.5 {
                        status = .warning
                        fix =
                            "most trips are not in the timetable: a feed for another agency, or the timetable is out of date (kiosk import)"
                    }
                }
            }
            checks.append(DoctorCheck(area: area, status: status, detail: facts.joined(separator: "; "), fix: fix))
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
