import Foundation

/// What a passenger reads and hears in: the language, and the feed's country's way of writing clock times, dates
/// and distances. Decided once per process (`decide`) from the command line, the config and the feed, and passed
/// down to every surface; a web request may speak the other language (`speaking`) but keeps the conventions.
public struct PassengerLocale: Sendable, Equatable, CustomStringConvertible {
    public enum Clock: String, Sendable, Equatable {
        /// "15:05"
        case twentyFourHour = "24-hour"
        /// "3:05 PM" / "3:05 p. m."
        case twelveHour = "12-hour"
    }

    public enum DateStyle: String, Sendable, Equatable {
        /// 12/11/2020, 05/08/2026
        case dayMonthYear = "d/m/y"
        /// 12.11.2020, 05.08.2026
        case dayMonthYearDots = "d.m.y"
        /// 11/12/2020
        case monthDayYear = "m/d/y"
        /// 2020-11-12
        case iso = "y-m-d"

        /// A calendar date in this style.
        public func format(_ date: ServiceDate) -> String {
            let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
            switch self {
            case .dayMonthYear: return "\(two(date.day))/\(two(date.month))/\(date.year)"
            case .dayMonthYearDots: return "\(two(date.day)).\(two(date.month)).\(date.year)"
            case .monthDayYear: return "\(date.month)/\(date.day)/\(date.year)"
            case .iso: return date.description
            }
        }
    }

    public enum Units: String, Sendable, Equatable {
        case metric = "metres"
        case imperial = "feet and miles"
    }

    public var language: Language
    /// The ISO 3166 country whose conventions these are ("US"); nil: none known (24-hour, ISO dates, metres).
    public var region: String?
    public var clock: Clock
    public var dates: DateStyle
    public var units: Units
    /// Why the language was chosen: "--lang", "config language", "feed_info.feed_lang", "agency_lang", "default".
    public var languageSource: String
    /// Why the conventions were chosen: "config locale", "agency_timezone America/New_York", "default".
    public var regionSource: String

    public init(language: Language, region: String?, languageSource: String = "", regionSource: String = "") {
        self.language = language
        self.region = region
        let conventions = Self.conventions(region: region)
        clock = conventions.clock
        dates = conventions.dates
        units = conventions.units
        self.languageSource = languageSource
        self.regionSource = regionSource
    }

    /// Spanish with no country: 24-hour clock, ISO dates, metres (what the product did before it read the feed).
    public static let standard = PassengerLocale(
        language: .es, region: nil, languageSource: "default", regionSource: "default")

    /// The same conventions in another language (a web reader who asked for it, F2 on the kiosk).
    public func speaking(_ other: Language) -> PassengerLocale {
        var copy = self
        copy.language = other
        return copy
    }

    /// "language en (feed_info.feed_lang), US conventions: 12-hour, m/d/y, feet and miles (agency_timezone …)".
    public var description: String {
        let country = region.map { "\($0) conventions" } ?? "no country"
        return "language \(language.rawValue) (\(languageSource)), "
            + "\(country): \(clock.rawValue) clock, dates \(dates.rawValue), "
            + "\(units.rawValue) (\(regionSource.isEmpty ? "default" : regionSource))"
    }

    // MARK: - The decision

    /// A locale setting as written in a config (`en_US`, `es-EC`, `en`, `US`): its language (es or en) and country.
    public struct Setting: Sendable, Equatable {
        public var identifier: String
        public var language: Language?
        public var region: String?

