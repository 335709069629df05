import CZBar

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A barcode library the scanner can decode with.
public enum DecoderKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// zbar: the first decoder, on every frame.
    case zbar
    /// zxing-cpp: the second decoder, for what zbar does not find.
    case zxing

    public var description: String { rawValue }

    /// The library's version as linked into this program ("0.23.92", "1.4.0").
    public var libraryVersion: String {
        switch self {
        case .zbar:
            var major: UInt32 = 0, minor: UInt32 = 0, patch: UInt32 = 0
            zbar_version(&major, &minor, &patch)
            return "\(major).\(minor).\(patch)"
        case .zxing:
            return ZXingDecoder.version
        }
    }

    /// Reads config names (`zbar`, `zxing`; `zxing-cpp` too), any case, in any order. zbar runs first whenever it
    /// is named; duplicates are ignored. Throws the unknown name, or when the list is empty.
    public static func parse(_ names: [String]) throws(DecoderNameError) -> [DecoderKind] {
        var kinds = Set<DecoderKind>()
        for name in names {
            switch name.lowercased() {
            case "zbar": kinds.insert(.zbar)
            case "zxing", "zxing-cpp", "zxingcpp": kinds.insert(.zxing)
            default: throw .unknown(name)
            }
        }
        guard !kinds.isEmpty else { throw .none }
        return DecoderKind.allCases.filter(kinds.contains)
    }
}

/// A decoder list that cannot be used.
public enum DecoderNameError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(String)
    case none

    public var description: String {
        switch self {
        case .unknown(let name):
            let shown = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(40))
            return "unknown decoder '\(shown)' (known: zbar, zxing)"
        case .none:
            return "no decoders: name at least one (zbar, zxing)"
        }
    }
}

/// How a `DecoderChain` decodes: zbar (with its recovery ladder), then zxing-cpp where zbar found nothing.
public struct DecoderChainConfiguration: Sendable, Hashable {
    /// The libraries to use; zbar first when both are on.
    public var decoders: [DecoderKind]
    /// zbar's configuration (its symbologies are zxing's too).
    public var zbar: DecoderConfiguration
    /// How hard zxing looks.
    public var zxing: ZXingConfiguration
    /// What zxing is run on, in order (see `ZXingStep`).
    public var zxingLadder: [ZXingStep]
    /// nil (stills): after zbar's whole ladder, zxing's whole ladder on the whole image, each step while it finds
    /// nothing zbar did not (a still is looked at once: every code in it counts, time matters less).
    /// A duration (video): zxing's average time per frame. zxing runs only on frames where zbar found nothing
    /// and `CodeRegionFinder` sees something like a code, on those regions (the whole frame when they cover half
    /// of it or more), one ladder step per frame in turn. Each frame earns this much time, kept up to
    /// `budgetCap`; zxing starts only while the credit is positive and its actual time is charged afterwards,
    /// so over any stretch of frames it costs at most the budget per frame plus one call.
    public var zxingBudget: Duration?
    /// Most credit kept for zxing after a quiet stretch.
    public var budgetCap: Duration
    /// What looks like a code (video only).
    public var regionFinder: CodeRegionFinder.Configuration

    /// zxing's time per frame on camera frames: at 1280×720 zbar's own work takes 10–20 ms of the 33 ms a frame
    /// lasts at 30 fps; this leaves the rest for the payload, the database and the screen.
    public static let videoBudget: Duration = .milliseconds(6)

    /// Stills: zbar's whole ladder, then zxing on the whole image.
    public static let still = DecoderChainConfiguration(zbar: .still)
    /// Camera frames: zbar's ladder spread over frames, zxing on code-like regions within `videoBudget`.
    public static let video = DecoderChainConfiguration(zbar: .video)

    /// zxing looks for zbar's symbologies; video decoding (a zbar recovery budget) gets a zxing budget too.
    public init(
        zbar: DecoderConfiguration, decoders: [DecoderKind] = DecoderKind.allCases,
        zxingBudget: Duration?? = nil, budgetCap: Duration = .milliseconds(60),
        regionFinder: CodeRegionFinder.Configuration = CodeRegionFinder.Configuration()
    ) {
        self.decoders = DecoderKind.allCases.filter(decoders.contains)
        self.zbar = zbar
        self.zxing = ZXingConfiguration(symbologies: zbar.symbologies)
        self.zxingLadder = ZXingStep.defaultLadder
        self.zxingBudget = zxingBudget ?? (zbar.recoveryBudget == nil ? nil : Self.videoBudget)
        self.budgetCap = budgetCap
        self.regionFinder = regionFinder
    }
}

