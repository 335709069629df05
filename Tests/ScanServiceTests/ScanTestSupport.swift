import Foundation
import KioskConfiguration
import KioskTesting
import ScanService
import Scanning
import StopCodes
import TransitStore

/// Fixtures for the scan pipeline tests: the sample network (imported once, KioskTesting's `SampleNetwork`), the
/// label keys, and frames holding QR codes (libqrencode through KioskTesting, error correction L).
enum ScanFixtures {
    static func database() throws -> RouteDatabase {
        try RouteDatabase(path: try SampleNetwork.databasePath())
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

    static func resolver(
        _ database: RouteDatabase, policy: SignaturePolicy = .prefer, keys: [KeyPair] = [labelKey]
    ) throws -> ScanResolver {
        var config = KioskConfig()
        config.signaturePolicy = policy
        config.publicKeys = keys.map(\.publicKey.encoded)
        return try ScanResolver(config: config, database: database)
    }

    /// The module matrix of `bytes` (byte mode, error correction L).
    static func qrMatrix(_ bytes: [UInt8]) -> QRCodes.Matrix { QRCodes.matrix(bytes, correction: .low) }

    /// A `width × height` frame: a textured background (seeded noise) with the QR code of `payload` at (`x`, `y`),
    /// `module` pixels per module and a 4-module white quiet zone. No payload: just the background.
    static func frame(
        _ payload: [UInt8]?, width: Int = 640, height: Int = 480, x: Int = 120, y: Int = 60, module: Int = 4,
        seed: UInt64 = 1, sequence: Int = 0, arrivalNanos: UInt64 = 0
    ) -> LumaFrame {
        var frame = LumaFrame(
            width: width, height: height, pixels: GreyImages.textured(width: width, height: height, seed: seed),
            sequence: sequence, arrivalNanos: arrivalNanos)
        if let payload { draw(qrMatrix(payload), into: &frame, x: x, y: y, module: module) }
        return frame
    }

    static func frame(
        _ text: String, width: Int = 640, height: Int = 480, x: Int = 120, y: Int = 60, module: Int = 4,
        seed: UInt64 = 1, sequence: Int = 0, arrivalNanos: UInt64 = 0
    ) -> LumaFrame {
        frame(
            Array(text.utf8), width: width, height: height, x: x, y: y, module: module, seed: seed, sequence: sequence,
            arrivalNanos: arrivalNanos)
    }

    /// Draws a QR matrix (with its 4-module quiet zone) into a frame.
    static func draw(_ matrix: QRCodes.Matrix, into frame: inout LumaFrame, x: Int, y: Int, module: Int) {
        QRCodes.draw(matrix, into: &frame.pixels, width: frame.width, height: frame.height, x: x, y: y, module: module)
    }

    /// A binary PGM of a frame (what `FrameSourceSpec.imageFiles` reads without any codec).
    static func pgm(_ frame: LumaFrame) -> Data {
        GreyImages.pgm(width: frame.width, height: frame.height, pixels: frame.pixels)
    }
}

/// Collects the scans among events.
extension Array where Element == ScanEvent {
    var scans: [ScanResult] {
        compactMap { if case .scan(let scan) = $0 { return scan } else { return nil } }
    }
}
