#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where frames come from: a V4L2 webcam, a recorded Y4M video, or a folder of still images.
///
/// A frame source is a single-owner pull API: one loop (a thread, a task, a `kiosk scan` command) creates it,
/// asks for frames one at a time and closes it. Sources are classes that hold a device or a file, so they are
/// deliberately not `Sendable`; create them where they are used, or hand one over with `sending`.
///
/// ```swift
/// let source = try FrameSourceSpec.camera(CameraConfiguration(device: "/dev/video0")).open()
/// defer { source.close() }
/// while let frame = try source.nextFrame(timeout: .seconds(2)) { ... }
/// ```
public protocol FrameSource: AnyObject {
    /// What is being read, for messages and logs: a device path, a file, a folder.
    var name: String { get }

    /// Waits at most `timeout` for the next frame.
    ///
    /// Returns nil at the end of a replay (a Y4M file or an image list that does not loop); a camera never ends,
    /// it throws `CaptureError.noFrame` when `timeout` passes without a frame. Replays ignore `timeout` (reading a
    /// file does not stall) except that pacing never waits longer than the frame interval.
    func nextFrame(timeout: Duration) throws(CaptureError) -> LumaFrame?

    /// Releases the device or file. Idempotent; `nextFrame` after `close()` throws `CaptureError.closed`.
    func close()
}

/// A description of a frame source that can be opened later: what the command line and the config produce.
public enum FrameSourceSpec: Sendable, Equatable {
    /// A V4L2 camera. With `reconnect`, a lost or missing camera is reopened with backoff instead of failing.
    case camera(CameraConfiguration, reconnect: Bool = false)
    /// A YUV4MPEG2 file, optionally looping and paced.
    case video(path: String, loop: Bool = false, pacing: ReplayPacing = .unpaced)
    /// A folder of images (sorted naturally by name), optionally looping and paced.
    case imageFolder(path: String, loop: Bool = false, pacing: ReplayPacing = .unpaced)
    /// Image files in the given order.
    case imageFiles([String], loop: Bool = false, pacing: ReplayPacing = .unpaced)

    /// Opens the source. A reconnecting camera never fails here: it reports problems through its state.
    public func open() throws(CaptureError) -> any FrameSource {
        switch self {
        case .camera(let configuration, let reconnect):
            if reconnect { return ReconnectingCameraSource(configuration) }
            return try V4L2CameraSource(configuration)
        case .video(let path, let loop, let pacing):
            return try Y4MFileSource(path: path, loop: loop, pacing: pacing)
        case .imageFolder(let path, let loop, let pacing):
            return try ImageFolderSource(folder: path, loop: loop, pacing: pacing)
        case .imageFiles(let files, let loop, let pacing):
            return try ImageFolderSource(files: files, loop: loop, pacing: pacing)
        }
    }
}

