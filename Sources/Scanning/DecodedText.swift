#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The character encoding a payload's text was read in.
public enum PayloadEncoding: String, Sendable, Hashable {
    /// Plain ASCII (a subset of all the others).
    case ascii
    case utf8 = "utf-8"
    case shiftJIS = "shift_jis"
    case latin1 = "iso-8859-1"
    /// zbar's own conversion (QR text mode `.zbar`): zbar's output bytes, taken as UTF-8.
    case zbar
    /// zxing-cpp's own conversion: per segment (Kanji mode as Shift_JIS, ECI designators honoured), for codes
    /// whose text differs from the guess on the whole byte string.
    case zxing
    /// Not valid in any encoding tried; the text is a lossy UTF-8 rendering.
    case unknown
}

/// Reads the bytes stored in a QR code as text, guessing the encoding the way phone scanners do.
///
/// QR byte mode has no declared charset in most codes in the wild: writers use UTF-8, Shift_JIS (Japanese
/// phones, and Kanji-mode segments, which zbar returns as Shift_JIS bytes in binary mode) or ISO-8859-1 (the
/// standard's default). The guess:
/// 1. pure ASCII → ASCII;
/// 2. valid UTF-8 with a multi-byte sequence (or a BOM) → UTF-8;
/// 3. valid Shift_JIS with a run of at least 3 half-width katakana or 3 double-byte characters → Shift_JIS;
/// 4. valid as both Shift_JIS and ISO-8859-1: Shift_JIS when exactly one pair of katakana was seen or at least
///    10 % of the bytes would be Latin-1 punctuation/symbols (0xA0–0xBF, ×, ÷), else ISO-8859-1;
/// 5. otherwise the first valid of ISO-8859-1, Shift_JIS, UTF-8; none → lossy UTF-8, `.unknown`.
///
/// This is the heuristic zxing uses (`guessEncoding`), which is what the expected texts of the shared photo
/// set come from; zbar's own conversion reads several of those Japanese and UTF-8 codes wrongly.
public enum PayloadText {
    public static func decode(_ bytes: [UInt8]) -> (text: String, encoding: PayloadEncoding) {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return (String(decoding: bytes, as: UTF8.self), .ascii)
        }
        let utf8 = String(validating: bytes, as: UTF8.self)
        // Any non-ASCII byte in valid UTF-8 is part of a multi-byte sequence.
        if let utf8 { return (utf8, .utf8) }

        let stats = ShiftJISStats(bytes)
        let latin1Valid = !bytes.contains { $0 >= 0x80 && $0 < 0xA0 }
        let latin1HighOther = bytes.filter { ($0 >= 0xA0 && $0 < 0xC0) || $0 == 0xD7 || $0 == 0xF7 }.count

        if stats.valid && (stats.maxKatakanaRun >= 3 || stats.maxDoubleByteRun >= 3), let text = shiftJIS(bytes) {
            return (text, .shiftJIS)
        }
        if latin1Valid && stats.valid {
            let preferShiftJIS =
                (stats.maxKatakanaRun == 2 && stats.katakanaCount == 2)
                || latin1HighOther * 10 >= bytes.count
            if preferShiftJIS, let text = shiftJIS(bytes) { return (text, .shiftJIS) }
            return (latin1(bytes), .latin1)
        }
        if latin1Valid { return (latin1(bytes), .latin1) }
        if stats.valid, let text = shiftJIS(bytes) { return (text, .shiftJIS) }
        return (String(decoding: bytes, as: UTF8.self), .unknown)
    }

    static func latin1(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// Shift_JIS (Microsoft's CP932 variant, which keeps 0x5C as a backslash) to a String via iconv.
    static func shiftJIS(_ bytes: [UInt8]) -> String? {
        #if canImport(Glibc) || canImport(Darwin)
        guard let descriptor = iconv_open("UTF-8", "CP932"), descriptor != iconv_t(bitPattern: -1) else {
            return nil
        }
        defer { iconv_close(descriptor) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 3 + 4)
        let written: Int? = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var inPointer = inputBuffer.baseAddress
                var inLeft = inputBuffer.count
                var outPointer = outputBuffer.baseAddress
                var outLeft = outputBuffer.count
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                guard result != -1, inLeft == 0 else { return nil }
                return outputBuffer.count - outLeft
            }
        }
        guard let written else { return nil }
        return String(validating: output[0..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }
}

/// Validity and shape of a byte string read as Shift_JIS.
struct ShiftJISStats {
    var valid = true
    var katakanaCount = 0
    var maxKatakanaRun = 0
    var maxDoubleByteRun = 0

    init(_ bytes: [UInt8]) {
        var katakanaRun = 0, doubleRun = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                katakanaRun = 0; doubleRun = 0
                index += 1
            } else if byte >= 0xA1 && byte <= 0xDF {
                katakanaCount += 1
                katakanaRun += 1
                maxKatakanaRun = max(maxKatakanaRun, katakanaRun)
                doubleRun = 0
                index += 1
            } else if (byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xEF) {
                guard index + 1 < bytes.count else { valid = false; return }
                let trail = bytes[index + 1]
                guard trail >= 0x40 && trail <= 0xFC && trail != 0x7F else { valid = false; return }
                doubleRun += 1
                maxDoubleByteRun = max(maxDoubleByteRun, doubleRun)
                katakanaRun = 0
                index += 2
            } else {
                valid = false
                return
            }
        }
    }
}
