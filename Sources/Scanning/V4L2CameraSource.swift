import CV4L2

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What to open and what to ask the camera for.
public struct CameraConfiguration: Sendable, Equatable {
    /// The device node: `/dev/video0`, or a stable name such as `/dev/v4l/by-id/usb-...-video-index0`.
    public var device: String
    /// The size to ask for; the driver answers with the nearest size it supports.
    public var width: Int
    public var height: Int
    /// The frame rate to ask for (VIDIOC_S_PARM); drivers that cannot set it keep their own.
    public var framesPerSecond: Double
    /// Memory-mapped buffers to queue; 4 lets the driver keep filling while one frame is being copied.
    public var bufferCount: Int
    /// When the camera itself offers a format that carries a luma plane (GREY, NV12, NV21, YU12, YV12, YUYV,
    /// UYVY), read it as is and skip libv4l2's conversion (which also converts chroma nobody looks at: about ten
    /// times the per-frame CPU for YUYV). Otherwise, and always when false, ask libv4l2 for YUV420, which it
    /// produces from anything it can decode (MJPEG, Bayer, vendor formats).
    public var preferNativeFormats: Bool

    public init(
        device: String, width: Int = 640, height: Int = 480, framesPerSecond: Double = 30, bufferCount: Int = 4,
        preferNativeFormats: Bool = true
    ) {
        self.device = device
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.bufferCount = bufferCount
        self.preferNativeFormats = preferNativeFormats
    }

    /// `/dev/video<index>`.
    public init(
        index: Int, width: Int = 640, height: Int = 480, framesPerSecond: Double = 30, bufferCount: Int = 4,
        preferNativeFormats: Bool = true
    ) {
        self.init(
            device: CameraConfiguration.devicePath(index: index), width: width, height: height,
            framesPerSecond: framesPerSecond, bufferCount: bufferCount, preferNativeFormats: preferNativeFormats)
    }

    public static func devicePath(index: Int) -> String { "/dev/video\(index)" }

    func validate() throws(CaptureError) {
        if device.isEmpty { throw .invalidConfiguration("empty camera device path") }
        if width <= 0 || height <= 0 || width > 16384 || height > 16384 {
            throw .invalidConfiguration("camera size \(width)x\(height) is out of range")
        }
        if !(framesPerSecond > 0 && framesPerSecond <= 1000) {
            throw .invalidConfiguration("camera frame rate \(framesPerSecond) is out of range (0, 1000]")
        }
        if bufferCount < 2 || bufferCount > 32 {
            throw .invalidConfiguration("camera buffer count \(bufferCount) is out of range 2...32")
        }
    }
}

/// What the camera and libv4l2 agreed on.
public struct CameraFormat: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// The fourcc we receive frames in (after libv4l2's conversion), e.g. `YU12` or `GREY`.
    public var pixelFormat: String
    public var bytesPerLine: Int
    /// The frame rate the driver reports after S_PARM, when it reports one.
    public var framesPerSecond: Double?
    /// Formats the camera itself offers (not libv4l2's emulated ones), e.g. `["YUYV", "MJPG"]`.
    public var cameraPixelFormats: [String]
    /// The driver's and the card's names from VIDIOC_QUERYCAP, e.g. `uvcvideo`, `HD Pro Webcam C920`.
    public var driver: String
    public var card: String

    public var description: String {
        let rate = framesPerSecond.map { " @ \(formatSeconds($0)) fps" } ?? ""
        return
            "\(width)x\(height) \(pixelFormat)\(rate) from \(card) (\(driver); camera formats \(cameraPixelFormats.joined(separator: ", ")))"
    }
}

/// A V4L2 webcam read through libv4l2 with memory-mapped streaming.
///
/// Opening negotiates the format: a camera that offers a format with a luma plane (GREY, NV12, NV21, YU12, YV12,
/// YUYV, UYVY) is read in it directly; anything else (typically MJPEG) is asked for YUV420 (YU12), which libv4l2
/// converts to. `CameraConfiguration.preferNativeFormats = false` always goes through libv4l2's YUV420. Only the
/// luma plane is kept, honouring the driver's bytes-per-line. If the driver answers S_FMT with another format
/// that still carries luma, that is read too.
///
/// Only the newest frame matters to a scanner: when several buffers are ready, `nextFrame` dequeues them all,
/// requeues the stale ones at once and returns the latest; frames are never queued up behind the reader.
///
/// Every exit path (errors while opening, `close()`, `deinit`) stops streaming, unmaps and closes the device.
public final class V4L2CameraSource: FrameSource {
    public let configuration: CameraConfiguration
    public var name: String { configuration.device }
    /// The format negotiated at open.
    public let format: CameraFormat
    /// Frames the driver produced that this source never returned (sequence gaps: stale frames skipped by
    /// draining, or frames the driver dropped because no buffer was queued).
    public private(set) var droppedFrames = 0
    /// Frames returned so far.
    public private(set) var deliveredFrames = 0

