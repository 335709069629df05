import Foundation
import TransitModel

/// The stop view's JSON written directly, byte for byte what `KioskJSON.encode` (Foundation's `JSONEncoder`,
/// pretty-printed with sorted keys, unescaped slashes, then `JSONText.escapingInvisibleControls`) makes of it, at a
/// fraction of the cost: the encoder boxes every value, sorts every object's keys and formats through generic
/// containers, and for a busy stop that was most of an uncached `/api/v1/stops/{id}` answer. Keys are written here
/// in sorted order by hand (debug builds check it), optionals left out when nil as the synthesized `Codable` does;
/// `StopViewJSONWriterTests` compares the two on every stop of the sample feeds, live data included. A field added
/// to the stop view's types must be added here too: that test fails until it is.
struct StopViewJSONWriter {
    private let timeZone: TimeZone

    static func render(_ view: StopView) -> String {
        var json = PrettyJSON()
        StopViewJSONWriter(timeZone: TimeZone(identifier: view.timeZone) ?? .current).write(view, &json)
        return json.text
    }

    private init(timeZone: TimeZone) { self.timeZone = timeZone }

    private func write(_ view: StopView, _ json: inout PrettyJSON) {
        json.object {
            if let alerts = view.alerts {
                $0.key("alerts")
                $0.array(alerts) { json, alert in write(alert, &json) }
            }
            if let notShown = view.alertsNotShown { $0.key("alerts_not_shown"); $0.int(notShown) }
            $0.key("at"); date(view.at, &$0)
            $0.key("departures")
            $0.array(view.departures) { json, departure in write(departure, &json) }
            $0.key("nearby")
            $0.array(view.nearby) { json, nearby in write(nearby, &json) }
            $0.key("nearby_radius_meters"); $0.int(view.nearbyRadiusMeters)
            if let next = view.nextDeparture { $0.key("next_departure"); write(next, &$0) }
            $0.key("platforms")
            $0.array(view.platforms) { json, platform in write(platform, &json) }
            if let age = view.realtimeAgeSeconds { $0.key("realtime_age_seconds"); $0.int(age) }
            if let status = view.realtimeStatus { $0.key("realtime_status"); $0.string(status.rawValue) }
            if let since = view.realtimeUnavailableSince { $0.key("realtime_unavailable_since"); date(since, &$0) }
            $0.key("routes")
            $0.array(view.routes) { json, route in write(route, &json) }
            $0.key("service_date"); $0.string(view.serviceDate)
            $0.key("service_spans")
            $0.array(view.serviceSpans) { json, span in write(span, &json) }
            $0.key("stop"); write(view.stop, &$0)
            $0.key("time_zone"); $0.string(view.timeZone)
            $0.key("window_minutes"); $0.int(view.windowMinutes)
        }
    }

    private func date(_ date: Date, _ json: inout PrettyJSON) {
        json.string(LocalTime.iso8601(date, in: timeZone))
    }

    private func write(_ departure: Departure, _ json: inout PrettyJSON) {
        json.object {
            $0.key("approximate"); $0.bool(departure.approximate)
            $0.key("destination"); $0.string(departure.destination)
            if let direction = departure.directionID { $0.key("direction_id"); $0.int(direction) }
            if let feed = departure.feedID { $0.key("feed_id"); $0.string(feed) }
            $0.key("headsign"); $0.string(departure.headsign)
            $0.key("minutes_from_now"); $0.int(departure.minutesFromNow)
            if let platform = departure.platformCode { $0.key("platform_code"); $0.string(platform) }
            if let realtime = departure.realtime {
                $0.key("realtime")
                $0.object {
                    if let delay = realtime.delaySeconds { $0.key("delay_seconds"); $0.int(delay) }
                    if let predicted = realtime.predictedTime { $0.key("predicted_time"); date(predicted, &$0) }
                    $0.key("state"); $0.string(realtime.state.rawValue)
                }
            }
            $0.key("route"); write(departure.route, &$0)
            $0.key("scheduled_time"); $0.string(departure.scheduledTime)
            $0.key("service_date"); $0.string(departure.serviceDate)
            $0.key("stop_id"); $0.string(departure.stopID)
            $0.key("time"); date(departure.time, &$0)
            $0.key("trip_id"); $0.string(departure.tripID)
            if let number = departure.tripShortName { $0.key("trip_short_name"); $0.string(number) }
            $0.key("wheelchair_accessible"); $0.string(departure.wheelchairAccessible.rawValue)
        }
    }

