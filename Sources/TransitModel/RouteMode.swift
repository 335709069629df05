/// What kind of vehicle a route uses, from GTFS `route_type` — the basic values 0–12 and the extended
/// (European HVT) values 100–1799 that many agencies publish instead.
public enum RouteMode: String, Sendable, Codable, CaseIterable {
    case tram, subway, rail, bus, ferry, cableTram, aerialLift, funicular, trolleybus, monorail, coach, taxi, other

    public init(gtfsType type: Int) {
        switch type {
        case 12, 405: self = .monorail
        case 0, 900...999: self = .tram
        case 1, 400...499: self = .subway
        case 2, 100...199, 300...399: self = .rail
        case 3, 700...799: self = .bus
        case 4, 1000...1099, 1200...1299: self = .ferry
        case 5: self = .cableTram
        case 6, 1300...1399: self = .aerialLift
        case 7, 1400...1499: self = .funicular
        case 11, 800...899: self = .trolleybus
        case 200...299: self = .coach
        case 1500...1599: self = .taxi
        default: self = .other
        }
    }

    public static func isKnownGTFSType(_ type: Int) -> Bool {
        (0...7).contains(type) || type == 11 || type == 12 || (100...1799).contains(type)
    }
}
