import ArgumentParser
import Foundation
import StopCodes
import TransitModel
import TransitStore

/// `kiosk serve` under HTTP load (issue 13): wrk (Debian's, with Lua scripts that pick a random stop per request)
/// on loopback against a release `kiosk serve` of the database, each route measured in the same run as the
/// server's trivial `/health`; then the server's resident memory over a million requests.
///
/// The server's clock is started at 07:55 on the feed's busiest service day (`kiosk serve --at`), so the stop
/// views are those of the morning peak. Requests without `at` are "now" answers, which the server shares within
/// their minute; the run with a random `at` per request shows the cost of a view nobody asked for before.
struct ServeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "kiosk serve under wrk: /api/v1/stops/{random} (≥ 50% of /health, p99 ≤ 20 ms), /s/{random code} (≥ 40%), RSS over a million requests."
    )

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Open connections.")
    var connections = 64

    @Option(help: "wrk threads (the server shares the machine with them).")
    var threads = 2

    @Option(help: "Seconds per measurement.")
    var seconds = 10

    @Option(help: "Timed runs of every route (after one warm-up).")
    var runs = 3

    @Option(help: "Requests in the memory soak (0: skip it).")
    var requests = 1_000_000

    @Option(help: "Random seed of the stop picks.")
    var seed: UInt64 = 42

    @Option(help: "Accept-Encoding sent with every request (\"\" for none: the identity answers).")
    var acceptEncoding = "gzip"

    @Option(
        help:
            "Seconds of /api/v1/stops/{random} and /s/{random code} before the runs, so the server's shared \"now\" answers are all rendered (and rendered ahead) once."
    )
    var warmUpSeconds = 60

    @Option(
        name: .customLong("routes"),
        help:
            "The routes to measure besides /health, comma-separated: api, page, at, plan (journeys between random stops at random times of the day; the server's per-client limits are turned off, as a proxy in front would spread the clients)."
    )
    var routeKeys = "api,page,at"

    @Flag(
        inversion: .prefixedNo,
        help:
            "Also measure the HTTP stack against nginx in the same run: /health against nginx's return 200 (target ≥ 0.45), a cached \"now\" stop view against nginx serving its bytes as a file (≥ 0.50)."
    )
    var nginx = true

    @Flag(help: "Only the HTTP stack against nginx (no warm-up, routes or memory soak).")
    var stackOnly = false

    @Flag(
        help:
            "Only each middleware's share: /health on servers started without one middleware (or connection handler) each, against the server with all of them, CPU per answer."
    )
    var middlewareShares = false

    func run() throws {
        guard let wrk = Measure.which("wrk") else { throw ValidationError("wrk is not installed (run kiosk/setup.sh)") }
        let kiosk = Measure.siblingKiosk()
        guard FileManager.default.isExecutableFile(atPath: kiosk) else {
            throw ValidationError("build kiosk beside kiosk-bench: swift build -c release --product kiosk")
        }
        let routes = try RouteDatabase(path: db)
        guard let date = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let stopIDs = try routes.boardingStopIDs()
        // The value each stop's label prints: its code, else its ID (the one URL rule).
        let labelValues = try stopIDs.map { id in
            StopKeyKind.labelValue(code: try routes.resolveStop(.id(id)).stop.code, id: id)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-serve-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var rng = SplitMix64(seed: seed)
        // Instants between 06:00 and 19:59 of that day, one per stop of the "random at" route.
        let times = (0..<2000).map { _ in
            let minute = 6 * 60 + Int(rng.next() % (14 * 60))
            return "\(date)T" + String(format: "%02d:%02d", minute / 60, minute % 60)
        }
        // Journeys between random stops, leaving between 06:00 and 19:59 (issue 23: 16 clients, p99 ≤ 50 ms).
        let plans = (0..<2000).map { index in
            let from = stopIDs[Int(rng.next() % UInt64(stopIDs.count))]
            let to = stopIDs[Int(rng.next() % UInt64(stopIDs.count))]
            return
                "/api/v1/plan?from=\(PercentEncoding.encode(from))&to=\(PercentEncoding.encode(to))&at=\(times[index])"
        }
        // Each route against /health (the first), with what the issue asks of it.
        let chosen = Set(routeKeys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let allScripts: [(name: String, key: String, paths: [String], target: String)] = [
            ("/health", "health", ["/health"], ""),
            (
                "/api/v1/stops/{random}", "api", stopIDs.map { "/api/v1/stops/" + PercentEncoding.encode($0) },
                " (target ≥ 0.50, p99 ≤ 20 ms)"
            ),
            ("/s/{random code}", "page", labelValues.map { "/s/" + PercentEncoding.encode($0) }, " (target ≥ 0.40)"),
            (
                "/api/v1/stops/{random}?at={random}", "at",
                zip(stopIDs.prefix(times.count), times).map { "/api/v1/stops/\(PercentEncoding.encode($0))?at=\($1)" },
                ""
            ),
            (
                "/api/v1/plan?from={random}&to={random}&at={random}", "plan", plans,
                " (with 16 connections: p99 ≤ 50 ms)"
            ),
        ]
        let scripts = allScripts.filter { $0.key == "health" || chosen.contains($0.key) }.map {
            (name: $0.name, paths: $0.paths, target: $0.target)
        }
        var scriptPaths: [String: String] = [:]
        for (index, script) in scripts.enumerated() {
            let path = work.appendingPathComponent("paths-\(index).lua").path
            try Self.luaScript(paths: script.paths, seed: seed &+ UInt64(index), acceptEncoding: acceptEncoding).write(
                toFile: path, atomically: true, encoding: .utf8)
            scriptPaths[script.name] = path
        }
        let server = try ServerProcess(
            kiosk: kiosk, db: db, at: "\(date)T07:55", work: work,
            config: chosen.contains("plan") ? "[server]\nrate_limits = false\n" : "")
        defer { server.stop() }
        let idleResidentMB = server.residentMB()
        let idleSplit = server.residentSplit()
        print(
            "serve: \(db), \(stopIDs.count) boarding stops, server clock from \(date) 07:55; wrk -t\(threads) -c\(connections) -d\(seconds)s, \(runs) runs after a warm-up of \(warmUpSeconds) s, Accept-Encoding: \(acceptEncoding.isEmpty ? "(none)" : acceptEncoding)"
        )
        if middlewareShares {
            try shares(wrk: wrk, kiosk: kiosk, at: "\(date)T07:55", work: work)
            return
        }
        if nginx || stackOnly {
            try stackAgainstNginx(
                wrk: wrk, server: server, stopPath: "/api/v1/stops/" + PercentEncoding.encode(stopIDs[0]), work: work,
                target: (health: 0.45, stop: 0.5))
            if stackOnly { return }
        }
        if warmUpSeconds > 0 {
            let warmUp = work.appendingPathComponent("warm-up.lua").path
            let warmPaths = scripts.filter { $0.name == "/api/v1/stops/{random}" || $0.name == "/s/{random code}" }
                .flatMap(\.paths)
            if !warmPaths.isEmpty {
                try Self.luaScript(paths: warmPaths, seed: seed &+ 7, acceptEncoding: acceptEncoding).write(
                    toFile: warmUp, atomically: true, encoding: .utf8)
                let result = try wrkRun(wrk, script: warmUp, base: server.base, seconds: warmUpSeconds)
                print("  warm-up: \(result.requests) requests in \(warmUpSeconds) s, \(server.nowCacheSummary())")
            }
        }

        var results: [String: [WrkResult]] = [:]
        var probes: [String: [Double]] = [:]
        for run in 0...runs {
            for script in scripts {
                // Under plan load, what everyone else gets: /health and a shared "now" stop view, one request
                // after another from a client of its own (curl, one connection), from 2 s into the run.
                let probe =
                    script.name.hasPrefix("/api/v1/plan") && run > 0
                    ? LatencyProbe(
                        base: server.base, paths: ["/health", "/api/v1/stops/" + PercentEncoding.encode(stopIDs[0])],
                        after: 2, work: work) : nil
                let result = try wrkRun(wrk, script: scriptPaths[script.name]!, base: server.base, seconds: seconds)
                if let probe {
                    for (path, times) in probe.finish() { probes[path, default: []] += times }
                }
                if run == 0 { continue }
                results[script.name, default: []].append(result)
                print(
                    "  run \(run) \(script.name): \(String(format: "%.0f", result.requestsPerSecond)) req/s, p50 \(String(format: "%.2f", result.p50Milliseconds)) ms, p99 \(String(format: "%.2f", result.p99Milliseconds)) ms, errors \(result.errors)"
                )
            }
        }
        let health = results["/health"]!
        print("serve, \(runs) runs (min / median):")
        for script in scripts {
            let rows = results[script.name]!
            let ratios = zip(rows, health).map { $0.requestsPerSecond / $1.requestsPerSecond }
            print(
                "  \(script.name): \(Self.minMedian(rows.map(\.requestsPerSecond), "%.0f")) req/s, p99 \(Self.minMedian(rows.map(\.p99Milliseconds), "%.1f")) ms"
                    + (script.name == "/health"
                        ? "" : ", ratio to /health \(Self.minMedian(ratios, "%.2f"))\(script.target)")
                    + ", errors \(rows.map(\.errors).reduce(0, +))")
        }
        for (path, times) in probes.sorted(by: { $0.key < $1.key }) where !times.isEmpty {
            let sorted = times.sorted()
            print(
                "  \(path) while plans ran (\(sorted.count) requests, one at a time): p50 \(String(format: "%.2f", Measure.percentile(sorted, 50) * 1000)) ms, p99 \(String(format: "%.2f", Measure.percentile(sorted, 99) * 1000)) ms, max \(String(format: "%.2f", sorted.last! * 1000)) ms (target ≤ 10 ms)"
            )
        }
        print(
            "  after the runs: \(server.nowCacheSummary()); resident \(String(format: "%.1f", idleResidentMB)) MB idle (\(idleSplit)) → \(String(format: "%.1f", server.residentMB())) MB (\(server.residentSplit()))"
        )
        if let first = scripts.first(where: { $0.name == "/api/v1/stops/{random}" })?.paths.first {
            print("  \(first): \(server.bodySizes(first, acceptEncoding: acceptEncoding))")
        }

        guard requests > 0 else { return }
        // Memory: after the runs above (warm), then over `requests` more stop views and pages, in bursts of at
        // most 10 s, stopping at the count or after 30 bursts.
        let mixed = work.appendingPathComponent("mixed.lua").path
        try Self.luaScript(
            paths: scripts.filter { $0.name != "/health" }.prefix(2).flatMap(\.paths), seed: seed &+ 99,
            acceptEncoding: acceptEncoding
        ).write(
            toFile: mixed, atomically: true, encoding: .utf8)
        let warm = server.residentMB()
        var peak = warm, served = 0, bursts = 0
        while served < requests && bursts < 30 {
            let result = try wrkRun(wrk, script: mixed, base: server.base, seconds: 10)
            served += result.requests
            bursts += 1
            peak = max(peak, server.residentMB())
        }
        let end = server.residentMB()
        print(
            "  memory: \(String(format: "%.1f", warm)) MB warm → \(String(format: "%.1f", end)) MB after \(served) more requests (peak \(String(format: "%.1f", peak)) MB): \(String(format: "%+.1f", (end / warm - 1) * 100))% (limits ≤ 250 MB, growth ≤ 10%)"
        )
    }

    static func minMedian(_ values: [Double], _ format: String) -> String {
        String(format: format, values.min() ?? .nan) + " / " + String(format: format, Measure.median(values))
    }

    /// A wrk script that asks for one of `paths` at random per request, with `Accept-Encoding` when given.
    static func luaScript(paths: [String], seed: UInt64, acceptEncoding: String = "") -> String {
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",\n")
        let headers = acceptEncoding.isEmpty ? "nil" : "{[\"Accept-Encoding\"] = \"\(acceptEncoding)\"}"
        return """
            local paths = {
            \(list)
            }
            local headers = \(headers)
            math.randomseed(\(seed % 1_000_000_007))
            request = function()
              return wrk.format("GET", paths[math.random(#paths)], headers)
            end

            """
    }

    struct WrkResult {
        var requestsPerSecond: Double
        var requests: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        /// Socket errors and answers other than 2xx/3xx.
        var errors: Int
    }

    func wrkRun(_ wrk: String, script: String, base: String, seconds: Int) throws -> WrkResult {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-wrk-\(getpid())").path
        defer { unlink(output) }
        let run = try Measure.spawn(
            wrk,
            ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "--latency", "-s", script, base],
            stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard run.status == 0, let result = Self.parse(text) else {
            throw ValidationError("wrk failed (status \(run.status)): \(text.prefix(500))")
        }
        return result
    }

    /// Reads wrk's `--latency` report.
    static func parse(_ text: String) -> WrkResult? {
        func number(after label: String) -> String? {
            guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
            return line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }
        func milliseconds(_ value: String?) -> Double? {
            guard let value else { return nil }
            for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)]
            where value.hasSuffix(unit) {
                return Double(value.dropLast(unit.count)).map { $0 * scale }
            }
            return nil
        }
        guard let rate = number(after: "Requests/sec:").flatMap(Double.init),
            let p50 = milliseconds(number(after: " 50% ")), let p99 = milliseconds(number(after: " 99% ")),
            let total = text.split(separator: "\n").first(where: { $0.contains("requests in") })?
                .split(separator: " ").first.flatMap({ Int($0) })
        else { return nil }
        var errors = Int(number(after: "Non-2xx or 3xx responses:") ?? "0") ?? 0
        if let socket = text.split(separator: "\n").first(where: { $0.contains("Socket errors:") }) {
            errors += socket.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
        }
        return WrkResult(
            requestsPerSecond: rate, requests: total, p50Milliseconds: p50, p99Milliseconds: p99, errors: errors)
    }
}

