import Foundation

/// What one label shows about a stop. Built by the caller from the route database (see `kiosk labels`); the
/// label library never reads the database, so tests can label stops that exist nowhere.
public struct LabelStop: Sendable, Hashable {
    /// `stops.stop_id`: names the stop in errors and in the manifest, and is the value of `{stop_id}` templates.
    public var id: String
    /// `stops.stop_code`: the value of `{stop_code}` templates and what passengers type.
    public var code: String?
    /// The stop's name as the feed writes it (untrusted: it is cleaned before drawing).
    public var name: String
    /// Routes departing from the stop, in display order.
    public var routes: [LabelRoute]
    /// Agencies running those routes.
    public var agencies: [String]

    public init(id: String, code: String?, name: String, routes: [LabelRoute] = [], agencies: [String] = []) {
        self.id = id
        self.code = code
        self.name = name
        self.routes = routes
        self.agencies = agencies
    }
}

/// A route badge on a label.
public struct LabelRoute: Sendable, Hashable {
    /// What the badge says: the route's short name, else its long name.
    public var name: String
    /// Badge colour, from GTFS `route_color` (six hex digits); nil: an outlined white badge.
    public var color: RGBColor?
    /// Text colour, from `route_text_color`; replaced by black or white when it would be hard to read.
    public var textColor: RGBColor?

    public init(name: String, color: RGBColor? = nil, textColor: RGBColor? = nil) {
        self.name = name
        self.color = color
        self.textColor = textColor
    }
}

/// An sRGB colour with components in 0…1.
public struct RGBColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From GTFS's six hex digits (`D52B1E`, an optional leading `#`); nil for anything else.
    public init?(hex: String?) {
        guard var text = hex?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.hasPrefix("#") { text.removeFirst() }
        guard text.utf8.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(
            red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255,
            blue: Double(value & 0xFF) / 255)
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 1, green: 1, blue: 1)

    /// WCAG relative luminance.
    var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG contrast ratio (1…21).
    func contrast(with other: RGBColor) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
