/// One greyscale (luma, 8 bits per pixel) image: what every frame source produces and what the decoder reads.
///
/// Camera frames, replayed video and still images all end up here, so the decoder never sees a pixel format.
public struct LumaFrame: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major luma bytes, exactly `width * height` of them (no row padding).
    public var pixels: [UInt8]
    /// Position of the frame in its source (0-based), for logs and `kiosk scan` output.
    public var sequence: Int
    /// Monotonic time the frame arrived, in nanoseconds (`DispatchTime.now().uptimeNanoseconds`), for latency figures.
    public var arrivalNanos: UInt64

    public init(width: Int, height: Int, pixels: [UInt8], sequence: Int = 0, arrivalNanos: UInt64 = 0) {
        precondition(
            width > 0 && height > 0 && pixels.count == width * height, "luma buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.sequence = sequence
        self.arrivalNanos = arrivalNanos
    }
}
