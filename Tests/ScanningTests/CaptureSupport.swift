import Foundation
import KioskTesting
import Scanning

/// The capture tests run the `capture-probe` executable as a child process under the fake V4L2 camera
/// (KioskTesting's `FakeCamera`: a preload only takes effect when a process starts) and read its JSON lines.
enum CaptureProbe {
    /// The capture-probe executable: $CAPTURE_PROBE, else beside the test binary (SwiftPM puts every product of
    /// the package in the same build directory).
    static func executable() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["CAPTURE_PROBE"], let found = Programs.which(explicit) {
            return found
        }
        let candidate = Programs.productsDirectory.appendingPathComponent("capture-probe")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw FixtureFailure(
                "capture-probe not found at \(candidate.path); build it with `swift build --product capture-probe` or set CAPTURE_PROBE"
            )
        }
        return candidate
    }

    /// Runs the probe with the fake camera preloaded and `FAKEV4L2_*` settings (a generous limit against hangs).
    static func run(
        _ arguments: [String], fake settings: [String: String] = [:], preload: Bool = true,
        limit: Double = 120
    ) throws -> ProbeRun {
        var environment = settings
        if environment["FAKEV4L2_DEVICE"] == nil { environment["FAKEV4L2_DEVICE"] = FakeCamera.device }
        let result = try Programs.run(
            try executable(), arguments, environment: environment,
            preload: preload ? try FakeCamera.library() : nil, limit: limit)
        return ProbeRun(
            status: result.status, lines: result.jsonLines.map(ProbeLine.init), stdout: result.stdout,
            stderr: result.stderr)
    }
}

/// One JSON line printed by capture-probe.
struct ProbeLine {
    let fields: [String: Any]
    init(_ fields: [String: Any]) { self.fields = fields }
    var event: String { fields["event"] as? String ?? "" }
    func string(_ key: String) -> String? { fields[key] as? String }
    func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    func strings(_ key: String) -> [String]? { fields[key] as? [String] }
}

struct ProbeRun: CustomStringConvertible {
    let status: Int32
    let lines: [ProbeLine]
    let stdout: String
    let stderr: String

    var frames: [ProbeLine] { lines.filter { $0.event == "frame" } }
    var errors: [ProbeLine] { lines.filter { $0.event == "error" } }
    var states: [ProbeLine] { lines.filter { $0.event == "state" } }
    var open: ProbeLine? { lines.first { $0.event == "open" } }
    var end: ProbeLine? { lines.last { $0.event == "end" } }

    var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Test frames and their fingerprints (the same FNV-1a 64 the probe prints).
enum TestFrames {
    static func fingerprint(_ pixels: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in pixels { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Frame k: a diagonal gradient shifted by k, so every frame and every pixel position differ.
    static func gradient(width: Int, height: Int, count: Int) -> [LumaFrame] {
        (0..<count).map { k in
            var pixels = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { pixels[y * width + x] = UInt8(truncatingIfNeeded: x * 3 + y * 5 + k * 17) }
            }
            return LumaFrame(width: width, height: height, pixels: pixels, sequence: k)
        }
    }

    /// Frame k: constant luma `constantLuma(k)`.
    static func constant(width: Int, height: Int, count: Int) -> [LumaFrame] {
        (0..<count).map { k in
            LumaFrame(
                width: width, height: height, pixels: [UInt8](repeating: constantLuma(k), count: width * height),
                sequence: k)
        }
    }

    static func constantLuma(_ k: Int) -> UInt8 { UInt8(10 + 20 * k) }

    /// Writes frames to a fresh Y4M file and returns its path.
    static func y4m(
        _ frames: [LumaFrame], colourspace: Y4MColourspace = .c420jpeg, label: String = "frames"
    ) throws -> String {
        let path = TemporaryFolder.make(label).path + "/\(label).y4m"
        try Y4MWriter.write(frames, to: path, colourspace: colourspace)
        return path
    }
}
