import Foundation
import StopCodes
import TransitModel

/// Everything a kiosk can be configured with. Every command reads the same value, so `kiosk lookup` parses a
/// scanned URL exactly as the kiosk screen does. Defaults are what a kiosk does with no config file.
public struct KioskConfig: Sendable, Equatable {
    /// Camera device path (`/dev/video0`, `/dev/v4l/by-id/…`).
    public var cameraDevice = "/dev/video0"
    public var cameraWidth = 1280
    public var cameraHeight = 720
    public var cameraFramesPerSecond = 30
    /// Route database; nil means the bundled sample network.
    public var databasePath: String?
    /// The stop the idle screen shows departures for (a stop ID or code); nil: none.
    public var homeStop: String?
    /// The language every surface starts in: the passenger locale's. Setting it configures it (the config file's
    /// `language`, `--lang`), which wins over the feed's when the locale is decided (`decidePassengerLocale`).
    public var language: Language {
        get { passengerLocale.language }
        set {
            configuredLanguage = newValue
            passengerLocale.language = newValue
            passengerLocale.languageSource = "config language"
        }
    }
    /// `language` as configured; nil: the feed decides.
    public var configuredLanguage: Language?
    /// `locale = "en_US"`: the country whose clock, date and distance conventions passengers read.
    public var locale: PassengerLocale.Setting?
    /// The locale decided for this process (language and conventions); `language` is its language.
    public var passengerLocale = PassengerLocale.standard
    public var windowMinutes = 60
    public var nearbyRadiusMeters = 400
    /// Journey plans from the kiosk: most transfers an option may have, and walks between stops up to this far.
    public var maxTransfers = 3
    public var walkRadiusMeters = 400
    public var idleTimeoutSeconds = 60
    /// zbar symbology names: "qrcode", "code128", "ean13" …
    public var symbologies = ["qrcode", "code128", "ean13"]
    /// Decoders: "zbar" (always first when named) and "zxing" (zxing-cpp, for what zbar misses).
    public var decoders = ["zbar", "zxing"]
    /// The same code seen again within this many seconds does not trigger again.
    public var debounceSeconds = 3.0
    public var signaturePolicy: SignaturePolicy = .prefer
    /// One-line public keys (`stopkiosk-ed25519-public-v1:…`) trusted for signed labels.
    public var publicKeys: [String] = []
    /// Overrides the feed ID signed labels name (default: the database's, see `RouteDatabase.feedID`).
    public var feedID: String?
    /// The URL this network's labels carry.
    public var urlTemplate = "https://transit.example/s/{stop}"
    /// Other agencies' stop URLs the scanner also understands.
    public var foreignTemplates: [String] = []
    /// Live data (`[realtime]`): the GTFS-Realtime feeds, how often they are polled, and the mode.
    public var realtime = RealtimeSettings()
    /// `kiosk update`: the agency's static GTFS zip (`[update] gtfs_url`) and request headers for it.
    public var updateURL: String?
    public var updateHeaders: [String: String] = [:]
    /// `[[update.feeds]]`: the feeds of a database of several (each id, URL and headers), and `[update] transfers`
    /// and `interchanges`, the region's files of transfers and shared places between them.
    public var updateFeeds: [UpdateFeedSource] = []
    public var updateTransfers: String?
    public var updateInterchanges: String?
    /// `[speech]`: spoken departures, their keys, volume and quiet hours.
    public var speech = SpeechSettings()
    /// `[display]`: theme and layout of the terminal screen and of `kiosk serve`'s pages.
    public var display = DisplaySettings()

    /// `[server]`: `kiosk serve`.
    public var server = ServerSettings()
    /// `[metrics]`: `kiosk run`'s Prometheus endpoint (off by default).
    public var metrics = MetricsSettings()

    public init() {}

