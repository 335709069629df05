/// Which GTFS key a label or template names a stop by.
public enum StopKeyKind: String, Sendable, Hashable, CaseIterable {
    /// `stops.stop_code`: the short code printed on the pole, what passengers type.
    case stopCode = "stop_code"
    /// `stops.stop_id`: the feed's internal identifier.
    case stopID = "stop_id"
    /// The one URL rule: the stop's `stop_code` where it has one, else its `stop_id` (most feeds publish no
    /// codes). Labels, the scanner and `kiosk serve` use this same rule; a scanned value is looked up by code, then
    /// by ID.
    case stop = "stop"

    /// The value this kind of placeholder takes for a stop: nil for `{stop_code}` when the stop has no code.
    public func value(code: String?, id: String) -> String? {
        switch self {
        case .stopID: return id
        case .stopCode: return code.flatMap { $0.isEmpty ? nil : $0 }
        case .stop: return StopKeyKind.labelValue(code: code, id: id)
        }
    }

    /// The one URL rule: the code, else the ID.
    public static func labelValue(code: String?, id: String) -> String {
        if let code, !code.isEmpty { return code }
        return id
    }

    /// The template placeholder, `{stop_code}` or `{stop_id}`.
    public var placeholder: String { "{\(rawValue)}" }
}

/// The URL pattern of stop labels, e.g. `https://transit.example/s/{stop_code}`.
///
/// A template holds exactly one placeholder: `{stop}` (the stop code where the stop has one, else its ID: the
/// default), `{stop_code}` or `{stop_id}`. Building a URL percent-encodes the
/// value (everything but `A–Z a–z 0–9 - . _ ~`, as UTF-8 bytes, upper-case hex); matching a scanned URL strips
/// the optional signature parameters (`k=…&s=…`, see `LabelSignature`), compares the text before and after the
/// placeholder (ASCII case-insensitively, so the upper-case URLs that make QR codes smaller still match) and
/// percent-decodes the value.
public struct StopURLTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case missingPlaceholder(template: String)
        case multiplePlaceholders(template: String)
        case unknownPlaceholder(template: String, name: String)
        case invalidCharacter(template: String, reason: String)
        case reservedParameter(template: String, name: String)

        public var description: String {
            switch self {
            case .empty:
                return "stop URL template is empty"
            case .missingPlaceholder(let template):
                return "stop URL template \"\(template)\" has no {stop}, {stop_code} or {stop_id} placeholder"
            case .multiplePlaceholders(let template):
                return
                    "stop URL template \"\(template)\" must contain exactly one of {stop}, {stop_code} or {stop_id}, not several"
            case .unknownPlaceholder(let template, let name):
                return
                    "stop URL template \"\(template)\" has an unknown placeholder {\(name)}; use {stop}, {stop_code} or {stop_id}"
            case .invalidCharacter(let template, let reason):
                return "stop URL template \"\(template)\": \(reason)"
            case .reservedParameter(let template, let name):
                return
                    "stop URL template \"\(template)\" uses the query parameter \"\(name)\", reserved for label signatures"
            }
        }
    }

    /// The template as written.
    public let pattern: String
    /// The key its placeholder names.
    public let kind: StopKeyKind
    /// Text before and after the placeholder.
    public let prefix: String
    public let suffix: String

    public init(_ pattern: String) throws(TemplateError) {
        guard !pattern.isEmpty else { throw .empty }
        if pattern.unicodeScalars.contains(where: {
            $0.value <= 0x20 || $0.value == 0x7F || ($0.value >= 0x80 && $0.value <= 0x9F)
        }) {
            throw .invalidCharacter(template: pattern, reason: "spaces and control characters are not allowed")
        }
        if pattern.contains("#") {
            throw .invalidCharacter(template: pattern, reason: "a fragment (#) is not allowed")
        }
        // Find every {name}.
        var found: [(name: String, range: Range<String.Index>)] = []
        var search = pattern.startIndex
        while let open = pattern[search...].firstIndex(of: "{") {
            guard let close = pattern[open...].firstIndex(of: "}") else {
                throw .invalidCharacter(template: pattern, reason: "unbalanced { without }")
            }
            let name = String(pattern[pattern.index(after: open)..<close])
            found.append((name, open..<pattern.index(after: close)))
            search = pattern.index(after: close)
        }
        if pattern[search...].contains("}") {
            throw .invalidCharacter(template: pattern, reason: "unbalanced } without {")
        }
        for item in found where StopKeyKind(rawValue: item.name) == nil {
            throw .unknownPlaceholder(template: pattern, name: item.name)
        }
        guard let only = found.first else { throw .missingPlaceholder(template: pattern) }
        guard found.count == 1 else { throw .multiplePlaceholders(template: pattern) }
        let prefix = String(pattern[..<only.range.lowerBound])
        let suffix = String(pattern[only.range.upperBound...])
        if let query = pattern.firstIndex(of: "?") {
            let parameters = pattern[pattern.index(after: query)...].split(separator: "&")
            for parameter in parameters {
                let name = parameter.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if name == LabelSignature.keyParameter || name == LabelSignature.signatureParameter {
                    throw .reservedParameter(template: pattern, name: name)
                }
            }
        }
        self.pattern = pattern
        self.kind = StopKeyKind(rawValue: only.name)!
        self.prefix = prefix
        self.suffix = suffix
    }

    public var description: String { pattern }

    /// The URL for a stop: the template with the percent-encoded value.
    public func url(for value: String) -> String {
        prefix + PercentEncoding.encode(value) + suffix
    }

    /// The URL for a stop carrying a label signature: `…?k=<key id>&s=<signature>` (or `&k=…` when the URL
    /// already has a query).
    public func url(for value: String, signature: LabelSignature) -> String {
        let base = url(for: value)
        return base + (base.contains("?") ? "&" : "?") + signature.queryParameters
    }

    /// The stop value named by a URL of this template (without signature parameters), or nil.
    public func match(_ url: String) -> String? {
        guard url.utf8.count >= prefix.utf8.count + suffix.utf8.count + 1,
            ASCII.hasPrefix(url, prefix), ASCII.hasSuffix(url, suffix)
        else { return nil }
        let start = url.utf8.index(url.utf8.startIndex, offsetBy: prefix.utf8.count)
        let end = url.utf8.index(url.utf8.endIndex, offsetBy: -suffix.utf8.count)
        guard start < end else { return nil }
        let encoded = Substring(url.utf8[start..<end])
        // A raw delimiter means the URL has more structure than the template: another path, a query.
        if encoded.contains(where: { "/?#&= ".contains($0) }) { return nil }
        guard let value = PercentEncoding.decode(encoded) else { return nil }
        return StopValue.isAcceptable(value) ? value : nil
    }
}

