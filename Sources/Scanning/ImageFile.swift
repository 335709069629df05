import CImageCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Still images (PNG, JPEG, PGM) loaded as greyscale frames, for replaying photos through the decoder,
/// `kiosk scan FILE`, label decode-back checks and the detection survey.
///
/// The format is sniffed from the first bytes, never from the file name:
/// PNG (`89 50 4E 47 0D 0A 1A 0A`), JPEG (`FF D8 FF`), binary PGM (`P5`) and plain PGM (`P2`).
/// Colour images are converted to luma; transparent PNG pixels are composited onto white.
public enum ImageFile {
    /// Image formats `ImageFile` can read.
    public enum Format: String, Sendable, CaseIterable {
        case png, jpeg, pgmBinary = "pgm-binary", pgmPlain = "pgm-plain"
    }

    /// Why an image could not be loaded. Every case names the file.
    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case notFound(path: String)
        /// Exists but could not be read (permissions, a directory, an I/O error): `reason` is the system's message.
        case unreadable(path: String, reason: String)
        /// Not PNG, JPEG or PGM; `signature` shows the first bytes in hex.
        case unsupportedFormat(path: String, signature: String)
        /// The file ends before the image does.
        case truncated(path: String, format: Format, detail: String)
        /// The data is damaged or invalid for its format; `detail` is the decoder's message.
        case corrupt(path: String, format: Format, detail: String)
        /// The header asks for more pixels than any photo of a stop code needs (`maximumPixels`); refused
        /// before any pixel memory is allocated.
        case tooLarge(path: String, format: Format, width: Int, height: Int, limit: Int)

        public var path: String {
            switch self {
            case .notFound(let path), .unreadable(let path, _), .unsupportedFormat(let path, _),
                .truncated(let path, _, _), .corrupt(let path, _, _), .tooLarge(let path, _, _, _, _):
                return path
            }
        }

