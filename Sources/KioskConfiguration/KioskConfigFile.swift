import Foundation
import Scanning
import StopCodes
import SystemSupport
import TOMLKit
import TransitModel

/// A config file that cannot be used: names the file, the key (dotted, e.g. `camera.width`) and what is wrong.
public struct KioskConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// The dotted key, or nil for a problem with the file as a whole (unreadable, TOML syntax).
    public var key: String?
    public var problem: String

    public init(file: String, key: String?, problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    public var description: String {
        key.map { "\(file): \($0): \(problem)" } ?? "\(file): \(problem)"
    }
}

/// Reads the kiosk's TOML config (`kiosk/kiosk.example.toml` documents every key) into a `KioskConfig`.
///
/// Strict on purpose: an unknown key (a typo such as `idle_timout_seconds`), a value of the wrong type or out
/// of range is an error naming the file and the key, so a kiosk never runs quietly with a setting ignored.
public enum KioskConfigFile {
    /// Every key, by table ("" for the top level), in the order the example file documents them.
    public static let knownKeys: [String: [String]] = [
        "": ["language", "locale", "home_stop", "idle_timeout_seconds"],
        "camera": ["device", "width", "height", "frames_per_second"],
        "database": ["path"],
        "timetable": ["window_minutes", "nearby_radius_meters", "max_transfers", "walk_radius_meters"],
        "scanner": ["symbologies", "debounce_seconds", "decoders"],
        "labels": ["url_template", "foreign_templates", "signature_policy", "public_keys", "feed_id"],
        "server": [
            "host", "port", "cors_origins", "cache_seconds", "idle_connection_seconds", "max_url_bytes",
            "max_header_bytes", "max_body_bytes", "reload_check_milliseconds", "scan_source", "max_connections",
            "max_event_streams", "max_event_streams_per_address", "slow_reader_seconds", "rate_limits",
            "plan_requests_per_minute", "plan_burst", "speech_requests_per_minute", "speech_burst",
            "map_requests_per_minute", "map_burst", "rate_limit_clients", "trusted_proxies",
        ],
        "realtime": ["trip_updates", "alerts", "vehicle_positions", "poll_seconds", "mode", "headers", "feed", "feeds"],
        "update": ["gtfs_url", "headers", "feeds", "transfers", "interchanges"],
        "speech": [
            "enabled", "auto_speak", "volume", "rate", "volume_step", "quiet_hours", "quiet_volume", "speak_key",
            "more_key", "volume_down_key", "volume_up_key", "output", "player", "log_file",
        ],
        "display": ["theme", "layout"],
        "metrics": ["listen"],
    ]

    /// Longest config file accepted: a real one is a few kilobytes.
    public static let maxFileBytes = 1 << 20

