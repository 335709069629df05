import Foundation
import KioskTesting
import Scanning
import Testing

/// `kiosk scan` run as a process, as a person or a script would: image and video replays, bad files, and a camera
/// (the fake V4L2 device preloaded into the kiosk process, so frames come through the real capture code).
/// Nothing here depends on timing beyond generous guards against hangs.
@Suite struct ScanCommandTests {
    func database() throws -> String { try SampleNetwork.databasePath() }

    @Test func imagesReplayAsJSONLines() throws {
        let directory = TemporaryFolder.make("images").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = directory + "/1-label.pgm", foreign = directory + "/2-poster.pgm", blank = directory + "/3-wall.pgm"
        let unknown = directory + "/4-sticker.pgm", bare = directory + "/5-code.pgm"
        try ScanFixtures.pgm(ScanFixtures.frame(ScanFixtures.url("1011"), seed: 1)).write(
            to: URL(fileURLWithPath: good))
        try ScanFixtures.pgm(ScanFixtures.frame("https://example.com/promo", x: 300, seed: 2)).write(
            to: URL(fileURLWithPath: foreign))
        try ScanFixtures.pgm(ScanFixtures.frame(nil, seed: 3)).write(to: URL(fileURLWithPath: blank))
        try ScanFixtures.pgm(ScanFixtures.frame(ScanFixtures.url("424242"), x: 40, seed: 4)).write(
            to: URL(fileURLWithPath: unknown))
        try ScanFixtures.pgm(ScanFixtures.frame("TB-VILLAFLORA", x: 200, seed: 5)).write(to: URL(fileURLWithPath: bare))

        let run = try Programs.runKiosk([
            "scan", "--images", good, foreign, blank, unknown, bare, "--db", try database(), "--json",
        ])
        #expect(run.status == 0, "\(run)")
        let lines = run.jsonLines
        #expect(lines.count == 4, "\(run)")
        #expect(lines.map { $0["source"] as? String } == [good, foreign, unknown, bare])
        #expect(lines.map { $0["status"] as? String } == ["stop", "not_a_stop_code", "unknown_stop", "stop"])
        #expect(lines.map { $0["frame"] as? Int } == [0, 1, 3, 4])
        #expect(lines.allSatisfy { $0["symbology"] as? String == "QR-Code" })
        let stop = try #require(lines.first?["stop"] as? [String: Any])
        #expect(
            stop["id"] as? String == "MQ01A" && stop["code"] as? String == "1011"
                && stop["name"] as? String == "Quitumbe")
        #expect(lines[0]["text"] as? String == "https://transit.example/s/1011")
        #expect(lines[1]["stop"] is NSNull && lines[1]["text"] as? String == "https://example.com/promo")
        #expect(lines[2]["text"] as? String == "https://transit.example/s/424242")
        #expect((lines[3]["stop"] as? [String: Any])?["code"] as? String == "2002")
        #expect(run.stderr.isEmpty, "\(run)")

