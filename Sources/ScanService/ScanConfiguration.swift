import Foundation
import KioskConfiguration
import Scanning
import StopCodes
import TransitModel

/// How a `ScanPipeline` decodes, debounces and keeps time.
public struct ScanPipelineConfiguration: Sendable, Equatable {
    /// The decoder: `.video` (recovery spread over frames) with the configured symbologies.
    public var decoder: DecoderConfiguration
    /// The same payload seen again within this interval does not trigger again; a different payload triggers at
    /// once. Zero turns debouncing off (every decoded frame reports its codes).
    public var debounceInterval: Duration
    /// Which frames are worth decoding; nil decodes every frame (stills, tests).
    public var changeDetection: FrameChangeDetector.Configuration?
    /// The clock debouncing runs on.
    public var timeline: ScanTimeline
    /// How long `ScanPipeline.next()` waits for a camera frame before it reports a stall.
    public var frameTimeout: Duration
    /// Longest payload text kept in a scan (sanitised), in characters.
    public var textLimit: Int
    /// While a code stays in view, frames are decoded only around it, and the whole frame only every this many
    /// decodes (or when the code is not found there): a held code costs a fraction of a full decode, and a second
    /// code elsewhere is seen within this many decoded frames. 1 decodes every frame whole.
    public var trackingInterval: Int
    /// The decoders, zbar first (see `DecoderChain`): zxing-cpp reads what zbar misses, on stills (recovery
    /// budget nil) always, on camera frames on code-like regions within a per-frame time budget.
    public var decoders: [DecoderKind]

    public init(
        decoder: DecoderConfiguration = .video, debounceInterval: Duration = .seconds(3),
        changeDetection: FrameChangeDetector.Configuration? = FrameChangeDetector.Configuration(),
        timeline: ScanTimeline = .arrival, frameTimeout: Duration = .seconds(1), textLimit: Int = 256,
        trackingInterval: Int = 10, decoders: [DecoderKind] = DecoderKind.allCases
    ) {
        self.decoder = decoder
        self.debounceInterval = debounceInterval < .zero ? .zero : debounceInterval
        self.changeDetection = changeDetection
        self.timeline = timeline
        self.frameTimeout = frameTimeout
        self.textLimit = textLimit
        self.trackingInterval = max(1, trackingInterval)
        self.decoders = decoders
    }

    /// The pipeline a kiosk configuration describes: its symbologies and debounce interval, the video decoder.
    public init(kiosk config: KioskConfig) throws(ScanConfigurationError) {
        guard config.debounceSeconds.isFinite, config.debounceSeconds >= 0, config.debounceSeconds <= 3600 else {
            throw .invalidDebounce(config.debounceSeconds)
        }
        var decoder = DecoderConfiguration.video
        decoder.symbologies = try ScanSymbologies.parse(config.symbologies)
        let decoders: [DecoderKind]
        do { decoders = try DecoderKind.parse(config.decoders) } catch { throw .invalidDecoders(error) }
        self.init(
            decoder: decoder, debounceInterval: .nanoseconds(Int64((config.debounceSeconds * 1e9).rounded())),
            decoders: decoders)
    }
}

/// The clock a pipeline debounces on.
public enum ScanTimeline: Sendable, Equatable {
    /// When frames arrived (`LumaFrame.arrivalNanos`): cameras and paced replays.
    case arrival
    /// The frame's position in its source at this rate (frame n at n / fps seconds): unpaced replays, so that a
    /// recorded session gives the same scans however fast the machine reads it.
    case frames(perSecond: Double)

    func nanos(for frame: LumaFrame, arrival: UInt64) -> UInt64 {
        switch self {
        case .arrival:
            return arrival
        case .frames(let fps):
            guard fps > 0, fps.isFinite else { return arrival }
            return UInt64(max(0, Double(frame.sequence)) * 1e9 / fps)
        }
    }
}
