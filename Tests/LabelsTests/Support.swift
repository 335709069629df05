import Foundation
import KioskTesting
import Labels
import Scanning
import StopCodes
import Testing

/// Helpers for the label tests (running `kiosk`, folders and tools: KioskTesting).
enum TestSupport {
    /// Rasterises a PDF's pages with poppler's `pdftoppm` (greyscale PGM, which `ImageFile` reads); the set-up
    /// (kiosk/setup.sh) installs poppler-utils, so its absence fails the test. 300 dpi is the least a label
    /// printer prints at; at 150 dpi a signed label's modules are under four pixels wide.
    static func rasterise(pdf: URL, dpi: Int = 300) throws -> [URL] {
        let pdftoppm = try #require(
            Programs.which("pdftoppm"), "pdftoppm is not on the PATH: install poppler-utils (kiosk/setup.sh does)")
        let dir = TemporaryFolder.make("pages")
        let result = try Programs.run(
            pdftoppm, ["-r", String(dpi), "-gray", pdf.path, dir.appendingPathComponent("page").path])
        #expect(result.status == 0, "pdftoppm failed: \(result.stderr)")
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "pgm" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every QR payload zbar finds in an image file. Each file gets a decoder of its own: zbar's QR reader
    /// locates codes with a random number generator (RANSAC) whose state carries over from one image to the
    /// next, so with a shared decoder what a page yields depended on the pages decoded before it.
    static func decodeQRCodes(_ file: URL) throws -> [String] {
        let frame = try ImageFile.load(file.path)
        return ZBarDecoder().decode(frame).filter { $0.symbology == .qrCode }.map(\.lossyText)
    }

    /// Symbols in an image file.
    static func decode(_ file: URL, symbologies: Set<Symbology> = [.qrCode, .code128]) throws -> [DecodedSymbol] {
        let decoder = ZBarDecoder(configuration: DecoderConfiguration(symbologies: symbologies))
        return decoder.decode(try ImageFile.load(file.path))
    }

    static func template(_ pattern: String = "https://transit.example/s/{stop_code}") -> StopURLTemplate {
        try! StopURLTemplate(pattern)
    }

    /// A template with an address that is not a placeholder (`.test` is kept for tests, RFC 6761): labels with it
    /// are printed without --proof. `transit.example`, the default's, is refused unless the copy is a proof.
    static let postedTemplate = template("https://stops.quito.test/s/{stop_code}")

    /// A few stops with what real feeds throw at labels.
    static let stops: [LabelStop] = [
        LabelStop(
            id: "MQ01A", code: "1011", name: "Quitumbe",
            routes: [LabelRoute(name: "L1", color: RGBColor(hex: "D52B1E"), textColor: .white)],
            agencies: ["Metro de Quito"]),
        LabelStop(
            id: "EP-X", code: "0701", name: "Parque Bicentenario – Andén Norte (hacia El Labrador)",
            routes: ["A3", "TB", "EV", "MB"].map {
                LabelRoute(name: $0, color: RGBColor(hex: "F5B800"), textColor: .black)
            },
            agencies: ["Empresa Pública Metropolitana de Transporte de Pasajeros de Quito"]),
        LabelStop(id: "S3", code: "7", name: "Ñuñoa", routes: [], agencies: []),
    ]

    static func file(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    static func listing(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}
