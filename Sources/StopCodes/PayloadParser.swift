import Foundation
import TransitModel

/// What a kiosk does with label signatures.
public enum SignaturePolicy: String, Sendable, Hashable, CaseIterable {
    /// Only references carrying a valid signature by a trusted key are accepted: unsigned URLs and bare codes
    /// give `.signatureRequired`, bad signatures `.forged`.
    case require
    /// Unsigned references are accepted; a signature that is present must verify (else `.forged`).
    case prefer
    /// Signatures are not looked at (their parameters are stripped and ignored).
    case off
}

/// A stop named by a scanned code. The caller resolves it against the database: a reference the database
/// does not know is then shown as "not a stop code".
public struct StopReference: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case stopCode
        case stopID
        /// A bare value (a 1D barcode, a QR holding only the code): try `stop_code`, then `stop_id`.
        case codeOrID
    }

    public enum SignatureStatus: Sendable, Hashable {
        /// Signed by the trusted key with this id, and the signature verified.
        case verified(keyID: String)
        /// No signature.
        case unsigned
        /// A signature may be present but the policy is `.off`.
        case notChecked
    }

    public enum Source: Sendable, Hashable {
        /// A URL matching one of the kiosk's own label templates.
        case ownLabel(template: String)
        /// A URL matching a configured pattern of another agency.
        case foreignLabel(template: String)
        /// Just the code or id.
        case bare
    }

    public var kind: Kind
    /// The stop code or id (percent-decoded, never empty, no control characters, at most 128 characters).
    public var value: String
    public var signature: SignatureStatus
    public var source: Source

    public init(kind: Kind, value: String, signature: SignatureStatus, source: Source) {
        self.kind = kind
        self.value = value
        self.signature = signature
        self.source = source
    }

    init(template: StopURLTemplate, value: String, signature: SignatureStatus, own: Bool) {
        self.init(
            kind: template.kind == .stopCode ? .stopCode : template.kind == .stopID ? .stopID : .codeOrID, value: value,
            signature: signature,
            source: own ? .ownLabel(template: template.pattern) : .foreignLabel(template: template.pattern))
    }
}

/// Why a signed label was refused.
public enum ForgeryReason: Sendable, Hashable, CustomStringConvertible {
    /// `k`/`s` present but not well-formed: not 16 hex digits, not canonical base64url, not 64 bytes
    /// (a truncated signature), a parameter missing or repeated.
    case malformedSignature
    /// Signed with a key this kiosk does not trust (its id is not configured).
    case unknownKey(keyID: String)
    /// The signature does not verify for this feed and stop with the named trusted key: altered signature,
    /// edited stop value, a label of another feed, or another key's signature under this key id.
    case badSignature(keyID: String)

    public var description: String {
        switch self {
        case .malformedSignature: return "malformed signature"
        case .unknownKey(let keyID): return "signed with unknown key \(keyID)"
        case .badSignature(let keyID): return "signature does not verify with key \(keyID)"
        }
    }
}

/// The outcome of reading one scanned payload.
public enum ScanResolution: Sendable, Hashable {
    /// A stop reference to look up.
    case stopReference(StopReference)
    /// Not a stop code: `text` is the payload made safe for display (sanitised, shortened).
    case notAStopCode(text: String)
    /// A label whose signature is present but wrong. `claimed` is what it says (do not show it as genuine).
    case forged(ForgeryReason, claimed: StopReference)
    /// A valid-looking reference without a signature, refused under `.require`.
    case signatureRequired(StopReference)
}