        // A folder replays its images in natural order; text output in English.
        let text = try Programs.runKiosk(["scan", "--images", directory, "--db", try database(), "--lang", "en"])
        #expect(text.status == 0, "\(text)")
        let textLines = text.stdout.split(separator: "\n").map(String.init)
        #expect(textLines.count == 4, "\(text)")
        #expect(textLines.first == "\(good):0  QR-Code  stop: Quitumbe [1011] (MQ01A)  https://transit.example/s/1011")
        #expect(textLines[1].contains("not a stop code"))
        #expect(textLines[2].contains("unknown stop"))
    }

    /// A passenger walks up with a label, holds it, goes; then a forged label; the video ends and so does the
    /// command. --once stops at the first scan.
    @Test func videoReplayAndOnce() throws {
        let directory = TemporaryFolder.make("video").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/session.y4m"
        let forged = String(ScanFixtures.signedURL("1021").dropLast(4)) + "AAAA"
        var frames: [LumaFrame] = []
        for _ in 0..<5 { frames.append(ScanFixtures.frame(nil, seed: 7)) }
        for step in 0..<40 { frames.append(ScanFixtures.frame(ScanFixtures.url("1012"), x: 150 + step % 2, seed: 7)) }
        for _ in 0..<10 { frames.append(ScanFixtures.frame(nil, seed: 8)) }
        for _ in 0..<10 { frames.append(ScanFixtures.frame(forged, x: 60, y: 40, seed: 8)) }
        try Y4MWriter.write(frames, to: path)

        let run = try Programs.runKiosk([
            "scan", "--video", path, "--db", try database(), "--json",
            "--public-key", ScanFixtures.labelKey.publicKey.encoded,
        ])
        #expect(run.status == 0, "\(run)")
        let lines = run.jsonLines
        #expect(lines.map { $0["status"] as? String } == ["stop", "forged"], "\(run)")
        #expect(lines.map { $0["frame"] as? Int } == [5, 55])
        #expect(lines.allSatisfy { $0["source"] as? String == path })
        #expect((lines.first?["stop"] as? [String: Any])?["id"] as? String == "MQ01B")
        #expect((lines.last?["detail"] as? String)?.contains("does not verify") == true, "\(run)")

        let once = try Programs.runKiosk(["scan", "--video", path, "--db", try database(), "--json", "--once"])
        #expect(once.status == 0, "\(once)")
        #expect(once.jsonLines.count == 1 && once.jsonLines.first?["frame"] as? Int == 5, "\(once)")

        // Under `require`, the unsigned label is refused.
        let strict = try Programs.runKiosk([
            "scan", "--video", path, "--db", try database(), "--json", "--once", "--policy", "require",
        ])
        #expect(strict.jsonLines.first?["status"] as? String == "signature_required", "\(strict)")
    }

    @Test func corruptFilesAreClearErrors() throws {
        let directory = TemporaryFolder.make("corrupt").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = directory + "/cut.y4m"
        var data = Data("YUV4MPEG2 W64 H48 F30:1 Cmono\nFRAME\n".utf8)
        data.append(Data(repeating: 128, count: 64 * 48))
        data.append(Data("FRAME\n".utf8) + Data(repeating: 128, count: 1000))
        try data.write(to: URL(fileURLWithPath: video))
        let notVideo = directory + "/notes.y4m"
        try Data("hello, this is not a video\n".utf8).write(to: URL(fileURLWithPath: notVideo))
        let image = directory + "/photo.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: image))
        let good = directory + "/good.pgm"
        try ScanFixtures.pgm(ScanFixtures.frame(ScanFixtures.url("1011"))).write(to: URL(fileURLWithPath: good))

        for (arguments, file, words) in [
            (["--video", video], video, "truncated frame 1"), (["--video", notVideo], notVideo, "corrupt Y4M"),
            (["--images", good, image], image, "PNG"),
            (["--video", directory + "/missing.y4m"], directory + "/missing.y4m", "no such file"),
            (["--images", directory + "/nothing-here"], directory + "/nothing-here", "no such file"),
        ] {
            let run = try Programs.runKiosk(["scan"] + arguments + ["--db", try database(), "--json"])
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains(file) && run.stderr.contains(words), "\(run)")
        }
        // The good image before the corrupt one was still reported.
        let mixed = try Programs.runKiosk(["scan", "--images", good, image, "--db", try database(), "--json"])
        #expect(mixed.jsonLines.count == 1, "\(mixed)")
    }

    @Test func badUsageExitsWithStatus2() throws {
        let directory = TemporaryFolder.make("usage").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let image = directory + "/label.pgm"
        try ScanFixtures.pgm(ScanFixtures.frame(ScanFixtures.url("1011"))).write(to: URL(fileURLWithPath: image))
        let cases: [([String], String)] = [
            ([], "exactly one of"), (["--images", image, "--device", "/dev/video0"], "exactly one of"),
            (["--images", image, "--debounce", "-1"], "--debounce"),
            (["--images", image, "--policy", "sometimes"], "sometimes"),
            (["--images", image, "--symbology", "aztec"], "aztec"),
            (["--images", image, "--public-key", "not-a-key"], "key"),
            (["--images", image, "--template", "https://x.example/"], "placeholder"),
            (["--images", image, "--pace", "fast"], "--pace"),
        ]
        for (arguments, words) in cases {
            let run = try Programs.runKiosk(["scan"] + arguments + ["--db", try database()])
            #expect(run.status == 2, "\(arguments): \(run)")
            #expect(run.stderr.contains(words) && run.stdout.isEmpty, "\(arguments): \(run)")
        }
    }

    /// `kiosk lookup` reads a scanned label URL the way the scanner does.
    @Test func lookupAcceptsScannedURLs() throws {
        let url = try Programs.runKiosk([
            "lookup", ScanFixtures.url("1011"), "--db", try database(), "--json", "--at", "2026-11-25T08:00",
        ])
        #expect(url.status == 0, "\(url)")
        #expect(url.stdout.contains("\"MQ01A\""), "\(url)")
        // A damaged signature is refused. (With the default configuration, policy `prefer` and no trusted keys,
        // a signature that is present must verify, so even an intact one by an unknown key is refused.)
        for label in [String(ScanFixtures.signedURL("1012").dropLast(5)), ScanFixtures.signedURL("1012")] {
            let forged = try Programs.runKiosk(["lookup", label, "--db", try database()])
            #expect(forged.status == 2, "\(forged)")
            #expect(forged.stderr.contains("forged or damaged label"), "\(forged)")
            #expect(forged.stdout.isEmpty)
        }
        let typed = try Programs.runKiosk([
            "lookup", "TB-VILLAFLORA", "--db", try database(), "--json", "--at", "2026-11-25T08:00",
        ])
        #expect(typed.status == 0, "\(typed)")
        let unknown = try Programs.runKiosk(["lookup", ScanFixtures.url("99999"), "--db", try database()])
        #expect(unknown.status == 2 && unknown.stderr.contains("no such stop"), "\(unknown)")
    }
}

