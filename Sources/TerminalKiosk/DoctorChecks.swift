import Foundation
import KioskConfiguration
import ScanService
import Scanning
import StopCodes
import StopPresentation
import TransitModel
import TransitStore

/// One finding of `kiosk doctor`.
public struct DoctorCheck: Sendable, Equatable {
    public enum Status: String, Sendable {
        case ok = "ok"
        case warning = "warn"
        case problem = "FAIL"
    }

    public var area: String
    public var status: Status
    public var detail: String
    /// What to do about it (problems and warnings).
    public var fix: String?

    public init(area: String, status: Status, detail: String, fix: String? = nil) {
        self.area = area
        self.status = status
        self.detail = detail
        self.fix = fix
    }
}

/// The checks `kiosk doctor` runs on a kiosk before (or after) it goes on a pole: config, database, camera,
/// fonts, terminal. Each says what is wrong and what to do.
public enum KioskDoctor {
    /// The fonts the label generator draws with (Debian's fonts-dejavu-core).
    public static let fontPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ]

    public static func checkDatabase(path: String, config: KioskConfig, now: Date, warnDays: Int = 14) -> [DoctorCheck]
    {
        var checks: [DoctorCheck] = []
        let database: RouteDatabase
        do {
            database = try RouteDatabase(path: path)
        } catch {
            return [
                DoctorCheck(
                    area: "database", status: .problem, detail: "\(error)",
                    fix: "import the agency's GTFS feed: kiosk import FEED.zip --db \(path)")
            ]
        }
        // The check the server runs before it takes a file into service: every page readable, a finished import.
        do {
            try database.verify(separateConnection: false)
        } catch {
            return [
                DoctorCheck(
                    area: "database", status: .problem, detail: "\(error)",
                    fix: "import the feed again: kiosk import FEED.zip --db \(path)")
            ]
        }
        let today = ServiceDate.containing(now, in: database.timeZone)
        let range = "\(database.serviceStart?.description ?? "?") to \(database.serviceEnd?.description ?? "?")"
        do {
            try database.checkServiceRange(today)
            if let end = database.serviceEnd, end.dayNumber - today.dayNumber < warnDays {
                checks.append(
                    DoctorCheck(
                        area: "database", status: .warning,
                        detail:
                            "\(path): \(database.feedName), service dates \(range): ends in \(end.dayNumber - today.dayNumber) days",
                        fix: "import the next timetable before \(end)"))
            } else {
                checks.append(
                    DoctorCheck(
                        area: "database", status: .ok,
                        detail: "\(path): \(database.feedName), service dates \(range) cover today (\(today))"))
            }
        } catch {
            checks.append(
                DoctorCheck(
                    area: "database", status: .problem,
                    detail: "\(path): service dates \(range) do not cover today (\(today))",
                    fix: "import a current timetable: kiosk import FEED.zip --db \(path)"))
        }
        if let home = config.homeStop {
            do {
                let stop = try database.resolveStop(.idOrCode(RouteDatabase.validateQuery(home)))
                checks.append(
                    DoctorCheck(
                        area: "home stop", status: .ok,
                        detail:
                            "\(TerminalText.sanitize(home, maxLength: 40)): \(TerminalText.sanitize(stop.stop.name, maxLength: 60))"
                    ))
            } catch {
                checks.append(
                    DoctorCheck(
                        area: "home stop", status: .problem, detail: "\(error)",
                        fix: "set home_stop to a stop ID or code of this feed"))
            }
        } else {
            checks.append(
                DoctorCheck(
                    area: "home stop", status: .warning, detail: "no home_stop: the idle screen shows no departures",
                    fix: "set home_stop to the stop the kiosk stands at"))
        }
        do {
            let parser = try config.payloadParser(databaseFeedID: database.feedID)
            let keys = parser.trustedKeys.count
            checks.append(
                DoctorCheck(
                    area: "labels", status: .ok,
                    detail:
                        "template \(config.urlTemplate), feed ID \(parser.feedID), signatures \(config.signaturePolicy.rawValue), \(keys) trusted key\(keys == 1 ? "" : "s")"
                ))
        } catch {
            checks.append(
                DoctorCheck(area: "labels", status: .problem, detail: "\(error)", fix: "correct [labels] in the config")
            )
        }
        return checks
    }

    /// Opens the camera, asks for the configured format and waits up to `timeout` for one frame.
    public static func checkCamera(_ config: KioskConfig, timeout: Duration = .seconds(3)) -> [DoctorCheck] {
        let device = config.cameraDevice
        switch V4L2Devices.describe(device) {
        case let .failure(error):
            let others = V4L2Devices.list().filter(\.isCapture).map { "\($0.path) (\($0.card))" }
            return [
                DoctorCheck(
                    area: "camera", status: .problem, detail: error.description,
                    fix: others.isEmpty
                        ? "plug in the webcam; check `ls /dev/v4l/by-id/`"
                        : "cameras present: \(others.joined(separator: ", ")); set camera.device")
            ]
        case let .success(info):
            guard info.isCapture else {
                return [
                    DoctorCheck(
                        area: "camera", status: .problem,
                        detail: "\(device) (\(info.card)) is not a video capture node",
                        fix: "use the camera's capture node, e.g. /dev/v4l/by-id/…-video-index0")
                ]
            }
            do {
                let camera = try V4L2CameraSource(
                    CameraConfiguration(
                        device: device, width: config.cameraWidth, height: config.cameraHeight,
                        framesPerSecond: Double(config.cameraFramesPerSecond)))
                defer { camera.close() }
                guard let frame = try camera.nextFrame(timeout: timeout) else {
                    return [
                        DoctorCheck(
                            area: "camera", status: .problem, detail: "\(device) ended its stream",
                            fix: "replug the camera")
                    ]
                }
                var checks = [
                    DoctorCheck(
                        area: "camera", status: .ok,
                        detail:
                            "\(device) (\(info.card)): streaming \(camera.format), got a \(frame.width)×\(frame.height) frame"
                    )
                ]
                if frame.width != config.cameraWidth || frame.height != config.cameraHeight {
                    checks.append(
                        DoctorCheck(
                            area: "camera", status: .warning,
                            detail:
                                "asked for \(config.cameraWidth)×\(config.cameraHeight), the camera gives \(frame.width)×\(frame.height)",
                            fix: "set camera.width/height to a size the camera offers"))
                }
                return checks
            } catch {
                return [
                    DoctorCheck(
                        area: "camera", status: .problem, detail: error.description,
                        fix: error.kind == "permissionDenied"
                            ? "install kiosk/99-stopkiosk-camera.rules or add the kiosk user to 'video'" : nil)
                ]
            }
        }
    }

    /// The decoders this program has (with their library versions) and those the config turns on.
    public static func checkDecoders(_ config: KioskConfig) -> [DoctorCheck] {
        let available = DecoderKind.allCases.map { "\($0) \($0.libraryVersion)" }.joined(separator: ", ")
        guard let configured = try? DecoderKind.parse(config.decoders) else {
            return [
                DoctorCheck(
                    area: "decoders", status: .problem,
                    detail: "scanner.decoders \(config.decoders) is not a decoder list; available: \(available)",
                    fix: "set [scanner] decoders = [\"zbar\", \"zxing\"]")
            ]
        }
        let names = configured.map(\.rawValue).joined(separator: " then ")
        guard configured.contains(.zxing) else {
            return [
                DoctorCheck(
                    area: "decoders", status: .warning, detail: "available: \(available); configured: \(names)",
                    fix: "add \"zxing\" to [scanner] decoders: it reads worn and glared codes zbar misses")
            ]
        }
        return [DoctorCheck(area: "decoders", status: .ok, detail: "available: \(available); configured: \(names)")]
    }

    public static func checkFonts(paths: [String] = fontPaths) -> [DoctorCheck] {
        let missing = paths.filter { !FileManager.default.fileExists(atPath: $0) }
        if missing.isEmpty {
            return [DoctorCheck(area: "fonts", status: .ok, detail: "DejaVu Sans present for labels")]
        }
        return [
            DoctorCheck(
                area: "fonts", status: .problem, detail: "missing \(missing.joined(separator: ", "))",
                fix: "apt-get install fonts-dejavu-core (labels are drawn with DejaVu Sans)")
        ]
    }

    public static func checkTerminal(
        environment: [String: String] = ProcessInfo.processInfo.environment, size: (width: Int, height: Int)?
    ) -> [DoctorCheck] {
        let term = environment["TERM"] ?? ""
        let mode = TerminalColorMode.detect(environment: environment)
        var checks = [
            DoctorCheck(
                area: "terminal", status: term.isEmpty || term == "dumb" ? .warning : .ok,
                detail: "TERM=\(term.isEmpty ? "(unset)" : term), \(mode.rawValue) colours",
                fix: term.isEmpty || term == "dumb"
                    ? "run the kiosk on a real terminal (the systemd unit uses tty1, TERM=linux)" : nil)
        ]
        if let size, size.width < 80 || size.height < 24 {
            checks.append(
                DoctorCheck(
                    area: "terminal", status: .warning,
                    detail: "this terminal is \(size.width)×\(size.height); the kiosk needs 80×24",
                    fix: "use a larger console font setting or screen"))
        }
        return checks
    }

    public static func report(_ checks: [DoctorCheck]) -> String {
        var lines: [String] = []
        for check in checks {
            lines.append(
                "[\(check.status.rawValue)] \(check.area): \(TerminalText.sanitize(check.detail, maxLength: 400))")
            if let fix = check.fix, check.status != .ok { lines.append("       fix: \(fix)") }
        }
        let problems = checks.filter { $0.status == .problem }.count
        let warnings = checks.filter { $0.status == .warning }.count
        lines.append(
            problems == 0
                ? (warnings == 0
                    ? "All checks passed." : "No problems; \(warnings) warning\(warnings == 1 ? "" : "s").")
                : "\(problems) problem\(problems == 1 ? "" : "s") to fix.")
        return lines.joined(separator: "\n")
    }
}
