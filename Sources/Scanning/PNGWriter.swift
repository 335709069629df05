import LibZ

/// Writes PNG files from packed scanlines, compressed with zlib: the frames the benchmarks hand to `zbarimg`,
/// and hand-made images for the loader's tests. `ImageFile` reads what it writes.
public enum PNGWriter {
    public enum Colour: UInt8, Sendable { case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6 }

    /// Encodes scanlines (packed samples, without filter bytes) as a PNG; `chunks` (PLTE, tRNS) go before IDAT.
    public static func encode(
        width: Int, height: Int, bitDepth: UInt8, colour: Colour, rows: [[UInt8]],
        chunks: [(String, [UInt8])] = []
    ) -> [UInt8] {
        var raw: [UInt8] = []
        for row in rows { raw.append(0); raw.append(contentsOf: row) }
        var output: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        output += chunk(
            "IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colour.rawValue, 0, 0, 0])
        for (type, data) in chunks { output += chunk(type, data) }
        output += chunk("IDAT", deflate(raw))
        output += chunk("IEND", [])
        return output
    }

    /// An 8-bit greyscale PNG of a frame.
    public static func grey(_ frame: LumaFrame) -> [UInt8] {
        grey(width: frame.width, height: frame.height, pixels: frame.pixels)
    }

    /// An 8-bit greyscale PNG of packed luma rows.
    public static func grey(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        encode(
            width: width, height: height, bitDepth: 8, colour: .grey,
            rows: (0..<height).map { Array(pixels[$0 * width..<($0 + 1) * width]) })
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// zlib's CRC-32 (the one PNG chunks and ZIP entries use).
    public static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { UInt32(LibZ.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), 6) }
        }
        precondition(status == Z_OK, "zlib compress2 failed (\(status)) with a buffer of compressBound bytes")
        return Array(output[0..<Int(length)])
    }
}