        public var description: String {
            switch self {
            case .notFound(let path):
                return "\(path): no such file"
            case .unreadable(let path, let reason):
                return "\(path): cannot be read (\(reason))"
            case .unsupportedFormat(let path, let signature):
                return
                    "\(path): unsupported image format (starts with \(signature.isEmpty ? "nothing: empty file" : signature)); expected PNG, JPEG or PGM"
            case .truncated(let path, let format, let detail):
                return "\(path): truncated \(format.displayName) file (\(detail))"
            case .corrupt(let path, let format, let detail):
                return "\(path): corrupt \(format.displayName) data (\(detail))"
            case .tooLarge(let path, let format, let width, let height, let limit):
                return
                    "\(path): \(format.displayName) image of \(width)×\(height) pixels (\(Int((Double(width) * Double(height) / 1e6).rounded())) megapixels) is larger than the \(limit / 1_000_000) megapixels a photo needs; refused before decoding"
            }
        }
    }

    /// Files larger than this are refused before reading (no still image a kiosk handles is near it).
    public static let maximumFileBytes = 256 << 20

    /// Images with more pixels than this are refused from their header, before decoding: 50 megapixels is
    /// more than any phone or webcam photo (a 12 MP photo is 4032×3024), while a few hundred bytes of
    /// PNG or JPEG can claim 65535×65535 and ask the decoder for gigabytes.
    public static let maximumPixels = 50_000_000

    /// Reads an image file into a greyscale frame.
    public static func load(_ path: String) throws(LoadError) -> LumaFrame {
        let bytes = try readFile(path)
        return try decode(bytes, path: path)
    }

    /// Decodes image bytes already in memory; `path` is used only in error messages.
    public static func decode(_ bytes: [UInt8], path: String = "<memory>") throws(LoadError) -> LumaFrame {
        guard let format = sniff(bytes) else {
            let signature = bytes.prefix(8).map { hex($0) }.joined(separator: " ")
            throw .unsupportedFormat(path: path, signature: signature)
        }
        if let (width, height) = dimensions(bytes, format: format),
            width > maximumPixels || height > maximumPixels || width * height > maximumPixels
        {
            throw .tooLarge(path: path, format: format, width: width, height: height, limit: maximumPixels)
        }
        switch format {
        case .png, .jpeg:
            return try decodeWithCodec(bytes, format: format, path: path)
        case .pgmBinary, .pgmPlain:
            do {
                return try PGM.decode(bytes)
            } catch let failure {
                if failure.truncated { throw .truncated(path: path, format: format, detail: failure.message) }
                throw .corrupt(path: path, format: format, detail: failure.message)
            }
        }
    }

    /// The format the bytes start like, or nil.
    public static func sniff(_ bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), PGM.isWhitespace(bytes[2]) {
            if bytes[1] == UInt8(ascii: "5") { return .pgmBinary }
            if bytes[1] == UInt8(ascii: "2") { return .pgmPlain }
        }
        return nil
    }

    /// The width and height a header declares (PNG IHDR, JPEG SOFn, PGM header), or nil when the header is
    /// too damaged to say (the decoder then reports the damage).
    static func dimensions(_ bytes: [UInt8], format: Format) -> (width: Int, height: Int)? {
        func be(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        switch format {
        case .png:
            // Signature (8), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
            guard bytes.count >= 24, bytes[12...15].elementsEqual("IHDR".utf8), let w = be(16, 4), let h = be(20, 4)
            else { return nil }
            return (w, h)
        case .jpeg:
            var i = 2
            while i + 3 < bytes.count {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }  // fill byte
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                if marker == 0xDA || marker == 0xD9 { return nil }  // scan data before any frame header
                guard let length = be(i + 2, 2), length >= 2 else { return nil }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    guard let h = be(i + 5, 2), let w = be(i + 7, 2) else { return nil }
                    return (w, h)
                }
                i += 2 + length
            }
            return nil
        case .pgmBinary, .pgmPlain:
            var reader = PGM.Reader(bytes: bytes, offset: 2)
            guard let w = try? reader.headerNumber("width"), let h = try? reader.headerNumber("height") else {
                return nil
            }
            return (w, h)
        }
    }

    // MARK: - Internals

    /// A whole file's bytes, with errors naming it (also used for the detection survey's expected texts).
    static func readFile(_ path: String) throws(LoadError) -> [UInt8] {
        var status = stat()
        if stat(path, &status) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw .unreadable(path: path, reason: "is a directory")
        }
        if Int(status.st_size) > maximumFileBytes {
            throw .unreadable(path: path, reason: "file is larger than \(maximumFileBytes >> 20) MiB")
        }
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count {
                if ferror(file) != 0 {
                    throw .unreadable(path: path, reason: String(cString: strerror(errno)))
                }
                break
            }
            if bytes.count > maximumFileBytes {
                throw .unreadable(path: path, reason: "file is larger than \(maximumFileBytes >> 20) MiB")
            }
        }
        return bytes
    }

    private static func decodeWithCodec(_ bytes: [UInt8], format: Format, path: String) throws(LoadError) -> LumaFrame {
        var image = cic_grey_image()
        let status = bytes.withUnsafeBufferPointer { buffer in
            format == .png
                ? cic_decode_png(buffer.baseAddress, buffer.count, &image)
                : cic_decode_jpeg(buffer.baseAddress, buffer.count, &image)
        }
        defer { cic_grey_image_free(&image) }
        guard status == 0, let pixels = image.pixels else {
            let message = withUnsafeBytes(of: image.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let detail = message.isEmpty ? "decoder failed" : message
            if image.truncated != 0 { throw .truncated(path: path, format: format, detail: detail) }
            throw .corrupt(path: path, format: format, detail: detail)
        }
        let width = Int(image.width), height = Int(image.height)
        let copy = Array(UnsafeBufferPointer(start: pixels, count: width * height))
        return LumaFrame(width: width, height: height, pixels: copy)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

extension ImageFile.Format {
    var displayName: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .pgmBinary: return "PGM (P5)"
        case .pgmPlain: return "PGM (P2)"
        }
    }
}

