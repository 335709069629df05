import Dispatch
import KioskConfiguration
import Scanning
import StopCodes
import TransitModel
import TransitStore

/// One scan the pipeline accepted: a code seen in a frame, past the debounce filter, read and looked up.
public struct ScanResult: Sendable, Equatable {
    /// Where the frame came from: the camera device, the Y4M file, or the image file it was loaded from.
    public var source: String
    /// The frame's sequence number in its source.
    public var frame: Int
    public var symbology: Symbology
    /// The payload, sanitised for display (see `ScanOutcome.text`).
    public var text: String
    public var status: ScanStatus
    /// The resolved stop when `status == .stop`.
    public var stop: ResolvedStop?
    /// The reference the payload named (for `.forged`, what it claims; never vouched for).
    public var reference: StopReference?
    /// Why, for anything but `.stop`.
    public var detail: String?
    /// The decoder pass that found the code (`direct` or a recovery step).
    public var foundBy: DecodePass
    /// True when the code was not decoded from this frame but carried over from the last decoded one, because
    /// the scene did not change (a held code whose debounce interval ran out).
    public var carriedOver: Bool
    /// Monotonic nanoseconds (`DispatchTime.now().uptimeNanoseconds`): when the frame arrived, and when the scan
    /// was resolved.
    public var arrivalNanos: UInt64
    public var resolvedNanos: UInt64
    /// The payload exactly as decoded: nothing replaced, nothing cut (a lossy UTF-8 rendering only for binary
    /// payloads). Untrusted: never print it to a terminal as it is.
    public var payloadText: String = ""

    /// Frame arrival to resolved stop, in nanoseconds.
    public var latencyNanos: UInt64 { resolvedNanos >= arrivalNanos ? resolvedNanos - arrivalNanos : 0 }
}

/// What a scanning loop reports.
public enum ScanEvent: Sendable, Equatable {
    /// An accepted scan, whatever its status.
    case scan(ScanResult)
    /// A reconnecting camera changed state: `.reconnecting` means "camera unavailable", `.streaming` that it is
    /// back. (Other sources have no state.)
    case camera(source: String, state: CameraState)
    /// The camera reported a problem it is recovering from on its own (a stall: no frame within the timeout).
    case cameraProblem(CaptureError)
}

/// Counters for logs, `kiosk scan --verbose` and the benchmarks.
public struct ScanStatistics: Sendable, Equatable {
    /// Frames read from the source (or handed to `process`).
    public var frames = 0
    /// Frames the decoder ran on; the rest were judged unchanged by the change detector.
    public var decodedFrames = 0
    /// Of those, frames decoded only around the code found in the previous decoded frame (see
    /// `ScanPipelineConfiguration.trackingInterval`).
    public var regionDecodes = 0
    /// Symbols found in decoded frames.
    public var symbols = 0
    /// Scans reported (past the debounce filter).
    public var scans = 0
    /// Sightings the debounce filter held back.
    public var debounced = 0
    /// Time spent in the decoder, in nanoseconds.
    public var decodeNanos: UInt64 = 0
    /// Camera errors the source recovered from.
    public var cameraErrors = 0

    public init() {}
}

/// Whether a `ScanPipeline.run` loop goes on after an event.
public enum ScanLoopControl: Sendable {
    case proceed
    case stop
}

/// The scanning loop the kiosk screen and `kiosk scan` share:
///
/// ```
/// FrameSource ─▶ FrameChangeDetector ─▶ ZBarDecoder ─▶ DebounceFilter ─▶ PayloadParser ─▶ RouteDatabase
///   (newest frame only)   (skip unchanged)   (.video preset)   (same code: once)   (signature check)   (resolveStop)
/// ```
///
/// A single-owner object: create it on the thread or task that runs the loop (it owns the source and a zbar
/// scanner, neither thread-safe) and keep it there. It is deliberately not `Sendable`.
///
/// ```swift
/// let pipeline = try ScanPipeline(source: FrameSourceSpec.camera(camera, reconnect: true).open(),
///                                 resolver: ScanResolver(config: config, database: routes),
///                                 configuration: ScanPipelineConfiguration(kiosk: config))
/// defer { pipeline.close() }
/// try pipeline.run(until: { stopRequested }) { event in
///     if case .scan(let scan) = event, let stop = scan.stop { show(stop) }
///     return .proceed
/// }
/// ```
///
/// Hostile payloads (empty, oversized, binary, escape sequences, forged signatures) each come out as a scan with
/// a status; nothing a code says stops the loop. A reconnecting camera that is unplugged reports
/// `.camera(state: .reconnecting)` and the loop keeps waiting for it; other sources' errors end the loop (thrown).
///
/// Frames whose scene has not changed since the last decoded one are not decoded again: the codes of that
/// decode are taken as still in view (they keep the debounce filter's "last seen" fresh, so a code held for a
/// minute triggers once). A code held in a moving hand changes every frame; it is looked for first in the region
/// where it was (a fraction of a full decode), and the whole frame is decoded when it is not found there and at
/// least every `ScanPipelineConfiguration.trackingInterval` decodes, so a second code is not missed for long.
public final class ScanPipeline {
    public let configuration: ScanPipelineConfiguration
    public let resolver: ScanResolver
    /// The frame source, when the pipeline reads one (nil for a pipeline fed with `process(_:)`).
    public let source: (any FrameSource)?
    public private(set) var statistics = ScanStatistics()
    /// What each decoder did (zxing calls, time, frames skipped for lack of budget).
    public var decoderStatistics: DecoderChainStatistics { decoder.statistics }