/// What a `DecoderChain` has done (for logs, `kiosk scan --verbose` and the benchmarks).
public struct DecoderChainStatistics: Sendable, Equatable {
    /// Frames decoded.
    public var frames = 0
    /// Frames where zbar found something.
    public var zbarHits = 0
    /// zxing calls, on regions or whole frames, and the frames where zxing found something.
    public var zxingCalls = 0
    public var zxingHits = 0
    /// Frames where zbar found nothing and zxing was not run: nothing code-like in view, or no credit left.
    public var zxingSkippedNoRegion = 0
    public var zxingSkippedBudget = 0
    /// Time in zxing, nanoseconds.
    public var zxingNanos: UInt64 = 0

    public init() {}
}

/// zbar first on every frame; zxing-cpp behind it for what zbar does not find.
///
/// The scan pipeline, `kiosk scan`, the label read-back and the surveys decode through this one type. Like the
/// decoders it holds, it belongs to the loop that uses it (not `Sendable`).
///
/// ```swift
/// let chain = DecoderChain(configuration: .video)
/// for frame in frames { for symbol in chain.decode(frame) { print(symbol.foundBy, symbol.lossyText) } }
/// ```
public final class DecoderChain {
    public let configuration: DecoderChainConfiguration
    public private(set) var statistics = DecoderChainStatistics()
    private let zbar: ZBarDecoder?
    private let zxing: ZXingDecoder?
    private let finder: CodeRegionFinder
    /// zxing time earned and not spent, nanoseconds (may go below zero after a long call).
    private var credit: Int64 = 0
    /// The ladder step the next video frame tries.
    private var cursor = 0

    public init(configuration: DecoderChainConfiguration = .still) {
        self.configuration = configuration
        zbar = configuration.decoders.contains(.zbar) ? ZBarDecoder(configuration: configuration.zbar) : nil
        let zxing = configuration.decoders.contains(.zxing) ? ZXingDecoder(configuration: configuration.zxing) : nil
        self.zxing = zxing?.readsNothing == true ? nil : zxing
        finder = CodeRegionFinder(configuration: configuration.regionFinder)
    }

    /// Decodes a frame: zbar (direct pass and recovery as configured), then zxing where zbar found nothing
    /// (see `DecoderChainConfiguration.zxingBudget`). Returns the symbols found.
    public func decode(_ frame: LumaFrame) -> [DecodedSymbol] {
        statistics.frames += 1
        var found: [DecodedSymbol] = []
        if let zbar {
            found = zbar.decode(frame)
            if !found.isEmpty { statistics.zbarHits += 1 }
        }
        guard let zxing else { return found }
        let ladder = configuration.zxingLadder.isEmpty ? [.direct] : configuration.zxingLadder
        guard let budget = configuration.zxingBudget else {
            // Stills: the ladder on the whole image, until a step finds a code zbar did not.
            for step in ladder {
                let more = timed { zxing.decode(frame, step: step) }.filter { symbol in
                    !found.contains { $0.symbology == symbol.symbology && $0.bytes == symbol.bytes }
                }
                if !more.isEmpty { return found + more }
            }
            return found
        }
        guard zbar != nil else {
            // zxing alone on video: every frame whole, one ladder step per frame in turn, no budget.
            let step = ladder[cursor % ladder.count]
            cursor = (cursor + 1) % ladder.count
            return timed { zxing.decode(frame, step: step) }
        }
        guard found.isEmpty else { return found }
        credit = min(credit + budget.nanoseconds, max(configuration.budgetCap.nanoseconds, budget.nanoseconds))
        let regions = finder.regions(in: frame)
        guard !regions.isEmpty else { statistics.zxingSkippedNoRegion += 1; return [] }
        guard credit > 0 else { statistics.zxingSkippedBudget += 1; return [] }
        let step = ladder[cursor % ladder.count]
        cursor = (cursor + 1) % ladder.count
        let covered = regions.reduce(0) { $0 + $1.width * $1.height }
        if covered * 2 >= frame.width * frame.height {
            return timed { zxing.decode(frame, step: step) }
        }
        for region in regions where credit > 0 {
            let found = timed { zxing.decode(frame, region: region, step: step) }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Runs one pass on the whole frame: zbar's (`direct`, a recovery step) or zxing's. For decoding again
    /// around a code found in an earlier frame (the scan pipeline's tracking) and for measurements.
    public func run(_ pass: DecodePass, on frame: LumaFrame) -> [DecodedSymbol] {
        switch pass {
        case .zxing(let step):
            guard let zxing else { return [] }
            return timed { zxing.decode(frame, step: step) }
        case .direct, .recovery:
            return zbar?.run(pass, on: frame) ?? []
        }
    }

    /// Runs a zxing call, charging its time to the credit.
    private func timed(_ body: () -> [DecodedSymbol]) -> [DecodedSymbol] {
        let start = Self.now()
        let found = body()
        let elapsed = Self.now() - start
        statistics.zxingCalls += 1
        statistics.zxingNanos += elapsed
        credit -= Int64(clamping: elapsed)
        if !found.isEmpty { statistics.zxingHits += 1 }
        return found
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? (seconds < 0 ? .min : .max) : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
