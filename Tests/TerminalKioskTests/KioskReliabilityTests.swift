import Foundation
import KioskTesting
import Scanning
import Testing

/// The kiosk program keeps working through what a street deployment does to it: the camera unplugged and
/// plugged back, a burst of scans, a new timetable imported while it runs, a terminal resized while it draws.
/// Each runs the built `kiosk run` as a process (frames through the real capture code under the fake camera).
@Suite(.serialized) struct KioskReliabilityTests {
    /// A config for `kiosk run` on the fake camera and a database of our own.
    func config(in directory: String, database: String, extra: String = "") throws -> String {
        let path = directory + "/kiosk.toml"
        try """
        home_stop = "1091"
        \(extra)
        [camera]
        device = "\(FakeCamera.device)"
        width = 640
        height = 480
        frames_per_second = 30
        [database]
        path = "\(database)"
        [scanner]
        debounce_seconds = 0.5
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func importSample(into directory: String, feed: String = SampleNetwork.feed.path) throws -> String {
        let database = directory + "/routes.sqlite"
        let result = try Programs.runKiosk(["import", feed, "--db", database])
        #expect(result.status == 0, "\(result)")
        return database
    }

    /// A mono Y4M whose frames hold the given stop URLs (nil: an empty scene), for the fake camera to serve.
    func video(in directory: String, frames: [String?]) throws -> String {
        let path = directory + "/camera.y4m"
        let writer = try Y4MWriter(path: path, width: 640, height: 480, colourspace: .mono, frameRate: Y4MRatio(30, 1))
        for (index, payload) in frames.enumerated() {
            try writer.write(ScanFixtures.frame(payload, seed: UInt64(index + 1)))
        }
        try writer.close()
        return path
    }

    @Test(.enabled(if: FakeCamera.isAvailable, "needs a C compiler (cc, gcc or clang) to build the fake camera"))
    func cameraUnpluggedAndPluggedBack() throws {
        let directory = TemporaryFolder.make("unplug").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try importSample(into: directory)
        // Colón's label for a second, then El Ejido's: the camera vanishes while Colón is in view.
        let frames =
            Array(repeating: Optional(ScanFixtures.url("2010")), count: 30)
            + Array(repeating: Optional(ScanFixtures.url("1091")), count: 30)
        let kiosk = try Programs.startKiosk(
            ["run", "--config", try config(in: directory, database: database), "--log", directory + "/kiosk.log"],
            environment: [
                "FAKEV4L2_DEVICE": FakeCamera.device, "FAKEV4L2_FRAMES": try video(in: directory, frames: frames),
                "FAKEV4L2_FORMAT": "YUYV", "FAKEV4L2_FPS": "30",
                "FAKEV4L2_VANISH_AFTER": "15", "FAKEV4L2_VANISH_MS": "1500",
            ],
            preload: try FakeCamera.library(), mergeOutput: false)
        let recovered = kiosk.waitForOutput { output in
            guard let colon = output.range(of: "Colón"),
                let outage = output.range(of: "Cámara no disponible", range: colon.upperBound..<output.endIndex)
            else { return false }
            return output.range(of: "El Ejido  [1091]", range: outage.upperBound..<output.endIndex) != nil
        }
        kiosk.signal(SIGTERM)
        let run = kiosk.wait()
        #expect(
            recovered,
            "expected Colón, then the camera notice, then El Ejido after the camera came back:\n\(run.stdout.suffix(3000))"
        )
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test(.enabled(if: FakeCamera.isAvailable, "needs a C compiler (cc, gcc or clang) to build the fake camera"))
    func aBurstOfAHundredScansASecond() throws {
        let directory = TemporaryFolder.make("burst").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try importSample(into: directory)
        // Every frame a different stop's label, 100 frames a second.
        let codes = [
            "1011", "1021", "1031", "1041", "1051", "1061", "1071", "1081", "1091", "1101", "2001", "2010", "3001",
            "3006", "5007",
        ]
        let frames = (0..<150).map { Optional(ScanFixtures.url(codes[$0 % codes.count])) }
        let kiosk = try Programs.startKiosk(
            ["run", "--config", try config(in: directory, database: database), "--log", directory + "/kiosk.log"],
            environment: [
                "FAKEV4L2_DEVICE": FakeCamera.device, "FAKEV4L2_FRAMES": try video(in: directory, frames: frames),
                "FAKEV4L2_FORMAT": "GREY", "FAKEV4L2_FPS": "100",
            ],
            preload: try FakeCamera.library(), mergeOutput: false)
        // Several different stops reach the screen while the burst goes on, and the kiosk stays up and answers.
        let shown = kiosk.waitForOutput(limit: 600) { output in
            Set(codes.filter { output.contains("[\($0)]") }).count >= 4
        }
        Thread.sleep(forTimeInterval: 2)
        #expect(kiosk.isRunning, "the kiosk stopped during the burst")
        kiosk.signal(SIGTERM)
        let run = kiosk.wait()
        #expect(shown, "fewer than four stops shown during the burst:\n\(run.stdout.suffix(2000))")
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aNewImportIsPickedUpWhileRunning() throws {
        let directory = TemporaryFolder.make("reimport").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try importSample(into: directory)
        let kiosk = try Programs.startKiosk(
            [
                "run", "--config", try config(in: directory, database: database), "--no-camera",
                "--log", directory + "/kiosk.log",
            ], mergeOutput: false)
        #expect(kiosk.waitForOutput { $0.contains("El Ejido") }, "the idle screen never showed the home stop")
        // The agency publishes a new timetable in which the home stop has a new name; staff import it in place.
        #expect(try KioskFixtures.importRenamedHomeStop(over: database, in: directory) == 0)
        let switched = kiosk.waitForOutput(limit: 600) { $0.contains("El Ejido Renovado") }
        kiosk.signal(SIGTERM)
        let run = kiosk.wait()
        #expect(switched, "the running kiosk never showed the new import:\n\(run.stdout.suffix(2000))")
        #expect(run.status == 0)
    }

    @Test(
        .enabled(
            if: TmuxScreen.executable != nil,
            "tmux is not installed (kiosk/setup.sh installs it); skipping the terminal test"))
    func resizedWhileDrawing() throws {
        let command =
            "env XDG_CACHE_HOME='\(Programs.sampleCache.path)' TERM=xterm-256color '\(Programs.kiosk.path)' demo --at 2026-11-25T08:00; echo KIOSK-EXITED $?; sleep 600"
        let screen = try TmuxScreen(tmux: TmuxScreen.executable!, width: 100, height: 30, command: command)
        try screen.wait(for: "the idle screen") { $0.contains("El Ejido") }
        // Resize again and again while the demo scans and redraws.
        for (width, height) in [(80, 24), (140, 45), (90, 26), (120, 40), (80, 24), (110, 35)] {
            _ = try Programs.run(
                screen.tmux,
                ["-L", screen.socket, "resize-window", "-t", screen.session, "-x", String(width), "-y", String(height)])
            Thread.sleep(forTimeInterval: 0.3)
        }
        // The last size's screen is whole: the header (clock, language key) on the first line, no stray text.
        let settled = try screen.wait(for: "a full redraw at 110×35") { text in
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.first?.contains("DEMO") == true && lines.count >= 34
        }
        #expect(settled.split(separator: "\n").allSatisfy { $0.count <= 110 })
        #expect(!settled.contains("KIOSK-EXITED"))
        try screen.send("C-c")
        try screen.wait(for: "the kiosk to exit") { $0.contains("KIOSK-EXITED 0") }
    }
}
