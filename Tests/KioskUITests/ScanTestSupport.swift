import Foundation
import KioskUI
import SampleData
import Scanning
import StopCodes
import TransitStore

/// Fixtures for the scan pipeline and `kiosk scan` tests: the sample network imported once, QR codes rendered
/// with libqrencode (dlopen, as in Tests/ScanningTests/DecodeTestSupport.swift), the fake V4L2 camera shim
/// (Tests/Fixtures/fakev4l2, compiled here as Tests/ScanningTests/CaptureSupport.swift does), and a runner for the
/// built `kiosk` executable with its output in files.
enum ScanFixtures {
    // MARK: The sample network

    /// The Quito sample network, imported once per test process (into the build directory, beside the products,
    /// so that nothing is left behind in the temporary directory; the import replaces the file atomically).
    static let sampleDatabasePath: Result<String, ScanFixtureFailure> = {
        let path = scratchDirectory + "/scan-tests-sample.sqlite"
        do {
            _ = try GTFSImporter(feedPath: SampleData.sampleNetworkFeed.path, databasePath: path).run()
            return .success(path)
        } catch {
            return .failure(ScanFixtureFailure("importing the sample network failed: \(error)"))
        }
    }()

    /// The build directory when it is writable, else a temporary directory.
    static let scratchDirectory: String = {
        FileManager.default.isWritableFile(atPath: productsDirectory) ? productsDirectory : temporaryDirectory("scratch")
    }()

    static func database() throws -> RouteDatabase {
        try RouteDatabase(path: try sampleDatabasePath.get())
    }

    /// The sample network's label template and feed ID (`transit.example`, from its feed_info publisher URL).
    static let template = try! StopURLTemplate("https://transit.example/s/{stop_code}")

    static func url(_ code: String) -> String { "https://transit.example/s/\(code)" }

    /// A label key, fixed so that failures are reproducible.
    static let labelKey = try! KeyPair(seed: Array(repeating: 7, count: 32))
    static let otherKey = try! KeyPair(seed: Array(repeating: 9, count: 32))

    static func signedURL(_ code: String, key: KeyPair = labelKey, feedID: String = "transit.example") -> String {
        key.signedURL(template: template, feedID: feedID, value: code)!
    }

    static func resolver(_ database: RouteDatabase, policy: SignaturePolicy = .prefer, keys: [KeyPair] = [labelKey]) throws -> ScanResolver {
        var config = KioskConfig()
        config.signaturePolicy = policy
        config.publicKeys = keys.map(\.publicKey.encoded)
        return try ScanResolver(config: config, database: database)
    }

    // MARK: QR codes (libqrencode through dlopen)

    private typealias EncodeData = @convention(c) (Int32, UnsafePointer<UInt8>?, Int32, Int32) -> UnsafeMutableRawPointer?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private struct QREncode: @unchecked Sendable {
        // Function pointers from dlsym, immutable after loading.
        let encode: EncodeData
        let free: Free
    }

    private static let qrencode: QREncode? = {
        guard let handle = dlopen("libqrencode.so.4", RTLD_NOW) ?? dlopen("libqrencode.so", RTLD_NOW),
              let encode = dlsym(handle, "QRcode_encodeData"), let free = dlsym(handle, "QRcode_free") else { return nil }
        return QREncode(encode: unsafeBitCast(encode, to: EncodeData.self), free: unsafeBitCast(free, to: Free.self))
    }()

    static var canRenderQR: Bool { qrencode != nil }

    /// The module matrix of `bytes` (byte mode, error correction L): `width × width`, true = dark.
    static func qrMatrix(_ bytes: [UInt8]) -> (width: Int, dark: [Bool]) {
        guard let library = qrencode else { fatalError("libqrencode not available (install libqrencode-dev)") }
        guard let code = bytes.withUnsafeBufferPointer({ library.encode(Int32($0.count), $0.baseAddress, 0, 0) }) else {
            fatalError("QRcode_encodeData failed for \(bytes.count) bytes")
        }
        defer { library.free(code) }
        // struct QRcode { int version; int width; unsigned char *data; }
        let width = Int(code.load(fromByteOffset: 4, as: Int32.self))
        let data = code.load(fromByteOffset: 8, as: UnsafePointer<UInt8>.self)
        return (width, (0..<width * width).map { data[$0] & 1 == 1 })
    }

