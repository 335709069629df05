import Dispatch
import Foundation
import KioskConfiguration
import Scanning
import StopCodes
import TransitModel
import TransitStore

/// What became of one scanned payload. The raw values are what `kiosk scan --json` prints.
public enum ScanStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// A stop this database knows: `ScanOutcome.stop` is set.
    case stop
    /// Not a stop reference at all: a foreign URL, binary junk, an escape sequence, an empty or oversized payload.
    case notAStopCode = "not_a_stop_code"
    /// A label whose signature is present but damaged, truncated, by an unknown key, or not for this stop.
    case forged
    /// A well-formed unsigned reference, refused because the kiosk's policy is `require`.
    case signatureRequired = "signature_required"
    /// A well-formed reference (our URL, a bare code) naming a stop this database does not have.
    case unknownStop = "unknown_stop"
}

/// A scanned payload, read and looked up: the part of a scan that does not depend on frames.
public struct ScanOutcome: Sendable, Equatable {
    public var status: ScanStatus
    /// The payload made safe for a terminal (escape sequences and controls removed, at most `ScanResolver.textLimit`
    /// characters). Untrusted even so: it is what the code says, not what the kiosk vouches for.
    public var text: String
    /// The stop, when `status` is `.stop`: a platform, or a station standing for its platforms.
    public var stop: ResolvedStop?
    /// The reference the payload named (for `.forged`, what it claims to be; never resolved).
    public var reference: StopReference?
    /// Why, in a few words, for anything but `.stop` (e.g. "signature does not verify with key …"). Sanitised.
    public var detail: String?

    public init(
        status: ScanStatus, text: String, stop: ResolvedStop? = nil, reference: StopReference? = nil,
        detail: String? = nil
    ) {
        self.status = status
        self.text = text
        self.stop = stop
        self.reference = reference
        self.detail = detail
    }
}

/// Reads scanned payloads with the kiosk's `PayloadParser` and resolves the references in the route database.
///
/// - `.stopCode` references are looked up by `stop_code`, `.stopID` by `stop_id`, and bare values (a 1D code, a
///   QR holding only the code) by `stop_code` and then `stop_id`, as `PayloadParser` documents.
/// - A well-formed reference the database does not know is `.unknownStop`; the database's "did you mean"
///   suggestions are not computed for scans (nobody typed anything).
/// - Forged and unsigned-under-`require` labels are never looked up.
///
/// Never throws: every payload, however hostile, gets a status.
public struct ScanResolver: Sendable {
    public var parser: PayloadParser
    public let database: RouteDatabase
    /// Longest `ScanOutcome.text`, in characters (a signed URL is about 140).
    public var textLimit: Int

    public init(parser: PayloadParser, database: RouteDatabase, textLimit: Int = 256) {
        self.parser = parser
        self.database = database
        self.textLimit = max(8, textLimit)
    }

    /// The kiosk's parser for `database` (templates, keys and policy from `config`) and a resolver around it.
    public init(config: KioskConfig, database: RouteDatabase) throws {
        self.init(parser: try config.payloadParser(databaseFeedID: database.feedID), database: database)
    }

    /// Resolves a decoded symbol: its text when it has one (the encoding the decoder guessed), else its bytes.
    public func resolve(_ symbol: DecodedSymbol) -> ScanOutcome {
        if let text = symbol.text { return resolve(text) }
        return outcome(parser.parse(symbol.bytes), shown: symbol.lossyText)
    }

    /// Resolves raw payload bytes (invalid UTF-8 is not a stop code).
    public func resolve(bytes: [UInt8]) -> ScanOutcome {
        outcome(parser.parse(bytes), shown: String(decoding: bytes.prefix(textLimit * 4), as: UTF8.self))
    }

    /// Resolves a payload's text.
    public func resolve(_ payload: String) -> ScanOutcome {
        outcome(parser.parse(payload), shown: payload)
    }

    private func outcome(_ resolution: ScanResolution, shown: String) -> ScanOutcome {
        let text = TerminalText.sanitize(shown, maxLength: textLimit)
        switch resolution {
        case .notAStopCode:
            return ScanOutcome(status: .notAStopCode, text: text, detail: shown.isEmpty ? "empty payload" : nil)
        case .forged(let reason, let claimed):
            return ScanOutcome(
                status: .forged, text: text, reference: claimed,
                detail: TerminalText.sanitize(reason.description, maxLength: 120))
        case .signatureRequired(let reference):
            return ScanOutcome(
                status: .signatureRequired, text: text, reference: reference,
                detail: "unsigned label; this kiosk accepts only signed labels")
        case .stopReference(let reference):
            do {
                guard let stop = try lookUp(reference) else {
                    return ScanOutcome(
                        status: .unknownStop, text: text, reference: reference,
                        detail:
                            "no stop \(Self.describe(reference.kind)) '\(TerminalText.sanitize(reference.value, maxLength: 60))' in this database"
                    )
                }
                return ScanOutcome(status: .stop, text: text, stop: stop, reference: reference)
            } catch {
                // A failing read-only database is not the passenger's fault; say what happened and keep scanning.
                return ScanOutcome(
                    status: .unknownStop, text: text, reference: reference,
                    detail: "database error: \(TerminalText.sanitize(String(describing: error), maxLength: 160))")
            }
        }
    }

    /// The stop a reference names, or nil when the database has no such stop (or the value could never be one).
    func lookUp(_ reference: StopReference) throws -> ResolvedStop? {
        for key in Self.keys(for: reference) {
            do {
                return try database.resolveStop(key)
            } catch let error as LookupError {
                switch error {
                case .noSuchStop, .invalidQuery: continue
                default: throw error
                }
            }
        }
        return nil
    }

    /// The database keys to try for a reference, in order.
    public static func keys(for reference: StopReference) -> [StopKey] {
        switch reference.kind {
        case .stopCode: return [.code(reference.value)]
        case .stopID: return [.id(reference.value)]
        case .codeOrID: return [.code(reference.value), .id(reference.value)]
        }
    }

    static func describe(_ kind: StopReference.Kind) -> String {
        switch kind {
        case .stopCode: return "code"
        case .stopID: return "id"
        case .codeOrID: return "code or id"
        }
    }
}
