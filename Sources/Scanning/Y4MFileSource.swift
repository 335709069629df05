#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replays a YUV4MPEG2 (`.y4m`) video as luma frames: recorded kiosk sessions, demo clips, benchmark input.
///
/// The file is streamed one frame at a time (never loaded whole), so an hour of 1080p replays in constant memory;
/// chroma is skipped. Accepts 8-bit `C420jpeg`, `C420paldv`, `C420mpeg2`, `C420`, `C422`, `C444`, `C444alpha`,
/// `C411` and `Cmono` (420 when `C` is absent), and `FRAME` lines with or without parameters. A damaged file is
/// reported with its name and what is wrong: a bad header, an unsupported colourspace, a truncated frame.
///
/// With `loop`, the file starts over at its end (sequence numbers keep increasing); with `pacing`, frames come at
/// a fixed rate (`.native` uses the header's `F`).
public final class Y4MFileSource: FrameSource {
    public let path: String
    public let header: Y4MHeader
    public let loop: Bool
    public var name: String { path }
    /// Frames returned so far (across loops).
    public private(set) var framesRead = 0

    private var file: UnsafeMutablePointer<FILE>?
    private let dataStart: Int64
    private let fileSize: Int64?  // regular files only: lets chroma be skipped by seeking
    private var frameInFile = 0
    private var pacer: ReplayPacer
    private var scratch: [UInt8] = []

    /// Longest `FRAME` line accepted (the parameters are ignored, but a file of garbage must not be read forever).
    static let maximumLineLength = 4096

    public init(path: String, loop: Bool = false, pacing: ReplayPacing = .unpaced) throws(CaptureError) {
        self.path = path
        self.loop = loop
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .noSuchFile(path: path) }
            throw .unreadableFile(path: path, reason: errnoMessage(code))
        }
        var info = stat()
        if fstat(fileno(file), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            fclose(file)
            throw .unreadableFile(path: path, reason: "is a directory")
        }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        setvbuf(file, nil, _IOFBF, 1 << 16)
        do throws(CaptureError) {
            guard
                let line = try Y4MFileSource.readLine(
                    file, path: path, limit: Y4MFileSource.maximumLineLength, frame: nil)
            else {
                throw CaptureError.corruptVideo(path: path, problem: .badHeader("empty file"))
            }
            do {
                header = try Y4MHeader.parse(line)
            } catch {
                throw CaptureError.corruptVideo(path: path, problem: error)
            }
        } catch {
            fclose(file)
            throw error
        }
        self.file = file
        self.dataStart = Int64(ftello(file))
        self.fileSize = isRegular ? Int64(info.st_size) : nil
        self.pacer = ReplayPacer(framesPerSecond: pacing.framesPerSecond(native: header.framesPerSecond))
    }

    deinit {
        if let file { fclose(file) }
    }

    public func close() {
        if let file { fclose(file) }
        file = nil
    }

    public func nextFrame(timeout: Duration = .seconds(1)) throws(CaptureError) -> LumaFrame? {
        guard let file else { throw .closed(source: path) }
        // The FRAME line; end of file right here is the end of the video (or the point to start over).
        var line = try Y4MFileSource.readLine(
            file, path: path, limit: Y4MFileSource.maximumLineLength, frame: frameInFile)
        if line == nil {
            guard loop, frameInFile > 0, fileSize != nil, fseeko(file, off_t(dataStart), SEEK_SET) == 0 else {
                return nil
            }
            frameInFile = 0
            line = try Y4MFileSource.readLine(file, path: path, limit: Y4MFileSource.maximumLineLength, frame: 0)
            guard line != nil else { return nil }
        }
        if line != "FRAME" && !line!.hasPrefix("FRAME ") {
            let shown = String(line!.prefix(24).map { ($0.asciiValue ?? 0) >= 0x20 && $0.isASCII ? $0 : "?" })
            throw .corruptVideo(
                path: path,
                problem: .badFrameHeader(frame: frameInFile, detail: "expected a FRAME line, found \"\(shown)\""))
        }

        let width = header.width, height = header.height
        let lumaBytes = header.lumaBytes
        var got = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: lumaBytes) { buffer, count in
            got = fread(buffer.baseAddress, 1, lumaBytes, file)
            if got < lumaBytes {
                buffer.baseAddress!.advanced(by: got).initialize(repeating: 0, count: lumaBytes - got)
            }
            count = lumaBytes
        }
        if got < lumaBytes { throw truncated(got: got) }
        try skipChroma(file, lumaGot: lumaBytes)

        pacer.waitForNextFrame()
        let frame = LumaFrame(
            width: width, height: height, pixels: pixels, sequence: framesRead, arrivalNanos: MonotonicClock.arrival())
        framesRead += 1
        frameInFile += 1
        return frame
    }

    private func truncated(got: Int) -> CaptureError {
        .corruptVideo(
            path: path, problem: .truncatedFrame(frame: frameInFile, expectedBytes: header.frameBytes, gotBytes: got))
    }

    private func skipChroma(_ file: UnsafeMutablePointer<FILE>, lumaGot: Int) throws(CaptureError) {
        let chroma = header.chromaBytes
        guard chroma > 0 else { return }
        if let fileSize {
            let position = Int64(ftello(file))
            if position + Int64(chroma) > fileSize {
                throw truncated(got: lumaGot + Int(max(0, fileSize - position)))
            }
            if fseeko(file, off_t(chroma), SEEK_CUR) == 0 { return }
        }
        if scratch.count < chroma { scratch = [UInt8](repeating: 0, count: chroma) }
        let got = scratch.withUnsafeMutableBytes { fread($0.baseAddress, 1, chroma, file) }
        if got < chroma { throw truncated(got: lumaGot + got) }
    }

    /// Reads up to a newline (not included). Nil at end of file before any byte; an error if the file ends
    /// inside the line or the line is longer than `limit`.
    private static func readLine(
        _ file: UnsafeMutablePointer<FILE>, path: String, limit: Int, frame: Int?
    ) throws(CaptureError) -> String? {
        var bytes: [UInt8] = []
        while true {
            let c = getc(file)
            if c == EOF {
                if ferror(file) != 0 { throw .unreadableFile(path: path, reason: errnoMessage(errno)) }
                if bytes.isEmpty { return nil }
                if let frame {
                    throw .corruptVideo(
                        path: path,
                        problem: .badFrameHeader(frame: frame, detail: "the file ends inside the FRAME line"))
                }
                throw .corruptVideo(
                    path: path, problem: .badHeader("the file ends inside the header line (no newline)"))
            }
            if c == 0x0A { break }
            bytes.append(UInt8(c))
            if bytes.count > limit {
                if let frame {
                    throw .corruptVideo(
                        path: path,
                        problem: .badFrameHeader(frame: frame, detail: "no FRAME line end within \(limit) bytes"))
                }
                throw .corruptVideo(
                    path: path, problem: .badHeader("no end of header line within \(limit) bytes (not a Y4M file?)"))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