    /// A `width × height` frame: a textured background (seeded noise) with the QR code of `payload` at (`x`, `y`),
    /// `module` pixels per module and a 4-module white quiet zone. No payload: just the background.
    static func frame(_ payload: [UInt8]?, width: Int = 640, height: Int = 480, x: Int = 120, y: Int = 60, module: Int = 4,
                      seed: UInt64 = 1, sequence: Int = 0, arrivalNanos: UInt64 = 0) -> LumaFrame {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height)
        for py in 0..<height {
            for px in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 61) - 3
                pixels[py * width + px] = UInt8(clamping: 90 + (px * 60 / width) + (py * 30 / height) + noise)
            }
        }
        if let payload {
            let matrix = qrMatrix(payload)
            let side = (matrix.width + 8) * module
            for py in 0..<side where y + py < height {
                for px in 0..<side where x + px < width {
                    let mx = px / module - 4, my = py / module - 4
                    let dark = mx >= 0 && my >= 0 && mx < matrix.width && my < matrix.width && matrix.dark[my * matrix.width + mx]
                    pixels[(y + py) * width + x + px] = dark ? 25 : 230
                }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels, sequence: sequence, arrivalNanos: arrivalNanos)
    }

    static func frame(_ text: String, width: Int = 640, height: Int = 480, x: Int = 120, y: Int = 60, module: Int = 4,
                      seed: UInt64 = 1, sequence: Int = 0, arrivalNanos: UInt64 = 0) -> LumaFrame {
        frame(Array(text.utf8), width: width, height: height, x: x, y: y, module: module, seed: seed, sequence: sequence,
              arrivalNanos: arrivalNanos)
    }

    /// Draws a QR matrix (with its 4-module quiet zone) into a frame.
    static func draw(_ matrix: (width: Int, dark: [Bool]), into frame: inout LumaFrame, x: Int, y: Int, module: Int) {
        let side = (matrix.width + 8) * module
        for py in 0..<side where y + py >= 0 && y + py < frame.height {
            for px in 0..<side where x + px >= 0 && x + px < frame.width {
                let mx = px / module - 4, my = py / module - 4
                let dark = mx >= 0 && my >= 0 && mx < matrix.width && my < matrix.width && matrix.dark[my * matrix.width + mx]
                frame.pixels[(y + py) * frame.width + x + px] = dark ? 25 : 230
            }
        }
    }

    /// A binary PGM of a frame (what `kiosk scan --images` reads without any codec).
    static func pgm(_ frame: LumaFrame) -> Data {
        var data = Data("P5\n\(frame.width) \(frame.height)\n255\n".utf8)
        data.append(contentsOf: frame.pixels)
        return data
    }

    // MARK: Files and processes

    static func temporaryDirectory(_ label: String) -> String {
        let path = NSTemporaryDirectory() + "stopkiosk-scan-\(getpid())-\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The directory of the built products (the test bundle is built beside `kiosk`).
    static var productsDirectory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    static var kiosk: String { productsDirectory + "/kiosk" }

    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output's JSON lines.
        var json: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }

        var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// Runs `kiosk ARGS…` to completion (a guard of `limit` seconds against hangs only), with the cache in a
    /// temporary directory removed afterwards.
    static func runKiosk(_ arguments: [String], environment: [String: String] = [:], preload: String? = nil,
                         limit: Double = 180) throws -> Run {
        let running = try startKiosk(arguments, environment: environment, preload: preload, mergeOutput: false)
        return running.wait(limit: limit)
    }

    /// A `kiosk` process running in the background, its output going to files.
    final class RunningKiosk {
        let process: Process
        let directory: String
        let outPath: String
        let errPath: String

        init(process: Process, directory: String, outPath: String, errPath: String) {
            self.process = process
            self.directory = directory
            self.outPath = outPath
            self.errPath = errPath
        }

        var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

        /// Polls the output until `condition` holds or the process ends or `limit` seconds pass (a hang guard).
        func waitForOutput(limit: Double = 120, _ condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(limit)
            while Date() < deadline {
                if condition(output) { return true }
                if !process.isRunning { return condition(output) }
                usleep(50_000)
            }
            return false
        }

        func signal(_ number: Int32) { if process.isRunning { kill(process.processIdentifier, number) } }

        func wait(limit: Double = 180) -> Run {
            let deadline = Date().addingTimeInterval(limit)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            var killed = false
            if process.isRunning {
                killed = true
                process.terminate()
                usleep(500_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            let stdout = output
            var stderr = outPath == errPath ? "" : ((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
            if killed { stderr += "\n[test harness: killed after \(limit) s]" }
            try? FileManager.default.removeItem(atPath: directory)
            return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        }
    }

    /// Starts `kiosk ARGS…`. With `mergeOutput`, standard error goes to the same file as standard output, so the
    /// order of scans and camera messages can be read back.
    static func startKiosk(_ arguments: [String], environment: [String: String] = [:], preload: String? = nil,
                           mergeOutput: Bool) throws -> RunningKiosk {
        let directory = temporaryDirectory("run")
        let outPath = directory + "/stdout", errPath = mergeOutput ? outPath : directory + "/stderr"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: kiosk)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FAKEV4L2_") && $0.key != "LD_PRELOAD" }
        env["XDG_CACHE_HOME"] = directory + "/cache" // removed with the run's directory
        for (key, value) in environment { env[key] = value }
        if let preload { env["LD_PRELOAD"] = preload }
        process.environment = env
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = out
        process.standardError = mergeOutput ? out : try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningKiosk(process: process, directory: directory, outPath: outPath, errPath: errPath)
    }

    // MARK: The fake V4L2 camera

    static let fakeDevice = "/dev/video42"

    static let compiler: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in ["cc", "gcc", "clang"] {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    static var canFakeCamera: Bool { compiler != nil && canRenderQR }

    /// libfakev4l2.so, compiled once per test process (into the build directory, replaced atomically).
    static let fakeCameraLibrary: Result<String, ScanFixtureFailure> = {
        guard let compiler else { return .failure(ScanFixtureFailure("no C compiler (cc, gcc, clang) on PATH")) }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fakev4l2/fakev4l2.c").path
        let library = scratchDirectory + "/libfakev4l2-scan.so"
        let temporary = library + ".\(getpid()).tmp"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-O2", "-o", temporary, source, "-ldl", "-lpthread"]
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(ScanFixtureFailure("cannot run \(compiler): \(error)")) }
        process.waitUntilExit()
        guard process.terminationStatus == 0, rename(temporary, library) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return .failure(ScanFixtureFailure("compiling \(source) failed with status \(process.terminationStatus)"))
        }
        return .success(library)
    }()
}

struct ScanFixtureFailure: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Collects the scans among events.
extension Array where Element == ScanEvent {
    var scans: [ScanResult] {
        compactMap { if case .scan(let scan) = $0 { return scan } else { return nil } }
    }
}