/// Why frames could not be captured. Every case names the device or file, and `description` says what to do.
///
/// The cases are structured (not just text) so that the kiosk can translate them and decide what to show:
/// `isDeviceLoss` means "camera unavailable, retrying" rather than a configuration mistake.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node does not exist (ENOENT, ENXIO or ENODEV at open).
    case noSuchDevice(device: String)
    /// The device exists but this user may not open it (EACCES/EPERM).
    case permissionDenied(device: String)
    /// Another program holds the camera (EBUSY at open, S_FMT or REQBUFS).
    case deviceBusy(device: String)
    /// The node is not a V4L2 video capture device (a metadata node, a video output, not V4L2 at all).
    case notACaptureDevice(device: String, detail: String)
    /// The camera offers no format that libv4l2 can turn into luma, or no streaming I/O.
    case unsupportedFormat(device: String, detail: String)
    /// The camera was unplugged or failed while streaming (ENODEV/EIO on DQBUF, POLLERR/POLLHUP on poll).
    case deviceLost(device: String, reason: String)
    /// Streaming, but no frame arrived within `seconds`.
    case noFrame(device: String, seconds: Double)
    /// Any other system call failure on the device: `operation` is the call (e.g. `VIDIOC_REQBUFS`).
    case deviceFailure(device: String, operation: String, errno: Int32, reason: String)
    /// A replay file or folder does not exist.
    case noSuchFile(path: String)
    /// A replay file or folder exists but cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A file could not be created or written (the Y4M writer).
    case unwritableFile(path: String, reason: String)
    /// A Y4M file is damaged or in a form this reader does not handle.
    case corruptVideo(path: String, problem: Y4MProblem)
    /// An image in a replayed folder or list could not be loaded; `detail` is the image loader's message.
    case unreadableImage(path: String, detail: String)
    /// A folder to replay holds no image files.
    case emptyFolder(path: String)
    /// A configuration value is out of range (a zero width, a negative frame rate, an empty file list).
    case invalidConfiguration(String)
    /// `nextFrame` was called after `close()`.
    case closed(source: String)

    /// The device or file the error is about.
    public var subject: String {
        switch self {
        case .noSuchDevice(let d), .permissionDenied(let d), .deviceBusy(let d), .notACaptureDevice(let d, _),
            .unsupportedFormat(let d, _), .deviceLost(let d, _), .noFrame(let d, _), .deviceFailure(let d, _, _, _):
            return d
        case .noSuchFile(let p), .unreadableFile(let p, _), .unwritableFile(let p, _), .corruptVideo(let p, _),
            .unreadableImage(let p, _),
            .emptyFolder(let p):
            return p
        case .invalidConfiguration:
            return ""
        case .closed(let s):
            return s
        }
    }

    /// A short stable name for the case, for JSON output, logs and tests.
    public var kind: String {
        switch self {
        case .noSuchDevice: return "noSuchDevice"
        case .permissionDenied: return "permissionDenied"
        case .deviceBusy: return "deviceBusy"
        case .notACaptureDevice: return "notACaptureDevice"
        case .unsupportedFormat: return "unsupportedFormat"
        case .deviceLost: return "deviceLost"
        case .noFrame: return "noFrame"
        case .deviceFailure: return "deviceFailure"
        case .noSuchFile: return "noSuchFile"
        case .unreadableFile: return "unreadableFile"
        case .unwritableFile: return "unwritableFile"
        case .corruptVideo: return "corruptVideo"
        case .unreadableImage: return "unreadableImage"
        case .emptyFolder: return "emptyFolder"
        case .invalidConfiguration: return "invalidConfiguration"
        case .closed: return "closed"
        }
    }

    /// True when the camera is gone or failing (worth reopening later), false for mistakes that need a person.
    public var isDeviceLoss: Bool {
        switch self {
        case .noSuchDevice, .deviceLost, .noFrame, .deviceBusy, .deviceFailure: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noSuchDevice(let d):
            return "\(d): no such camera device (is the webcam plugged in? `ls /dev/v4l/by-id/` lists cameras)"
        case .permissionDenied(let d):
            return
                "\(d): permission denied opening the camera (add the kiosk user to the 'video' group or install the udev rule)"
        case .deviceBusy(let d):
            return "\(d): camera is busy: another program is using it"
        case .notACaptureDevice(let d, let detail):
            return "\(d): not a video capture device (\(detail))"
        case .unsupportedFormat(let d, let detail):
            return "\(d): unsupported camera format (\(detail))"
        case .deviceLost(let d, let reason):
            return "\(d): camera unplugged or failed mid-stream (\(reason))"
        case .noFrame(let d, let seconds):
            return "\(d): no frame within \(formatSeconds(seconds)) s (the camera is open but delivers no images)"
        case .deviceFailure(let d, let operation, let code, let reason):
            return "\(d): \(operation) failed: \(reason) (errno \(code))"
        case .noSuchFile(let p):
            return "\(p): no such file or folder"
        case .unreadableFile(let p, let reason):
            return "\(p): cannot be read (\(reason))"
        case .unwritableFile(let p, let reason):
            return "\(p): cannot be written (\(reason))"
        case .corruptVideo(let p, let problem):
            return "\(p): corrupt Y4M video: \(problem)"
        case .unreadableImage(let p, let detail):
            return detail.hasPrefix(p) ? detail : "\(p): \(detail)"
        case .emptyFolder(let p):
            return
                "\(p): no images to replay (looked for \(ImageFolderSource.imageExtensions.joined(separator: ", ")) files)"
        case .invalidConfiguration(let message):
            return "invalid capture configuration: \(message)"
        case .closed(let s):
            return "\(s): frame source already closed"
        }
    }
}

/// What is wrong with a Y4M file.
public enum Y4MProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream header is missing, malformed or lacks a size.
    case badHeader(String)
    /// The `C` parameter names a colourspace this reader does not handle (e.g. 10-bit `C420p10`).
    case unsupportedColourspace(String)
    /// A frame does not start with a `FRAME` line.
    case badFrameHeader(frame: Int, detail: String)
    /// The file ends inside a frame.
    case truncatedFrame(frame: Int, expectedBytes: Int, gotBytes: Int)

    public var description: String {
        switch self {
        case .badHeader(let detail):
            return "bad header: \(detail)"
        case .unsupportedColourspace(let name):
            return
                "unsupported colourspace C\(name) (supported: 8-bit C420jpeg, C420paldv, C420mpeg2, C420, C422, C444, C411, Cmono)"
        case .badFrameHeader(let frame, let detail):
            return "bad frame header at frame \(frame): \(detail)"
        case .truncatedFrame(let frame, let expected, let got):
            return "truncated frame \(frame): expected \(expected) bytes, file ends after \(got)"
        }
    }
}

func formatSeconds(_ seconds: Double) -> String {
    if seconds == seconds.rounded() { return String(Int(seconds)) }
    let tenths = (seconds * 100).rounded() / 100
    return String(tenths)
}

func errnoMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