/// Rules for a stop code or id value coming from a scan.
enum StopValue {
    static let maximumLength = 128

    /// Non-empty, at most `maximumLength` scalars, no control or format characters, no whitespace other than
    /// inner single spaces (a few feeds have ids like `Plaza Grande 2`).
    static func isAcceptable(_ value: String) -> Bool {
        guard !value.isEmpty, value.unicodeScalars.count <= maximumLength,
            value.first != " ", value.last != " "
        else { return false }
        for scalar in value.unicodeScalars {
            if scalar.properties.isWhitespace && scalar != " " { return false }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
                return false
            default:
                continue
            }
        }
        return true
    }
}

/// RFC 3986 percent-encoding of one path segment or query value.
public enum PercentEncoding {
    /// Encodes every byte of the UTF-8 form except the unreserved `A–Z a–z 0–9 - . _ ~`, as `%XX` (upper case).
    public static func encode(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (either case); nil for a malformed escape or a result that is not UTF-8.
    public static func decode(_ text: some StringProtocol) -> String? {
        var output: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                output.append(high << 4 | low)
            } else {
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// ASCII case-insensitive comparisons on UTF-8 (non-ASCII bytes compare exactly).
enum ASCII {
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        guard text.utf8.count >= prefix.utf8.count else { return false }
        return zip(text.utf8, prefix.utf8).allSatisfy { lower($0) == lower($1) }
    }

    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        guard text.utf8.count >= suffix.utf8.count else { return false }
        return zip(text.utf8.suffix(suffix.utf8.count), suffix.utf8).allSatisfy { lower($0) == lower($1) }
    }
}