    private let decoder: DecoderChain
    private var detector: FrameChangeDetector?
    private var debounce: DebounceFilter<ScanPayloadKey>
    /// The symbols of the last decoded frame, taken as still in view while the scene is unchanged.
    private var inView: [DecodedSymbol] = []
    /// Where the codes of the last decoded frame were, the pass that found them, and that frame's size.
    private var tracked: (box: FrameRect, pass: DecodePass, width: Int, height: Int)?
    private var decodesSinceFullFrame = 0
    /// Camera state changes reported from inside `nextFrame`, handed out with the next events.
    private let cameraEvents = EventBuffer()
    private var ended = false

    public init(
        source: (any FrameSource)?, resolver: ScanResolver,
        configuration: ScanPipelineConfiguration = ScanPipelineConfiguration()
    ) {
        var resolver = resolver
        resolver.textLimit = max(8, configuration.textLimit)
        self.source = source
        self.resolver = resolver
        self.configuration = configuration
        self.decoder = DecoderChain(
            configuration: DecoderChainConfiguration(zbar: configuration.decoder, decoders: configuration.decoders))
        self.detector = configuration.changeDetection.map { FrameChangeDetector(configuration: $0) }
        self.debounce = DebounceFilter(interval: configuration.debounceInterval)
        if let camera = source as? ReconnectingCameraSource {
            let buffer = cameraEvents
            let name = camera.name
            camera.onStateChange = { state in buffer.events.append(.camera(source: name, state: state)) }
        }
    }

    deinit {
        source?.close()
    }

    /// Closes the source. Idempotent.
    public func close() {
        source?.close()
        ended = true
    }

    /// Forgets what was seen: the next frame is decoded, and any code in it triggers (e.g. after the screen was
    /// reset by a passenger).
    public func reset() {
        detector?.reset()
        debounce.reset()
        inView = []
        tracked = nil
        decodesSinceFullFrame = 0
    }

    /// Reads the next frame and processes it.
    ///
    /// Returns the events it produced (often none), or nil when the replay has ended. A reconnecting camera's
    /// outage is not an error: its state changes come back as events and the call returns so that the caller
    /// can show them and check for a stop request. Other capture errors are thrown (a corrupt replay file, a
    /// camera without reconnection that was unplugged).
    public func next() throws(CaptureError) -> [ScanEvent]? {
        guard let source, !ended else { return nil }
        let frame: LumaFrame?
        do {
            frame = try source.nextFrame(timeout: configuration.frameTimeout)
        } catch {
            guard let camera = source as? ReconnectingCameraSource, error.isDeviceLoss else { throw error }
            statistics.cameraErrors += 1
            var events = takeCameraEvents()
            // While reconnecting, the state events say it all; a stall while streaming is worth its own event.
            if camera.state.isStreaming { events.append(.cameraProblem(error)) }
            return events
        }
        guard let frame else {
            ended = true
            let events = takeCameraEvents()
            return events.isEmpty ? nil : events
        }
        return takeCameraEvents() + process(frame, sourceName: label(for: frame, of: source))
    }

    /// Decodes (when the scene changed), debounces and resolves one frame. For frames that do not come from
    /// `source` (tests, benchmarks, a kiosk that reads its camera itself). A frame without `arrivalNanos` counts
    /// as arriving now.
    public func process(_ frame: LumaFrame, sourceName: String? = nil) -> [ScanEvent] {
        let started = DispatchTime.now().uptimeNanoseconds
        let arrival = frame.arrivalNanos != 0 ? frame.arrivalNanos : started
        statistics.frames += 1

        let symbols: [DecodedSymbol]
        let carried: Bool
        if detector == nil || detector!.shouldDecode(frame) {
            let decodeStart = DispatchTime.now().uptimeNanoseconds
            symbols = decode(frame)
            statistics.decodeNanos += DispatchTime.now().uptimeNanoseconds - decodeStart
            statistics.decodedFrames += 1
            statistics.symbols += symbols.count
            inView = symbols
            carried = false
        } else {
            symbols = inView
            carried = true
        }
        guard !symbols.isEmpty else { return [] }

        let now = configuration.timeline.nanos(for: frame, arrival: arrival)
        var events: [ScanEvent] = []
        var seen = Set<ScanPayloadKey>()
        for symbol in symbols {
            let key = ScanPayloadKey(symbology: symbol.symbology, bytes: symbol.bytes)
            guard seen.insert(key).inserted else { continue }
            guard debounce.shouldTrigger(key, atNanos: now) else {
                if !carried { statistics.debounced += 1 }
                continue
            }
            let outcome = resolver.resolve(symbol)
            statistics.scans += 1
            events.append(
                .scan(
                    ScanResult(
                        source: sourceName ?? source?.name ?? "frames", frame: frame.sequence,
                        symbology: symbol.symbology,
                        text: outcome.text, status: outcome.status, stop: outcome.stop, reference: outcome.reference,
                        detail: outcome.detail, foundBy: symbol.foundBy, carriedOver: carried, arrivalNanos: arrival,
                        resolvedNanos: DispatchTime.now().uptimeNanoseconds,
                        payloadText: symbol.text ?? symbol.lossyText)))
        }
        return events
    }

