import Foundation

/// A WGS 84 position.
public struct Coordinate: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres (haversine: accurate to well under a metre at walking distances).
    public func distance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1, dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Coordinate.earthRadiusMeters * asin(min(1, sqrt(a)))
    }

    /// Initial bearing towards `other`, degrees clockwise from north in [0, 360).
    public func bearing(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dλ = (other.longitude - longitude) * .pi / 180
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// A latitude/longitude box that contains every point within `meters` of this one, for index pre-filtering.
    public func boundingBox(
        radiusMeters meters: Double
    ) -> (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) {
        let dLat = meters / Coordinate.earthRadiusMeters * 180 / .pi
        let cosLat = max(0.01, cos(latitude * .pi / 180))
        let dLon = dLat / cosLat
        return (latitude - dLat, latitude + dLat, longitude - dLon, longitude + dLon)
    }
}

/// The eight compass points, for "300 m NE" on screen.
public enum CompassPoint: String, CaseIterable, Sendable, Codable {
    case n = "N", ne = "NE", e = "E", se = "SE", s = "S", sw = "SW", w = "W", nw = "NW"

    public init(bearing: Double) {
        let index = Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
        self = CompassPoint.allCases[index]
    }
}