/// Netpbm greyscale: P5 (binary, 8 or 16 bits big-endian) and P2 (ASCII), with `#` comments in the header.
enum PGM {
    struct Failure: Error {
        var message: String
        var truncated = false
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    static func decode(_ bytes: [UInt8]) throws(Failure) -> LumaFrame {
        var reader = Reader(bytes: bytes, offset: 2)
        let plain = bytes[1] == UInt8(ascii: "2")
        let width = try reader.headerNumber("width")
        let height = try reader.headerNumber("height")
        let maxValue = try reader.headerNumber("maximum value")
        guard width > 0, height > 0 else { throw Failure(message: "zero width or height") }
        guard width <= 32768, height <= 32768, width * height <= ImageFile.maximumPixels else {
            throw Failure(message: "image is too large (\(width)x\(height))")
        }
        guard maxValue >= 1, maxValue <= 65535 else {
            throw Failure(message: "maximum value \(maxValue) is out of range 1...65535")
        }
        let count = width * height
        var pixels = [UInt8](repeating: 0, count: count)
        func scale(_ value: Int) -> UInt8 {
            maxValue == 255 ? UInt8(value) : UInt8((value * 255 + maxValue / 2) / maxValue)
        }
        if plain {
            for index in 0..<count {
                guard let value = reader.plainNumber() else {
                    throw Failure(message: "pixel \(index) of \(count) is missing", truncated: reader.atEnd)
                }
                guard value <= maxValue else {
                    throw Failure(message: "pixel \(index) is \(value), above the maximum \(maxValue)")
                }
                pixels[index] = scale(value)
            }
        } else {
            // Exactly one whitespace byte separates the header from the raster.
            guard reader.offset < bytes.count else { throw Failure(message: "no pixel data", truncated: true) }
            reader.offset += 1
            let bytesPerSample = maxValue > 255 ? 2 : 1
            let needed = count * bytesPerSample
            let available = bytes.count - reader.offset
            guard available >= needed else {
                throw Failure(message: "\(available) of \(needed) pixel bytes present", truncated: true)
            }
            let start = reader.offset
            if bytesPerSample == 1 {
                for index in 0..<count {
                    let value = Int(bytes[start + index])
                    guard value <= maxValue else {
                        throw Failure(message: "pixel \(index) is \(value), above the maximum \(maxValue)")
                    }
                    pixels[index] = scale(value)
                }
            } else {
                for index in 0..<count {
                    let value = Int(bytes[start + 2 * index]) << 8 | Int(bytes[start + 2 * index + 1])
                    guard value <= maxValue else {
                        throw Failure(message: "pixel \(index) is \(value), above the maximum \(maxValue)")
                    }
                    pixels[index] = scale(value)
                }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }

    struct Reader {
        let bytes: [UInt8]
        var offset: Int

        var atEnd: Bool { offset >= bytes.count }

        mutating func skipWhitespaceAndComments() {
            while offset < bytes.count {
                if isWhitespace(bytes[offset]) {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
                } else {
                    return
                }
            }
        }

        mutating func headerNumber(_ name: String) throws(Failure) -> Int {
            skipWhitespaceAndComments()
            guard !atEnd else { throw Failure(message: "header ends before the \(name)", truncated: true) }
            guard let value = digits() else { throw Failure(message: "header \(name) is not a number") }
            guard offset < bytes.count, isWhitespace(bytes[offset]) else {
                throw Failure(message: "header \(name) is not followed by whitespace", truncated: atEnd)
            }
            return value
        }

        mutating func plainNumber() -> Int? {
            skipWhitespaceAndComments()
            return digits()
        }

        private mutating func digits() -> Int? {
            var value = 0
            var seen = 0
            while offset < bytes.count, bytes[offset] >= 0x30, bytes[offset] <= 0x39 {
                value = value * 10 + Int(bytes[offset] - 0x30)
                seen += 1
                offset += 1
                if seen > 9 { return nil }
            }
            return seen > 0 ? value : nil
        }
    }
}
