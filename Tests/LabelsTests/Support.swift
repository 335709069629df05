import Foundation
import Labels
import Scanning
import StopCodes
import Testing

/// Helpers for the label tests: temporary directories, running the built `kiosk` executable as a person
/// would (copied from TransitStoreTests/Support.swift, which this target cannot import), and external tools.
enum TestSupport {
    /// A fresh temporary directory, unique per call (tests run in parallel).
    static func temporaryDirectory(_ name: String = "t") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stopkiosk-labels-tests-\(getpid())-\(name)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The directory holding the built products (the test bundle is built beside them).
    static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var kioskExecutable: URL { productsDirectory.appendingPathComponent("kiosk") }

    /// One cache for the imported sample network, shared by the CLI tests of this target (imported once).
    static let cacheDirectory = temporaryDirectory("cache")

    struct ProcessResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `kiosk ARGS…` to completion and captures what it printed.
    static func runKiosk(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        var env = ["XDG_CACHE_HOME": cacheDirectory.path]
        for (key, value) in environment { env[key] = value }
        return try run(kioskExecutable, arguments, environment: env)
    }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Files rather than pipes: a chatty child can never block on a full pipe.
        let dir = temporaryDirectory("run")
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        try? FileManager.default.removeItem(at: dir)
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// An executable on PATH, or nil.
    static func which(_ name: String) -> URL? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    /// Rasterises a PDF's pages with poppler's `pdftoppm` (greyscale PGM, which `ImageFile` reads), or nil
    /// when poppler-utils is not installed.
    static func rasterise(pdf: URL, dpi: Int = 150) throws -> [URL]? {
        guard let pdftoppm = which("pdftoppm") else { return nil }
        let dir = temporaryDirectory("pages")
        let result = try run(pdftoppm, ["-r", String(dpi), "-gray", pdf.path, dir.appendingPathComponent("page").path])
        #expect(result.status == 0, "pdftoppm failed: \(result.stderr)")
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "pgm" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every QR payload zbar finds in an image file.
    static func decodeQRCodes(_ file: URL, decoder: ZBarDecoder) throws -> [String] {
        let frame = try ImageFile.load(file.path)
        return decoder.decode(frame).filter { $0.symbology == .qrCode }.map(\.lossyText)
    }

    /// Symbols in an image file.
    static func decode(_ file: URL, symbologies: Set<Symbology> = [.qrCode, .code128]) throws -> [DecodedSymbol] {
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: symbologies))
        return decoder.decode(try ImageFile.load(file.path))
    }

    static func template(_ pattern: String = "https://transit.example/s/{stop_code}") -> StopURLTemplate {
        try! StopURLTemplate(pattern)
    }

    /// A few stops with what real feeds throw at labels.
    static let stops: [LabelStop] = [
        LabelStop(id: "MQ01A", code: "1011", name: "Quitumbe", routes: [LabelRoute(name: "L1", color: RGBColor(hex: "D52B1E"), textColor: .white)],
                  agencies: ["Metro de Quito"]),
        LabelStop(id: "EP-X", code: "0701", name: "Parque Bicentenario – Andén Norte (hacia El Labrador)",
                  routes: ["A3", "TB", "EV", "MB"].map { LabelRoute(name: $0, color: RGBColor(hex: "F5B800"), textColor: .black) },
                  agencies: ["Empresa Pública Metropolitana de Transporte de Pasajeros de Quito"]),
        LabelStop(id: "S3", code: "7", name: "Ñuñoa", routes: [], agencies: []),
    ]

    static func file(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    static func listing(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}
