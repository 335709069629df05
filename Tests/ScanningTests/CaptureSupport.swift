import Foundation
import Scanning

/// Test support for the capture tests: the fake V4L2 camera (an LD_PRELOAD library compiled from
/// Tests/Fixtures/fakev4l2/fakev4l2.c at test time) and the `capture-probe` executable that runs under it.
///
/// A preload only takes effect when a process starts, so camera tests run the probe as a child process with
/// LD_PRELOAD and FAKEV4L2_* variables set, and read its JSON lines.
enum FakeCamera {
    /// The fake device node the shim answers for (it does not exist on disk).
    static let device = "/dev/video42"

    /// A C compiler: $CC, else cc, gcc or clang on PATH.
    static let compiler: String? = {
        if let cc = ProcessInfo.processInfo.environment["CC"], !cc.isEmpty, let found = which(cc) { return found }
        for name in ["cc", "gcc", "clang"] {
            if let found = which(name) { return found }
        }
        return nil
    }()

    static var available: Bool { compiler != nil }

    static let sourcePath: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fakev4l2/fakev4l2.c").path
    }()

    /// Built once per test process: the path of libfakev4l2.so, or why it could not be built.
    private static let built: Result<String, ProbeFailure> = {
        guard let compiler else { return .failure(ProbeFailure("no C compiler (cc, gcc, clang) on PATH")) }
        // Next to the probe in the build directory (rebuilt every run, removed with the build), else in /tmp.
        var directory = (try? probe()).map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? ""
        if directory.isEmpty || !FileManager.default.isWritableFile(atPath: directory) { directory = scratchDirectory("fakev4l2") }
        let library = directory + "/libfakev4l2.so"
        let temporary = library + ".\(getpid()).tmp"
        let result = run(compiler, ["-shared", "-fPIC", "-O2", "-Wall", "-o", temporary, sourcePath, "-ldl", "-lpthread"],
                         environment: [:], preload: nil, limit: 120)
        guard result.status == 0, rename(temporary, library) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return .failure(ProbeFailure("compiling \(sourcePath) with \(compiler) failed (status \(result.status)):\n\(result.stderr)"))
        }
        return .success(library)
    }()

    static func library() throws -> String { try built.get() }

    /// The capture-probe executable: $CAPTURE_PROBE, else next to the test binary (SwiftPM puts every product of
    /// the package in the same build directory).
    static func probe() throws -> String {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["CAPTURE_PROBE"], fm.isExecutableFile(atPath: explicit) {
            return explicit
        }
        var candidates: [String] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("capture-probe").path)
        }
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        candidates.append(argv0.appendingPathComponent("capture-probe").path)
        for candidate in candidates where fm.isExecutableFile(atPath: candidate) { return candidate }
        throw ProbeFailure("capture-probe not found (looked at \(candidates.joined(separator: ", "))); build it with `swift build --product capture-probe` or set CAPTURE_PROBE")
    }

    /// Runs the probe with the fake camera preloaded and `FAKEV4L2_*` settings.
    static func runProbe(_ arguments: [String], fake settings: [String: String] = [:], preload: Bool = true,
                         limit: Double = 120) throws -> ProbeRun {
        var environment = settings
        if environment["FAKEV4L2_DEVICE"] == nil { environment["FAKEV4L2_DEVICE"] = device }
        let result = run(try probe(), arguments, environment: environment, preload: preload ? try library() : nil, limit: limit)
        return ProbeRun(status: result.status, lines: parseLines(result.stdout), stdout: result.stdout, stderr: result.stderr)
    }

    private static func parseLines(_ text: String) -> [ProbeLine] {
        text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return ProbeLine(fields: object)
        }
    }

    /// Runs a program with output in files (no pipe to fill up) and a generous limit against hangs.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], preload: String?,
                    limit: Double) -> (status: Int32, stdout: String, stderr: String) {
        let directory = scratchDirectory("run")
        let outPath = directory + "/stdout", errPath = directory + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FAKEV4L2_") && $0.key != "LD_PRELOAD" }
        for (key, value) in environment { env[key] = value }
        if let preload { env["LD_PRELOAD"] = preload }
        process.environment = env
        guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
            return (-1, "", "cannot create output files in \(directory)")
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (-1, "", "cannot start \(executable): \(error)")
        }
        // A guard against hangs only (the fake camera could wedge); no test depends on how fast anything runs.
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var killed = false
        if process.isRunning {
            killed = true
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        var stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        if killed { stderr += "\n[test harness: killed after \(limit) s]" }
        return (process.terminationStatus, stdout, stderr)
    }

    static func scratchDirectory(_ label: String) -> String {
        let path = NSTemporaryDirectory() + "stopkiosk-capture-\(getpid())-\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

struct ProbeFailure: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One JSON line printed by capture-probe.
struct ProbeLine {
    let fields: [String: Any]
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
            LumaFrame(width: width, height: height, pixels: [UInt8](repeating: constantLuma(k), count: width * height), sequence: k)
        }
    }

    static func constantLuma(_ k: Int) -> UInt8 { UInt8(10 + 20 * k) }

    /// Writes frames to a fresh Y4M file and returns its path.
    static func y4m(_ frames: [LumaFrame], colourspace: Y4MColourspace = .c420jpeg, label: String = "frames") throws -> String {
        let path = FakeCamera.scratchDirectory(label) + "/\(label).y4m"
        try Y4MWriter.write(frames, to: path, colourspace: colourspace)
        return path
    }
}
