#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures how many images of a folder of photos the decoder reads exactly.
///
/// A sample is an image `NAME.png`, `NAME.jpg` or `NAME.jpeg` (or `.pgm`) with its expected payload, exact
/// bytes, in `NAME.txt` beside it (`NAME.result.txt` files are metadata and are ignored; images without a
/// `.txt` are skipped). The folder is searched one level deep, so both `qr/qrcode-1` and `qr/` work.
///
/// ```swift
/// let report = DetectionSurvey.run(folder: "../shared/data/qr", subfolders: DetectionSurvey.sharedQRFolders)
/// print("\(report.ladderHits) of \(report.results.count) decoded exactly")
/// ```
public enum DetectionSurvey {
    public struct Sample: Sendable, Hashable {
        /// Path of the image.
        public var imagePath: String
        /// Path relative to the surveyed folder, e.g. `qrcode-2/qr-inv-1.png`.
        public var name: String
        /// The expected payload bytes.
        public var expected: [UInt8]
    }

    /// What one pass, run on its own, did with one image.
    public struct PassOutcome: Sendable, Hashable {
        /// zbar returned at least one symbol (what stops a ladder).
        public var foundAny: Bool
        /// One of the symbols is exactly the expected payload.
        public var foundExpected: Bool
        /// Time for the transform and the scan.
        public var duration: Duration
    }

    public struct ImageResult: Sendable {
        public var sample: Sample
        /// Why the image could not be loaded, if it could not.
        public var loadError: String?
        public var width: Int
        public var height: Int
        /// The decoder's configured ladder, as `ZBarDecoder.decode(_:)` runs it.
        public var symbols: [DecodedSymbol]
        /// True when one of `symbols` is exactly the expected payload.
        public var hit: Bool
        /// Time `ZBarDecoder.decode(_:)` took.
        public var duration: Duration
        /// Each evaluated pass on its own (only those asked for in `run(…, evaluate:)`).
        public var passes: [DecodePass: PassOutcome]

        /// Which pass found the expected payload, when the ladder did.
        public var foundBy: DecodePass? {
            guard hit else { return nil }
            return symbols.first { $0.matches(sample.expected) }?.foundBy
        }
    }

    public struct Report: Sendable {
        public var folder: String
        public var configuration: DecoderConfiguration
        public var results: [ImageResult]

        /// Images whose expected payload the configured ladder decoded exactly.
        public var ladderHits: Int { results.filter(\.hit).count }

        /// Images a ladder of these passes would decode exactly (simulated from the per-pass outcomes, which
        /// must have been evaluated): the first pass that finds anything decides.
        public func hits(ladder: [DecodePass]) -> Int {
            results.filter { result in
                for pass in ladder {
                    guard let outcome = result.passes[pass] else { continue }
                    if outcome.foundAny { return outcome.foundExpected }
                }
                return false
            }.count
        }

        /// Images this pass alone decodes exactly.
        public func hits(pass: DecodePass) -> Int {
            results.filter { $0.passes[pass]?.foundExpected == true }.count
        }

        /// Per subfolder (the part of the sample name before the first `/`, "" for the folder itself), in name
        /// order: images decoded exactly and images surveyed.
        public var hitsByFolder: [(folder: String, hits: Int, total: Int)] {
            var byFolder: [String: (hits: Int, total: Int)] = [:]
            for result in results {
                let name = result.sample.name
                let folder = name.firstIndex(of: "/").map { String(name[..<$0]) } ?? ""
                byFolder[folder, default: (0, 0)].total += 1
                if result.hit { byFolder[folder, default: (0, 0)].hits += 1 }
            }
            return byFolder.keys.sorted().map { (folder: $0, hits: byFolder[$0]!.hits, total: byFolder[$0]!.total) }
        }
    }

    /// The folders of the shared photo set (`data/qr/`) that hold QR codes; `zbarimg` 0.23.92 decodes 67 of their
    /// 97 samples exactly.
    public static let sharedQRFolders = ["qrcode-1", "qrcode-2", "qrcode-3", "qrcode-6"]