    private var fd: Int32
    private var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false
    private var closed = false
    private var lastSequence: Int?
    private var pendingError: CaptureError?
    private let layout: V4L2CameraSourceLayout

    /// Opens the camera, negotiates the format and starts streaming.
    public init(_ configuration: CameraConfiguration) throws(CaptureError) {
        try configuration.validate()
        self.configuration = configuration
        let device = configuration.device

        // Open the node, ask the driver (not libv4l2, which mixes in the formats it emulates) what it offers, and
        // only then wrap the descriptor with libv4l2: with conversion disabled when a native format will be read,
        // so that libv4l2 passes it through untouched.
        let rawFD = device.withCString { cv4l2_open_raw($0, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        if rawFD < 0 { throw V4L2CameraSource.openError(errno, device: device) }
        let native = V4L2CameraSource.driverFormats(rawFD)
        let direct = [
            CV4L2_PIX_FMT_GREY, CV4L2_PIX_FMT_NV12, CV4L2_PIX_FMT_NV21, CV4L2_PIX_FMT_YUV420,
            CV4L2_PIX_FMT_YVU420, CV4L2_PIX_FMT_YUYV, CV4L2_PIX_FMT_UYVY,
        ]
        let nativeChoice = configuration.preferNativeFormats ? direct.first { native.contains($0) } : nil
        if v4l2_fd_open(rawFD, nativeChoice != nil ? V4L2_DISABLE_CONVERSION : 0) == -1 {
            let code = errno
            _ = cv4l2_close_raw(rawFD)
            throw V4L2CameraSource.openError(code, device: device)
        }
        let fd = rawFD
        self.fd = fd
        // From here on, any failure must release what was acquired: `Setup` does the negotiation on a
        // half-built object and `abandon` undoes it.
        var setup = Setup(
            fd: fd, configuration: configuration, native: native, wanted: nativeChoice ?? CV4L2_PIX_FMT_YUV420)
        do {
            try setup.negotiate()
            try setup.startStreaming()
        } catch {
            setup.abandon()
            throw error
        }
        self.format = setup.format!
        self.layout = setup.layout
        self.buffers = setup.buffers
        self.streaming = true
    }

    deinit {
        close()
    }

    private static func openError(_ code: Int32, device: String) -> CaptureError {
        switch code {
        case ENOENT, ENXIO, ENODEV, ENOTDIR: return .noSuchDevice(device: device)
        case EACCES, EPERM: return .permissionDenied(device: device)
        case EBUSY: return .deviceBusy(device: device)
        case ENOTTY, EINVAL:
            // libv4l2 probes the node with VIDIOC_QUERYCAP: a file or a non-V4L2 device fails here.
            return .notACaptureDevice(device: device, detail: "not a V4L2 device (\(errnoMessage(code)))")
        case EISDIR: return .notACaptureDevice(device: device, detail: "a directory")
        default: return .deviceFailure(device: device, operation: "open", errno: code, reason: errnoMessage(code))
        }
    }

    /// The single-planar capture formats the driver lists (empty for a node that is not a capture device, or a
    /// multi-planar one, which libv4l2's plugin then adapts).
    private static func driverFormats(_ fd: Int32) -> [UInt32] {
        var formats: [UInt32] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            if cv4l2_driver_ioctl(fd, CV4L2_VIDIOC_ENUM_FMT, &description) == -1 { break }
            formats.append(description.pixelformat)
        }
        return formats
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Setup.release(fd: fd, buffers: buffers, streaming: streaming)
        buffers = []
        streaming = false
        fd = -1
    }

    public func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame? {
        if closed { throw .closed(source: name) }
        if let error = pendingError { throw error }
        let device = configuration.device
        let start = MonotonicClock.nanos()
        let timeoutNanos = timeout.clampedNanoseconds
        let deadline = start &+ timeoutNanos < start ? UInt64.max : start + timeoutNanos

        while true {
            let now = MonotonicClock.nanos()
            let remaining = deadline > now ? deadline - now : 0
            // Round up to whole milliseconds so that a 1.5 ms remainder is not a busy 1 ms loop.
            let waitMillis = Int32(clamping: (remaining + 999_999) / 1_000_000)
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, waitMillis)
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .deviceFailure(device: device, operation: "poll", errno: code, reason: errnoMessage(code))
            }
            if ready == 0 {
                if MonotonicClock.nanos() >= deadline {
                    throw .noFrame(device: device, seconds: timeout.seconds)
                }
                continue
            }
            let hangup = pfd.revents & Int16(POLLERR | POLLHUP | POLLNVAL)
            if let buffer = try dequeueLatest() {
                return try deliver(buffer)
            }
            if hangup != 0 {
                var what: [String] = []
                if pfd.revents & Int16(POLLERR) != 0 { what.append("POLLERR") }
                if pfd.revents & Int16(POLLHUP) != 0 { what.append("POLLHUP") }
                if pfd.revents & Int16(POLLNVAL) != 0 { what.append("POLLNVAL") }
                throw .deviceLost(device: device, reason: "poll reported \(what.joined(separator: "|"))")
            }
            // Spurious wake-up (libv4l2 may swallow a frame it failed to convert): wait again.
            if MonotonicClock.nanos() >= deadline {
                throw .noFrame(device: device, seconds: timeout.seconds)
            }
        }
    }

    // MARK: - Streaming

    /// Dequeues every ready buffer, requeues all but the newest, and returns the newest (nil if none was ready).
    private func dequeueLatest() throws(CaptureError) -> v4l2_buffer? {
        var latest: v4l2_buffer?
        // Bounded: a device producing faster than we dequeue cannot keep us here.
        for attempt in 0..<(buffers.count * 2) {
            // After the first buffer, dequeue only what poll() says is ready: libv4l2 logs every EAGAIN from
            // DQBUF on stderr, which would be a line per frame.
            if attempt > 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, 0) <= 0 || pfd.revents & Int16(POLLIN) == 0 { break }
            }
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if cv4l2_ioctl(fd, CV4L2_VIDIOC_DQBUF, &buffer) == -1 {
                let code = errno
                if code == EAGAIN { break }
                throw streamingError(code, operation: "VIDIOC_DQBUF")
            }
            if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 || Int(buffer.index) >= buffers.count {
                // A corrupted frame (e.g. a USB transfer error): give the buffer back and skip it.
                try requeue(buffer)
                continue
            }
            if let stale = latest { try requeue(stale) }
            latest = buffer
        }
        return latest
    }

    private func deliver(_ buffer: v4l2_buffer) throws(CaptureError) -> LumaFrame {
        let arrival = MonotonicClock.arrival()
        let width = format.width, height = format.height, stride = format.bytesPerLine
        let mapping = buffers[Int(buffer.index)]
        let source = UnsafeRawPointer(mapping.start).assumingMemoryBound(to: UInt8.self)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            let destination = out.baseAddress!
            switch layout {
            case .planar:
                if stride == width {
                    destination.update(from: source, count: width * height)
                } else {
                    for row in 0..<height {
                        (destination + row * width).update(from: source + row * stride, count: width)
                    }
                }
            case .packed(let offset):
                for row in 0..<height {
                    let line = source + row * stride + offset
                    let target = destination + row * width
                    for x in 0..<width { target[x] = line[2 * x] }
                }
            }
            count = width * height
        }
        let sequence = Int(buffer.sequence)
        if let last = lastSequence, sequence > last + 1 { droppedFrames += sequence - last - 1 }
        lastSequence = sequence
        deliveredFrames += 1
        // Hand the buffer back before returning; if that fails the device is going away: return this frame and
        // report the failure on the next call.
        do { try requeue(buffer) } catch { pendingError = error }
        return LumaFrame(width: width, height: height, pixels: pixels, sequence: sequence, arrivalNanos: arrival)
    }

    private func requeue(_ buffer: v4l2_buffer) throws(CaptureError) {
        var buffer = buffer
        buffer.flags = 0
        buffer.bytesused = 0
        if cv4l2_ioctl(fd, CV4L2_VIDIOC_QBUF, &buffer) == -1 {
            throw streamingError(errno, operation: "VIDIOC_QBUF")
        }
    }

    private func streamingError(_ code: Int32, operation: String) -> CaptureError {
        switch code {
        case ENODEV, EIO, ENXIO, EPIPE, ESHUTDOWN, EBADF:
            return .deviceLost(device: configuration.device, reason: "\(errnoMessage(code)) on \(operation)")
        default:
            return .deviceFailure(
                device: configuration.device, operation: operation, errno: code, reason: errnoMessage(code))
        }
    }
}

