import Foundation
import Scanning
import TransitModel
import TransitStore

/// A scan as one JSON object on one line (`kiosk scan --json`): JSON Lines, keys in snake case, sorted.
///
/// `{"detail":null,"found_by":"direct","frame":12,"latency_ms":4.1,"source":"/dev/video0","status":"stop",
///   "stop":{"code":"1011","id":"MQ01A","name":"Quitumbe"},"symbology":"QR-Code","text":"https://…/s/1011"}`
///
/// `stop` is null unless `status` is `stop`; `text` is the payload exactly as decoded (JSON escapes its control
/// characters; nothing replaced, nothing cut), `display_text` the sanitised form the screen shows; `decoder` is
/// the library that read it (`zbar`, `zxing`) and `found_by` its pass.
public enum ScanJSON {
    struct Line: Encodable {
        struct Stop: Encodable {
            var id: String
            var code: String?
            var name: String
            /// The platforms a station stands for (absent for a single platform or stop).
            var platforms: [String]?
        }
        var source: String
        var frame: Int
        var symbology: String
        var text: String
        var displayText: String
        var decoder: String
        var status: String
        var stop: Stop?
        var detail: String?
        var foundBy: String
        var latencyMs: Double

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(frame, forKey: .frame)
            try container.encode(symbology, forKey: .symbology)
            try container.encode(text, forKey: .text)
            try container.encode(displayText, forKey: .displayText)
            try container.encode(decoder, forKey: .decoder)
            try container.encode(status, forKey: .status)
            try container.encode(stop, forKey: .stop)  // null when absent: every line has the same keys
            try container.encode(detail, forKey: .detail)
            try container.encode(foundBy, forKey: .foundBy)
            try container.encode(latencyMs, forKey: .latencyMs)
        }

        enum CodingKeys: String, CodingKey {
            case source, frame, symbology, text, displayText, decoder, status, stop, detail, foundBy, latencyMs
        }
    }

    public static func line(_ scan: ScanResult) -> String {
        let stop = scan.stop.map { resolved in
            Line.Stop(
                id: resolved.stop.id, code: resolved.stop.code, name: resolved.stop.name,
                platforms: resolved.platforms.count > 1 || resolved.platforms.first?.id != resolved.stop.id
                    ? resolved.platforms.map(\.id) : nil)
        }
        let line = Line(
            source: scan.source, frame: scan.frame, symbology: scan.symbology.name, text: scan.payloadText,
            displayText: scan.text, decoder: scan.foundBy.decoder.rawValue, status: scan.status.rawValue, stop: stop,
            detail: scan.detail, foundBy: scan.foundBy.description,
            latencyMs: (Double(scan.latencyNanos) / 1e4).rounded() / 100)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Every value is a string, number or null: encoding cannot fail.
        return JSONText.escapingInvisibleControls(
            String(decoding: (try? encoder.encode(line)) ?? Data("{}".utf8), as: UTF8.self))
    }
}

/// A scan as one line of text (`kiosk scan`), in the kiosk's language, every string sanitised.
///
/// `photos/1011.png:0  QR-Code  stop: Quitumbe [1011] (MQ01A)  https://transit.example/s/1011`
public enum ScanText {
    public static func line(_ scan: ScanResult, language: Language) -> String {
        let clean = { (text: String) in TerminalText.sanitize(text, maxLength: 80) }
        var verdict = scan.status.text(language)
        if let resolved = scan.stop {
            verdict += ": " + clean(resolved.stop.name)
            if let code = resolved.stop.code { verdict += " [\(clean(code))]" }
            verdict += " (\(clean(resolved.stop.id)))"
        } else if let detail = scan.detail {
            verdict += " (\(clean(detail)))"
        }
        return
            "\(clean(scan.source)):\(scan.frame)  \(scan.symbology.name)  \(verdict)  \(scan.text.isEmpty ? "\"\"" : scan.text)"
    }

    /// A camera state change, for the status line and standard error.
    public static func camera(_ state: CameraState, source: String, language: Language) -> String {
        let device = TerminalText.sanitize(source, maxLength: 120)
        switch state {
        case .reconnecting(let error, let attempt, let retryIn):
            let (seconds, attoseconds) = retryIn.components
            let wait = String(format: "%g", Double(seconds) + Double(attoseconds) / 1e18)
            let unavailable = language == .es ? "cámara no disponible" : "camera unavailable"
            let retry = language == .es ? "intento \(attempt + 1) en \(wait) s" : "retry \(attempt + 1) in \(wait) s"
            return
                "\(device): \(unavailable) [\(error.kind)]: \(TerminalText.sanitize(error.description, maxLength: 300)); \(retry)"
        case .streaming:
            return "\(device): " + (language == .es ? "cámara lista" : "camera ready") + " (\(state.description))"
        case .idle, .closed:
            return "\(device): \(state.description)"
        }
    }
}

extension ScanStatus {
    /// What the status means to a passenger.
    public func text(_ language: Language) -> String {
        switch (self, language) {
        case (.stop, .es): return "parada"
        case (.stop, .en): return "stop"
        case (.notAStopCode, .es): return "no es un código de parada"
        case (.notAStopCode, .en): return "not a stop code"
        case (.forged, .es): return "etiqueta falsificada o dañada"
        case (.forged, .en): return "forged or damaged label"
        case (.signatureRequired, .es): return "etiqueta sin firma: este quiosco solo acepta etiquetas firmadas"
        case (.signatureRequired, .en): return "unsigned label: this kiosk accepts signed labels only"
        case (.unknownStop, .es): return "parada desconocida"
        case (.unknownStop, .en): return "unknown stop"
        }
    }
}