    /// Decides the locale once for the process: `--lang` (`commandLine`), the config, then the route database's
    /// feed (`feed`), else Spanish; `language` follows it.
    public mutating func decidePassengerLocale(commandLine: Language? = nil, feed: PassengerLocale.FeedFacts?) {
        passengerLocale = PassengerLocale.decide(
            commandLine: commandLine, configLanguage: configuredLanguage, configLocale: locale, feed: feed)
    }

    /// The payload parser this configuration describes, for a database whose feed ID is `databaseFeedID`.
    public func payloadParser(databaseFeedID: String) throws -> PayloadParser {
        PayloadParser(
            feedID: feedID ?? databaseFeedID, ownTemplates: [try StopURLTemplate(urlTemplate)],
            foreignTemplates: try foreignTemplates.map { try StopURLTemplate($0) },
            trustedKeys: try publicKeys.map { try PublicKey(encoded: $0) }, policy: signaturePolicy)
    }
}

/// `[server]`: where `kiosk serve` listens and the limits it keeps (`kiosk/kiosk.example.toml` documents each key).
public struct ServerSettings: Sendable, Equatable {
    /// The address to listen on: loopback unless the operator opens it up.
    public var host = "127.0.0.1"
    public var port = 8080
    /// Origins (`https://signage.example`) whose pages may read the JSON API from a browser; `*` allows any.
    public var corsOrigins: [String] = []
    /// How long a proxy or browser may keep a stop view, plan or search (the `Cache-Control` max-age).
    public var cacheSeconds = 60
    /// An HTTP connection with nothing to read or write for this long is closed.
    public var idleConnectionSeconds = 30
    /// Longest request target (path and query), in bytes; longer is refused with 414.
    public var maxURLBytes = 4096
    /// Largest request header block, in bytes (the HTTP parser refuses more).
    public var maxHeaderBytes = 16384
    /// Largest request body, in bytes; the API takes none (413 beyond).
    public var maxBodyBytes = 16384
    /// How often the database file is checked for a replacement by `kiosk import`, in milliseconds (0: every request).
    public var reloadCheckMilliseconds = 500
    /// What `/kiosk` scans: "camera" (the `[camera]` device), a Y4M file or an image folder to replay, "demo" (the
    /// recorded demo session) or "off".
    public var scanSource = "off"
    /// Connections served at once; the server lowers it to fit its file limit (`ConnectionBudget`). Connections
    /// beyond it are answered 503 and closed.
    public var maxConnections = 4096
    /// `/kiosk/events` streams open at once, from everyone and from one client address (503 beyond).
    public var maxEventStreams = 64
    public var maxEventStreamsPerAddress = 4
    /// A connection whose client takes none of the answer buffered for it (beyond the write buffer's mark) for this
    /// many seconds is closed: a reader that trickles cannot keep its connection and its answer for ever.
    public var slowReaderSeconds = 30
    /// Per-client limits on the expensive endpoints (plans, spoken stop views, SVG maps), for a server with no
    /// proxy in front: a token bucket per client address (an IPv6 address's /64) holding `…Burst` requests and
    /// refilled at `…RequestsPerMinute`; past it `429` with `Retry-After`. A rate of 0 leaves that kind unlimited;
    /// `rateLimits = false` all of them.
    public var rateLimits = true
    public var planRequestsPerMinute = 20
    public var planBurst = 10
    public var speechRequestsPerMinute = 20
    public var speechBurst = 10
    /// A stop page shows a map and opens line diagrams, a plan page a map per option: more than plans.
    public var mapRequestsPerMinute = 120
    public var mapBurst = 60
    /// Client addresses the limits remember at most (idle ones go first, then the least recently seen).
    public var rateLimitClients = 10_000
    /// Peers (addresses or networks, `10.0.0.0/8`) whose `X-Real-IP` / `X-Forwarded-For` name the client: a
    /// reverse proxy in front. Loopback by default (nginx on the same box); headers from anyone else are ignored.
    public var trustedProxies = ["127.0.0.1", "::1"]

    public init() {}
}