// MARK: - Opening and negotiation

/// The steps of opening a camera, kept apart so that a failure at any step can undo the earlier ones.
private struct Setup {
    let fd: Int32
    let configuration: CameraConfiguration
    var format: CameraFormat?
    var layout: V4L2CameraSourceLayout = .planar
    var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
    var streaming = false
    /// The formats the driver offers, and the one to ask for (YUV420 when libv4l2 is to convert).
    let native: [UInt32]
    let wanted: UInt32
    private var device: String { configuration.device }

    init(fd: Int32, configuration: CameraConfiguration, native: [UInt32], wanted: UInt32) {
        self.fd = fd
        self.configuration = configuration
        self.native = native
        self.wanted = wanted
    }

    private func failure(_ operation: String, _ code: Int32) -> CaptureError {
        switch code {
        case EBUSY: return .deviceBusy(device: device)
        case ENODEV, ENXIO, EIO: return .deviceLost(device: device, reason: "\(errnoMessage(code)) on \(operation)")
        case EACCES, EPERM: return .permissionDenied(device: device)
        default: return .deviceFailure(device: device, operation: operation, errno: code, reason: errnoMessage(code))
        }
    }

    mutating func negotiate() throws(CaptureError) {
        // Is this a capture device?
        var capability = v4l2_capability()
        if cv4l2_ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability) == -1 {
            let code = errno
            if code == ENOTTY || code == EINVAL {
                throw .notACaptureDevice(device: device, detail: "not a V4L2 device: VIDIOC_QUERYCAP is not supported")
            }
            throw failure("VIDIOC_QUERYCAP", code)
        }
        let driver = tupleString(capability.driver)
        let card = tupleString(capability.card)
        var caps = capability.capabilities
        if caps & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 { caps = capability.device_caps }
        if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) == 0 {
            var detail = "\(card) (\(driver)) has no video capture"
            if caps & UInt32(V4L2_CAP_META_CAPTURE) != 0 {
                detail += "; it is a metadata node, the camera's image node is usually the other /dev/video number"
            }
            throw .notACaptureDevice(device: device, detail: detail)
        }
        if caps & UInt32(V4L2_CAP_STREAMING) == 0 {
            throw .unsupportedFormat(device: device, detail: "\(card) (\(driver)) does not support streaming I/O")
        }

        var requested = v4l2_format()
        requested.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        requested.fmt.pix.width = UInt32(configuration.width)
        requested.fmt.pix.height = UInt32(configuration.height)
        requested.fmt.pix.pixelformat = wanted
        requested.fmt.pix.field = V4L2_FIELD_ANY.rawValue
        if cv4l2_ioctl(fd, CV4L2_VIDIOC_S_FMT, &requested) == -1 {
            let code = errno
            if code == EINVAL {
                throw .unsupportedFormat(
                    device: device,
                    detail:
                        "the camera refuses \(fourcc(wanted)) and libv4l2 cannot convert its formats (\(native.map(fourcc).joined(separator: ", ")))"
                )
            }
            throw failure("VIDIOC_S_FMT", code)
        }
        let pix = requested.fmt.pix
        let width = Int(pix.width), height = Int(pix.height)
        let layout: V4L2CameraSourceLayout
        let minimumStride: Int
        switch pix.pixelformat {
        case CV4L2_PIX_FMT_GREY, CV4L2_PIX_FMT_YUV420, CV4L2_PIX_FMT_YVU420, CV4L2_PIX_FMT_NV12, CV4L2_PIX_FMT_NV21:
            layout = .planar
            minimumStride = width
        case CV4L2_PIX_FMT_YUYV:
            layout = .packed(0)
            minimumStride = width * 2
        case CV4L2_PIX_FMT_UYVY:
            layout = .packed(1)
            minimumStride = width * 2
        default:
            throw .unsupportedFormat(
                device: device,
                detail:
                    "the driver answered \(fourcc(pix.pixelformat)) when asked for \(fourcc(wanted)); camera formats: \(native.map(fourcc).joined(separator: ", "))"
            )
        }
        if width <= 0 || height <= 0 {
            throw .unsupportedFormat(device: device, detail: "the driver answered an empty size \(width)x\(height)")
        }
        let stride = Int(pix.bytesperline) >= minimumStride ? Int(pix.bytesperline) : minimumStride
        self.layout = layout

        // Frame rate: not every driver can set it, and a camera that keeps its own rate is still usable.
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        let fps = configuration.framesPerSecond
        if fps == fps.rounded() {
            parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(fps))
        } else {
            parameters.parm.capture.timeperframe = v4l2_fract(
                numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        }
        var framesPerSecond: Double?
        if cv4l2_ioctl(fd, CV4L2_VIDIOC_S_PARM, &parameters) == 0 {
            let t = parameters.parm.capture.timeperframe
            if t.numerator > 0 && t.denominator > 0 { framesPerSecond = Double(t.denominator) / Double(t.numerator) }
        } else if errno == ENODEV {
            throw failure("VIDIOC_S_PARM", ENODEV)
        }

        format = CameraFormat(
            width: width, height: height, pixelFormat: fourcc(pix.pixelformat), bytesPerLine: stride,
            framesPerSecond: framesPerSecond, cameraPixelFormats: native.map(fourcc),
            driver: driver, card: card)
    }

    mutating func startStreaming() throws(CaptureError) {
        guard let format else { return }
        var request = v4l2_requestbuffers()
        request.count = UInt32(configuration.bufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        if cv4l2_ioctl(fd, CV4L2_VIDIOC_REQBUFS, &request) == -1 {
            let code = errno
            if code == EINVAL {
                throw .unsupportedFormat(device: device, detail: "memory-mapped streaming is not supported")
            }
            throw failure("VIDIOC_REQBUFS", code)
        }
        if request.count < 2 {
            throw .deviceFailure(
                device: device, operation: "VIDIOC_REQBUFS", errno: ENOMEM,
                reason: "the driver granted \(request.count) buffer(s), at least 2 are needed")
        }
        let needed: Int
        switch layout {
        case .planar: needed = format.bytesPerLine * (format.height - 1) + format.width
        case .packed: needed = format.bytesPerLine * (format.height - 1) + format.width * 2
        }
        for index in 0..<Int(request.count) {
            var buffer = v4l2_buffer()
            buffer.index = UInt32(index)
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if cv4l2_ioctl(fd, CV4L2_VIDIOC_QUERYBUF, &buffer) == -1 { throw failure("VIDIOC_QUERYBUF", errno) }
            let length = Int(buffer.length)
            if length < needed {
                throw .unsupportedFormat(
                    device: device,
                    detail:
                        "buffer \(index) holds \(length) bytes, a \(format.width)x\(format.height) \(format.pixelFormat) frame with \(format.bytesPerLine) bytes per line needs \(needed)"
                )
            }
            guard let start = v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int64(buffer.m.offset)),
                start != UnsafeMutableRawPointer(bitPattern: -1)
            else {
                throw failure("mmap", errno)
            }
            buffers.append((start, length))
        }
        for index in 0..<buffers.count {
            var buffer = v4l2_buffer()
            buffer.index = UInt32(index)
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if cv4l2_ioctl(fd, CV4L2_VIDIOC_QBUF, &buffer) == -1 { throw failure("VIDIOC_QBUF", errno) }
        }
        if cv4l2_ioctl_int(fd, CV4L2_VIDIOC_STREAMON, Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)) == -1 {
            throw failure("VIDIOC_STREAMON", errno)
        }
        streaming = true
    }

    /// Undoes a partial open.
    func abandon() {
        Setup.release(fd: fd, buffers: buffers, streaming: streaming)
    }

    /// STREAMOFF, munmap, free the driver's buffers, close. Errors are ignored: the device may be gone already.
    static func release(fd: Int32, buffers: [(start: UnsafeMutableRawPointer, length: Int)], streaming: Bool) {
        guard fd >= 0 else { return }
        let savedErrno = errno
        if streaming {
            _ = cv4l2_ioctl_int(fd, CV4L2_VIDIOC_STREAMOFF, Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue))
        }
        for buffer in buffers {
            _ = v4l2_munmap(buffer.start, buffer.length)
        }
        if !buffers.isEmpty {
            var request = v4l2_requestbuffers()
            request.count = 0
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = cv4l2_ioctl(fd, CV4L2_VIDIOC_REQBUFS, &request)
        }
        _ = v4l2_close(fd)
        errno = savedErrno
    }
}

/// Where the luma bytes are in a buffer (shared by `Setup` and the source).
private enum V4L2CameraSourceLayout {
    case planar  // GREY, YU12, YV12, NV12, NV21: the first plane is luma
    case packed(Int)  // YUYV (offset 0), UYVY (offset 1): every other byte
}

/// A fourcc code as text: `0x56595559` → `YUYV`.
func fourcc(_ code: UInt32) -> String {
    let bytes = [UInt8(code & 0xFF), UInt8((code >> 8) & 0xFF), UInt8((code >> 16) & 0xFF), UInt8((code >> 24) & 0xFF)]
    let printable = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    return printable ? String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces() : "0x" + String(code, radix: 16)
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