/// Turns scanned payloads into stop references, checking label signatures.
///
/// ```swift
/// let parser = PayloadParser(
///     feedID: "carta",
///     ownTemplates: [try StopURLTemplate("https://transit.example/s/{stop_code}")],
///     foreignTemplates: [try StopURLTemplate("https://other.example/stop/{stop_id}")],
///     trustedKeys: [try PublicKey(encoded: "stopkiosk-ed25519-public-v1:…")],
///     policy: .prefer)
/// switch parser.parse(symbol.bytes) {
/// case .stopReference(let reference): show(reference)
/// case .notAStopCode(let text): say("Not a stop code: \(text)")
/// case .forged: say("This label is not genuine")
/// case .signatureRequired: say("Unsigned label")
/// }
/// ```
///
/// Never crashes and never does unbounded work on hostile input: payloads over `maximumPayloadBytes` are not
/// examined beyond their first characters for display.
public struct PayloadParser: Sendable {
    public var feedID: String
    public var ownTemplates: [StopURLTemplate]
    public var foreignTemplates: [StopURLTemplate]
    public var policy: SignaturePolicy
    /// Accept a payload that is just a stop code or id (1D barcodes).
    public var acceptsBareReferences: Bool
    /// Longest payload considered as a reference (anything longer is "not a stop code").
    public var maximumPayloadBytes: Int
    /// Longest text shown for "not a stop code", in characters.
    public var displayLength: Int
    private var keys: [String: PublicKey]

    public init(
        feedID: String, ownTemplates: [StopURLTemplate], foreignTemplates: [StopURLTemplate] = [],
        trustedKeys: [PublicKey] = [], policy: SignaturePolicy = .prefer, acceptsBareReferences: Bool = true,
        maximumPayloadBytes: Int = 1024, displayLength: Int = 80
    ) {
        self.feedID = feedID
        self.ownTemplates = ownTemplates
        self.foreignTemplates = foreignTemplates
        self.policy = policy
        self.acceptsBareReferences = acceptsBareReferences
        self.maximumPayloadBytes = maximumPayloadBytes
        self.displayLength = displayLength
        self.keys = Dictionary(trustedKeys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var trustedKeys: [PublicKey] { Array(keys.values) }

    /// Parses raw payload bytes (invalid UTF-8 is "not a stop code").
    public func parse(_ bytes: [UInt8]) -> ScanResolution {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return notAStopCode(String(decoding: bytes.prefix(displayLength * 4), as: UTF8.self))
        }
        return parse(text)
    }

    /// Parses a payload's text.
    public func parse(_ payload: String) -> ScanResolution {
        guard payload.utf8.count <= maximumPayloadBytes else { return notAStopCode(payload) }
        var text = payload
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return notAStopCode(payload) }

        let split = SignatureParameters.split(text)
        for (templates, own) in [(ownTemplates, true), (foreignTemplates, false)] {
            for template in templates {
                guard let value = template.match(split.base) else { continue }
                return resolve(template: template, own: own, value: value, signature: split.signature)
            }
        }
        if acceptsBareReferences, split.signature == nil, Self.isBareReference(text) {
            let reference = StopReference(
                kind: .codeOrID, value: text, signature: policy == .off ? .notChecked : .unsigned,
                source: .bare)
            return policy == .require ? .signatureRequired(reference) : .stopReference(reference)
        }
        return notAStopCode(payload)
    }

    private func resolve(
        template: StopURLTemplate, own: Bool, value: String,
        signature: SignatureParameters.Found?
    ) -> ScanResolution {
        if policy == .off {
            return .stopReference(StopReference(template: template, value: value, signature: .notChecked, own: own))
        }
        guard let signature else {
            let reference = StopReference(template: template, value: value, signature: .unsigned, own: own)
            return policy == .require ? .signatureRequired(reference) : .stopReference(reference)
        }
        let claimed = StopReference(template: template, value: value, signature: .unsigned, own: own)
        guard case .wellFormed(let keyID, let bytes) = signature else {
            return .forged(.malformedSignature, claimed: claimed)
        }
        guard let key = keys[keyID] else { return .forged(.unknownKey(keyID: keyID), claimed: claimed) }
        // A `{stop}` label is signed as the key its value is (code or ID): the signature says which.
        let kinds: [StopKeyKind] = template.kind == .stop ? [.stopCode, .stopID] : [template.kind]
        for kind in kinds {
            guard let message = LabelSignature.message(feedID: feedID, kind: kind, value: value),
                key.isValidSignature(bytes, for: message)
            else { continue }
            var reference = StopReference(
                template: template, value: value, signature: .verified(keyID: keyID), own: own)
            reference.kind = kind == .stopCode ? .stopCode : .stopID
            return .stopReference(reference)
        }
        return .forged(.badSignature(keyID: keyID), claimed: claimed)
    }

