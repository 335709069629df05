import Foundation
import Scanning
import SystemSupport

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
            throw .outputFailed(
                path: path,
                reason: code == ENOENT
                    ? "the directory \(directory) does not exist"
                    : "cannot use the directory \(directory) (\(String(cString: strerror(code))))")
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .outputFailed(path: path, reason: "\(directory) is not a directory")
        }
        let probe = try AtomicFileWriter.labelOutput(path)
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

extension AtomicFileWriter {
    /// A label output file, written beside its destination and renamed over it when every label read back. Named
    /// on the command line, so it is held to `OutputDestination`'s rule for such files: a regular file this user's
    /// mode bits allow writing.
    static func labelOutput(_ destination: String) throws(LabelError) -> AtomicFileWriter {
        do {
            return try AtomicFileWriter(destination: destination, purpose: "labels", rule: .writableByMode)
        } catch {
            throw .outputFailed(path: destination, reason: error.reason)
        }
    }

    func writeLabels(_ bytes: [UInt8]) throws(LabelError) {
        do { try write(bytes) } catch { throw .outputFailed(path: destination, reason: error.reason) }
    }

    func commitLabels() throws(LabelError) {
        do { try commit() } catch { throw .outputFailed(path: destination, reason: error.reason) }
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
        let chunk = PNGWriter.chunk("pHYs", PNGWriter.bigEndian(perMetre) + PNGWriter.bigEndian(perMetre) + [1])
        return Array(png[..<33]) + chunk + Array(png[33...])
    }
}
