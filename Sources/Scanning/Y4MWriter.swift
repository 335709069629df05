#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes luma frames as a YUV4MPEG2 video: recorded demo clips, test fixtures, `kiosk scan --record`.
///
/// `Cmono` stores luma only; any other colourspace (420jpeg by default, which every player reads) gets neutral
/// chroma (128), so the video shows the same grey image.
public final class Y4MWriter {
    public let path: String
    public let header: Y4MHeader
    public private(set) var framesWritten = 0

    private var file: UnsafeMutablePointer<FILE>?
    private var chroma: [UInt8]

    public init(
        path: String, width: Int, height: Int, colourspace: Y4MColourspace = .c420jpeg,
        frameRate: Y4MRatio = Y4MRatio(30, 1), comments: [String] = []
    ) throws(CaptureError) {
        guard width > 0, height > 0, width <= Y4MHeader.maximumDimension, height <= Y4MHeader.maximumDimension else {
            throw .invalidConfiguration("Y4M frame size \(width)x\(height) is out of range")
        }
        self.path = path
        self.header = Y4MHeader(
            width: width, height: height, frameRate: frameRate, pixelAspect: Y4MRatio(1, 1),
            interlacing: "p", colourspace: colourspace,
            comments: comments.map { String($0.filter { $0 != " " && $0 != "\n" }) })
        self.chroma = [UInt8](repeating: 128, count: header.chromaBytes)
        guard let file = fopen(path, "wb") else {
            throw .unwritableFile(path: path, reason: errnoMessage(errno))
        }
        self.file = file
        try put(Array(header.line.utf8))
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends one frame; its size must be the header's.
    public func write(_ frame: LumaFrame) throws(CaptureError) {
        guard file != nil else { throw .closed(source: path) }
        guard frame.width == header.width, frame.height == header.height else {
            throw .invalidConfiguration(
                "frame \(frame.sequence) is \(frame.width)x\(frame.height), the video is \(header.width)x\(header.height)"
            )
        }
        try put(Array("FRAME\n".utf8))
        try put(frame.pixels)
        if !chroma.isEmpty { try put(chroma) }
        framesWritten += 1
    }

    /// Flushes and closes the file; reports a failed write (a full disk) that buffering hid until now.
    public func close() throws(CaptureError) {
        guard let file else { return }
        self.file = nil
        let failed = fflush(file) != 0 || ferror(file) != 0
        let code = errno
        if fclose(file) != 0 || failed {
            throw .unwritableFile(path: path, reason: errnoMessage(failed ? code : errno))
        }
    }

    /// Writes `frames` to `path` in one go.
    public static func write(
        _ frames: [LumaFrame], to path: String, colourspace: Y4MColourspace = .c420jpeg,
        frameRate: Y4MRatio = Y4MRatio(30, 1)
    ) throws(CaptureError) {
        guard let first = frames.first else { throw .invalidConfiguration("no frames to write to \(path)") }
        let writer = try Y4MWriter(
            path: path, width: first.width, height: first.height, colourspace: colourspace, frameRate: frameRate)
        for frame in frames { try writer.write(frame) }
        try writer.close()
    }

    private func put(_ bytes: [UInt8]) throws(CaptureError) {
        guard let file else { throw .closed(source: path) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != bytes.count {
            throw .unwritableFile(path: path, reason: errnoMessage(errno))
        }
    }
}