/// Latencies of requests sent one after another on one connection (`curl -w %{time_total}` over a list of URLs),
/// started on a thread `after` seconds from now, while something else loads the server.
final class LatencyProbe: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var times: [String: [Double]] = [:]

    init(base: String, paths: [String], after: Double, work: URL, requests: Int = 200) {
        let output = work.appendingPathComponent("probe-\(UUID().uuidString).txt").path
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            Thread.sleep(forTimeInterval: after)
            guard let curl = Measure.which("curl") else { return }
            let urls = (0..<requests).map { base + paths[$0 % paths.count] }
            _ = try? Measure.spawn(
                curl, ["-s", "-o", "/dev/null", "-w", "%{time_total}\\n"] + urls, stdoutPath: output)
            let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
            unlink(output)
            for (index, line) in lines.enumerated() {
                if let seconds = Double(line) { times[paths[index % paths.count], default: []].append(seconds) }
            }
        }
    }

    /// Waits for the probe and gives each path's latencies in seconds.
    func finish() -> [String: [Double]] {
        done.wait()
        return times
    }
}

/// A release `kiosk serve` on a free loopback port, with its own config (empty unless given: no `/etc` settings
/// leak in) and its output in a file; stopped with SIGTERM.
final class ServerProcess {
    let process = Process()
    let base: String
    /// Stop the server (and remove the work folder) when the benchmark is interrupted or terminated (Ctrl-C,
    /// `timeout`): `stop()` runs only on a normal exit, and an orphaned server would go on running.
    private var signalSources: [DispatchSourceSignal] = []

