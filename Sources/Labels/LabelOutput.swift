import Foundation

/// Output files that appear whole or not at all: each is written to a hidden temporary file in the same
/// directory, flushed to disk, and renamed over the destination only when everything succeeded. A failed or
/// refused run leaves the destination as it was (a previous sheet stays intact).
enum AtomicOutput {
    /// Checks, before any label is drawn, that `path` can be written: its directory exists and accepts a new
    /// file (a probe file is created and removed), and `path` is not a directory.
    static func validate(_ path: String) throws(LabelError) {
        guard !path.isEmpty else { throw .outputFailed(path: path, reason: "the output path is empty") }
        if path.hasSuffix("/") { throw .outputFailed(path: path, reason: "it names a directory; give a file name") }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw .outputFailed(path: path, reason: "it is a directory; give a file name inside it")
        }
        let directory = parent(of: path)
        guard stat(directory, &status) == 0 else {
            let code = errno
            throw .outputFailed(path: path, reason: code == ENOENT ? "the directory \(directory) does not exist" : "cannot use the directory \(directory) (\(String(cString: strerror(code))))")
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .outputFailed(path: path, reason: "\(directory) is not a directory") }
        let probe = try PendingFile(destination: path)
        probe.discard()
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The files of a multi-page SVG or PNG (one page per file): `sheet.png` → `sheet-01.png`, `sheet-02.png` …
    /// A single page keeps the name as given.
    static func pageFiles(_ path: String, pages: Int) -> [String] {
        guard pages > 1 else { return [path] }
        let directoryEnd = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[directoryEnd...]
        let (stem, ext): (Substring, Substring) = {
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { return (path[..<dot], path[dot...]) }
            return (path[...], "")
        }()
        let digits = max(2, String(pages).count)
        return (1...pages).map { page in
            let number = String(page)
            return "\(stem)-\(String(repeating: "0", count: digits - number.count))\(number)\(ext)"
        }
    }
}

/// A file being written beside its destination.
final class PendingFile {
    let destination: String
    let temporary: String
    private(set) var descriptor: Int32
    private var finished = false

    init(destination: String) throws(LabelError) {
        self.destination = destination
        let directory = AtomicOutput.parent(of: destination)
        let name = destination.split(separator: "/").last.map(String.init) ?? destination
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        temporary = "\(directory)/.\(name).tmp-\(getpid())-\(random)"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == EACCES || code == EPERM || code == EROFS
                ? "no permission to create files in \(directory) (\(String(cString: strerror(code))))"
                : String(cString: strerror(code))
            throw .outputFailed(path: destination, reason: reason)
        }
    }

    deinit { discard() }

    func write(_ bytes: [UInt8]) throws(LabelError) {
        let sink = FileSink(descriptor: descriptor)
        let ok = bytes.withUnsafeBytes { sink.write($0) }
        if !ok { throw .outputFailed(path: destination, reason: sink.failure ?? "write failed") }
    }

    /// Flushes and renames over the destination.
    func commit() throws(LabelError) {
        guard !finished else { return }
        if fsync(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw .outputFailed(path: destination, reason: reason)
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            finished = true
            throw .outputFailed(path: destination, reason: reason)
        }
        finished = true
    }

    /// Removes the temporary file (no-op once committed).
    func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        unlink(temporary)
    }
}

/// PNG details cairo does not write.
enum PNGMetadata {
    /// Inserts a `pHYs` chunk after `IHDR`, so image viewers and printing tools know the image's physical
    /// size (a 300 dpi label prints at 100 mm, not at the 96 dpi a viewer assumes).
    static func withResolution(_ png: [UInt8], dpi: Int) -> [UInt8] {
        // Signature (8) + IHDR: length (4) + type (4) + data (13) + CRC (4).
        guard png.count > 33, png[12...15].elementsEqual(Array("IHDR".utf8)) else { return png }
        let perMetre = UInt32((Double(dpi) / 0.0254).rounded())
        var chunk: [UInt8] = [0, 0, 0, 9] + Array("pHYs".utf8)
        let big = { (value: UInt32) in [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        chunk += big(perMetre) + big(perMetre) + [1]
        chunk += big(crc32(chunk[4...]))
        return Array(png[..<33]) + chunk + Array(png[33...])
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
