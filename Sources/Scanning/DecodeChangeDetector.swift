/// Decides cheaply whether a camera frame is worth decoding, so that a static scene is not scanned 30 times a
/// second.
///
/// Each frame is reduced to a signature: the mean luma of a `columns × rows` grid of cells, each mean taken over
/// a sparse `samplesPerSide × samplesPerSide` lattice of pixels (about 12 000 reads for the default 32×24 grid,
/// whatever the frame size). A frame *changed* when at least `minimumChangedCells` cells differ by more than
/// `cellThreshold` luma levels from the frame it is compared with. Averaging 16 samples per cell keeps sensor
/// noise well under the threshold, while a code entering one corner of the view changes several cells.
///
/// A frame is decoded when:
/// - it changed from the previous frame (something moves), or
/// - it changed from the last decoded frame (slow drift that never shows between two frames), or
/// - the scene stopped moving less than `settleFrames` frames ago: a code brought in and then held still is
///   decoded on its first steady, sharp frames (the frames during the motion are often blurred), or
/// - `refreshInterval` frames went by without a decode (0 turns this off).
///
/// ```swift
/// var detector = FrameChangeDetector()
/// for frame in frames where detector.shouldDecode(frame) { handle(decoder.decode(frame)) }
/// ```
public struct FrameChangeDetector: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var columns: Int
        public var rows: Int
        public var samplesPerSide: Int
        public var cellThreshold: Int
        public var minimumChangedCells: Int
        public var settleFrames: Int
        public var refreshInterval: Int

        public init(
            columns: Int = 32, rows: Int = 24, samplesPerSide: Int = 4, cellThreshold: Int = 10,
            minimumChangedCells: Int = 2, settleFrames: Int = 5, refreshInterval: Int = 60
        ) {
            self.columns = max(1, columns)
            self.rows = max(1, rows)
            self.samplesPerSide = max(1, samplesPerSide)
            self.cellThreshold = max(0, cellThreshold)
            self.minimumChangedCells = max(1, minimumChangedCells)
            self.settleFrames = max(0, settleFrames)
            self.refreshInterval = max(0, refreshInterval)
        }
    }

    /// Why the last frame was or was not decoded (for logs and tests).
    public enum Verdict: Sendable, Hashable {
        case firstFrame, moving, drifted, settling, refresh
        case unchanged
        public var decodes: Bool { self != .unchanged }
    }

    public let configuration: Configuration
    private var previous: Signature?
    private var lastDecoded: Signature?
    private var framesSinceMotion = 0
    private var framesSinceDecode = 0
    public private(set) var lastVerdict: Verdict = .firstFrame

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Forget the past: the next frame is decoded.
    public mutating func reset() {
        previous = nil
        lastDecoded = nil
        framesSinceMotion = 0
        framesSinceDecode = 0
    }

    /// Looks at a frame and says whether to decode it.
    public mutating func shouldDecode(_ frame: LumaFrame) -> Bool {
        let verdict = judge(frame)
        lastVerdict = verdict
        return verdict.decodes
    }

    /// Like `shouldDecode(_:)`, with the reason.
    public mutating func judge(_ frame: LumaFrame) -> Verdict {
        let signature = Signature(frame, configuration: configuration)
        defer { previous = signature }
        guard let previous, previous.matchesLayout(of: signature), let lastDecoded else {
            return decided(.firstFrame, signature)
        }
        if changed(signature, previous) {
            framesSinceMotion = 0
            return decided(.moving, signature)
        }
        framesSinceMotion += 1
        if changed(signature, lastDecoded) { return decided(.drifted, signature) }
        if framesSinceMotion <= configuration.settleFrames { return decided(.settling, signature) }
        if configuration.refreshInterval > 0, framesSinceDecode + 1 >= configuration.refreshInterval {
            return decided(.refresh, signature)
        }
        framesSinceDecode += 1
        return .unchanged
    }

    private mutating func decided(_ verdict: Verdict, _ signature: Signature) -> Verdict {
        lastDecoded = signature
        framesSinceDecode = 0
        return verdict
    }

    private func changed(_ a: Signature, _ b: Signature) -> Bool {
        var count = 0
        for index in 0..<a.cells.count {
            let difference = Int(a.cells[index]) - Int(b.cells[index])
            if abs(difference) > configuration.cellThreshold {
                count += 1
                if count >= configuration.minimumChangedCells { return true }
            }
        }
        return false
    }

    struct Signature: Sendable {
        var width: Int
        var height: Int
        var cells: [UInt8]

        func matchesLayout(of other: Signature) -> Bool {
            width == other.width && height == other.height && cells.count == other.cells.count
        }

        init(_ frame: LumaFrame, configuration: Configuration) {
            width = frame.width
            height = frame.height
            let columns = min(configuration.columns, frame.width)
            let rows = min(configuration.rows, frame.height)
            let samples = configuration.samplesPerSide
            var cells = [UInt8](repeating: 0, count: columns * rows)
            frame.pixels.withUnsafeBufferPointer { pixels in
                for row in 0..<rows {
                    let top = row * frame.height / rows, bottom = (row + 1) * frame.height / rows
                    for column in 0..<columns {
                        let left = column * frame.width / columns, right = (column + 1) * frame.width / columns
                        var sum = 0
                        for sy in 0..<samples {
                            let y = top + (2 * sy + 1) * (bottom - top) / (2 * samples)
                            let rowStart = y * frame.width
                            for sx in 0..<samples {
                                let x = left + (2 * sx + 1) * (right - left) / (2 * samples)
                                sum += Int(pixels[rowStart + x])
                            }
                        }
                        cells[row * columns + column] = UInt8(sum / (samples * samples))
                    }
                }
            }
            self.cells = cells
        }
    }
}
