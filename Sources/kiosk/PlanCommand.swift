import ArgumentParser
import Foundation
import KioskConfiguration
import StopPresentation
import SystemSupport
import TransitModel
import TransitStore
import TripPlanning

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Find the best ways from one stop to another, with transfers and short walks.",
        discussion: """
            FROM and TO are stop IDs, stop codes, scanned stop URLs or names. Names ignore accents, case and \
            punctuation ("cumbaya" finds Cumbayá); when several stops match equally, they are listed with their \
            codes instead of guessed. A station stands for all its platforms. Shows up to three options, best \
            arrival first, each leaving as late as it can. --speak and --speak-to say the best option (--speech full: \
            every option) on the sound device or into a WAV file.
            """
    )

    @Argument(help: "Where the journey starts.")
    var from: String

    @Argument(help: "Where it ends.")
    var to: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @OptionGroup var moment: MomentOption

    @Option(help: "Most transfers an option may have (0–8).")
    var maxTransfers = 3

    @Option(help: "Walks between different stops up to this distance in metres (0 disables them; at most 2000).")
    var walkRadius = 400

    @Option(help: "Minimum seconds to change vehicles at the same stop.")
    var minTransfer = 60

    @OptionGroup var output: OutputOptions

    @OptionGroup var speech: SpeechOptions

    @Option(
        help: ArgumentHelp(
            "Also draw an option's journey map (SVG) into this file (.svg): rides along their shapes, walks dashed, points numbered in the order of the text plan's lines.",
            valueName: "file.svg"))
    var map: String?

    @Option(help: "Which option --map draws (1–3).")
    var mapOption = 1

    @Option(
        help: ArgumentHelp(
            "Arrive by this local date-time instead: the latest departures that still make it (not before --at when given, else from 3 hours before).",
            valueName: "time"))
    var arriveBy: String?

    @Flag(
        help:
            "Step-free journeys only: trips marked wheelchair accessible, boarding and alighting at stops (or their station) marked accessible; unknown counts as not accessible, and walks are not known to be step-free."
    )
    var wheelchair = false

    @OptionGroup var live: LiveOptions

    func validateNumbers() throws {
        guard (0...8).contains(maxTransfers) else {
            throw ValidationError("--max-transfers must be between 0 and 8 (got \(maxTransfers))")
        }
        guard (0...PlanningRules.walkRadiusLimit).contains(walkRadius) else {
            throw ValidationError(
                "--walk-radius must be between 0 and \(PlanningRules.walkRadiusLimit) metres (got \(walkRadius))")
        }
        guard (0...1800).contains(minTransfer) else {
            throw ValidationError("--min-transfer must be between 0 and 1800 seconds (got \(minTransfer))")
        }
    }

    func validate() throws {
        try validateNumbers()
        guard (1...3).contains(mapOption) else {
            throw ValidationError("--map-option must be between 1 and 3 (got \(mapOption))")
        }
    }

    func run() throws {
        // Warnings (a stale or damaged timetable image) on standard error; notices only with kiosk serve's log.
        bootstrapLogging(verbose: false)
        if let map {
            try checkPicture(map, option: "--map", standardOutputRefused: "the plan itself is printed there")
        }
        try speech.check()
        // Writing a file: a signal removes the unfinished one, and ulimit -f is an error by name.
        let signals =
            map != nil || speech.speakTo != nil
            ? ProcessSignals.removeTemporaryFilesOnTermination(command: "plan") : nil
        defer { signals?.cancel() }
        try reportingLookupErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let locale = output.locale(config: config, routes: routes)
            let language = locale.language
            let clock = try moment.instant(in: routes.timeZone)  // --at, else now: freshness is judged there
            var instant = clock
            let deadline = try arriveBy.map { try MomentOption(at: $0).instant(in: routes.timeZone) }
            if let deadline, moment.at == nil { instant = deadline.addingTimeInterval(-PlanOptions.arriveByWindow) }
            let origin = try routes.resolveJourneyEnd(from)
            let destination = try routes.resolveJourneyEnd(to)
            // Live data as lookup reads it (--realtime, else the config's feeds), judged fresh at --at.
            let liveData = try live.load(config: config, routes: routes, now: clock)
            let plan = try routes.livePlan(
                from: origin, to: destination, at: instant, maxTransfers: maxTransfers,
                rules: PlanningRules(walkRadiusMeters: walkRadius, minTransferSeconds: minTransfer),
                options: PlanOptions(arriveBy: deadline, stepFree: wheelchair), live: liveData,
                now: clock, cache: PlanningOverlayCache())
            if !speech.printSpeech {
                print(
                    output.json
                        ? try KioskJSON.encode(plan, timeZone: routes.timeZone)
                        : JourneyPlanText.render(plan, locale: locale))
            }
            if let map {
                guard plan.options.count >= mapOption else {
                    printError(
                        "error: no journey option \(mapOption) to draw (the plan has \(plan.options.count)); nothing was written to \(map)"
                    )
                    throw ExitCode(ExitStatus.badInput)
                }
                let geometry = try routes.journeyMap(plan, option: mapOption - 1)
                try writePicture(journeyMapSVG(for: geometry, language: language, conventions: locale), to: map, option: "--map")
            }
            if speech.wanted {
                try speech.perform(
                    JourneyPlanSpeech.text(plan, language: language, detail: speech.speech), language: language,
                    config: config)
            }
        }
    }
}