    private func write(_ span: ServiceSpan, _ json: inout PrettyJSON) {
        json.object {
            if let direction = span.directionID { $0.key("direction_id"); $0.int(direction) }
            $0.key("first"); date(span.first, &$0)
            $0.key("headsigns"); $0.array(span.headsigns) { $0.string($1) }
            $0.key("last"); date(span.last, &$0)
            $0.key("route"); write(span.route, &$0)
        }
    }

    private func write(_ alert: StopAlert, _ json: inout PrettyJSON) {
        json.object {
            if let from = alert.activeFrom { $0.key("active_from"); date(from, &$0) }
            if let until = alert.activeUntil { $0.key("active_until"); date(until, &$0) }
            $0.key("cause"); $0.string(alert.cause)
            if let description = alert.description { $0.key("description"); $0.string(description) }
            $0.key("effect"); $0.string(alert.effect)
            $0.key("header"); $0.string(alert.header)
            $0.key("id"); $0.string(alert.id)
            if let language = alert.language { $0.key("language"); $0.string(language) }
            $0.key("scope"); $0.string(alert.scope)
            $0.key("severity"); $0.string(alert.severity)
            if let url = alert.url { $0.key("url"); $0.string(url) }
        }
    }

    private func write(_ nearby: NearbyStop, _ json: inout PrettyJSON) {
        json.object {
            $0.key("direction"); $0.string(nearby.direction.rawValue)
            $0.key("distance_meters"); $0.int(nearby.distanceMeters)
            $0.key("routes"); $0.array(nearby.routes) { $0.string($1) }
            $0.key("stop"); write(nearby.stop, &$0)
        }
    }

    private func write(_ route: RouteAtStop, _ json: inout PrettyJSON) {
        json.object {
            $0.key("directions")
            $0.array(route.directions) { json, direction in
                json.object {
                    if let id = direction.directionID { $0.key("direction_id"); $0.int(id) }
                    $0.key("headsigns"); $0.array(direction.headsigns) { $0.string($1) }
                }
            }
            $0.key("route"); write(route.route, &$0)
        }
    }

    private func write(_ stop: StopInfo, _ json: inout PrettyJSON) {
        json.object {
            if let code = stop.code { $0.key("code"); $0.string(code) }
            if let feed = stop.feedID { $0.key("feed_id"); $0.string(feed) }
            $0.key("id"); $0.string(stop.id)
            if let latitude = stop.latitude { $0.key("latitude"); $0.double(latitude) }
            $0.key("location_type"); $0.int(stop.locationType)
            if let longitude = stop.longitude { $0.key("longitude"); $0.double(longitude) }
            $0.key("name"); $0.string(stop.name)
            if let id = stop.parentStationID { $0.key("parent_station_id"); $0.string(id) }
            if let name = stop.parentStationName { $0.key("parent_station_name"); $0.string(name) }
            if let platform = stop.platformCode { $0.key("platform_code"); $0.string(platform) }
            $0.key("wheelchair_boarding"); $0.string(stop.wheelchairBoarding.rawValue)
        }
    }

