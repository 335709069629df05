#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replays still images (PNG, JPEG, PGM) as frames: a folder of photos of stop labels, or an explicit list.
///
/// A folder is listed once at open: files with an image extension, in natural order (`frame2` before
/// `frame10`), hidden files skipped. Images are loaded one at a time as they are asked for, through
/// `ImageFile.load` by default. Frames keep their own sizes; sequence numbers count frames handed out.
public final class ImageFolderSource: FrameSource {
    /// Extensions (lower case) that a folder listing picks up.
    public static let imageExtensions = ["png", "jpg", "jpeg", "pgm", "pnm"]

    public typealias Loader = (String) throws -> LumaFrame

    public let name: String
    /// The images, in replay order.
    public let files: [String]
    public let loop: Bool
    public private(set) var framesRead = 0

    private var position = 0
    private var closed = false
    private var pacer: ReplayPacer
    private let loader: Loader

    /// The default loader: `ImageFile.load` (PNG, JPEG, PGM sniffed from the bytes).
    public static func loadImage(_ path: String) throws -> LumaFrame { try ImageFile.load(path) }

    /// Every image file in `folder`, naturally sorted.
    public convenience init(
        folder: String, loop: Bool = false, pacing: ReplayPacing = .unpaced,
        loader: @escaping Loader = ImageFolderSource.loadImage
    ) throws(CaptureError) {
        let files = try ImageFolderSource.listImages(in: folder)
        try self.init(name: folder, files: files, loop: loop, pacing: pacing, loader: loader)
    }

    /// The given files, in the given order.
    public convenience init(
        files: [String], loop: Bool = false, pacing: ReplayPacing = .unpaced,
        loader: @escaping Loader = ImageFolderSource.loadImage
    ) throws(CaptureError) {
        guard !files.isEmpty else { throw .invalidConfiguration("no image files to replay") }
        try self.init(
            name: files.count == 1 ? files[0] : "\(files.count) images", files: files, loop: loop, pacing: pacing,
            loader: loader)
    }

    private init(
        name: String, files: [String], loop: Bool, pacing: ReplayPacing, loader: @escaping Loader
    ) throws(CaptureError) {
        self.name = name
        self.files = files
        self.loop = loop
        self.loader = loader
        self.pacer = ReplayPacer(framesPerSecond: pacing.framesPerSecond(native: nil))
    }

    public func close() {
        closed = true
    }

    public func nextFrame(timeout: Duration = .seconds(1)) throws(CaptureError) -> LumaFrame? {
        if closed { throw .closed(source: name) }
        if position == files.count {
            guard loop else { return nil }
            position = 0
        }
        let path = files[position]
        var frame: LumaFrame
        do {
            frame = try loader(path)
        } catch let error as ImageFile.LoadError {
            if case .notFound = error { throw .noSuchFile(path: path) }
            throw .unreadableImage(path: path, detail: error.description)
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .unreadableImage(path: path, detail: String(describing: error))
        }
        position += 1
        pacer.waitForNextFrame()
        frame.sequence = framesRead
        frame.arrivalNanos = MonotonicClock.arrival()
        framesRead += 1
        return frame
    }

    /// The image files directly inside `folder`, naturally sorted, hidden files skipped.
    public static func listImages(in folder: String) throws(CaptureError) -> [String] {
        guard let directory = opendir(folder) else {
            let code = errno
            if code == ENOENT { throw .noSuchFile(path: folder) }
            throw .unreadableFile(path: folder, reason: errnoMessage(code))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            guard let dot = name.lastIndex(of: ".") else { continue }
            let ext = name[name.index(after: dot)...].lowercased()
            guard imageExtensions.contains(ext) else { continue }
            names.append(name)
        }
        if names.isEmpty { throw .emptyFolder(path: folder) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return names.sorted(by: naturalOrder).map { base + $0 }
    }

    /// `a` before `b` comparing runs of digits by value: `img2.png` < `img10.png`.
    static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var i = 0, j = 0
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var i2 = i, j2 = j
                while i2 < x.count && x[i2] == 0x30 { i2 += 1 }
                while j2 < y.count && y[j2] == 0x30 { j2 += 1 }
                var i3 = i2, j3 = j2
                while i3 < x.count && isDigit(x[i3]) { i3 += 1 }
                while j3 < y.count && isDigit(y[j3]) { j3 += 1 }
                let lengthX = i3 - i2, lengthY = j3 - j2
                if lengthX != lengthY { return lengthX < lengthY }
                for k in 0..<lengthX where x[i2 + k] != y[j2 + k] { return x[i2 + k] < y[j2 + k] }
                if (i3 - i) != (j3 - j) { return (i3 - i) < (j3 - j) }  // fewer leading zeros first
                i = i3
                j = j3
            } else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1
                j += 1
            }
        }
        return x.count - i < y.count - j
    }
}