    public static func load(path: String) throws(KioskConfigError) -> KioskConfig {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: maxFileBytes)
        } catch {
            let problem: String
            switch error.problem {
            case .notFound: problem = "no such file (copy kiosk/kiosk.example.toml and edit it)"
            case .isDirectory: problem = "is a directory, not a config file"
            case .permissionDenied: problem = "cannot be read: permission denied"
            default: problem = error.reason
            }
            throw KioskConfigError(file: path, key: nil, problem: problem)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KioskConfigError(file: path, key: nil, problem: "is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(KioskConfigError) -> KioskConfig {
        if let problem = TOMLPrecheck.check(text) {
            throw KioskConfigError(
                file: "\(file):\(problem.line):\(problem.column)", key: nil,
                problem: "TOML syntax error: \(problem.reason)")
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw KioskConfigError(
                file: "\(file):\(error.source.begin.line):\(error.source.begin.column)", key: nil,
                problem: "TOML syntax error: \(error.description)")
        } catch {
            throw KioskConfigError(file: file, key: nil, problem: "TOML syntax error: \(error)")
        }
        let reader = Reader(file: file)
        var config = KioskConfig()

        for key in root.keys.sorted() {
            guard let value = root[key] else { continue }
            if value.type == .table {
                guard knownKeys[key] != nil, key != "" else { throw reader.unknown(key, in: "") }
                try reader.checkKeys(value.table!, table: key)
            } else if knownKeys[key] != nil {
                throw reader.error(
                    key, "must be a table ([\(key)] on a line of its own, then its keys), not a \(value.type)")
            } else if !(knownKeys[""]!.contains(key)) {
                throw reader.unknown(key, in: "")
            }
        }

        if let v = try reader.string(root, "language") {
            guard let language = Language(rawValue: v) else {
                throw reader.error("language", "must be \"es\" or \"en\", not \"\(clean(v))\"")
            }
            config.language = language
        }
        if let v = try reader.string(root, "locale") {
            guard let setting = PassengerLocale.Setting(v) else {
                throw reader.error(
                    "locale", "must be a language and country such as \"en_US\" or \"es_EC\" (language es or en), "
                        + "or a country such as \"US\", not \"\(clean(v))\"")
            }
            config.locale = setting
        }
        // Until the route database is opened (`KioskConfig.decidePassengerLocale`), the config's own choice.
        config.decidePassengerLocale(feed: nil)
        if let v = try reader.string(root, "home_stop") {
            guard !v.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw reader.error("home_stop", "is empty; give a stop ID or code, or leave the key out")
            }
            config.homeStop = v
        }
        if let v = try reader.int(root, "idle_timeout_seconds", 5...3600) { config.idleTimeoutSeconds = v }

        if let camera = try reader.table(root, "camera") {
            if let v = try reader.string(camera, "device", prefix: "camera.") {
                guard v.hasPrefix("/") else {
                    throw reader.error(
                        "camera.device", "must be an absolute device path such as /dev/video0, not \"\(clean(v))\"")
                }
                config.cameraDevice = v
            }
            if let v = try reader.int(camera, "width", 160...4096, prefix: "camera.") { config.cameraWidth = v }
            if let v = try reader.int(camera, "height", 120...4096, prefix: "camera.") { config.cameraHeight = v }
            if let v = try reader.int(camera, "frames_per_second", 1...120, prefix: "camera.") {
                config.cameraFramesPerSecond = v
            }
        }
        if let database = try reader.table(root, "database") {
            if let v = try reader.string(database, "path", prefix: "database.") {
                guard !v.isEmpty else { throw reader.error("database.path", "is empty") }
                config.databasePath = v
            }
        }
        if let timetable = try reader.table(root, "timetable") {
            if let v = try reader.int(timetable, "window_minutes", 1...1440, prefix: "timetable.") {
                config.windowMinutes = v
            }
            if let v = try reader.int(timetable, "nearby_radius_meters", 0...5000, prefix: "timetable.") {
                config.nearbyRadiusMeters = v
            }
            if let v = try reader.int(timetable, "max_transfers", 0...8, prefix: "timetable.") {
                config.maxTransfers = v
            }
            if let v = try reader.int(
                timetable, "walk_radius_meters", 0...PlanningRules.walkRadiusLimit, prefix: "timetable.")
            {
                config.walkRadiusMeters = v
            }
        }
        if let scanner = try reader.table(root, "scanner") {
            if let v = try reader.strings(scanner, "symbologies", prefix: "scanner.") {
                do {
                    _ = try ScanSymbologies.parse(v)
                } catch {
                    throw reader.error("scanner.symbologies", error.description)
                }
                config.symbologies = v
            }
            if let v = try reader.double(scanner, "debounce_seconds", 0...3600, prefix: "scanner.") {
                config.debounceSeconds = v
            }
            if let v = try reader.strings(scanner, "decoders", prefix: "scanner.") {
                do { _ = try DecoderKind.parse(v) } catch { throw reader.error("scanner.decoders", error.description) }
                config.decoders = v
            }
        }
        if let labels = try reader.table(root, "labels") {
            if let v = try reader.string(labels, "url_template", prefix: "labels.") {
                do { _ = try StopURLTemplate(v) } catch { throw reader.error("labels.url_template", error.description) }
                config.urlTemplate = v
            }
            if let v = try reader.strings(labels, "foreign_templates", prefix: "labels.") {
                for (i, template) in v.enumerated() {
                    do { _ = try StopURLTemplate(template) } catch {
                        throw reader.error("labels.foreign_templates[\(i)]", error.description)
                    }
                }
                config.foreignTemplates = v
            }
            if let v = try reader.string(labels, "signature_policy", prefix: "labels.") {
                guard let policy = SignaturePolicy(rawValue: v) else {
                    throw reader.error(
                        "labels.signature_policy", "must be \"require\", \"prefer\" or \"off\", not \"\(clean(v))\"")
                }
                config.signaturePolicy = policy
            }
            if let v = try reader.strings(labels, "public_keys", prefix: "labels.") {
                for (i, key) in v.enumerated() {
                    do { _ = try PublicKey(encoded: key) } catch {
                        throw reader.error(
                            "labels.public_keys[\(i)]",
                            "not a public key (\(error)); copy the 'stopkiosk-ed25519-public-v1:…' line from 'kiosk keys'"
                        )
                    }
                }
                config.publicKeys = v
            }
            if let v = try reader.string(labels, "feed_id", prefix: "labels.") {
                guard !v.isEmpty else {
                    throw reader.error("labels.feed_id", "is empty; leave the key out to use the database's")
                }
                config.feedID = v
            }
        }
        if let server = try reader.table(root, "server") {
            try readServer(server, reader, into: &config.server)
        }
        if let realtime = try reader.table(root, "realtime") {
            config.realtime = try readRealtimeSection(realtime, reader: reader)
        }
        if let update = try reader.table(root, "update") {
            if let v = try reader.string(update, "gtfs_url", prefix: "update.") {
                guard Self.isHTTPURL(v) else {
                    throw reader.error(
                        "update.gtfs_url",
                        "must be the http:// or https:// URL of the agency's GTFS zip, not \"\(clean(v))\"")
                }
                config.updateURL = v
            }
            config.updateHeaders = try readHeaders(update, key: "update.headers", reader: reader)
            try readUpdateFeeds(update, reader: reader, into: &config)
        }
        if let speech = try reader.table(root, "speech") { config.speech = try parseSpeech(speech, reader) }
        if let metrics = try reader.table(root, "metrics") { config.metrics = try readMetrics(metrics, reader) }
        if let display = try reader.table(root, "display") {
            if let v = try reader.string(display, "theme", prefix: "display.") {
                guard let theme = DisplaySettings.Theme(rawValue: v) else {
                    throw reader.error("display.theme", "must be \"default\" or \"high-contrast\", not \"\(clean(v))\"")
                }
                config.display.theme = theme
            }
            if let v = try reader.string(display, "layout", prefix: "display.") {
                guard let layout = DisplaySettings.Layout(rawValue: v) else {
                    throw reader.error("display.layout", "must be \"standard\" or \"large\", not \"\(clean(v))\"")
                }
                config.display.layout = layout
            }
        }
        if config.signaturePolicy == .require && config.publicKeys.isEmpty {
            throw reader.error(
                "labels.public_keys",
                "signature_policy = \"require\" needs at least one public key, or every label would be refused")
        }
        return config
    }

    /// `headers = { "name" = "value", … }` in a table: request headers (API keys), names checked as HTTP tokens.
    static func readHeaders(
        _ table: TOMLTable, key: String, reader: Reader
    ) throws(KioskConfigError) -> [String: String] {
        guard let value = table["headers"] else { return [:] }
        guard let headers = value.table else {
            throw reader.error(
                key,
                "must be a table of header names and values, e.g. headers = { \"x-api-key\" = \"…\" }, not a \(value.type)"
            )
        }
        var result: [String: String] = [:]
        for name in headers.keys.sorted() {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ Self.tokenCharacters.contains($0) }) else {
                throw reader.error(
                    "\(key).\(clean(name))", "\"\(clean(name))\" is not an HTTP header name (letters, digits, - and _)")
            }
            guard let text = try reader.string(headers, name, prefix: "\(key).") else { continue }
            result[name] = text
        }
        return result
    }

    /// Whether `text` is an http:// or https:// URL with a host.
    public static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }

    /// Characters of an HTTP header name (RFC 9110 token).
    static let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(
        CharacterSet(charactersIn: "a"..."z")
    ).union(CharacterSet(charactersIn: "A"..."Z")).union(CharacterSet(charactersIn: "0"..."9"))

    static func parseSpeech(_ table: TOMLTable, _ reader: Reader) throws(KioskConfigError) -> SpeechSettings {
        var speech = SpeechSettings()
        let p = "speech."
        if let v = try reader.bool(table, "enabled", prefix: p) { speech.enabled = v }
        if let v = try reader.bool(table, "auto_speak", prefix: p) { speech.autoSpeak = v }
        if let v = try reader.int(table, "volume", 0...200, prefix: p) { speech.volume = v }
        if let v = try reader.int(table, "rate", 80...450, prefix: p) { speech.rate = v }
        if let v = try reader.int(table, "volume_step", 1...100, prefix: p) { speech.volumeStep = v }
        if let v = try reader.int(table, "quiet_volume", 0...200, prefix: p) { speech.quietVolume = v }
        if let v = try reader.string(table, "quiet_hours", prefix: p) {
            if v.isEmpty {
                speech.quietHours = nil
            } else {
                guard let hours = SpeechSettings.parseQuietHours(v) else {
                    throw reader.error(
                        "speech.quiet_hours",
                        "must be \"HH:MM-HH:MM\" (e.g. \"22:00-06:00\") or \"\", not \"\(clean(v))\"")
                }
                speech.quietHours = hours
            }
        }
        var keys: [(String, Int)] = []
        for name in ["speak_key", "more_key", "volume_down_key", "volume_up_key"] {
            guard let v = try reader.string(table, name, prefix: p) else { continue }
            guard let key = SpeechSettings.parseKey(v) else {
                throw reader.error("speech.\(name)", "must be a function key \"F1\" … \"F12\", not \"\(clean(v))\"")
            }
            guard key != 2 else {
                throw reader.error("speech.\(name)", "F2 switches the language; choose another function key")
            }
            keys.append((name, key))
            switch name {
            case "speak_key": speech.speakKey = key
            case "more_key": speech.moreKey = key
            case "volume_down_key": speech.volumeDownKey = key
            default: speech.volumeUpKey = key
            }
        }
        let all = [speech.speakKey, speech.moreKey, speech.volumeDownKey, speech.volumeUpKey]
        if Set(all).count != all.count {
            throw reader.error(
                "speech.\(keys.last?.0 ?? "speak_key")",
                "the speak, more, volume down and volume up keys must be four different keys (F\(all.map(String.init).joined(separator: ", F")))"
            )
        }
        let player = try reader.string(table, "player", prefix: p)
        let logFile = try reader.string(table, "log_file", prefix: p)
        switch try reader.string(table, "output", prefix: p) ?? "player" {
        case "player":
            guard logFile == nil else {
                throw reader.error("speech.log_file", "is only used with output = \"log\"")
            }
            speech.output = .player(player.flatMap { $0.isEmpty ? nil : $0 })
        case "log":
            guard let logFile, !logFile.isEmpty else {
                throw reader.error("speech.log_file", "output = \"log\" needs log_file = \"/path/to/speech.log\"")
            }
            speech.output = .log(path: logFile)
        case let other:
            throw reader.error("speech.output", "must be \"player\" or \"log\", not \"\(clean(other))\"")
        }
        return speech
    }

    static func clean(_ text: String) -> String { TerminalText.sanitize(text, maxLength: 60) }

    /// An IPv4 or IPv6 address, optionally with a prefix length (`10.0.0.0/8`, `fd00::/8`).
    static func isAddressOrNetwork(_ text: String) -> Bool {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first else { return false }
        var v4 = in_addr()
        var v6 = in6_addr()
        let bits: Int
        if inet_pton(AF_INET, String(first), &v4) == 1 {
            bits = 32
        } else if inet_pton(AF_INET6, String(first), &v6) == 1 {
            bits = 128
        } else {
            return false
        }
        guard parts.count == 2 else { return true }
        return Int(parts[1]).map { (0...bits).contains($0) } ?? false
    }

    static func readServer(
        _ table: TOMLTable, _ reader: Reader, into server: inout ServerSettings
    )
        throws(KioskConfigError)
    {
        let p = "server."
        if let v = try reader.string(table, "host", prefix: p) {
            guard !v.isEmpty, v.allSatisfy({ $0.isLetter || $0.isNumber || ".:-_".contains($0) }) else {
                throw reader.error(
                    "server.host", "must be an IP address or host name such as 127.0.0.1, not \"\(clean(v))\"")
            }
            server.host = v
        }
        if let v = try reader.int(table, "port", 0...65535, prefix: p) { server.port = v }
        if let v = try reader.strings(table, "cors_origins", prefix: p) {
            for (i, origin) in v.enumerated() where origin != "*" {
                guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme),
                    url.host != nil, url.path.isEmpty, url.query == nil
                else {
                    throw reader.error(
                        "server.cors_origins[\(i)]",
                        "must be an origin such as \"https://signage.example\" (scheme, host, optional port; no path) or \"*\", not \"\(clean(origin))\""
                    )
                }
            }
            server.corsOrigins = v
        }
        if let v = try reader.int(table, "cache_seconds", 0...86400, prefix: p) { server.cacheSeconds = v }
        if let v = try reader.int(table, "idle_connection_seconds", 1...3600, prefix: p) {
            server.idleConnectionSeconds = v
        }
        if let v = try reader.int(table, "max_url_bytes", 256...65536, prefix: p) { server.maxURLBytes = v }
        if let v = try reader.int(table, "max_header_bytes", 1024...1_048_576, prefix: p) { server.maxHeaderBytes = v }
        if let v = try reader.int(table, "max_body_bytes", 0...1_048_576, prefix: p) { server.maxBodyBytes = v }
        if let v = try reader.int(table, "reload_check_milliseconds", 0...60000, prefix: p) {
            server.reloadCheckMilliseconds = v
        }
        if let v = try reader.int(table, "max_connections", 1...1_000_000, prefix: p) { server.maxConnections = v }
        if let v = try reader.int(table, "max_event_streams", 1...100_000, prefix: p) { server.maxEventStreams = v }
        if let v = try reader.int(table, "max_event_streams_per_address", 1...100_000, prefix: p) {
            server.maxEventStreamsPerAddress = v
        }
        if let v = try reader.int(table, "slow_reader_seconds", 1...3600, prefix: p) { server.slowReaderSeconds = v }
        if let v = try reader.bool(table, "rate_limits", prefix: p) { server.rateLimits = v }
        if let v = try reader.int(table, "plan_requests_per_minute", 0...100_000, prefix: p) {
            server.planRequestsPerMinute = v
        }
        if let v = try reader.int(table, "plan_burst", 1...100_000, prefix: p) { server.planBurst = v }
        if let v = try reader.int(table, "speech_requests_per_minute", 0...100_000, prefix: p) {
            server.speechRequestsPerMinute = v
        }
        if let v = try reader.int(table, "speech_burst", 1...100_000, prefix: p) { server.speechBurst = v }
        if let v = try reader.int(table, "map_requests_per_minute", 0...100_000, prefix: p) {
            server.mapRequestsPerMinute = v
        }
        if let v = try reader.int(table, "map_burst", 1...100_000, prefix: p) { server.mapBurst = v }
        if let v = try reader.int(table, "rate_limit_clients", 100...10_000_000, prefix: p) {
            server.rateLimitClients = v
        }
        if let v = try reader.strings(table, "trusted_proxies", prefix: p) {
            for (i, proxy) in v.enumerated() where !isAddressOrNetwork(proxy) {
                throw reader.error(
                    "server.trusted_proxies[\(i)]",
                    "must be an IP address or network such as \"127.0.0.1\", \"::1\" or \"10.0.0.0/8\", not \"\(clean(proxy))\""
                )
            }
            server.trustedProxies = v
        }
        if let v = try reader.string(table, "scan_source", prefix: p) {
            guard ["camera", "demo", "off"].contains(v) || v.hasPrefix("/") else {
                throw reader.error(
                    "server.scan_source",
                    "must be \"camera\", \"demo\", \"off\" or the absolute path of a Y4M file or image folder, not \"\(clean(v))\""
                )
            }
            server.scanSource = v
        }
    }

    struct Reader {
        let file: String

        func error(_ key: String, _ problem: String) -> KioskConfigError {
            KioskConfigError(file: file, key: key, problem: problem)
        }

        func unknown(_ key: String, in table: String) -> KioskConfigError {
            let known =
                (KioskConfigFile.knownKeys[table] ?? [])
                + (table.isEmpty
                    ? KioskConfigFile.knownKeys.keys.filter { !$0.isEmpty }.sorted().map { "[\($0)]" } : [])
            let name = table.isEmpty ? key : "\(table).\(key)"
            return error(
                name, "unknown key (known\(table.isEmpty ? "" : " in [\(table)]"): \(known.joined(separator: ", ")))")
        }

        func checkKeys(_ table: TOMLTable, table name: String) throws(KioskConfigError) {
            for key in table.keys.sorted() where !(KioskConfigFile.knownKeys[name] ?? []).contains(key) {
                throw unknown(key, in: name)
            }
        }

        func table(_ root: TOMLTable, _ key: String) throws(KioskConfigError) -> TOMLTable? {
            guard let value = root[key] else { return nil }
            guard let table = value.table else { throw error(key, "must be a table ([\(key)]), not a \(value.type)") }
            return table
        }

        func string(_ table: TOMLTable, _ key: String, prefix: String = "") throws(KioskConfigError) -> String? {
            guard let value = table[key] else { return nil }
            guard let string = value.string else {
                throw error(prefix + key, "must be a string in quotes, not a \(value.type)")
            }
            guard !string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw error(prefix + key, "contains control characters")
            }
            return string
        }

        func int(
            _ table: TOMLTable, _ key: String, _ range: ClosedRange<Int>, prefix: String = ""
        ) throws(KioskConfigError) -> Int? {
            guard let value = table[key] else { return nil }
            guard let int = value.int else {
                throw error(
                    prefix + key,
                    "must be a whole number between \(range.lowerBound) and \(range.upperBound), not a \(value.type)")
            }
            guard range.contains(int) else {
                throw error(prefix + key, "must be between \(range.lowerBound) and \(range.upperBound), not \(int)")
            }
            return int
        }

        func bool(_ table: TOMLTable, _ key: String, prefix: String = "") throws(KioskConfigError) -> Bool? {
            guard let value = table[key] else { return nil }
            guard let bool = value.bool else { throw error(prefix + key, "must be true or false, not a \(value.type)") }
            return bool
        }

        func double(
            _ table: TOMLTable, _ key: String, _ range: ClosedRange<Double>, prefix: String = ""
        ) throws(KioskConfigError) -> Double? {
            guard let value = table[key] else { return nil }
            guard let number = value.double ?? value.int.map(Double.init) else {
                throw error(prefix + key, "must be a number of seconds, not a \(value.type)")
            }
            guard number.isFinite, range.contains(number) else {
                throw error(prefix + key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
            }
            return number
        }

        func strings(_ table: TOMLTable, _ key: String, prefix: String = "") throws(KioskConfigError) -> [String]? {
            guard let value = table[key] else { return nil }
            guard let array = value.array else {
                throw error(prefix + key, "must be a list of strings, e.g. [\"a\", \"b\"], not a \(value.type)")
            }
            var result: [String] = []
            for (i, element) in array.enumerated() {
                guard let string = element.string else {
                    throw error("\(prefix)\(key)[\(i)]", "must be a string, not a \(element.type)")
                }
                result.append(string)
            }
            return result
        }
    }
}