    private func write(_ route: RouteInfo, _ json: inout PrettyJSON) {
        json.object {
            $0.key("agency"); $0.string(route.agency)
            if let color = route.color { $0.key("color"); $0.string(color) }
            if let feed = route.feedID { $0.key("feed_id"); $0.string(feed) }
            $0.key("id"); $0.string(route.id)
            if let long = route.longName { $0.key("long_name"); $0.string(long) }
            $0.key("mode"); $0.string(route.mode.rawValue)
            if let short = route.shortName { $0.key("short_name"); $0.string(short) }
            if let text = route.textColor { $0.key("text_color"); $0.string(text) }
        }
    }
}

/// JSON text in the layout of Foundation's `JSONEncoder` with `.prettyPrinted` (two-space indent, `"key" : value`,
/// an empty container as an opening line, an empty line and the closing one) and `.withoutEscapingSlashes`, strings
/// escaped as it escapes them plus the invisible controls `JSONText.escapingInvisibleControls` escapes. The caller
/// writes each object's keys in sorted order (checked in debug builds).
struct PrettyJSON {
    private(set) var bytes: [UInt8] = []
    /// Per open container: whether it has an element yet; and, for objects, the last key written.
    private var open: [(hasElements: Bool, lastKey: String?)] = []

    init() { bytes.reserveCapacity(16 * 1024) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func object(_ body: (inout PrettyJSON) -> Void) {
        openContainer("{")
        body(&self)
        closeContainer("}")
    }

    mutating func array<Items: Sequence>(_ items: Items, _ each: (inout PrettyJSON, Items.Element) -> Void) {
        openContainer("[")
        for item in items {
            startElement()
            each(&self, item)
        }
        closeContainer("]")
    }

    mutating func key(_ key: String) {
        assert(open.last?.lastKey.map { $0.utf8.lexicographicallyPrecedes(key.utf8) } ?? true, "\(key) out of order")
        startElement()
        open[open.count - 1].lastKey = key
        string(key)
        bytes.append(contentsOf: " : ".utf8)
    }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// As Foundation writes a `Double`: Swift's shortest round-trip form, without the `.0` of whole numbers.
    mutating func double(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string: the text's UTF-8 copied in runs, with escapes only where JSON or `JSONText` asks for them.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var run = 0  // where the bytes not yet copied begin
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x80 {
                // A scalar of 2 to 4 bytes (a String's UTF-8 is valid), kept unless JSONText escapes it.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                var value = UInt32(byte) & (0xFF >> (length + 1))
                for next in utf8[(index + 1)..<(index + length)] { value = value << 6 | UInt32(next & 0x3F) }
                let scalar = Unicode.Scalar(value)!
                if JSONText.needsEscape(scalar) {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                    unicodeEscape(scalar)
                    run = index + length
                }
                index += length
                continue
            }
            let escape: StaticString?
            switch byte {
            case 0x22: escape = #"\""#
            case 0x5C: escape = #"\\"#
            case 0x0A: escape = #"\n"#
            case 0x0D: escape = #"\r"#
            case 0x09: escape = #"\t"#
            case 0x08: escape = #"\b"#
            case 0x0C: escape = #"\f"#
            case 0x00..<0x20: escape = nil
            default:
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
            if let escape {
                bytes.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            } else {
                unicodeEscape(Unicode.Scalar(byte))
            }
            index += 1
            run = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
    }

    private mutating func unicodeEscape(_ scalar: Unicode.Scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: false)
        bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
    }

    private mutating func openContainer(_ bracket: Character) {
        bytes.append(contentsOf: String(bracket).utf8)
        open.append((false, nil))
    }

    private mutating func closeContainer(_ bracket: Character) {
        let container = open.removeLast()
        bytes.append(UInt8(ascii: "\n"))
        if !container.hasElements { bytes.append(UInt8(ascii: "\n")) }
        indent()
        bytes.append(contentsOf: String(bracket).utf8)
    }

    private mutating func startElement() {
        if open[open.count - 1].hasElements {
            bytes.append(contentsOf: ",\n".utf8)
        } else {
            open[open.count - 1].hasElements = true
            bytes.append(UInt8(ascii: "\n"))
        }
        indent()
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * open.count))
    }
}
