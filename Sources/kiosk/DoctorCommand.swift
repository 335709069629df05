import ArgumentParser
import Foundation
import KioskConfiguration
import TerminalKiosk
import TransitStore

/// `kiosk doctor`: is this kiosk ready to go on a pole? Config, database, camera, fonts, terminal.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the config, the database, the camera, fonts, speech and terminal, and say what to fix.",
        discussion: """
            Checks, in order: the config file (every key known, every value valid); the route database (opens, reads whole — PRAGMA quick_check and the row counts the import recorded —, its \
            service dates cover today — a warning when they end within 14 days —, the home stop exists, the label \
            template and keys are usable); the camera (the device exists, is a capture device, opens with the \
            configured size and delivers a frame within --camera-timeout seconds); the [realtime] feeds (each fetched \
            once: reachable, decodable, its age, and the trip match rate against the database — near zero for another \
            agency's feed; a failing feed is a warning: the kiosk then shows the timetable); the DejaVu fonts the \
            label generator draws with; speech (both espeak-ng voices synthesise; the sound player plays a tenth of a \
            second of silence on the device — a warning when it cannot, the kiosk then runs silent); the terminal \
            (TERM, colours, size).
            Without --config, \(ConfigOption.systemConfig) if it exists, else the defaults.
            Exit codes: 0 nothing to fix (warnings allowed), 1 something to fix, 2 bad usage.
            """
    )

    @Option(help: ArgumentHelp("The kiosk's TOML config.", valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("Seconds to wait for a camera frame (1–30).", valueName: "seconds"))
    var cameraTimeout = 3

    @Flag(help: "Skip the camera check (a machine without one).")
    var noCamera = false

    func validate() throws {
        guard (1...30).contains(cameraTimeout) else {
            throw ValidationError("--camera-timeout must be between 1 and 30 seconds (got \(cameraTimeout))")
        }
    }

    func run() throws {
        var checks: [DoctorCheck] = []
        var kioskConfig = KioskConfig()
        let path =
            config
            ?? (FileManager.default.fileExists(atPath: ConfigOption.systemConfig) ? ConfigOption.systemConfig : nil)
        if let path {
            do {
                kioskConfig = try KioskConfigFile.load(path: path)
                checks.append(DoctorCheck(area: "config", status: .ok, detail: "\(path): every key known and valid"))
            } catch {
                checks.append(
                    DoctorCheck(
                        area: "config", status: .problem, detail: error.description,
                        fix: "see kiosk/kiosk.example.toml for every key and its values"))
            }
        } else {
            checks.append(
                DoctorCheck(
                    area: "config", status: .warning,
                    detail: "no config file: using the defaults (sample network, /dev/video0)",
                    fix: "copy kiosk/kiosk.example.toml to \(ConfigOption.systemConfig) and edit it"))
        }
        let databasePath: String
        if let configured = kioskConfig.databasePath {
            databasePath = configured
        } else {
            do {
                databasePath = try DefaultDatabase.samplePath()
                checks.append(
                    DoctorCheck(
                        area: "database", status: .warning,
                        detail: "no database.path: the bundled sample network is not a real timetable",
                        fix: "kiosk import FEED.zip --db /var/lib/stopkiosk/routes.sqlite and set database.path"))
            } catch {
                databasePath = "(sample)"
                checks.append(
                    DoctorCheck(
                        area: "database", status: .problem, detail: "cannot prepare the sample database: \(error)"))
            }
        }
        checks += KioskDoctor.checkDatabase(path: databasePath, config: kioskConfig, now: Date())
        checks += KioskDoctor.checkLocale(kioskConfig, databasePath: databasePath)
        if noCamera {
            checks.append(DoctorCheck(area: "camera", status: .warning, detail: "not checked (--no-camera)"))
        } else {
            checks += KioskDoctor.checkCamera(kioskConfig, timeout: .seconds(cameraTimeout))
        }
        checks += KioskDoctor.checkRealtime(kioskConfig.realtime, databasePath: databasePath, now: Date())
        checks += KioskDoctor.checkDecoders(kioskConfig)
        checks += KioskDoctor.checkFonts()
        checks += KioskDoctor.checkSpeech(kioskConfig)
        let size = TerminalDevice.isTerminal(STDOUT_FILENO) ? TerminalDevice().size() : nil
        checks += KioskDoctor.checkTerminal(size: size.map { (width: $0.width, height: $0.height) })
        print(KioskDoctor.report(checks))
        if checks.contains(where: { $0.status == .problem }) { throw ExitCode(ExitStatus.failure) }
    }
}