        /// Nil for anything else: a language other than es and en, a country that is not two letters.
        public init?(_ text: String) {
            let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "_" || $0 == "-" })
                .map(String.init)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isLetter) })
            else { return nil }
            identifier = text
            var rest = parts[...]
            if parts.count == 2 || parts[0] == parts[0].lowercased() {
                guard let language = Language(rawValue: parts[0].lowercased()), parts[0].count == 2 else { return nil }
                self.language = language
                rest = rest.dropFirst()
            }
            if let country = rest.first {
                guard country.count == 2, country.allSatisfy({ $0.isASCII }) else { return nil }
                region = country.uppercased()
            }
        }
    }

    /// What the route database says about its language and place (`RouteDatabase.feedLocaleFacts`).
    public struct FeedFacts: Sendable, Equatable {
        public var feedLang: String?
        /// feed_info.default_lang: the language for riders whose language is unknown, when feed_lang is `mul`.
        public var defaultLang: String?
        public var agencyLangs: [String]
        public var timeZone: String?

        public init(feedLang: String? = nil, defaultLang: String? = nil, agencyLangs: [String] = [],
                    timeZone: String? = nil) {
            self.feedLang = feedLang
            self.defaultLang = defaultLang
            self.agencyLangs = agencyLangs
            self.timeZone = timeZone
        }
    }

    /// The rule, first answer wins. Language: `--lang`, the config's `language`, the language of its `locale`,
    /// feed_info.feed_lang (its default_lang when it is `mul`), the agencies' agency_lang, else Spanish. A feed
    /// language other than es and en (Vilnius: lt) gives no answer: the next source is asked, then Spanish.
    /// Conventions: the country of the config's `locale`, else the country of the agency time zone, else none.
    public static func decide(
        commandLine: Language? = nil, configLanguage: Language? = nil, configLocale: Setting? = nil,
        feed: FeedFacts? = nil
    ) -> PassengerLocale {
        let language: (Language, String)
        if let commandLine {
            language = (commandLine, "--lang")
        } else if let configLanguage {
            language = (configLanguage, "config language")
        } else if let spoken = configLocale?.language {
            language = (spoken, "config locale \(configLocale!.identifier)")
        } else if let feed, let spoken = feedLanguage(feed) {
            language = spoken
        } else {
            language = (.es, feed == nil ? "default" : "default: the feed names no language we speak (es, en)")
        }
        if let region = configLocale?.region {
            return PassengerLocale(
                language: language.0, region: region, languageSource: language.1,
                regionSource: "config locale \(configLocale!.identifier)")
        }
        if let zone = feed?.timeZone, let country = country(ofTimeZone: zone) {
            return PassengerLocale(
                language: language.0, region: country, languageSource: language.1,
                regionSource: "agency_timezone \(zone)")
        }
        return PassengerLocale(language: language.0, region: nil, languageSource: language.1, regionSource: "default")
    }

    static func feedLanguage(_ feed: FeedFacts) -> (Language, String)? {
        if let tag = feed.feedLang.map(primaryTag) {
            if tag == "mul", let fallback = feed.defaultLang.map(primaryTag),
                let language = Language(rawValue: fallback)
            {
                return (language, "feed_info.default_lang \(fallback) (feed_lang mul)")
            }
            if let language = Language(rawValue: tag) { return (language, "feed_info.feed_lang \(tag)") }
        }
        for tag in feed.agencyLangs.map(primaryTag) {
            if let language = Language(rawValue: tag) { return (language, "agency_lang \(tag)") }
        }
        return nil
    }

    /// "EN" → "en", "en-US" → "en" (IETF BCP 47 tags, as GTFS gives them).
    public static func primaryTag(_ tag: String) -> String {
        String(tag.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
            .lowercased()
    }

    // MARK: - Countries and their conventions

    /// The country of an IANA time zone, from the system's tz database (`zone1970.tab`/`zone.tab`: each zone's
    /// ISO 3166 code), else a few zones known here; nil for zones of no country (Etc/UTC).
    public static func country(ofTimeZone zone: String) -> String? {
        if let country = zoneCountries[zone] { return country }
        return builtInZoneCountries[zone]
    }

    private static let zoneCountries: [String: String] = {
        var countries: [String: String] = [:]
        // zone.tab names one country per zone; zone1970.tab may name several (the first is where the zone is).
        // Read as bytes by index: splitting 36 KB into Characters cost a headless `kiosk lookup` 3 ms of its start.
        let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t"), hash = UInt8(ascii: "#")
        for file in ["/usr/share/zoneinfo/zone1970.tab", "/usr/share/zoneinfo/zone.tab"] {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != newline { end += 1 }
                defer { start = end + 1 }
                guard end > start, bytes[start] != hash else { continue }
                // codes TAB coordinates TAB zone [TAB comment]
                var tabs: [Int] = []
                var index = start
                while index < end && tabs.count < 3 {
                    if bytes[index] == tab { tabs.append(index) }
                    index += 1
                }
                guard tabs.count >= 2, tabs[0] > start else { continue }
                let zoneEnd = tabs.count == 3 ? tabs[2] : end
                guard zoneEnd > tabs[1] + 1 else { continue }
                let code = String(decoding: bytes[start..<min(start + 2, tabs[0])], as: UTF8.self)
                let zone = String(decoding: bytes[(tabs[1] + 1)..<zoneEnd], as: UTF8.self)
                if countries[zone] == nil || file.hasSuffix("zone.tab") {
                    countries[zone] = code
                }
            }
        }
        return countries
    }()

    /// For machines without the tz tables, and for the links (US/Eastern) they leave out.
    private static let builtInZoneCountries: [String: String] = [
        "America/New_York": "US", "America/Chicago": "US", "America/Denver": "US", "America/Phoenix": "US",
        "America/Los_Angeles": "US", "America/Anchorage": "US", "America/Detroit": "US", "America/Boise": "US",
        "Pacific/Honolulu": "US", "US/Eastern": "US", "US/Central": "US", "US/Mountain": "US", "US/Pacific": "US",
        "America/Toronto": "CA", "America/Vancouver": "CA", "America/Guayaquil": "EC", "America/Bogota": "CO",
        "America/Lima": "PE", "America/Mexico_City": "MX", "America/Santiago": "CL", "Europe/Madrid": "ES",
        "Europe/London": "GB", "Europe/Berlin": "DE", "Europe/Vilnius": "LT", "Australia/Sydney": "AU",
    ]

    /// Countries whose passengers read a 12-hour clock.
    static let twelveHourCountries: Set<String> = [
        "US", "CA", "AU", "NZ", "PH", "IN", "PK", "BD", "EG", "SA", "MY", "PR", "CO", "SV", "HN", "NI", "DO",
    ]
    /// Month first (11/12/2020).
    static let monthFirstCountries: Set<String> = ["US", "PR", "PH", "FM", "MH", "PW", "GU", "AS", "VI", "MP"]
    /// Year first (2020-11-12).
    static let yearFirstCountries: Set<String> = ["LT", "SE", "HU", "CN", "JP", "KR", "TW", "MN", "IR", "CA"]
    /// Day first with dots (12.11.2020).
    static let dotCountries: Set<String> = [
        "DE", "AT", "CH", "LI", "CZ", "SK", "PL", "RU", "UA", "BY", "FI", "NO", "DK", "IS", "TR", "RO", "HR", "SI",
        "RS", "BA", "ME", "MK", "BG", "EE", "LV", "AZ", "KZ", "GE", "AM",
    ]
    /// Feet and miles.
    static let imperialCountries: Set<String> = ["US", "PR", "LR", "MM", "GU", "AS", "VI", "MP"]

    static func conventions(region: String?) -> (clock: Clock, dates: DateStyle, units: Units) {
        guard let region else { return (.twentyFourHour, .iso, .metric) }
        let dates: DateStyle =
            monthFirstCountries.contains(region) ? .monthDayYear
            : yearFirstCountries.contains(region) ? .iso
            : dotCountries.contains(region) ? .dayMonthYearDots : .dayMonthYear
        return (
            twelveHourCountries.contains(region) ? .twelveHour : .twentyFourHour, dates,
            imperialCountries.contains(region) ? .imperial : .metric
        )
    }

    // MARK: - Formatting

    /// A local clock time: "15:05", or "3:05 PM" ("3:05 p. m." in Spanish) on a 12-hour clock.
    public func clock(_ date: Date, in zone: TimeZone) -> String {
        let text = LocalTime.clock(date, in: zone)
        guard clock == .twelveHour, let hour = Int(text.prefix(2)) else { return text }
        return twelveHour(hour: hour, minute: String(text.suffix(2)))
    }

    /// A service-day time in seconds (past 24:00 is the next calendar day's): "01:10", "1:10 AM".
    public func clock(serviceSeconds seconds: Int) -> String {
        let minutes = seconds / 60
        let hour = (minutes / 60) % 24, minute = minutes % 60
        let two = minute < 10 ? "0\(minute)" : "\(minute)"
        guard clock == .twelveHour else { return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + two }
        return twelveHour(hour: hour, minute: two)
    }

    /// The widest clock time's length ("12:59 PM"), for columns of times.
    public var clockWidth: Int { clock == .twentyFourHour ? 5 : language == .en ? 8 : 10 }

    private func twelveHour(hour: Int, minute: String) -> String {
        let shown = hour % 12 == 0 ? 12 : hour % 12
        let suffix = language == .en ? (hour < 12 ? "AM" : "PM") : (hour < 12 ? "a. m." : "p. m.")
        return "\(shown):\(minute) \(suffix)"
    }

    /// A calendar date: 11/12/2020 (US), 12/11/2020, 12.11.2020 or 2020-11-12.
    public func date(_ date: ServiceDate) -> String { dates.format(date) }

    /// A date written `YYYY-MM-DD` or `YYYYMMDD` in this locale's style; any other text as it is.
    public func date(_ text: String) -> String {
        ServiceDate(parsing: text).map(date) ?? text
    }

    /// A walking distance: "350 m", "1200 m"; "270 ft", "0.4 mi" (feet below a tenth of a mile, to 10 ft).
    public func distance(meters: Int) -> String {
        switch units {
        case .metric: return "\(meters) m"
        case .imperial:
            let feet = Double(meters) / 0.3048
            guard feet >= 528 else { return "\(Int((feet / 10).rounded()) * 10) ft" }
            return oneDecimal(feet / 5280) + " mi"
        }
    }

    private func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let text = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return language == .es ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}
