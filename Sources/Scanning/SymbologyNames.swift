import Foundation
import TransitModel

/// Symbology names in configs and on the command line.
public enum ScanSymbologies {
    /// The config name of a symbology: zbar's name without punctuation, lower case (`qrcode`, `code128`, `ean13`,
    /// `upca`, `i25`, `databar`, `databarexp`, …), the names `zbarimg -S<name>.enable` takes.
    public static func name(of symbology: Symbology) -> String {
        String(
            symbology.name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(
                Character.init))
    }

    /// Reads names (config names or zbar's display names, any case; `qr` and `interleaved2of5` also work).
    public static func parse(_ names: [String]) throws(ScanConfigurationError) -> Set<Symbology> {
        var result = Set<Symbology>()
        for raw in names {
            let key = String(
                raw.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
            let aliases: [String: Symbology] = [
                "qr": .qrCode, "interleaved2of5": .interleaved2of5, "itf": .interleaved2of5,
                "databarexpanded": .dataBarExpanded,
            ]
            guard let symbology = aliases[key] ?? Symbology.allCases.first(where: { name(of: $0) == key }) else {
                throw .unknownSymbology(raw, known: Symbology.allCases.map(name(of:)).sorted())
            }
            result.insert(symbology)
        }
        guard !result.isEmpty else { throw .noSymbologies }
        return result
    }
}

/// A scan configuration value that cannot be used.
public enum ScanConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownSymbology(String, known: [String])
    case noSymbologies
    case invalidDebounce(Double)
    case invalidDecoders(DecoderNameError)

    public var description: String {
        switch self {
        case let .unknownSymbology(name, known):
            return
                "unknown symbology '\(TerminalText.sanitize(name, maxLength: 40))' (known: \(known.joined(separator: ", ")))"
        case .noSymbologies:
            return "no symbologies to scan for: name at least one (e.g. qrcode)"
        case let .invalidDebounce(seconds):
            return "debounce interval \(seconds) s is out of range (0 to 3600 seconds)"
        case let .invalidDecoders(error):
            return error.description
        }
    }
}