    /// Runs until the replay ends, `shouldStop` returns true (checked between frames: at least every
    /// `frameTimeout` with a camera), or `onEvent` returns `.stop`. Capture errors that end the loop are thrown,
    /// as are errors thrown by `onEvent`.
    public func run(
        until shouldStop: () -> Bool = { false },
        onEvent: (ScanEvent) throws -> ScanLoopControl
    ) throws {
        while !shouldStop() {
            guard let events = try next() else { return }
            for event in events where try onEvent(event) == .stop { return }
        }
    }

    /// Decodes a frame. While a code is being held in view, only the region around it is decoded (with the pass
    /// that found it), which costs a fraction of the whole frame; the whole frame is decoded when the code is not
    /// found there, and at least every `trackingInterval` decodes, so that another code anywhere is not missed
    /// for long.
    private func decode(_ frame: LumaFrame) -> [DecodedSymbol] {
        if let region = tracked, region.width == frame.width, region.height == frame.height,
            decodesSinceFullFrame + 1 < configuration.trackingInterval,
            let crop = ScanRegion.crop(frame, around: region.box)
        {
            var found = decoder.run(region.pass, on: crop.frame)
            if !found.isEmpty {
                for index in found.indices {
                    found[index].points = found[index].points.map {
                        FramePoint(x: $0.x + crop.origin.x, y: $0.y + crop.origin.y)
                    }
                }
                decodesSinceFullFrame += 1
                statistics.regionDecodes += 1
                tracked = (ScanRegion.box(of: found), region.pass, frame.width, frame.height)
                return found
            }
        }
        decodesSinceFullFrame = 0
        let found = decoder.decode(frame)
        if let first = found.first, configuration.trackingInterval > 1 {
            tracked = (ScanRegion.box(of: found), first.foundBy, frame.width, frame.height)
        } else {
            tracked = nil
        }
        return found
    }

    /// The source name for a frame: the image file it was loaded from for image replays, else the source's name.
    private func label(for frame: LumaFrame, of source: any FrameSource) -> String {
        if let images = source as? ImageFolderSource, !images.files.isEmpty {
            return images.files[frame.sequence % images.files.count]
        }
        return source.name
    }

    private func takeCameraEvents() -> [ScanEvent] {
        guard !cameraEvents.events.isEmpty else { return [] }
        defer { cameraEvents.events.removeAll() }
        return cameraEvents.events
    }
}

/// The region of a frame around codes found in an earlier frame.
enum ScanRegion {
    /// The bounding box of the symbols' location points.
    static func box(of symbols: [DecodedSymbol]) -> FrameRect {
        FrameRect(enclosing: symbols.flatMap(\.points))
    }

    /// A copy of the part of `frame` around `box`: the box grown by half its size on every side, at least 32
    /// pixels (a hand moves the code between frames, and the quiet zone must be in). Nil when that is half the
    /// frame or more: the whole frame costs little more then.
    static func crop(_ frame: LumaFrame, around box: FrameRect) -> (frame: LumaFrame, origin: FramePoint)? {
        let marginX = max(32, box.width / 2), marginY = max(32, box.height / 2)
        let left = max(0, box.x - marginX), top = max(0, box.y - marginY)
        let right = min(frame.width, box.x + box.width + marginX),
            bottom = min(frame.height, box.y + box.height + marginY)
        let width = right - left, height = bottom - top
        guard width > 0, height > 0, width * height * 2 <= frame.width * frame.height else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                for row in 0..<height {
                    let from = (top + row) * frame.width + left
                    UnsafeMutableRawPointer(destination.baseAddress! + row * width)
                        .copyMemory(from: source.baseAddress! + from, byteCount: width)
                }
            }
        }
        return (
            LumaFrame(
                width: width, height: height, pixels: pixels, sequence: frame.sequence, arrivalNanos: frame.arrivalNanos
            ),
            FramePoint(x: left, y: top)
        )
    }
}

/// What the debounce filter compares: the same bytes in the same symbology are the same code.
struct ScanPayloadKey: Hashable, Sendable {
    var symbology: Symbology
    var bytes: [UInt8]
}

/// Where a camera's state callback leaves its events (the callback runs inside `nextFrame`, on the loop's thread).
private final class EventBuffer {
    var events: [ScanEvent] = []
}
