import ArgumentParser
import Foundation
import KioskConfiguration
import Logging
import ScanService
import Scanning
import StopCodes
import StopPresentation
import Synchronization
import SystemSupport
import TransitModel
import TransitStore

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read stop codes from a camera, a Y4M video or images, and resolve them to stops.",
        discussion: """
            Frames go through the kiosk's own pipeline: change detection, zbar then zxing-cpp ([scanner] decoders), \
            debouncing, the payload parser with the label signature check, and the route database. One line per \
            accepted scan; with --json, JSON Lines with source, frame, symbology, text, display_text, decoder, status, \
            stop {id, code, name}, detail, found_by and latency_ms. The status is stop, not_a_stop_code, forged, \
            signature_required or unknown_stop. In JSON, text is the payload exactly as decoded (control characters \
            JSON-escaped) and display_text its sanitised form; the text output shows only the sanitised form.

            Replays (--video, --images) end at the end of the input, with status 0. A camera runs until SIGINT or \
            SIGTERM and, with --reconnect (the default), survives being unplugged; camera state changes are reported \
            on standard error. A missing or corrupt image or video file is an error naming the file (status 2).

            Unpaced replays debounce on their own clock: the video's frame rate, or --fps for images.
            """
    )

    @Option(help: ArgumentHelp("A V4L2 camera device, e.g. /dev/video0 or /dev/v4l/by-id/….", valueName: "path"))
    var device: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Image files or folders of images (PNG, JPEG, PGM), replayed in order.", valueName: "path"))
    var images: [String] = []

    @Option(help: ArgumentHelp("A YUV4MPEG2 (.y4m) video to replay.", valueName: "file"))
    var video: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @Flag(help: "Print JSON Lines instead of text.")
    var json = false

    @Flag(help: "Stop after the first accepted scan.")
    var once = false

    @Option(
        help: ArgumentHelp(
            "The URL template of this network's labels (default \(KioskConfig().urlTemplate)).", valueName: "template"))
    var template: String?

    @Option(
        help: ArgumentHelp(
            "Label signatures: require, prefer or off (default \(KioskConfig().signaturePolicy.rawValue)).",
            valueName: "policy"))
    var policy: SignaturePolicy?

    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp("A trusted public key line (stopkiosk-ed25519-public-v1:…); repeatable.", valueName: "line"))
    var publicKeys: [String] = []

    @Option(
        help: ArgumentHelp(
            "Symbologies to look for, e.g. qrcode, code128, ean13; repeatable (default \(KioskConfig().symbologies.joined(separator: ", "))).",
            valueName: "name"))
    var symbology: [String] = []

    @Option(
        help: ArgumentHelp(
            "Seconds before the same code counts again (0 reports it on every frame; default \(String(format: "%g", KioskConfig().debounceSeconds))).",
            valueName: "seconds"))
    var debounce: Double?

    @Option(help: "Camera frame width to ask for.")
    var width: Int?

    @Option(help: "Camera frame height to ask for.")
    var height: Int?

    @Option(help: "Camera frame rate to ask for; for --images, the rate the images count as frames of (default 30).")
    var fps: Double?

    @Flag(inversion: .prefixedNo, help: "Reopen a camera that is unplugged or missing, with backoff.")
    var reconnect = true

    @Option(
        help: ArgumentHelp(
            "Replay at a frame rate (a number or 'native') instead of as fast as possible.", valueName: "rate"))
    var pace: String?

    @Option(help: "Language of the text output: es or en.")
    var lang: Language = .es

    @Flag(name: .shortAndLong, help: "Log progress and print a summary to standard error.")
    var verbose = false

    func validate() throws {
        let chosen = [device != nil, !images.isEmpty, video != nil].filter { $0 }.count
        guard chosen == 1 else {
            throw ValidationError("give exactly one of --device PATH, --images PATH…, --video FILE")
        }
        if let debounce, !(debounce.isFinite && debounce >= 0 && debounce <= 3600) {
            throw ValidationError("--debounce must be between 0 and 3600 seconds (got \(debounce))")
        }
        if let width, !(1...16384).contains(width) {
            throw ValidationError("--width must be between 1 and 16384 (got \(width))")
        }
        if let height, !(1...16384).contains(height) {
            throw ValidationError("--height must be between 1 and 16384 (got \(height))")
        }
        if let fps, !(fps > 0 && fps <= 1000) {
            throw ValidationError("--fps must be above 0 and at most 1000 (got \(fps))")
        }
        _ = try pacing()
    }

    func run() throws {
        // Before any capture thread starts, so every thread inherits the blocked signals (see ProcessSignals).
        let signals = ScanSignals.install()
        defer { signals.cancel() }
        bootstrapLogging(verbose: verbose)
        let logger = Logger(label: "kiosk.scan")
        // The kiosk's config first (templates, keys, policy, symbologies, debounce, camera size); options override it.
        var config = try configOption.load()
        if let template { config.urlTemplate = template }
        if let policy { config.signaturePolicy = policy }
        config.publicKeys += publicKeys
        if !symbology.isEmpty { config.symbologies = symbology }
        if let debounce { config.debounceSeconds = debounce }

        try reportingLookupErrors {
            let routes = try database.open(config: config)
            let resolver: ScanResolver
            var pipelineConfiguration: ScanPipelineConfiguration
            do {
                resolver = try ScanResolver(config: config, database: routes)
                pipelineConfiguration = try ScanPipelineConfiguration(kiosk: config)
            } catch {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.badInput)
            }

            let spec = try sourceSpec(config)
            let source = try capturing { () throws(CaptureError) in try spec.open() }
            pipelineConfiguration.timeline = timeline(for: source)
            if source is ImageFolderSource {
                // Each image is looked at once: every image decoded, with both decoders' whole ladders.
                pipelineConfiguration.decoder.recoveryBudget = nil
                pipelineConfiguration.changeDetection = nil
            }
            let pipeline = ScanPipeline(source: source, resolver: resolver, configuration: pipelineConfiguration)
            defer { pipeline.close() }
            logger.info(
                "scanning \(source.name) for \(pipelineConfiguration.decoder.symbologies.map(\.name).sorted().joined(separator: ", ")) against \(routes.path) (feed \(routes.feedID))"
            )

            let started = DispatchTime.now().uptimeNanoseconds
            do {
                try pipeline.run(until: { ScanSignals.stopRequested }) { event in
                    switch event {
                    case .scan(let scan):
                        write(json ? ScanJSON.line(scan) : ScanText.line(scan, language: lang))
                        return once ? .stop : .proceed
                    case .camera(let name, let state):
                        printError("kiosk scan: " + ScanText.camera(state, source: name, language: lang))
                    case .cameraProblem(let error):
                        printError("kiosk scan: \(TerminalText.sanitize(error.description, maxLength: 300))")
                    }
                    return .proceed
                }
            } catch let error as CaptureError {
                throw failure(error)
            }
            if verbose {
                summary(pipeline.statistics, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
        }
    }

    // MARK: - Source

    func pacing() throws -> ReplayPacing {
        guard let pace else { return .unpaced }
        if pace == "native" { return .native }
        guard let rate = Double(pace), rate > 0, rate <= 1000 else {
            throw ValidationError("--pace must be a frame rate above 0 and at most 1000, or 'native' (got \(pace))")
        }
        return .framesPerSecond(rate)
    }

    func sourceSpec(_ config: KioskConfig) throws -> FrameSourceSpec {
        if let device {
            let camera = CameraConfiguration(
                device: device, width: width ?? config.cameraWidth, height: height ?? config.cameraHeight,
                framesPerSecond: fps ?? Double(config.cameraFramesPerSecond))
            return .camera(camera, reconnect: reconnect)
        }
        if let video { return .video(path: video, pacing: try pacing()) }
        if images.count == 1, isDirectory(images[0]) { return .imageFolder(path: images[0], pacing: try pacing()) }
        var files: [String] = []
        for path in images {
            if isDirectory(path) {
                files += try capturing { () throws(CaptureError) in try ImageFolderSource.listImages(in: path) }
            } else {
                files.append(path)
            }
        }
        return .imageFiles(files, pacing: try pacing())
    }

    /// Cameras and paced replays debounce on arrival time; unpaced replays on their own frame clock.
    func timeline(for source: any FrameSource) -> ScanTimeline {
        guard device == nil, pace == nil else { return .arrival }
        if let video = source as? Y4MFileSource { return .frames(perSecond: video.header.framesPerSecond ?? 30) }
        return .frames(perSecond: fps ?? 30)
    }

    private func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    // MARK: - Output

    /// One line, written at once (also when standard output is a pipe or a file someone is following).
    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Runs `body`, turning a capture error into the exit it calls for.
    private func capturing<T>(_ body: () throws(CaptureError) -> T) throws -> T {
        do throws(CaptureError) {
            return try body()
        } catch {
            throw failure(error)
        }
    }

    /// A capture error as the exit the design promises: files and settings are bad input (2), a camera that
    /// failed is a runtime failure (1). Either way the message names the device or file.
    private func failure(_ error: CaptureError) -> ExitCode {
        printError("error: \(TerminalText.sanitize(error.description, maxLength: 400))")
        switch error {
        case .noSuchFile, .unreadableFile, .corruptVideo, .unreadableImage, .emptyFolder, .invalidConfiguration:
            return ExitCode(ExitStatus.badInput)
        default:
            return ExitCode(ExitStatus.failure)
        }
    }

    private func summary(_ statistics: ScanStatistics, seconds: Double) {
        let fps = seconds > 0 ? Double(statistics.frames) / seconds : 0
        let decodeMs =
            statistics.decodedFrames > 0 ? Double(statistics.decodeNanos) / 1e6 / Double(statistics.decodedFrames) : 0
        printError(
            String(
                format:
                    "kiosk scan: %d frames in %.2f s (%.1f fps), %d decoded (%.2f ms each), %d symbols, %d scans, %d debounced, %d camera errors",
                statistics.frames, seconds, fps, statistics.decodedFrames, decodeMs, statistics.symbols,
                statistics.scans,
                statistics.debounced, statistics.cameraErrors))
    }
}

extension SignaturePolicy: ExpressibleByArgument {}

/// SIGINT and SIGTERM ask the scanning loop to finish the frame it is on and stop (exit 0), so a camera is
/// always closed properly and the last line of output is complete.
enum ScanSignals {
    private static let flag = Atomic<Bool>(false)

    static var stopRequested: Bool { flag.load(ordering: .relaxed) }

    static func install() -> SignalObservation {
        ProcessSignals.observe([SIGINT, SIGTERM]) { _ in flag.store(true, ordering: .relaxed) }
    }
}
