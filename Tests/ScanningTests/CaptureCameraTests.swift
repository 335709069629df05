import Foundation
import KioskTesting
import Scanning
import Testing

/// V4L2 capture through the fake camera (Tests/Fixtures/fakev4l2), each test running capture-probe as a child
/// process with the fake preloaded. Nothing here depends on timing beyond generous hang guards.
@Suite(.enabled(if: FakeCamera.isAvailable, "needs a C compiler (cc, gcc or clang) to build the fake V4L2 camera shim"))
struct CaptureCameraTests {
    private func cleanup(_ path: String) {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// The camera offers only YUYV (with padded lines). Read directly (the default) or converted by libv4l2 to
    /// YUV420 (`--convert`), the luma we get back is exactly the luma that was served, frame by frame.
    @Test(arguments: [false, true])
    func yuyvCameraLumaIsExact(_ convert: Bool) throws {
        let source = TestFrames.gradient(width: 64, height: 48, count: 5)
        let path = try TestFrames.y4m(source)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--width", "640", "--height", "480", "--frames", "6"]
                + (convert ? ["--convert"] : []),
            fake: ["FAKEV4L2_FRAMES": path, "FAKEV4L2_FORMAT": "YUYV", "FAKEV4L2_PAD": "8", "FAKEV4L2_FPS": "200"])
        #expect(run.status == 0, "\(run)")
        let open = try #require(run.open, "\(run)")
        #expect(open.string("pixelFormat") == (convert ? "YU12" : "YUYV"))
        #expect(open.int("bytesPerLine") == (convert ? 64 : 64 * 2 + 8))
        #expect(open.strings("cameraFormats") == ["YUYV"])
        // The fake answers with its own size, whatever was asked for.
        #expect(open.int("width") == 64 && open.int("height") == 48)
        #expect(run.frames.count == 6)
        for frame in run.frames {
            let sequence = try #require(frame.int("sequence"))
            #expect(frame.int("width") == 64 && frame.int("height") == 48)
            #expect(
                frame.string("fnv") == TestFrames.fingerprint(source[sequence % source.count].pixels),
                "frame \(sequence)")
        }
    }

    /// A GREY camera is read without conversion, honouring bytesperline. (libv4l2's own GREY→YUV420 conversion
    /// rescales luma to video range, so the default of reading native formats matters for GREY cameras.)
    @Test func greyCameraIsReadDirectlyWithPaddedLines() throws {
        let source = TestFrames.gradient(width: 50, height: 30, count: 3)
        let path = try TestFrames.y4m(source, colourspace: .mono)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--frames", "4"],
            fake: ["FAKEV4L2_FRAMES": path, "FAKEV4L2_FORMAT": "GREY", "FAKEV4L2_PAD": "14", "FAKEV4L2_FPS": "200"])
        #expect(run.status == 0, "\(run)")
        let open = try #require(run.open, "\(run)")
        #expect(open.string("pixelFormat") == "GREY")
        #expect(open.int("bytesPerLine") == 64)
        #expect(run.frames.count == 4)
        for frame in run.frames {
            let sequence = try #require(frame.int("sequence"))
            #expect(
                frame.string("fnv") == TestFrames.fingerprint(source[sequence % source.count].pixels),
                "frame \(sequence)")
        }
    }

    /// NV12 (what many laptop cameras and ISPs deliver): read directly with padded lines, or through libv4l2
    /// (whose NV12 conversion ignores line padding, so that case is served unpadded).
    @Test(arguments: [false, true])
    func nv12CameraLumaIsExact(_ convert: Bool) throws {
        let source = TestFrames.gradient(width: 32, height: 24, count: 2)
        let path = try TestFrames.y4m(source)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--frames", "3"] + (convert ? ["--convert"] : []),
            fake: [
                "FAKEV4L2_FRAMES": path, "FAKEV4L2_FORMAT": "NV12", "FAKEV4L2_FPS": "200",
                "FAKEV4L2_PAD": convert ? "0" : "16",
            ])
        #expect(run.status == 0, "\(run)")
        #expect(run.open?.string("pixelFormat") == (convert ? "YU12" : "NV12"))
        #expect(run.frames.count == 3)
        for frame in run.frames {
            let sequence = try #require(frame.int("sequence"))
            #expect(frame.string("fnv") == TestFrames.fingerprint(source[sequence % source.count].pixels))
        }
    }

    /// Streaming many frames: sequence numbers only increase (stale frames may be skipped, never repeated or
    /// reordered) and each frame's content is the one the camera produced under that sequence number.
    @Test func framesStreamInOrder() throws {
        let source = TestFrames.constant(width: 40, height: 30, count: 12)
        let path = try TestFrames.y4m(source)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--frames", "40"],
            fake: ["FAKEV4L2_FRAMES": path, "FAKEV4L2_FPS": "250"])
        #expect(run.status == 0, "\(run)")
        #expect(run.frames.count == 40)
        var previous = -1
        for frame in run.frames {
            let sequence = try #require(frame.int("sequence"))
            #expect(sequence > previous, "sequence \(sequence) after \(previous)")
            previous = sequence
            #expect(
                frame.double("meanLuma") == Double(TestFrames.constantLuma(sequence % source.count)),
                "frame \(sequence)")
        }
        #expect(run.end?.int("frames") == 40)
    }

    /// The camera is unplugged after 8 frames and comes back 0.4 s later: the reconnecting source reports the
    /// outage (an error and a `reconnecting` state), reopens it, and frames resume in the same process.
    @Test func reconnectingSourceSurvivesUnplug() throws {
        let source = TestFrames.constant(width: 32, height: 24, count: 12)
        let path = try TestFrames.y4m(source)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--reconnect", "--frames", "20", "--timeout", "5"],
            fake: [
                "FAKEV4L2_FRAMES": path, "FAKEV4L2_FPS": "50",
                "FAKEV4L2_VANISH_AFTER": "8", "FAKEV4L2_VANISH_MS": "400",
            ])
        #expect(run.status == 0, "\(run)")
        #expect(run.frames.count == 20, "\(run)")
        #expect(run.end?.int("reconnections") == 1, "\(run)")

        // streaming → reconnecting (device lost) → ... → streaming again
        let states = run.states.compactMap { $0.string("state") }
        #expect(states.first == "streaming")
        let lostIndex = try #require(
            run.states.firstIndex { $0.string("state") == "reconnecting" && $0.string("kind") == "deviceLost" },
            "\(run)")
        #expect(run.states[lostIndex].string("error")?.contains(FakeCamera.device) == true)
        #expect(states[(lostIndex + 1)...].contains("streaming"), "\(states)")
        #expect(run.errors.contains { $0.string("kind") == "deviceLost" }, "\(run)")

        // Frames before and after the outage, sequence numbers increasing throughout.
        let outage = try #require(run.lines.firstIndex { $0.event == "error" })
        #expect(run.lines[..<outage].contains { $0.event == "frame" })
        #expect(run.lines[outage...].contains { $0.event == "frame" })
        let sequences = run.frames.compactMap { $0.int("sequence") }
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count, "\(sequences)")
    }

    /// Without --reconnect an unplug is an error that says so.
    @Test func unplugWithoutReconnectIsAnError() throws {
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--frames", "50"],
            fake: ["FAKEV4L2_FPS": "50", "FAKEV4L2_VANISH_AFTER": "5"])
        #expect(run.status == 1, "\(run)")
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "deviceLost")
        #expect(error.string("error")?.contains("unplugged") == true)
        // The fake vanishes once 5 frames were dequeued; draining may have skipped stale ones, so at most 5 came out.
        #expect(run.frames.count >= 1 && run.frames.count <= 5, "\(run)")
    }

    /// A camera missing at start is waited for: the reconnecting source keeps reporting why and retrying.
    @Test func reconnectingSourceWaitsForMissingCamera() throws {
        let missing = "/dev/video-stopkiosk-missing-\(getpid())"
        let run = try CaptureProbe.run([
            "--device", missing, "--reconnect", "--frames", "1", "--timeout", "0.3", "--max-errors", "2",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(run.errors.count == 2)
        #expect(
            run.errors.allSatisfy {
                $0.string("kind") == "noSuchDevice" && $0.string("error")?.contains(missing) == true
            })
        let attempts = run.states.filter { $0.string("state") == "reconnecting" }.compactMap { $0.int("attempt") }
        #expect(attempts.first == 1 && attempts == attempts.sorted(), "\(run)")
    }

    @Test(arguments: ["1", "open"])
    func busyCameraIsAClearError(_ mode: String) throws {
        let run = try CaptureProbe.run(["--device", FakeCamera.device], fake: ["FAKEV4L2_BUSY": mode])
        #expect(run.status == 1, "\(run)")
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "deviceBusy")
        let text = try #require(error.string("error"))
        #expect(text.contains(FakeCamera.device) && text.contains("busy"), "\(text)")
    }

    @Test func stalledCameraReportsNoFrameWithinTimeout() throws {
        let run = try CaptureProbe.run(
            ["--device", FakeCamera.device, "--timeout", "0.5"], fake: ["FAKEV4L2_STALL": "1"])
        #expect(run.status == 1, "\(run)")
        #expect(run.open != nil)
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "noFrame")
        let text = try #require(error.string("error"))
        #expect(text.contains(FakeCamera.device) && text.contains("no frame within 0.5 s"), "\(text)")
    }

    @Test func missingDeviceIsAClearError() throws {
        let missing = "/dev/video-stopkiosk-missing-\(getpid())"
        let run = try CaptureProbe.run(["--device", missing])
        #expect(run.status == 1, "\(run)")
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "noSuchDevice")
        #expect(error.string("error")?.contains(missing) == true)
        #expect(error.string("error")?.contains("no such camera device") == true)
    }

    @Test func permissionDeniedIsAClearError() throws {
        let run = try CaptureProbe.run(["--device", FakeCamera.device], fake: ["FAKEV4L2_DENY": "1"])
        #expect(run.status == 1, "\(run)")
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "permissionDenied")
        #expect(error.string("error")?.contains("\(FakeCamera.device): permission denied") == true)
    }

    @Test func outputOnlyDeviceIsNotACaptureDevice() throws {
        let run = try CaptureProbe.run(["--device", FakeCamera.device], fake: ["FAKEV4L2_NOTCAP": "1"])
        #expect(run.status == 1, "\(run)")
        let error = try #require(run.errors.first, "\(run)")
        #expect(error.string("kind") == "notACaptureDevice")
        #expect(error.string("error")?.contains("Fake V4L2 camera") == true)
    }

    @Test func nonV4L2NodeIsNotACaptureDevice() throws {
        let run = try CaptureProbe.run(["--device", "/dev/null"], preload: false)
        #expect(run.status == 1, "\(run)")
        #expect(run.errors.first?.string("kind") == "notACaptureDevice", "\(run)")
        #expect(run.errors.first?.string("error")?.contains("/dev/null") == true)
    }

    /// Stable names such as /dev/v4l/by-id/... are symlinks to the node; they open the same camera.
    @Test func symlinkedDevicePathOpensTheCamera() throws {
        let directory = TemporaryFolder.make("by-id").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/usb-Fake_Camera-video-index0"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: FakeCamera.device)
        let run = try CaptureProbe.run(["--device", link, "--frames", "2"], fake: ["FAKEV4L2_FPS": "200"])
        #expect(run.status == 0, "\(run)")
        #expect(run.open?.string("source") == link)
        #expect(run.frames.count == 2)
    }

    /// `kiosk doctor` material: what a node is, asked without streaming.
    @Test func describeReportsTheDriversFormats() throws {
        let missing = "/dev/video-stopkiosk-missing-\(getpid())"
        let run = try CaptureProbe.run(
            ["--describe", FakeCamera.device, "--describe", missing], fake: ["FAKEV4L2_FORMAT": "GREY"])
        #expect(run.status == 1, "\(run)")
        let device = try #require(run.lines.first { $0.event == "device" }, "\(run)")
        #expect(device.string("path") == FakeCamera.device)
        #expect(device.string("card") == "Fake V4L2 camera")
        #expect(device.strings("formats") == ["GREY"])
        #expect(device.fields["capture"] as? Bool == true)
        #expect(run.errors.first?.string("kind") == "noSuchDevice")
    }

    /// Y4M replay through the same probe (no device): the JSON shape `kiosk scan` will reuse.
    @Test func probeReplaysY4M() throws {
        let source = TestFrames.gradient(width: 20, height: 10, count: 3)
        let path = try TestFrames.y4m(source)
        defer { cleanup(path) }
        let run = try CaptureProbe.run(["--video", path, "--frames", "0"], preload: false)
        #expect(run.status == 0, "\(run)")
        #expect(run.frames.map { $0.string("fnv") } == source.map { TestFrames.fingerprint($0.pixels) })
        #expect(run.open?.string("colourspace") == "420jpeg")
    }
}