    private func notAStopCode(_ text: String) -> ScanResolution {
        .notAStopCode(text: TerminalText.sanitize(text, maxLength: displayLength))
    }

    /// URL schemes and payload formats that are certainly not a stop code.
    private static let foreignSchemes: Set<String> = [
        "http", "https", "ftp", "mailto", "tel", "sms", "smsto", "mms", "geo", "wifi", "mecard", "bizcard",
        "matmsg", "mebkm", "market", "otpauth", "bitcoin", "upi", "fido", "begin", "data", "file", "javascript",
    ]

    /// A bare stop code or id: 1…128 letters, digits and `- _ . : / # + ( )`, at least one letter or digit,
    /// not a URL (`://`) and not starting with a well-known scheme (`tel:`, `WIFI:`, `BEGIN:`…).
    static func isBareReference(_ text: String) -> Bool {
        guard StopValue.isAcceptable(text), !text.contains("://") else { return false }
        var hasAlphanumeric = false
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil {
                hasAlphanumeric = true
            } else if !"-_.:/#+()".unicodeScalars.contains(scalar) {
                return false
            }
        }
        guard hasAlphanumeric else { return false }
        if let colon = text.firstIndex(of: ":"), foreignSchemes.contains(text[..<colon].lowercased()) { return false }
        return true
    }
}

/// The `k=…&s=…` signature parameters at the end of a scanned URL.
enum SignatureParameters {
    enum Found: Equatable {
        case wellFormed(keyID: String, signature: [UInt8])
        case malformed
    }

    /// Splits `text` into the URL without the signature parameters and what they hold (nil: none present).
    ///
    /// The parameters are the last query parameters: the text from the last `?k=` or `&k=` on. Anything
    /// there that is not exactly `k=<16 hex>&s=<canonical base64url of 64 bytes>` is `.malformed`.
    static func split(_ text: String) -> (base: String, signature: Found?) {
        let bytes = Array(text.utf8)
        var start: Int?
        var index = bytes.count - 2
        while index >= 1 {
            if bytes[index] == UInt8(ascii: "k"), bytes[index + 1] == UInt8(ascii: "="),
                bytes[index - 1] == UInt8(ascii: "?") || bytes[index - 1] == UInt8(ascii: "&")
            {
                start = index - 1
                break
            }
            index -= 1
        }
        guard let start else {
            // An `s=` without `k=` is a damaged signature too.
            if text.contains("?s=") || text.contains("&s=") {
                let cut = text.range(of: "?s=", options: .backwards) ?? text.range(of: "&s=", options: .backwards)!
                return (String(text[..<cut.lowerBound]), .malformed)
            }
            return (text, nil)
        }
        let base = String(decoding: bytes[..<start], as: UTF8.self)
        let tail = String(decoding: bytes[(start + 1)...], as: UTF8.self)
        let parameters = tail.split(separator: "&", omittingEmptySubsequences: false)
        guard parameters.count == 2, parameters[0].hasPrefix("k="), parameters[1].hasPrefix("s=") else {
            return (base, .malformed)
        }
        let keyID = parameters[0].dropFirst(2)
        let encoded = parameters[1].dropFirst(2)
        guard keyID.utf8.count == 16,
            keyID.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
            let signature = Base64URL.decode(encoded), signature.count == 64
        else {
            return (base, .malformed)
        }
        return (base, .wellFormed(keyID: String(keyID), signature: signature))
    }
}
