import CV4L2

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a V4L2 node is, for `kiosk doctor` and for choosing a camera: asked of the driver without streaming
/// (opening a node for queries does not disturb a program that is capturing from it).
public struct CameraDeviceInfo: Sendable, Equatable {
    /// The node, e.g. `/dev/video0`.
    public var path: String
    /// Stable names that point at it, e.g. `/dev/v4l/by-id/usb-Logitech_HD_Pro_Webcam_C920-video-index0`.
    public var stableNames: [String]
    public var driver: String
    public var card: String
    public var busInfo: String
    /// True for a video capture node (false for a UVC metadata node, an output, a codec).
    public var isCapture: Bool
    /// Formats the driver offers for capture, as fourcc text (`YUYV`, `MJPG`, ...).
    public var pixelFormats: [String]
}

public enum V4L2Devices {
    /// Describes one node; the error says why it cannot be used (missing, permission, not V4L2).
    public static func describe(_ path: String) -> Result<CameraDeviceInfo, CaptureError> {
        let fd = path.withCString { cv4l2_open_raw($0, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0 {
            let code = errno
            switch code {
            case ENOENT, ENXIO, ENODEV, ENOTDIR: return .failure(.noSuchDevice(device: path))
            case EACCES, EPERM: return .failure(.permissionDenied(device: path))
            case EBUSY: return .failure(.deviceBusy(device: path))
            default:
                return .failure(
                    .deviceFailure(device: path, operation: "open", errno: code, reason: errnoMessage(code)))
            }
        }
        defer { _ = cv4l2_close_raw(fd) }
        var capability = v4l2_capability()
        if cv4l2_driver_ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability) == -1 {
            return .failure(.notACaptureDevice(device: path, detail: "not a V4L2 device (\(errnoMessage(errno)))"))
        }
        var caps = capability.capabilities
        if caps & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 { caps = capability.device_caps }
        var formats: [String] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            if cv4l2_driver_ioctl(fd, CV4L2_VIDIOC_ENUM_FMT, &description) == -1 { break }
            formats.append(fourcc(description.pixelformat))
        }
        return .success(
            CameraDeviceInfo(
                path: path, stableNames: stableNames(for: path),
                driver: tupleString(capability.driver), card: tupleString(capability.card),
                busInfo: tupleString(capability.bus_info),
                isCapture: caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0
                    || caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0,
                pixelFormats: formats))
    }

    /// Every `/dev/video*` node, in numeric order, described (those that cannot be opened are left out; use
    /// `describe` on a path to learn why).
    public static func list(devDirectory: String = "/dev") -> [CameraDeviceInfo] {
        entries(of: devDirectory)
            .filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .compactMap { try? describe(devDirectory + "/" + $0).get() }
    }

    /// `/dev/v4l/by-id` and `/dev/v4l/by-path` links that resolve to `path`.
    static func stableNames(for path: String) -> [String] {
        guard let target = resolved(path) else { return [] }
        var names: [String] = []
        for directory in ["/dev/v4l/by-id", "/dev/v4l/by-path"] {
            for entry in entries(of: directory).sorted() {
                let link = directory + "/" + entry
                if link != path, resolved(link) == target { names.append(link) }
            }
        }
        return names
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = tupleString(entry.pointee.d_name)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

func tupleString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}
