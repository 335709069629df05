import Foundation
import KioskTesting
import Testing

@testable import Scanning

/// Y4M reading and writing, image-folder replay, and the reconnecting camera's state machine (with scripted
/// cameras, in process).
struct CaptureReplayTests {
    private func scratch(_ label: String) -> String { TemporaryFolder.make(label).path }
    private func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    private func readAll(_ source: any FrameSource) throws -> [LumaFrame] {
        var frames: [LumaFrame] = []
        while let frame = try source.nextFrame(timeout: .seconds(1)) { frames.append(frame) }
        return frames
    }

    // MARK: Y4M

    @Test(arguments: [Y4MColourspace.c420jpeg, .mono, .c422, .c444, .c420mpeg2])
    func y4mRoundTrip(_ colourspace: Y4MColourspace) throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/clip.y4m"
        // Odd sizes exercise the rounding of subsampled chroma planes.
        let frames = TestFrames.gradient(width: 33, height: 17, count: 5)
        let writer = try Y4MWriter(
            path: path, width: 33, height: 17, colourspace: colourspace, frameRate: Y4MRatio(25, 1))
        for frame in frames { try writer.write(frame) }
        try writer.close()
        #expect(writer.framesWritten == 5)

        let reader = try Y4MFileSource(path: path)
        #expect(reader.header.width == 33 && reader.header.height == 17)
        #expect(reader.header.colourspace == colourspace)
        #expect(reader.header.framesPerSecond == 25)
        let read = try readAll(reader)
        #expect(read.map(\.pixels) == frames.map(\.pixels))
        #expect(read.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(try reader.nextFrame(timeout: .seconds(1)) == nil)  // stays at the end
        reader.close()
        #expect(throws: CaptureError.closed(source: path)) { try reader.nextFrame(timeout: .seconds(1)) }
    }

    @Test func y4mFileSizeMatchesTheFormat() throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/clip.y4m"
        try Y4MWriter.write(TestFrames.constant(width: 4, height: 2, count: 2), to: path)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let header = "YUV4MPEG2 W4 H2 F30:1 Ip A1:1 C420jpeg\n"
        #expect(bytes.starts(with: Array(header.utf8)))
        #expect(bytes.count == header.utf8.count + 2 * ("FRAME\n".utf8.count + 8 + 2 * 2))
    }

    @Test func y4mLoops() throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/loop.y4m"
        let frames = TestFrames.constant(width: 8, height: 4, count: 3)
        try Y4MWriter.write(frames, to: path, colourspace: .mono)
        let reader = try Y4MFileSource(path: path, loop: true)
        var read: [LumaFrame] = []
        for _ in 0..<7 { read.append(try #require(try reader.nextFrame(timeout: .seconds(1)))) }
        #expect(read.map(\.sequence) == Array(0..<7))
        #expect(read.map { $0.pixels[0] } == (0..<7).map { TestFrames.constantLuma($0 % 3) })
    }

    /// Headers written by other tools: parameters in any order, comments, no C (420jpeg), FRAME parameters.
    @Test func y4mFromOtherWriters() throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/ffmpeg.y4m"
        var data = Array("YUV4MPEG2 C420mpeg2 XYSCSS=420MPEG2 H2 W4 F30000:1001 It A0:0 XCOLORRANGE=FULL\n".utf8)
        data += Array("FRAME\n".utf8) + [UInt8](repeating: 7, count: 8) + [UInt8](repeating: 128, count: 4)
        data += Array("FRAME Ip XFOO=bar\n".utf8) + [UInt8](repeating: 9, count: 8) + [UInt8](repeating: 128, count: 4)
        _ = FileManager.default.createFile(atPath: path, contents: Data(data))
        let reader = try Y4MFileSource(path: path)
        #expect(reader.header.colourspace == .c420mpeg2)
        #expect(reader.header.comments == ["YSCSS=420MPEG2", "COLORRANGE=FULL"])
        #expect(reader.header.interlacing == "t")
        #expect(abs((reader.header.framesPerSecond ?? 0) - 29.97) < 0.01)
        #expect(
            try readAll(reader).map { $0.pixels } == [[UInt8](repeating: 7, count: 8), [UInt8](repeating: 9, count: 8)])

        let bare = directory + "/bare.y4m"
        _ = FileManager.default.createFile(
            atPath: bare, contents: Data(Array("YUV4MPEG2 W2 H2\nFRAME\n".utf8) + [1, 2, 3, 4, 128, 128]))
        let bareReader = try Y4MFileSource(path: bare)
        #expect(bareReader.header.colourspace == .c420jpeg)
        #expect(try readAll(bareReader).map(\.pixels) == [[1, 2, 3, 4]])
    }

    @Test func truncatedY4MNamesFileAndFrame() throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/cut.y4m"
        try Y4MWriter.write(TestFrames.gradient(width: 16, height: 8, count: 3), to: path)
        let full = try #require(FileManager.default.contents(atPath: path))

        // Cut inside the third frame's luma, then inside its chroma.
        for cut in [100, 10] {
            _ = FileManager.default.createFile(atPath: path, contents: full.prefix(full.count - cut))
            let reader = try Y4MFileSource(path: path)
            _ = try reader.nextFrame(timeout: .seconds(1))
            _ = try reader.nextFrame(timeout: .seconds(1))
            let error = #expect(throws: CaptureError.self) { try reader.nextFrame(timeout: .seconds(1)) }
            guard case .corruptVideo(let file, .truncatedFrame(let frame, let expected, let got))? = error else {
                Issue.record("unexpected \(String(describing: error))")
                continue
            }
            #expect(file == path && frame == 2 && expected == 16 * 8 * 3 / 2 && got == expected - cut)
            #expect(error!.description.contains(path) && error!.description.contains("truncated frame 2"))
        }
    }

    @Test(arguments: [
        ("PNG\r\n junk", "bad header"),
        ("YUV4MPEG2 W10\nFRAME\n", "no height (H)"),
        ("YUV4MPEG2 W0 H10\n", "bad width"),
        ("YUV4MPEG2 W10 H10 C420p10\n", "unsupported colourspace C420p10"),
        ("YUV4MPEG2 W2 H2 Cmono\nFRAMX\n1234", "bad frame header at frame 0"),
        ("", "empty file"),
        ("YUV4MPEG2 W2 H2", "ends inside the header"),
    ])
    func badY4MNamesFileAndProblem(_ content: String, _ expected: String) throws {
        let directory = scratch("y4m")
        defer { remove(directory) }
        let path = directory + "/bad.y4m"
        _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
        let error = #expect(throws: CaptureError.self) {
            let reader = try Y4MFileSource(path: path)
            _ = try reader.nextFrame(timeout: .seconds(1))
        }
        #expect(error?.kind == "corruptVideo")
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func missingY4MIsNoSuchFile() {
        #expect(throws: CaptureError.noSuchFile(path: "/nonexistent/clip.y4m")) {
            _ = try Y4MFileSource(path: "/nonexistent/clip.y4m")
        }
    }

    // MARK: Image folders

    private func writePGM(_ path: String, value: UInt8, width: Int = 6, height: Int = 4) {
        let header = Array("P5\n\(width) \(height)\n255\n".utf8)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(header + [UInt8](repeating: value, count: width * height)))
    }

    @Test func imageFolderReplaysInNaturalOrder() throws {
        let directory = scratch("images")
        defer { remove(directory) }
        writePGM(directory + "/img10.pgm", value: 10)
        writePGM(directory + "/img2.pgm", value: 2)
        writePGM(directory + "/img1.PGM", value: 1)
        writePGM(directory + "/.hidden.pgm", value: 99)
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("not an image".utf8))

        let source = try ImageFolderSource(folder: directory)
        #expect(
            source.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["img1.PGM", "img2.pgm", "img10.pgm"])
        let frames = try readAll(source)
        #expect(frames.map { $0.pixels[0] } == [1, 2, 10])
        #expect(frames.map(\.sequence) == [0, 1, 2])

        let looping = try ImageFolderSource(folder: directory, loop: true)
        var values: [UInt8] = []
        for _ in 0..<5 { values.append(try #require(try looping.nextFrame(timeout: .seconds(1))).pixels[0]) }
        #expect(values == [1, 2, 10, 1, 2])
    }

    @Test func imageFolderErrorsNameThePath() throws {
        let directory = scratch("images")
        defer { remove(directory) }
        #expect(throws: CaptureError.emptyFolder(path: directory)) { _ = try ImageFolderSource(folder: directory) }
        #expect(throws: CaptureError.noSuchFile(path: directory + "/nope")) {
            _ = try ImageFolderSource(folder: directory + "/nope")
        }

        _ = FileManager.default.createFile(
            atPath: directory + "/broken.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]))
        let source = try ImageFolderSource(files: [directory + "/broken.png"])
        let error = #expect(throws: CaptureError.self) { _ = try source.nextFrame(timeout: .seconds(1)) }
        #expect(error?.kind == "unreadableImage")
        #expect(error?.description.contains("broken.png") == true)
    }

    @Test func naturalOrder() {
        let names = ["frame10.png", "frame2.png", "frame1.png", "frame02.png", "a.png", "frame1b.png"]
        #expect(
            names.sorted(by: ImageFolderSource.naturalOrder) == [
                "a.png", "frame1.png", "frame1b.png", "frame2.png", "frame02.png", "frame10.png",
            ])
    }

    @Test func specOpensReplays() throws {
        let directory = scratch("spec")
        defer { remove(directory) }
        let path = directory + "/clip.y4m"
        try Y4MWriter.write(TestFrames.constant(width: 4, height: 4, count: 2), to: path, colourspace: .mono)
        let source = try FrameSourceSpec.video(path: path).open()
        #expect(source.name == path)
        #expect(try readAll(source).count == 2)
    }

    @Test func pacedReplayStillDeliversEveryFrame() throws {
        let directory = scratch("pace")
        defer { remove(directory) }
        let path = directory + "/clip.y4m"
        try Y4MWriter.write(TestFrames.constant(width: 4, height: 4, count: 4), to: path, colourspace: .mono)
        let source = try Y4MFileSource(path: path, pacing: .framesPerSecond(500))
        #expect(try readAll(source).map(\.sequence) == [0, 1, 2, 3])
    }

    // MARK: Reconnecting camera (scripted)

    /// A camera that delivers `frames` frames and then fails with `failure`.
    final class ScriptedCamera: FrameSource {
        let name = "/dev/video-scripted"
        var remaining: Int
        let failure: CaptureError
        var sequence = 0
        var closed = false
        init(frames: Int, then failure: CaptureError) {
            remaining = frames
            self.failure = failure
        }
        func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame? {
            if remaining == 0 { throw failure }
            remaining -= 1
            defer { sequence += 1 }
            return LumaFrame(width: 2, height: 1, pixels: [UInt8(sequence), 0], sequence: sequence)
        }
        func close() { closed = true }
    }

    @Test func reconnectingSourceRecoversWithBackoff() throws {
        let device = "/dev/video-scripted"
        var opens = 0
        var cameras: [ScriptedCamera] = []
        let policy = ReconnectPolicy(
            initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20), restartAfterStall: nil)
        var states: [CameraState] = []
        let source = ReconnectingCameraSource(
            CameraConfiguration(device: device), policy: policy, onStateChange: { states.append($0) },
            open: { _ throws(CaptureError) in
                opens += 1
                // Open 1 works; opens 2 and 3 fail (unplugged); open 4 works again.
                if opens == 2 || opens == 3 { throw .noSuchDevice(device: device) }
                let camera = ScriptedCamera(
                    frames: 3, then: .deviceLost(device: device, reason: "No such device on VIDIOC_DQBUF"))
                cameras.append(camera)
                return camera
            })

        var frames: [LumaFrame] = []
        var errors: [CaptureError] = []
        // The timeout only guards against a hang (the scripted camera answers at once): a call that outlasted it,
        // as a loaded machine's 5 s once could, would report an extra noSuchDevice between the retries.
        while frames.count < 5 {
            do {
                if let frame = try source.nextFrame(timeout: .seconds(120)) { frames.append(frame) }
            } catch {
                errors.append(error)
                #expect(!source.state.isStreaming)
            }
        }
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(errors == [.deviceLost(device: device, reason: "No such device on VIDIOC_DQBUF")])
        #expect(source.reconnections == 1)
        #expect(cameras.first?.closed == true)
        try #require(states.count == 5)
        #expect(states[0] == .streaming(nil))
        #expect(
            states[1]
                == .reconnecting(
                    lastError: .deviceLost(device: device, reason: "No such device on VIDIOC_DQBUF"), attempt: 0,
                    retryIn: .milliseconds(5)))
        #expect(
            states[2] == .reconnecting(lastError: .noSuchDevice(device: device), attempt: 1, retryIn: .milliseconds(5)))
        #expect(
            states[3] == .reconnecting(lastError: .noSuchDevice(device: device), attempt: 2, retryIn: .milliseconds(10))
        )
        #expect(states[4] == .streaming(nil))
        #expect(states[3].description.contains("camera unavailable"))
        source.close()
        #expect(source.state == .closed)
        #expect(cameras.last?.closed == true)
    }

    @Test func stalledCameraIsRestarted() throws {
        var opens = 0
        let policy = ReconnectPolicy(
            initialDelay: .milliseconds(1), maximumDelay: .milliseconds(1), restartAfterStall: .zero)
        let source = ReconnectingCameraSource(
            CameraConfiguration(device: "/dev/video-stall"), policy: policy,
            open: { configuration throws(CaptureError) in
                opens += 1
                return ScriptedCamera(
                    frames: opens == 1 ? 0 : 1, then: .noFrame(device: configuration.device, seconds: 0.01))
            })
        #expect(throws: CaptureError.noFrame(device: "/dev/video-stall", seconds: 0.01)) {
            try source.nextFrame(timeout: .seconds(120))
        }
        let frame = try source.nextFrame(timeout: .seconds(120))  // a hang guard only: the reopen is 1 ms away
        #expect(frame != nil)
        #expect(opens == 2)
    }

    @Test func backoffDoublesToTheCap() {
        let policy = ReconnectPolicy()
        #expect(
            (1...7).map { policy.delay(beforeAttempt: $0) } == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
            ])
    }

    // MARK: Errors

    @Test func errorsNameTheDeviceAndCause() {
        let cases: [(CaptureError, [String])] = [
            (.noSuchDevice(device: "/dev/video9"), ["/dev/video9", "no such camera"]),
            (.permissionDenied(device: "/dev/video0"), ["/dev/video0", "permission denied", "video"]),
            (.deviceBusy(device: "/dev/video0"), ["/dev/video0", "busy"]),
            (
                .deviceLost(device: "/dev/video0", reason: "No such device on VIDIOC_DQBUF"),
                ["/dev/video0", "unplugged", "VIDIOC_DQBUF"]
            ),
            (.noFrame(device: "/dev/video0", seconds: 2), ["/dev/video0", "no frame within 2 s"]),
            (.corruptVideo(path: "a.y4m", problem: .unsupportedColourspace("420p10")), ["a.y4m", "C420p10"]),
        ]
        for (error, fragments) in cases {
            for fragment in fragments {
                #expect(error.description.contains(fragment), "\(error.description) lacks \(fragment)")
            }
        }
        #expect(CaptureError.deviceLost(device: "d", reason: "r").isDeviceLoss)
        #expect(!CaptureError.permissionDenied(device: "d").isDeviceLoss)
    }

    @Test func invalidCameraConfigurationIsRefusedBeforeOpening() {
        #expect(throws: CaptureError.self) {
            _ = try V4L2CameraSource(CameraConfiguration(device: "/dev/video0", width: 0))
        }
        #expect(throws: CaptureError.self) {
            _ = try V4L2CameraSource(CameraConfiguration(device: "/dev/video0", framesPerSecond: -1))
        }
    }
}
