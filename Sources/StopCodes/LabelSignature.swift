import Crypto
import Foundation

/// The Ed25519 signature a stop label carries, and the exact bytes it signs.
///
/// **Signed message, version 1** (UTF-8, lines separated by a single LF, no trailing newline):
///
/// ```
/// stopkiosk-label-v1
/// <feed id>
/// <stop_code | stop_id>
/// <value>
/// ```
///
/// - `feed id`: the identifier of the feed the label belongs to, as configured on both the label printer and
///   the kiosk (e.g. `carta`). It is not in the URL: a label of another feed fails to verify.
/// - the third line is the key kind the value is, literally `stop_code` or `stop_id` (for a `{stop}` template,
///   whichever the value is for that stop), so a signature for stop code `123` is not valid for stop id `123`.
/// - `value`: the stop code or id itself, not percent-encoded.
///
/// Neither the feed id nor the value may contain a line feed (values with control characters are refused
/// before signing or verifying), so the message is unambiguous.
///
/// **In the URL**: two query parameters appended last, `k=<key id>&s=<signature>`, after `?` (or `&` when the
/// template's URL already has a query), e.g.
/// `https://transit.example/s/1234?k=3fa28c0d5e1b7a90&s=<86 characters>`.
/// - `k`: the key id, the first 8 bytes of SHA-256 of the 32-byte raw public key, as 16 lower-case hex digits.
/// - `s`: the 64-byte Ed25519 signature in unpadded base64url (86 characters), canonical encoding only.
public struct LabelSignature: Sendable, Hashable {
    public static let messageVersion = "stopkiosk-label-v1"
    static let keyParameter = "k"
    static let signatureParameter = "s"

    /// Key id of the signing key (16 lower-case hex digits).
    public var keyID: String
    /// The 64 signature bytes.
    public var signature: [UInt8]

    public init(keyID: String, signature: [UInt8]) {
        self.keyID = keyID
        self.signature = signature
    }

    /// `k=<key id>&s=<base64url signature>`.
    public var queryParameters: String {
        "\(Self.keyParameter)=\(keyID)&\(Self.signatureParameter)=\(Base64URL.encode(signature))"
    }

    /// The message signed for a stop of a feed (see the type's documentation), or nil when the feed id or value
    /// contains a line feed or another control character.
    public static func message(feedID: String, kind: StopKeyKind, value: String) -> [UInt8]? {
        let unsafe: (Unicode.Scalar) -> Bool = { $0.properties.generalCategory == .control }
        guard !feedID.unicodeScalars.contains(where: unsafe), !value.unicodeScalars.contains(where: unsafe) else {
            return nil
        }
        return Array("\(messageVersion)\n\(feedID)\n\(kind.rawValue)\n\(value)".utf8)
    }
}

/// An Ed25519 public key that verifies stop labels, as kiosks hold it.
///
/// Written as one line, `stopkiosk-ed25519-public-v1:<base64url of the 32 raw key bytes>`, for kiosk configs.
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    public static let textPrefix = "stopkiosk-ed25519-public-v1:"

    /// The 32 raw key bytes.
    public let rawRepresentation: [UInt8]
    /// First 8 bytes of SHA-256 of the raw key, 16 lower-case hex digits: what labels name the key by.
    public let keyID: String

    public init(rawRepresentation: [UInt8]) throws(KeyFormatError) {
        guard rawRepresentation.count == 32 else {
            throw .wrongLength(expected: 32, actual: rawRepresentation.count)
        }
        do {
            _ = try Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
        } catch {
            throw .malformed("not a valid Ed25519 public key")
        }
        self.rawRepresentation = rawRepresentation
        self.keyID = Self.keyID(of: rawRepresentation)
    }

    /// Parses the one-line form (surrounding whitespace ignored).
    public init(encoded: String) throws(KeyFormatError) {
        let text = encoded.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix(KeyPair.textPrefix) { throw .wrongKind(found: "private key", expected: "public key") }
        guard text.hasPrefix(Self.textPrefix) else {
            throw .malformed("expected \(Self.textPrefix)<base64url key>")
        }
        guard let bytes = Base64URL.decode(text.dropFirst(Self.textPrefix.count)) else {
            throw .malformed("the key is not valid unpadded base64url")
        }
        try self.init(rawRepresentation: bytes)
    }

    /// The one-line form.
    public var encoded: String { Self.textPrefix + Base64URL.encode(rawRepresentation) }

    public var description: String { "Ed25519 public key \(keyID)" }

    /// True when `signature` is this key's signature over `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
        else {
            return false
        }
        return key.isValidSignature(signature, for: message)
    }

    static func keyID(of raw: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: raw).prefix(8))
    }
}