    init(kiosk: String, db: String, at: String, work: URL, config text: String = "", environment: [String: String] = [:])
        throws
    {
        let config = work.appendingPathComponent("bench.toml")
        try Data(text.utf8).write(to: config)
        let log = work.appendingPathComponent("serve.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw ValidationError("cannot create \(log.path)")
        }
        process.executableURL = URL(fileURLWithPath: kiosk)
        process.arguments = ["serve", "--config", config.path, "--db", db, "--port", "0", "--at", at]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        process.standardOutput = FileHandle(forWritingAtPath: log.path)
        process.standardError = FileHandle(forWritingAtPath: log.path)
        try process.run()
        let pid = process.processIdentifier
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let workPath = work.path
            source.setEventHandler {
                kill(pid, SIGTERM)
                try? FileManager.default.removeItem(atPath: workPath)
                exit(128 + number)
            }
            source.resume()
            signalSources.append(source)
        }
        var found: String?
        for _ in 0..<600 where found == nil && process.isRunning {
            Thread.sleep(forTimeInterval: 0.1)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.contains("listening on http://") }.map {
                String($0[$0.range(of: "http://")!.lowerBound...])
            }
        }
        guard let found else {
            process.terminate()
            throw ValidationError(
                "kiosk serve did not start: \((try? String(contentsOf: log, encoding: .utf8))?.prefix(500) ?? "")")
        }
        base = found
    }

    /// What `/metrics` says of the shared "now" answers (`stopkiosk_now_cache_bytes`, `…_answers`).
    func nowCacheSummary() -> String {
        let text = fetch("/metrics", headers: [])
        func value(_ name: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }?.split(separator: " ").last.map(String.init)
                ?? "?"
        }
        let bytes = Double(value("stopkiosk_now_cache_bytes")).map { String(format: "%.1f MB", $0 / 1_048_576) } ?? "?"
        return "now cache \(bytes) stored, \(value("stopkiosk_now_cache_answers")) answers this minute"
    }

    /// The body's size as sent with and without `acceptEncoding`, and the `Content-Encoding` it came with.
    func bodySizes(_ path: String, acceptEncoding: String) -> String {
        func measure(_ headers: [String]) -> String {
            let text = fetch(
                path, headers: headers + ["-o", "/dev/null", "-w", "%{size_download} bytes %{content_type}", "-D", "-"])
            // (By `isNewline`: "\r\n" is one Character, which `split(separator: "\n")` would not cut.)
            let lines = text.split(whereSeparator: \.isNewline).map(String.init)
            let encoding = lines.first { $0.lowercased().hasPrefix("content-encoding:") }
            let tail = lines.last ?? "?"
            return tail + (encoding.map { ", " + $0.trimmingCharacters(in: .whitespaces) } ?? "")
        }
        return "identity " + measure([])
            + (acceptEncoding.isEmpty
                ? ""
                : "; with Accept-Encoding: \(acceptEncoding) " + measure(["-H", "Accept-Encoding: \(acceptEncoding)"]))
    }

    /// `curl -s` of a path on the server: its output, "" when curl is missing or fails.
    func fetch(_ path: String, headers: [String]) -> String {
        guard let curl = Measure.which("curl") else { return "" }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-curl-\(getpid())").path
        defer { unlink(output) }
        _ = try? Measure.spawn(curl, ["-s"] + headers + [base + path], stdoutPath: output)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The server's resident memory now (`VmRSS`), in MB.
    func residentMB(_ field: String = "VmRSS") -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return (line?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? .nan) / 1024
    }

    /// The resident size split: the process's own memory, and the pages of mapped files (the timetable image,
    /// the executable) that the page cache holds and can drop.
    func residentSplit() -> String {
        String(
            format: "%.1f MB its own (RssAnon), %.1f MB of mapped files", residentMB("RssAnon"), residentMB("RssFile"))
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