    /// Every sample in `folder` and its immediate subfolders (only those named in `subfolders`, when given),
    /// sorted by name.
    public static func samples(in folder: String, subfolders: [String]? = nil) -> [Sample] {
        var samples: [Sample] = []
        func collect(_ directory: String, prefix: String, depth: Int) {
            for entry in listDirectory(directory) {
                let path = directory + "/" + entry
                if isDirectory(path) {
                    if depth == 0, subfolders?.contains(entry) ?? true {
                        collect(path, prefix: prefix + entry + "/", depth: 1)
                    }
                    continue
                }
                guard let dot = entry.lastIndex(of: "."),
                    ["png", "jpg", "jpeg", "pgm"].contains(entry[entry.index(after: dot)...].lowercased())
                else { continue }
                let base = String(entry[..<dot])
                guard let expected = try? ImageFile.readFile(directory + "/" + base + ".txt") else { continue }
                samples.append(Sample(imagePath: path, name: prefix + entry, expected: expected))
            }
        }
        collect(folder, prefix: "", depth: 0)
        return samples.sorted { $0.name < $1.name }
    }

    /// Loads every sample and decodes it with a `ZBarDecoder` built from `configuration`; also runs each pass in
    /// `evaluate` on its own (for measuring which recovery steps help).
    public static func run(
        folder: String,
        subfolders: [String]? = nil,
        configuration: DecoderConfiguration = DecoderConfiguration(),
        evaluate: [DecodePass] = []
    ) -> Report {
        let decoder = ZBarDecoder(configuration: configuration)
        return survey(
            folder: folder, subfolders: subfolders, configuration: configuration,
            decode: { frame, _ in decoder.decode(frame) }, run: { decoder.run($0, on: $1) }, evaluate: evaluate)
    }

    /// Loads every sample and decodes it with a `DecoderChain` (zbar, then zxing-cpp: what the scan pipeline
    /// decodes with). With `framesPerImage` above 1 each image is shown that many times in a row, as a code held
    /// up to a camera for that many frames (video configurations spread their work over frames), and counts as
    /// read when one of those frames reads it. `evaluate` may include zxing passes.
    public static func run(
        folder: String,
        subfolders: [String]? = nil,
        chain: DecoderChainConfiguration,
        framesPerImage: Int = 1,
        evaluate: [DecodePass] = []
    ) -> Report {
        let decoder = DecoderChain(configuration: chain)
        return survey(
            folder: folder, subfolders: subfolders, configuration: chain.zbar,
            decode: { frame, sample in
                var last: [DecodedSymbol] = []
                for _ in 0..<max(1, framesPerImage) {
                    last = decoder.decode(frame)
                    if last.contains(where: { $0.matches(sample.expected) }) { break }
                }
                return last
            }, run: { decoder.run($0, on: $1) }, evaluate: evaluate)
    }

    private static func survey(
        folder: String, subfolders: [String]?, configuration: DecoderConfiguration,
        decode: (LumaFrame, Sample) -> [DecodedSymbol], run: (DecodePass, LumaFrame) -> [DecodedSymbol],
        evaluate: [DecodePass]
    ) -> Report {
        let clock = ContinuousClock()
        var results: [ImageResult] = []
        for sample in samples(in: folder, subfolders: subfolders) {
            let frame: LumaFrame
            do {
                frame = try ImageFile.load(sample.imagePath)
            } catch {
                results.append(
                    ImageResult(
                        sample: sample, loadError: error.description, width: 0, height: 0,
                        symbols: [], hit: false, duration: .zero, passes: [:]))
                continue
            }
            var symbols: [DecodedSymbol] = []
            let duration = clock.measure { symbols = decode(frame, sample) }
            var passes: [DecodePass: PassOutcome] = [:]
            for pass in evaluate {
                var found: [DecodedSymbol] = []
                let passDuration = clock.measure { found = run(pass, frame) }
                passes[pass] = PassOutcome(
                    foundAny: !found.isEmpty,
                    foundExpected: found.contains { $0.matches(sample.expected) },
                    duration: passDuration)
            }
            results.append(
                ImageResult(
                    sample: sample, loadError: nil, width: frame.width, height: frame.height,
                    symbols: symbols, hit: symbols.contains { $0.matches(sample.expected) },
                    duration: duration, passes: passes))
        }
        return Report(folder: folder, configuration: configuration, results: results)
    }

    // MARK: - File helpers (no Foundation)

    private static func listDirectory(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