/// An Ed25519 private key for signing stop labels (with its public key). Stays where labels are printed.
public struct KeyPair: Sendable {
    public static let textPrefix = "stopkiosk-ed25519-private-v1:"

    /// The 32-byte seed (swift-crypto's key type is not Sendable; a key is rebuilt from it to sign).
    private let seed: [UInt8]
    public let publicKey: PublicKey

    /// A new random key.
    public static func generate() -> KeyPair {
        let key = Curve25519.Signing.PrivateKey()
        return KeyPair(privateKey: key)
    }

    private init(privateKey: Curve25519.Signing.PrivateKey) {
        self.seed = Array(privateKey.rawRepresentation)
        // A key swift-crypto just made always has a valid 32-byte public key.
        self.publicKey = try! PublicKey(rawRepresentation: Array(privateKey.publicKey.rawRepresentation))
    }

    /// From the 32-byte seed (the raw private key).
    public init(seed: [UInt8]) throws(KeyFormatError) {
        guard seed.count == 32 else { throw .wrongLength(expected: 32, actual: seed.count) }
        do {
            self.init(privateKey: try Curve25519.Signing.PrivateKey(rawRepresentation: seed))
        } catch {
            throw .malformed("not a valid Ed25519 private key")
        }
    }

    /// Parses the one-line form `stopkiosk-ed25519-private-v1:<base64url seed>`.
    public init(encoded: String) throws(KeyFormatError) {
        let text = encoded.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix(PublicKey.textPrefix) { throw .wrongKind(found: "public key", expected: "private key") }
        guard text.hasPrefix(Self.textPrefix) else {
            throw .malformed("expected \(Self.textPrefix)<base64url key>")
        }
        guard let bytes = Base64URL.decode(text.dropFirst(Self.textPrefix.count)) else {
            throw .malformed("the key is not valid unpadded base64url")
        }
        try self.init(seed: bytes)
    }

    public var keyID: String { publicKey.keyID }

    /// The one-line private form. Secret.
    public var encodedPrivateKey: String { Self.textPrefix + Base64URL.encode(seed) }

    /// Signs a stop of a feed; nil when the feed id or value contains control characters.
    public func sign(feedID: String, kind: StopKeyKind, value: String) -> LabelSignature? {
        guard let message = LabelSignature.message(feedID: feedID, kind: kind, value: value),
            let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
            let signature = try? privateKey.signature(for: message)
        else { return nil }
        return LabelSignature(keyID: keyID, signature: Array(signature))
    }

    /// The signed label URL for a stop: `template` filled with `value`, plus `k` and `s`.
    ///
    /// A `{stop}` template signs the key the value really is (`signedKind`: `stop_code` when the value is the stop's
    /// code, `stop_id` when it is its ID), so the signature says which one the label names and a label signed under
    /// a `{stop_code}` template verifies under `{stop}` too.
    public func signedURL(
        template: StopURLTemplate, feedID: String, value: String, signedKind: StopKeyKind? = nil
    ) -> String? {
        let kind = template.kind == .stop ? (signedKind ?? .stopCode) : template.kind
        guard let signature = sign(feedID: feedID, kind: kind, value: value) else { return nil }
        return template.url(for: value, signature: signature)
    }
}

/// A key string that could not be used.
public enum KeyFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    case wrongLength(expected: Int, actual: Int)
    case wrongKind(found: String, expected: String)

    public var description: String {
        switch self {
        case .malformed(let reason): return "malformed key: \(reason)"
        case .wrongLength(let expected, let actual): return "wrong key length: \(actual) bytes, expected \(expected)"
        case .wrongKind(let found, let expected): return "this is a \(found), expected a \(expected)"
        }
    }
}
