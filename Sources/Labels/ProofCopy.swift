import StopCodes
import TransitModel

/// The default stop URL template points at `transit.example`, a name no network serves: a label, poster or
/// timetable carrying it sends every passenger who scans it nowhere. Such printouts are refused unless asked for
/// as a proof copy (`--proof`), and a proof copy says so on every label and page, so that it cannot be mistaken
/// for one to stick on a pole.
public enum PlaceholderAddress {
    /// Hosts kept for documentation (RFC 2606): the `.example` top-level domain and example.com, .net and .org.
    static let documentationDomains = ["example", "example.com", "example.net", "example.org"]

    /// The host of `template` when it is a placeholder (`transit.example`, anything under `.example`,
    /// example.com/.net/.org); nil for an address a phone can open.
    public static func host(of template: StopURLTemplate) -> String? { host(ofAddress: template.pattern) }

    /// The host of a URL (or template) when it is a placeholder, else nil.
    static func host(ofAddress address: String) -> String? {
        var rest = Substring(address)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { !"/?#{".contains($0) }
        var host = String(authority.split(separator: "@", omittingEmptySubsequences: false).last ?? "")
        guard !host.hasPrefix("[") else { return nil }  // an IPv6 literal
        if let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) }
        host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        let placeholder = documentationDomains.contains { host == $0 || host.hasSuffix("." + $0) }
        return placeholder ? host : nil
    }

    /// Refuses `template` when it is a placeholder, unless a proof copy is asked for.
    public static func check(_ template: StopURLTemplate, proof: Bool) throws(LabelError) {
        if !proof, let host = host(of: template) {
            throw .placeholderAddress(template: template.pattern, host: host)
        }
    }
}

/// The words a proof copy carries, in the page's language.
public enum ProofMark {
    /// "PROOF — placeholder address, not for posting"; without a placeholder address, "PROOF — not for posting".
    public static func text(placeholder: Bool, _ language: Language) -> String {
        switch (language, placeholder) {
        case (.en, true): return "PROOF — placeholder address, not for posting"
        case (.en, false): return "PROOF — not for posting"
        case (.es, true): return "PRUEBA — dirección de ejemplo, no para colocar"
        case (.es, false): return "PRUEBA — no para colocar"
        }
    }

    /// The shortest form, for a label too narrow for the sentence in both languages.
    static let short = "PRUEBA / PROOF — no para colocar / not for posting"

    /// The mark's colour: a red no one takes for part of a real label.
    static let color = RGBColor(red: 0.85, green: 0.05, blue: 0.05)
}
