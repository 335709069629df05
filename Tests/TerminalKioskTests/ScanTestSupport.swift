import Foundation
import KioskTesting
import Scanning
import StopCodes

/// Fixtures for the `kiosk scan` and `kiosk run` process tests: stop URLs and signed labels for the sample network,
/// and frames holding their QR codes (libqrencode through KioskTesting, error correction L). The sample database,
/// the fake camera and the process runner are KioskTesting's `SampleNetwork`, `FakeCamera` and `Programs`.
enum ScanFixtures {
    /// The sample network's label template and feed ID (`transit.example`, from its feed_info publisher URL).
    static let template = try! StopURLTemplate("https://transit.example/s/{stop_code}")

    static func url(_ code: String) -> String { "https://transit.example/s/\(code)" }

    /// A label key, fixed so that failures are reproducible.
    static let labelKey = try! KeyPair(seed: Array(repeating: 7, count: 32))

    static func signedURL(_ code: String) -> String {
        labelKey.signedURL(template: template, feedID: "transit.example", value: code)!
    }

    /// A `width × height` frame: a textured background (seeded noise) with the QR code of `payload` at (`x`, `y`),
    /// 4 pixels per module and a 4-module white quiet zone. No payload: just the background.
    static func frame(
        _ payload: String?, width: Int = 640, height: Int = 480, x: Int = 120, y: Int = 60, seed: UInt64 = 1
    ) -> LumaFrame {
        var pixels = GreyImages.textured(width: width, height: height, seed: seed)
        if let payload {
            QRCodes.draw(
                QRCodes.matrix(Array(payload.utf8), correction: .low), into: &pixels, width: width, height: height,
                x: x, y: y, module: 4)
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }

    /// A binary PGM of a frame (what `kiosk scan --images` reads without any codec).
    static func pgm(_ frame: LumaFrame) -> Data {
        GreyImages.pgm(width: frame.width, height: frame.height, pixels: frame.pixels)
    }
}
