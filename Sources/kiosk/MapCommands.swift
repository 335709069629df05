import ArgumentParser
import Foundation
import KioskConfiguration
import StopPresentation
import SystemSupport
import TransitModel
import TransitStore

/// `--out FILE.svg`: where a picture goes. Written atomically: the file appears whole or not at all.
struct PictureOutput: ParsableArguments {
    @Option(help: ArgumentHelp("The SVG file to write (- for standard output).", valueName: "file.svg"))
    var out: String

    /// Refuses a device, a FIFO, a read-only file or a name not ending in .svg before any work (exit 2).
    func check() throws { try checkPicture(out, option: "--out") }

    func write(_ svg: String) throws { try writePicture(svg, to: out, option: "--out") }
}

/// Checks an SVG picture's destination (see `OutputFile`); `-` is standard output unless `why` says it cannot be.
func checkPicture(_ path: String, option: String, standardOutputRefused why: String? = nil) throws {
    try OutputFile.check(
        path, option: option, format: "an SVG", extensions: ["svg"],
        standardOutput: why.map { .refused(why: $0) } ?? .allowed(binary: false))
}

/// Writes an SVG atomically (`-`: to standard output); a refused path is bad input (exit 2), a failure while
/// writing (a full disk) a runtime failure (exit 1), each naming the path.
func writePicture(_ svg: String, to path: String, option: String) throws {
    do {
        if path == OutputDestination.standardOutputName {
            try OutputDestination.writeStandardOutput(Array(svg.utf8))
        } else {
            try AtomicFile.write(Array(svg.utf8), to: path, purpose: "svg", rule: .writableByMode)
        }
    } catch {
        throw OutputFile.failure(error, option: option)
    }
}

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw a stop's map as SVG: nearby stops, the routes serving it, a scale bar and a north arrow.",
        discussion: """
            STOP is a stop ID, stop code or scanned stop URL; it is drawn at the centre of a local projection (no \
            map tiles: the picture works offline). Route paths come from shapes.txt, coloured by route_color with an \
            outline and labelled with the short name; a route without a shape is drawn dashed from stop to stop, and \
            the text under the map says so. The SVG's <title>, <desc> and legend carry the same content as text.
            """
    )

    @Argument(help: "A stop ID, stop code or scanned stop URL.")
    var stop: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @Option(help: "Radius for nearby stops, in metres (50–5000; default: the config's nearby_radius_meters).")
    var nearby: Int?

    @Option(help: "Language of the picture's text: es or en (default: the config's, else the feed's).")
    var lang: Language?

    @OptionGroup var picture: PictureOutput

    func validate() throws {
        if let nearby, !(50...5000).contains(nearby) {
            throw ValidationError("--nearby must be between 50 and 5000 metres (got \(nearby))")
        }
    }

    func run() throws {
        try picture.check()
        let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "map")
        defer { signals.cancel() }
        try reportingLookupErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let locale = OutputOptions.locale(self.lang, config: config, routes: routes)
            let resolved = try routes.resolveStop(try StopQuery.reference(for: stop, routes: routes, config: config))
            let map = try routes.stopMap(for: resolved, radiusMeters: nearby ?? max(50, config.nearbyRadiusMeters))
            try picture.write(stopMapSVG(for: map, language: locale.language, conventions: locale))
        }
    }
}

struct DiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw one direction of a route as a line diagram (SVG), or print it as text.",
        discussion: """
            ROUTE is a route_id, or a short name that only one route has. The stops are those of the route's \
            longest trip in that direction (one that calls at --stop when given), in travel order; --stop is \
            highlighted, and stops where other routes board show their badges. Without --out the diagram is \
            printed as a text list (the form the terminal kiosk shows).
            """
    )

    @Argument(help: "A route_id or short name.")
    var route: String

    @Option(help: "The direction_id to draw (0 or 1; default: the one serving --stop, else the first).")
    var direction: Int?

    @Option(help: "The viewer's stop (ID, code or scanned URL), highlighted on the diagram.")
    var stop: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @Option(help: "Language of the diagram's text: es or en (default: the config's, else the feed's).")
    var lang: Language?

    @Option(
        help: ArgumentHelp(
            "The SVG file to write, - for standard output (default: print the diagram as text).",
            valueName: "file.svg"))
    var out: String?

    func validate() throws {
        if let direction, !(0...1).contains(direction) {
            throw ValidationError("--direction must be 0 or 1 (got \(direction))")
        }
    }

    func run() throws {
        if let out { try checkPicture(out, option: "--out") }
        let signals = out.map { _ in ProcessSignals.removeTemporaryFilesOnTermination(command: "diagram") }
        defer { signals?.cancel() }
        try reportingLookupErrors {
            let config = try configOption.load()
            let routes = try database.open(config: config)
            let language = OutputOptions.language(self.lang, config: config, routes: routes)
            let viewer = try stop.map {
                try routes.resolveStop(try StopQuery.reference(for: $0, routes: routes, config: config))
            }
            let diagram: RouteDiagram
            do {
                diagram = try routes.routeDiagram(route: route, direction: direction, viewer: viewer)
            } catch let error as LabelSelectionError {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.badInput)
            }
            if let out {
                try writePicture(routeDiagramSVG(for: diagram, language: language), to: out, option: "--out")
            } else {
                print(RouteDiagramRendering.text(diagram, language: language))
            }
        }
    }
}
