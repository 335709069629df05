/// Code 128 (ISO/IEC 15417) for the optional 1D barcode of a stop's code: what handheld laser scanners and
/// the kiosk's zbar read when a QR code is not wanted. Small enough to draw ourselves: 107 patterns, a
/// modulo-103 check symbol, and the choice of code set.
///
/// Code set C (two digits per symbol) is used for runs of digits, which halves the width of the all-digit
/// stop codes most networks use; code set B (printable ASCII) for everything else. A trailing odd digit of an
/// all-digit value switches to B for its last digit. Set A (control characters) is never needed: values with
/// control characters are refused, as the scanner would refuse them.
public struct Code128: Sendable, Hashable {
    /// Symbol values in order: start, data, check, stop.
    public let symbols: [Int]
    /// Widths of bars and spaces in modules, alternating, starting with a bar (stop pattern included).
    public let elements: [Int]

    /// Total width in modules, without quiet zones.
    public var moduleCount: Int { elements.reduce(0, +) }
    /// Quiet zone on each side, in modules: the standard's minimum is 10.
    public static let quietZone = 10

    static let startB = 104, startC = 105, codeB = 100, stop = 106

    /// Encodes `text`: printable ASCII (U+0020…U+007E) only.
    public init(encoding text: String) throws(Code128Error) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value > 0x7E }) {
            throw .unencodable(character: bad)
        }
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        var values: [Int] = []
        if bytes.count >= 2, bytes.allSatisfy(isDigit) {
            values.append(Self.startC)
            var index = 0
            while index + 1 < bytes.count {
                values.append(Int(bytes[index] - 0x30) * 10 + Int(bytes[index + 1] - 0x30))
                index += 2
            }
            if index < bytes.count {
                values.append(Self.codeB)
                values.append(Int(bytes[index]) - 32)
            }
        } else {
            values.append(Self.startB)
            values.append(contentsOf: bytes.map { Int($0) - 32 })
        }
        var checksum = values[0]
        for (position, value) in values.enumerated().dropFirst() { checksum += position * value }
        values.append(checksum % 103)
        values.append(Self.stop)
        self.symbols = values
        self.elements = values.flatMap { Self.patterns[$0].map { Int($0.asciiValue! - 48) } }
    }

    /// Bars as `(first module, width in modules)`, from the left edge of the symbol (quiet zone excluded).
    public var bars: [(start: Int, width: Int)] {
        var result: [(start: Int, width: Int)] = []
        var position = 0
        for (index, width) in elements.enumerated() {
            if index % 2 == 0 { result.append((position, width)) }
            position += width
        }
        return result
    }

    /// Element widths of each symbol value (bar, space, bar, space, bar, space; the stop pattern has a
    /// seventh element, its final bar). Every pattern spans 11 modules, the stop pattern 13.
    static let patterns: [String] = [
        "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
        "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
        "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
        "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
        "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
        "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
        "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
        "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
        "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
        "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
        "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
    ]
}

public enum Code128Error: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case unencodable(character: Unicode.Scalar)

    public var description: String {
        switch self {
        case .empty: return "nothing to encode"
        case .unencodable(let scalar):
            return "Code 128 carries printable ASCII only, not U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
    }
}