/// Scans through the fake V4L2 camera: `kiosk scan --device` with the shim preloaded.
@Suite(.enabled(if: FakeCamera.isAvailable, "needs a C compiler (cc, gcc or clang) to build the fake camera"))
struct ScanCameraTests {
    func cameraVideo(_ label: String, frames: [LumaFrame]) throws -> String {
        let path = TemporaryFolder.make(label).path + "/camera.y4m"
        try Y4MWriter.write(frames, to: path)
        return path
    }

    @Test func cameraScanResolvesTheStop() throws {
        var frames = (0..<4).map { _ in ScanFixtures.frame(nil, seed: 11) }
        frames += (0..<8).map { step in ScanFixtures.frame(ScanFixtures.url("1022"), x: 140 + step, seed: 11) }
        let video = try cameraVideo("camera", frames: frames)
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: video).deletingLastPathComponent().path)
        }
        let run = try Programs.runKiosk(
            [
                "scan", "--device", FakeCamera.device, "--once", "--json", "--lang", "en", "--verbose",
                "--db", try SampleNetwork.databasePath(),
            ],
            environment: [
                "FAKEV4L2_DEVICE": FakeCamera.device, "FAKEV4L2_FRAMES": video,
                "FAKEV4L2_FORMAT": "YUYV", "FAKEV4L2_FPS": "60",
            ],
            preload: try FakeCamera.library())
        #expect(run.status == 0, "\(run)")
        let line = try #require(run.jsonLines.first, "\(run)")
        #expect(run.jsonLines.count == 1)
        #expect(line["status"] as? String == "stop")
        #expect(line["source"] as? String == FakeCamera.device)
        let stop = try #require(line["stop"] as? [String: Any])
        #expect(
            stop["id"] as? String == "MQ02B" && stop["code"] as? String == "1022"
                && stop["name"] as? String == "Morán Valverde")
        #expect(run.stderr.contains("camera ready"), "\(run)")
    }

    /// The camera is unplugged mid-stream and comes back: `kiosk scan` says the camera is unavailable, waits,
    /// and reports scans again once it is back; SIGTERM then ends it cleanly.
    @Test func cameraVanishingMidStreamResumes() throws {
        let frames = (0..<6).map { step in ScanFixtures.frame(ScanFixtures.url("1031"), x: 100 + step, seed: 12) }
        let video = try cameraVideo("vanish", frames: frames)
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: video).deletingLastPathComponent().path)
        }
        let kiosk = try Programs.startKiosk(
            [
                "scan", "--device", FakeCamera.device, "--json", "--debounce", "0", "--lang", "en",
                "--db", try SampleNetwork.databasePath(),
            ],
            environment: [
                "FAKEV4L2_DEVICE": FakeCamera.device, "FAKEV4L2_FRAMES": video,
                "FAKEV4L2_FPS": "30", "FAKEV4L2_VANISH_AFTER": "10", "FAKEV4L2_VANISH_MS": "600",
            ],
            preload: try FakeCamera.library(), mergeOutput: true)
        // Scans, then "camera unavailable", then "camera ready" again, then scans again.
        func resumed(_ output: String) -> Bool {
            let lines = output.split(separator: "\n")
            guard let lost = lines.firstIndex(where: { $0.contains("camera unavailable") }),
                let back = lines[lost...].firstIndex(where: { $0.contains("camera ready") })
            else { return false }
            return lines[..<lost].contains { $0.hasPrefix("{") } && lines[back...].contains { $0.hasPrefix("{") }
        }
        let sawResume = kiosk.waitForOutput(limit: 120, resumed)
        kiosk.signal(SIGTERM)
        let run = kiosk.wait(limit: 60)
        #expect(sawResume, "\(run)")
        #expect(run.status == 0, "\(run)")
        let scans = run.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        let decoded = scans.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(decoded.count == scans.count)
        #expect(decoded.allSatisfy { ($0["stop"] as? [String: Any])?["code"] as? String == "1031" })
        let sequences = decoded.compactMap { $0["frame"] as? Int }
        #expect(sequences == sequences.sorted(), "frame numbers keep increasing across the reconnection: \(sequences)")
        #expect(run.stdout.contains("deviceLost"), "\(run)")
    }
}
