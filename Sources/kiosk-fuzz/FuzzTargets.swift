import Foundation
import KioskConfiguration
import Scanning
import StopCodes
import TransitStore

/// The readers of input that comes from outside, each driven with arbitrary bytes. A target must never crash,
/// hang or leak, whatever it is given; refusing the input with an error is the expected outcome for junk.
enum FuzzTarget: String, CaseIterable {
    /// The streaming CSV reader (GTFS tables), fed in chunks whose size the input chooses.
    case csv
    /// The stop-code payload parser (what a scanned code says), with a trusted key and foreign templates.
    case payload
    /// The TOML kiosk configuration.
    case config
    /// The still-image loader (PNG, JPEG, PGM) behind `kiosk scan --images`.
    case image
    /// GTFS-Realtime bytes through decoding, matching and the stop views' renderings (`RealtimeFuzzing`).
    case realtime
    /// The same path with valid FeedMessages built from the input's choices: extreme times, delays and ids.
    case realtimeStructured = "realtime-structured"

    func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .csv: Self.csv(input)
        case .payload: _ = Self.parser.parse(Array(input))
        case .config: _ = try? KioskConfigFile.parse(String(decoding: input, as: UTF8.self), file: "fuzz.toml")
        case .image: _ = try? ImageFile.decode(Array(input), path: "fuzz")
        case .realtime: RealtimeFuzzing.run(bytes: input)
        case .realtimeStructured: RealtimeFuzzing.run(structured: input)
        }
    }

    /// The first byte chooses the chunk size (1 to 256 bytes), so record and quote boundaries fall everywhere.
    private static func csv(_ input: UnsafeRawBufferPointer) {
        guard let first = input.first else { return }
        let chunk = Int(first) + 1
        let body = UnsafeRawBufferPointer(rebasing: input.dropFirst())
        var parser = CSVStreamParser()
        var fields = 0
        let visit: (CSVRecord) throws -> Void = { record in
            for index in 0..<record.count { fields &+= record.field(index).count }
        }
        do {
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + chunk)
                try parser.consume(UnsafeRawBufferPointer(rebasing: body[offset..<end]), visit)
                offset = end
            }
            try parser.finish(visit)
        } catch {
            // Refused input is a result, not a failure.
        }
        _ = fields
    }

    private static let parser: PayloadParser = {
        // Fixed, valid patterns and a key made once: the fuzzer varies only the scanned bytes.
        let own = try! StopURLTemplate("https://transit.example/s/{stop_code}")
        let byID = try! StopURLTemplate("https://transit.example/id/{stop_id}")
        let foreign = try! StopURLTemplate("https://other.example/parada/{stop_code}")
        return PayloadParser(
            feedID: "transit.example", ownTemplates: [own, byID], foreignTemplates: [foreign],
            trustedKeys: [KeyPair.generate().publicKey], policy: .prefer)
    }()
}
