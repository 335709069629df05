import ArgumentParser
import Foundation
import JourneyPlanner
import TransitModel
import TransitStore
import TripPlanning

/// The journey planner on a real-size network: building the timetable of the days a query touches from the
/// database, its memory, and 1,000 random stop-to-stop queries (planner alone, and dressed as a JourneyPlan).
struct PlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Timetable build time, memory and query latency.")

    @Option(help: "A route database made by 'kiosk import' (e.g. of vilnius.zip scaled ×3).")
    var db: String

    @Option(help: "Random stop-to-stop queries.")
    var count = 1000

    @Option(help: "Timetable builds to time.")
    var builds = 3

    @Option(help: "Most transfers per query.")
    var maxTransfers = 4

    @Option(help: "Walking radius in metres.")
    var walkRadius = 400

    @Option(help: "Random seed.")
    var seed: UInt64 = 7

    @Option(help: "Opens of the timetable image to time (written beside a copy of nothing: to a temporary file).")
    var opens = 9

    @Option(
        help: ArgumentHelp(
            "Also time 'kiosk plan' as a process (wall time, peak resident memory): this kiosk executable, with the database's timetable image and without it.",
            valueName: "kiosk"))
    var kiosk: String?

    @Option(help: "Processes per variant with --kiosk.")
    var processes = 7

    @Option(help: "Passes of the same queries on the image, each reported (the machine's noise shows between them).")
    var passes = 1

    func validate() throws {
        guard passes >= 1 else { throw ValidationError("--passes must be at least 1, not \(passes)") }
    }

    func run() throws {
        let routes = try RouteDatabase(path: db)
        guard let day = routes.busiestServiceDate() else { throw ValidationError("\(db) has no service dates") }
        let morning = day.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(7 * 3600)
        let rules = PlanningRules(walkRadiusMeters: walkRadius)

        var buildTimes: [Double] = []
        var network: PlanningNetwork?
        for _ in 0..<builds {
            let (built, seconds) = try Measure.seconds {
                try routes.planningNetwork(queryDays: day...day, rules: rules)
            }
            buildTimes.append(seconds)
            network = built
        }
        let timetable = network!.timetable
        print(
            """
            timetable for \(network!.serviceDates.first!)…\(network!.serviceDates.last!) around \(day) (\(timetable.tripCount) trips, \(timetable.stopEventCount) stop events, \(timetable.walkCount) walks)
              build from the database: min \(Measure.format(buildTimes.min()!))  median \(Measure.format(Measure.median(buildTimes)))  (limit 1.5 s)
              memory: \(String(format: "%.1f", Double(timetable.memoryFootprintBytes) / 1_048_576)) MB
            """)

        let image = try imageFigures(routes, day: day, compiled: network!)
        if let kiosk { try processFigures(kiosk, routes: routes, day: day, morning: morning) }

        let planner = Planner(timetable: timetable)
        var imageQueries: [PlanQuery] = []
        let stops = try routes.boardingStopIDs()
        var rng = SplitMix64(seed: seed)
        var plannerTimes: [Double] = [], dressedTimes: [Double] = []
        var answered = 0
        for _ in 0..<count {
            let a = stops[Int(rng.next() % UInt64(stops.count))], b = stops[Int(rng.next() % UInt64(stops.count))]
            guard a != b else { continue }
            let from = try routes.resolveStop(.id(a)), to = try routes.resolveStop(.id(b))
            guard from.stop.id != to.stop.id, Set(from.platforms.map(\.id)).isDisjoint(with: to.platforms.map(\.id))
            else { continue }
            let at = morning.addingTimeInterval(Double(rng.next() % (14 * 3600)))
            // The planner alone, as the issue's figure asks…
            let query = PlanQuery(
                origins: from.platforms.compactMap { stopIndex(of: $0, routes) }.map { StopOffset(stop: $0) },
                destinations: to.platforms.compactMap { stopIndex(of: $0, routes) }.map { StopOffset(stop: $0) },
                departure: network!.timelineSeconds(at), maxTransfers: maxTransfers)
            let (journeys, raw) = Measure.seconds { planner.plan(query) }
            plannerTimes.append(raw)
            var onImage = query
            onImage.departure = image.timelineSeconds(at)
            imageQueries.append(onImage)
            if !journeys.isEmpty { answered += 1 }
            // …and the whole answer a passenger gets (legs resolved to stops, trips and times).
            let (_, dressed) = try Measure.seconds {
                try routes.plan(
                    from: from, to: to, at: at, maxTransfers: maxTransfers, rules: rules, network: network,
                    planner: planner)
            }
            dressedTimes.append(dressed)
        }
        // The same queries on the image the server maps (its four days' trips): what a served plan searches. In a
        // loop of their own, as on the server (one network's data in the caches, not two).
        let imagePlanner = Planner(timetable: image.timetable)
        let imagePasses = (0..<passes).map { _ in
            imageQueries.map { query in Measure.seconds { imagePlanner.plan(query) }.1 }.sorted()
        }
        let imageTimes = imagePasses[0]
        let passFigures = imagePasses.dropFirst().map { times in
            "p50 \(Measure.ms(Measure.percentile(times, 50)))  p99 \(Measure.ms(Measure.percentile(times, 99)))"
        }
        plannerTimes.sort(); dressedTimes.sort()
        print(
            """
            \(plannerTimes.count) random stop-to-stop queries (max \(maxTransfers) transfers, \(walkRadius) m walks), \(answered) with a journey:
              planner:        p50 \(Measure.ms(Measure.percentile(plannerTimes, 50)))  p99 \(Measure.ms(Measure.percentile(plannerTimes, 99)))  max \(Measure.ms(plannerTimes.last!))  (targets p50 ≤ 1.5 ms, p99 ≤ 5 ms; goals 1 and 3 ms)
              on the image:   p50 \(Measure.ms(Measure.percentile(imageTimes, 50)))  p99 \(Measure.ms(Measure.percentile(imageTimes, 99)))  max \(Measure.ms(imageTimes.last!))\(passFigures.map { "\n    again:        " + $0 }.joined())
              whole answer:   p50 \(Measure.ms(Measure.percentile(dressedTimes, 50)))  p99 \(Measure.ms(Measure.percentile(dressedTimes, 99)))  max \(Measure.ms(dressedTimes.last!))
              planner scratch memory: \(String(format: "%.1f", Double(planner.scratchBytes) / 1_048_576)) MB
            """)
    }

    /// The image `kiosk import` writes: compile and write time, size, and what opening it costs (map + checks),
    /// against compiling the day from the database; plans from it must equal plans from the compiled day.
    private func imageFigures(
        _ routes: RouteDatabase, day: ServiceDate, compiled: PlanningNetwork
    ) throws -> PlanningNetwork {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-\(getpid()).timetable")
            .path
        defer { unlink(path) }
        let report = try PlanningImage.write(for: routes, to: path, firstDay: day)
        var openTimes: [Double] = []
        var opened: PlanningNetwork?
        for _ in 0..<opens {
            let (network, seconds) = try Measure.seconds { try PlanningImage.load(path, for: routes) }
            openTimes.append(seconds)
            opened = network
        }
        let image = opened!
        var rng = SplitMix64(seed: seed ^ 0x1A)
        let stops = try routes.boardingStopIDs()
        var same = 0, compared = 0
        for _ in 0..<50 {
            let a = stops[Int(rng.next() % UInt64(stops.count))], b = stops[Int(rng.next() % UInt64(stops.count))]
            guard let from = try? routes.resolveEndpoint(a), let to = try? routes.resolveEndpoint(b),
                Set(from.platformIndexes).isDisjoint(with: to.platformIndexes)
            else { continue }
            let at = day.serviceDayOrigin(in: routes.timeZone).addingTimeInterval(
                Double(6 * 3600 + rng.next() % (16 * 3600)))
            let x = try routes.plan(from: from, to: to, at: at, maxTransfers: maxTransfers, network: image)
            let y = try routes.plan(from: from, to: to, at: at, maxTransfers: maxTransfers, network: compiled)
            compared += 1
            if x == y { same += 1 }
        }
        print(
            """
            timetable image (\(report.queryDays.lowerBound)…\(report.queryDays.upperBound), \(report.trips) trips, \(report.stopEvents) stop events): \(String(format: "%.1f", Double(report.bytes) / 1_048_576)) MB
              compile \(Measure.format(report.compileSeconds)), write \(Measure.format(report.writeSeconds))
              open (map + checks): min \(Measure.ms(openTimes.min()!))  median \(Measure.ms(Measure.median(openTimes)))
              plans from the image equal plans from the compiled day: \(same) of \(compared)
            """)
        return image
    }

    /// `kiosk plan` processes between two busy stops at 08:00, with the image beside the database and without it
    /// (moved away for the run, then put back). The image is first rewritten to cover `day`.
    private func processFigures(_ kiosk: String, routes: RouteDatabase, day: ServiceDate, morning: Date) throws {
        try PlanningImage.write(for: routes, to: PlanningImage.path(forDatabase: db), firstDay: day)
        let stops = try routes.boardingStopIDs()
        let at = LocalTime.iso8601(morning.addingTimeInterval(3600), in: routes.timeZone).prefix(16)
        let arguments = [
            "plan", stops[stops.count / 3], stops[2 * stops.count / 3], "--db", db, "--at", String(at), "--json",
        ]
        let image = PlanningImage.path(forDatabase: db)
        let aside = image + ".aside"
        var results: [(String, [Measure.ChildRun])] = []
        for variant in ["with the image", "without it (compiled in memory)"] {
            let moved = variant.hasPrefix("without") && rename(image, aside) == 0
            defer { if moved { rename(aside, image) } }
            var runs: [Measure.ChildRun] = []
            // Through GNU time: a child spawned from this (large) process would report this process's peak as its
            // own (the kernel carries the spawning address space's high-water mark across exec).
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-rss-\(getpid())")
                .path
            defer { unlink(report) }
            for _ in 0..<processes {
                var run = try Measure.spawn("/usr/bin/time", ["-f", "%M", "-o", report, kiosk] + arguments)
                guard run.status == 0 else {
                    throw ValidationError("kiosk \(arguments.joined(separator: " ")) exited \(run.status)")
                }
                let kilobytes = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last
                run.peakResidentMB = Double(kilobytes.map(String.init) ?? "").map { $0 / 1024 } ?? .nan
                runs.append(run)
            }
            results.append((variant, runs))
        }
        print("kiosk \(arguments.joined(separator: " ")) (\(processes) processes each):")
        for (variant, runs) in results {
            let seconds = runs.map(\.seconds), peaks = runs.map(\.peakResidentMB)
            print(
                "  \(variant): wall min \(Measure.ms(seconds.min()!))  median \(Measure.ms(Measure.median(seconds)))  peak resident median \(String(format: "%.1f", Measure.median(peaks))) MB, max \(String(format: "%.1f", peaks.max()!)) MB"
            )
        }
    }

    private func stopIndex(of stop: StopInfo, _ routes: RouteDatabase) -> Int? {
        routes.plannerIndex(ofStopID: stop.id)
    }
}
