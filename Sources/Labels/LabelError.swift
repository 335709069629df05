import StopCodes
import TransitModel

/// Why labels could not be made. Nothing is written when any of these is thrown; every case names the stops,
/// the layout or the file concerned and what to change.
public enum LabelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stops that cannot be labelled as asked (all of them, so one run lists every problem).
    case unlabelableStops([StopProblem])
    /// QR modules would print smaller than `LabelLayout.minimumModuleMM`.
    case modulesTooSmall(ModuleSizeProblem)
    /// The PNG resolution is too low for the modules or bars to survive rasterisation.
    case resolutionTooLow(dpi: Int, modulePixels: Double, minimumDPI: Int)
    /// Labels whose codes did not decode to exactly what they should carry.
    case readBackFailed([ReadBackFailure])
    /// The output file could not be written (nothing was left at `path`).
    case outputFailed(path: String, reason: String)
    /// cairo refused to draw or encode (out of memory, an image too large).
    case renderingFailed(reason: String)
    /// The request itself is unusable (no stops, a bad DPI).
    case invalidRequest(String)
    /// The QR codes would carry the placeholder address of the default template (see `PlaceholderAddress`).
    case placeholderAddress(template: String, host: String)

    /// What is wrong with one stop.
    public struct StopProblem: Error, Sendable, Hashable, CustomStringConvertible {
        public var stopID: String
        public var reason: String

        public var description: String { "stop \(Terminal.clean(stopID, 60)): \(reason)" }
    }

    public var description: String {
        switch self {
        case .unlabelableStops(let problems):
            let shown = problems.prefix(20).map(\.description)
            let more = problems.count > 20 ? ["… and \(problems.count - 20) more"] : []
            return
                "\(problems.count) stop\(problems.count == 1 ? "" : "s") cannot be labelled; nothing was written:\n  "
                + (shown + more).joined(separator: "\n  ")
        case .modulesTooSmall(let problem):
            return problem.description
        case .resolutionTooLow(let dpi, let pixels, let minimum):
            return
                "at --dpi \(dpi) a QR module or bar is only \(String(format: "%.1f", pixels)) pixels wide, too few to print reliably; use --dpi \(minimum) or more (or the vector formats, pdf or svg)"
        case .readBackFailed(let failures):
            let shown = failures.prefix(20).map(\.description)
            let more = failures.count > 20 ? ["… and \(failures.count - 20) more"] : []
            return
                "read-back check failed for \(failures.count) label\(failures.count == 1 ? "" : "s"); nothing was written:\n  "
                + (shown + more).joined(separator: "\n  ")
        case .outputFailed(let path, let reason):
            return "cannot write \(Terminal.clean(path, 200)): \(reason)"
        case .renderingFailed(let reason):
            return "rendering failed: \(reason)"
        case .invalidRequest(let reason):
            return reason
        case let .placeholderAddress(template, host):
            return
                "the QR codes would carry \(Terminal.clean(template, 120)): \(Terminal.clean(host, 60)) is a "
                + "placeholder address (the default stop URL template's), no phone can open it. "
                + "Set this network's stop URL: "
                + "url_template in the [labels] section of the config file (--config FILE), or --template URL, e.g. "
                + "https://stops.your-agency.org/s/{stop}. To check a layout before that, print a proof copy with "
                + "--proof (marked on every label and page as not for posting). Nothing was written."
        }
    }

    static func missingStopCode(stopID: String, template: String) -> StopProblem {
        StopProblem(
            stopID: stopID,
            reason:
                "has no stop_code, which the template \(Terminal.clean(template, 120)) needs; use a template with {stop} (the code, else the ID) or {stop_id}"
        )
    }

    static func unusableValue(stopID: String, value: String, reason: String) -> StopProblem {
        StopProblem(
            stopID: stopID, reason: "its value \"\(Terminal.clean(value, 60))\" cannot be put in a label: \(reason)")
    }
}

/// Why a layout is refused: modules smaller than the printable minimum, with the numbers that explain it.
public struct ModuleSizeProblem: Sendable, Hashable, CustomStringConvertible {
    public var layout: String
    /// The smallest module among the labels, in millimetres.
    public var moduleMM: Double
    public var minimumMM: Double
    /// The stop whose label has that module (the longest payload).
    public var stopID: String
    public var payloadBytes: Int
    public var version: Int
    public var modulesAcross: Int
    public var errorCorrection: QRErrorCorrection
    public var symbolMM: Double
    /// How many of the labels are below the minimum.
    public var affected: Int
    public var total: Int
    public var signed: Bool

    public var description: String {
        let f = { (value: Double) in String(format: "%.2f", value) }
        var advice = [
            "a larger layout (\(LabelLayout.all.filter { $0.name != layout }.map(\.name).joined(separator: ", ")))"
        ]
        if errorCorrection != .low { advice.append("a lower --ecc (now \(errorCorrection))") }
        advice.append("a shorter --template")
        if signed { advice.append("no --sign-key (a signature adds about 110 characters)") }
        return
            "layout \(layout): QR modules would be \(f(moduleMM)) mm, below the \(f(minimumMM)) mm minimum that printers and phone cameras resolve "
            + "(\(affected) of \(total) label\(total == 1 ? "" : "s"); e.g. stop \(Terminal.clean(stopID, 60)): a \(payloadBytes)-byte payload needs "
            + "QR version \(version) at error correction \(errorCorrection), \(modulesAcross) modules across with the quiet zone, in a \(f(symbolMM)) mm square). "
            + "Use " + advice.joined(separator: ", or ") + "."
    }
}

/// Feed text and payloads in messages: made safe for a terminal.
enum Terminal {
    static func clean(_ text: String, _ maxLength: Int) -> String { TerminalText.sanitize(text, maxLength: maxLength) }
}
