import Foundation
import Scanning

/// The recorded camera session `kiosk demo` plays: a Y4M video of the session's distinct frames and a timeline
/// (`session.json`) saying which frame the camera sees for how many ticks, and which keys the recorded passenger
/// presses. A frame held still for two seconds (or the empty street, seen again and again) is stored once and
/// shown many times, which keeps the file small; every shown frame still goes through the decoder as a camera
/// frame would.
public struct DemoSession: Sendable, Codable, Equatable {
    /// One stretch of the timeline: stored `frame` shown for `ticks` camera ticks; `key`, if any, pressed at
    /// its start (`enter`, `escape`, `tab`, `down`, or text to type).
    public struct Step: Sendable, Codable, Equatable {
        public var frame: Int
        public var ticks: Int
        public var key: String?

        public init(frame: Int, ticks: Int, key: String? = nil) {
            self.frame = frame
            self.ticks = ticks
            self.key = key
        }
    }

    /// One label shown in the session, for the README and the tests.
    public struct Shown: Sendable, Codable, Equatable {
        /// The step at which the label is readable.
        public var step: Int
        public var payload: String
        /// What the passenger should then see: a stop's name, or a notice.
        public var expect: String

        public init(step: Int, payload: String, expect: String) {
            self.step = step
            self.payload = payload
            self.expect = expect
        }
    }

    /// The Y4M file, relative to the session file.
    public var video: String
    /// Camera ticks per second.
    public var framesPerSecond: Double
    public var steps: [Step]
    public var labels: [Shown]
    /// The stop the demo kiosk stands at (its idle screen's departures).
    public var homeStop: String
    /// The local time of day (HH:MM) the demo clock starts at when the real one is outside service hours.
    public var fallbackStart: String

    public init(
        video: String, framesPerSecond: Double, steps: [Step], labels: [Shown], homeStop: String, fallbackStart: String
    ) {
        self.video = video
        self.framesPerSecond = framesPerSecond
        self.steps = steps
        self.labels = labels
        self.homeStop = homeStop
        self.fallbackStart = fallbackStart
    }

    /// Length of one pass in seconds.
    public var duration: Double { Double(steps.map(\.ticks).reduce(0, +)) / framesPerSecond }

    public static func load(_ path: String) throws -> DemoSession {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(DemoSession.self, from: data)
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}

/// Plays a `DemoSession` as a camera: each step's frame is handed out `ticks` times at the session's rate
/// (paced), with increasing sequence numbers and fresh arrival times. The video's few distinct frames are read
/// once at the start. Ends after one pass unless `loop`.
public final class DemoReplaySource: FrameSource {
    public let session: DemoSession
    public let path: String
    public let loop: Bool
    public var name: String { path }
    /// The step of the last frame handed out, and whether that frame started the step (its keys are due).
    public private(set) var stepIndex = -1
    public private(set) var startedStep = false
    /// Completed passes.
    public private(set) var passes = 0

    private var frames: [LumaFrame]
    private var remaining = 0
    private var sequence = 0
    private var nextDue: UInt64 = 0
    private let interval: UInt64
    private var closed = false

    /// Paced like a camera at the session's rate, unless `paced` is false (soak tests and benchmarks replay the
    /// same passenger as fast as the kiosk can take it).
    public let paced: Bool

    public init(session: DemoSession, videoPath: String, loop: Bool, paced: Bool = true) throws(CaptureError) {
        self.session = session
        self.path = videoPath
        self.loop = loop
        self.paced = paced
        self.interval = UInt64(1e9 / max(1, session.framesPerSecond))
        let video = try Y4MFileSource(path: videoPath, loop: false, pacing: .unpaced)
        defer { video.close() }
        var frames: [LumaFrame] = []
        while let frame = try video.nextFrame(timeout: .seconds(1)) { frames.append(frame) }
        self.frames = frames
        guard !session.steps.isEmpty else { throw .invalidConfiguration("demo session \(videoPath) has no steps") }
        if let bad = session.steps.first(where: { $0.frame < 0 || $0.frame >= frames.count }) {
            throw .invalidConfiguration(
                "demo session step shows frame \(bad.frame), but \(videoPath) has \(frames.count) frames")
        }
    }

    /// The key the recorded passenger presses with the frame just handed out (`DemoSession.Step.key`).
    public var dueKey: String? { startedStep && stepIndex >= 0 ? session.steps[stepIndex].key : nil }

    public func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame? {
        guard !closed else { throw .closed(source: path) }
        startedStep = false
        if remaining == 0 {
            stepIndex += 1
            if stepIndex >= session.steps.count {
                passes += 1
                guard loop else { return nil }
                stepIndex = 0
            }
            remaining = max(1, session.steps[stepIndex].ticks)
            startedStep = true
        }
        remaining -= 1
        // Pace like a camera: one frame per interval, never catching up in bursts.
        let now = DispatchTime.now().uptimeNanoseconds
        if !paced {
            nextDue = now
        } else if nextDue > now {
            Thread.sleep(forTimeInterval: Double(nextDue - now) / 1e9)
            nextDue += interval
        } else {
            nextDue = now + interval
        }
        var frame = frames[session.steps[stepIndex].frame]
        frame.sequence = sequence
        frame.arrivalNanos = DispatchTime.now().uptimeNanoseconds
        sequence += 1
        return frame
    }

    public func close() {
        closed = true
        frames = []
    }
}

/// Where the shipped demo session lives: next to the sample network in the program's resources, in the source
/// tree's `assets/demo/` (a development build), or beside the executable's repository.
public enum DemoSessionLocator {
    public static let fileName = "session.json"

    public static func candidates(
        resourceDirectory: URL?, executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
        sourceFile: String = #filePath
    ) -> [String] {
        var paths: [String] = []
        if let resourceDirectory { paths.append(resourceDirectory.appendingPathComponent("demo/\(fileName)").path) }
        // Sources/KioskUI/DemoSession.swift → repository root.
        let repository = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        paths.append(repository.appendingPathComponent("assets/demo/\(fileName)").path)
        // .build/<config>/kiosk → repository root.
        var dir = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            paths.append(dir.appendingPathComponent("assets/demo/\(fileName)").path)
            dir.deleteLastPathComponent()
        }
        return paths
    }

    public static func find(resourceDirectory: URL?) -> String? {
        candidates(resourceDirectory: resourceDirectory).first { FileManager.default.fileExists(atPath: $0) }
    }
}
