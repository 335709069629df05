import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import Speech
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import WebService

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the pages embed: the spoken stop view and the pictures, the same bytes the command line makes, and every
/// embedded URL answering; the `[display]` themes of the pages.
@Suite struct MediaRouteTests {
    static let database = try! RouteDatabase(path: TestSupport.sampleDatabase)

    static func isWellFormedXML(_ buffer: ByteBuffer) -> Bool {
        XMLParser(data: Data(buffer.readableBytesView)).parse()
    }

    @Test func theStopMapIsWhatKioskMapDraws() async throws {
        let stop = try Self.database.resolveStop(.idOrCode("1091"))
        let expected = stopMapSVG(for: try Self.database.stopMap(for: stop, radiusMeters: 400), language: .en)
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/stops/1091/map.svg?lang=en", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml; charset=utf-8")
                #expect(response.headers[.eTag] != nil)
                #expect(response.headers[.cacheControl] == "public, max-age=60")
                #expect(String(buffer: response.body) == expected)
                #expect(Self.isWellFormedXML(response.body))
            }
            try await client.execute(uri: "/api/v1/stops/1091/map.svg?radius=10", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("radius must be a whole number between 50 and 5000"))
            }
            try await client.execute(uri: "/api/v1/stops/nowhere/map.svg", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func routeDiagramsAndJourneyMaps() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/routes/L1/diagram.svg?stop=1091&lang=en", method: .get) {
                response in
                #expect(response.status == .ok)
                let svg = String(buffer: response.body)
                #expect(svg.contains("El Ejido") && svg.contains("<title"))
                #expect(Self.isWellFormedXML(response.body))
            }
            try await client.execute(uri: "/api/v1/routes/L1/diagram.svg?direction=2", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/routes/L%ZZ/diagram.svg", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("malformed percent-encoding"))
            }
            try await client.execute(uri: "/api/v1/routes/NO-SUCH/diagram.svg", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("NO-SUCH"))
            }
            let plan = "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00&lang=en"
            try await client.execute(uri: plan, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.isWellFormedXML(response.body))
                #expect(String(buffer: response.body).contains("El Ejido"))
            }
            try await client.execute(uri: plan + "&option=20", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("option 20 does not exist"))
            }
            try await client.execute(uri: "/api/v1/plan/map.svg?from=1091", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("'to' is required"))
            }
        }
    }

    @Test func theSpokenStopViewIsTheKiosksSpeechAsWAV() async throws {
        let stop = try Self.database.resolveStop(.idOrCode("1091"))
        let view = try Self.database.liveStopView(
            for: stop, at: TestSupport.morning, windowMinutes: 60, nearbyRadiusMeters: 400, live: nil,
            now: TestSupport.morning, language: "en")
        let text = StopViewSpeech.text(view, language: .en)
        #expect(text.contains("El Ejido"))
        let expected = try SpeechAudio.wav(for: text, settings: VoiceSettings(language: .en))
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/stops/1091/speech?lang=en&at=2026-11-25T08:00", method: .get) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/wav")
                #expect(response.headers[.contentLanguage] == "en")
                let bytes = Data(response.body.readableBytesView)
                #expect(bytes.prefix(4) == Data("RIFF".utf8))
                // The same text spoken: the same length to within a few samples (espeak-ng keeps some state
                // between utterances, so the samples themselves may differ by a hair).
                #expect(abs(bytes.count - expected.count) < expected.count / 50, "\(bytes.count) vs \(expected.count)")
                // 16-bit mono: more than a second of speech for a stop with departures.
                let sampleRate = bytes[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                #expect(Double(bytes.count - 44) / Double(2 * sampleRate) > 1)
            }
            try await client.execute(uri: "/api/v1/stops/1091/speech?lang=es&detail=full", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLanguage] == "es")
            }
            try await client.execute(uri: "/api/v1/stops/1091/speech?detail=everything", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("detail must be 'short' or 'full'"))
            }
            try await client.execute(uri: "/api/v1/stops/1091/speech?lang=fr", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/stops/nowhere/speech", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    /// A server asked for more speech than it can make at once refuses the excess with a problem, not a queue.
    @Test func speechBeyondTheWaitingLimitIsRefused() async throws {
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        let service = try WebService(
            config: KioskConfig(), databases: databases, now: { TestSupport.morning }, speechWaitingLimit: 0)
        try await TestSupport.withRouter(service) { client in
            try await client.execute(uri: "/api/v1/stops/1091/speech", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(String(buffer: response.body).contains("ask again in a few seconds"))
            }
            // The map beside it is unaffected.
            try await client.execute(uri: "/api/v1/stops/1091/map.svg", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// Every picture and sound a page embeds answers, with the type the page expects.
    @Test func everyEmbeddedURLAnswers() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            var embedded: [String] = []
            for page in ["/s/1091?lang=en", "/plan?from=1091&to=1011&at=2026-11-25T08:00", "/kiosk/board?stop=1091"] {
                try await client.execute(uri: page, method: .get) { response in
                    #expect(response.status == .ok, "\(page)")
                    let html = String(buffer: response.body)
                    let sources = Self.sources(in: html)
                    // The /kiosk board is a fixed display of departures (issue 37): it embeds no map.
                    if !page.hasPrefix("/kiosk") {
                        #expect(sources.contains { $0.contains("map.svg") }, "\(page) embeds no map")
                    }
                    embedded += sources
                }
            }
            #expect(embedded.contains("/api/v1/stops/MQ09A/map.svg?lang=en&legend=none"))
            #expect(embedded.contains("/api/v1/stops/MQ09A/speech?lang=en"))
            #expect(embedded.contains { $0.hasPrefix("/api/v1/routes/MQ-L1/diagram.svg?direction=") })
            #expect(
                embedded.contains { $0.hasPrefix("/api/v1/plan/map.svg?from=MQ09A&to=") && $0.contains("option=1") })
            for uri in Set(embedded) {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri): \(String(buffer: response.body).prefix(300))")
                    let type = response.headers[.contentType] ?? ""
                    #expect(type.hasPrefix(uri.contains("/speech") ? "audio/wav" : "image/svg+xml"), "\(uri)")
                }
            }
        }
    }

    /// The `src` attributes of a page, with the HTML escaping of `&` undone.
    /// The plan page's journey maps are of the plan it shows: an arrive-by plan's options (their first departure),
    /// a step-free plan's (or, when it has none, the ordinary options it offers beside it).
    @Test func thePlanPagesMapsAreOfTheArriveByAndStepFreePlan() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            func embeddedMaps(_ page: String) async throws -> [String] {
                try await client.execute(uri: page, method: .get) { response in
                    #expect(response.status == .ok, "\(page)")
                    return Self.sources(in: String(buffer: response.body)).filter {
                        $0.hasPrefix("/api/v1/plan/map.svg?")
                    }
                }
            }
            func get(_ uri: String) async throws -> String {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri): \(String(buffer: response.body).prefix(300))")
                    return String(buffer: response.body)
                }
            }
            let arriving = try await embeddedMaps("/plan?from=1091&to=1011&at=2026-11-25T09:00&when=arrive&lang=en")
            let first = try #require(arriving.first { $0.contains("option=1&") })
            #expect(
                first.contains("arrive_by=2026-11-25T09%3A00") || first.contains("arrive_by=2026-11-25T09:00"),
                "\(first)")
            // The same query as JSON: its first option's first step leaves at the time the map's first point shows.
            let query = try #require(first.split(separator: "?", maxSplits: 1).last)
            let json = try await get("/api/v1/plan?" + query)
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(plan["arrive_by"] != nil)
            let options = try #require(plan["options"] as? [[String: Any]])
            let legs = try #require(options.first?["legs"] as? [[String: Any]])
            let leaves = try #require(legs.first?["departure"] as? String)
            let map = try await get(first.replacingOccurrences(of: "legend=none", with: "legend=full"))
            #expect(map.contains(">1. " + leaves.dropFirst(11).prefix(5)), "the map's first point is not at \(leaves)")

            let stepFree = try await get("/api/v1/plan?from=1091&to=1011&at=2026-11-25T08:00&wheelchair=true")
            let hasStepFreeOptions = stepFree.contains("\"options\" : [\n    {")
            let maps = try await embeddedMaps("/plan?from=1091&to=1011&at=2026-11-25T08:00&wheelchair=on&lang=en")
            #expect(!maps.isEmpty)
            for uri in maps {
                // Step-free options are drawn from the step-free plan; the ordinary ones offered instead, from the plan
                // without the choice.
                #expect(uri.contains("wheelchair=true") == hasStepFreeOptions, "\(uri)")
                _ = try await get(uri)
            }
        }
    }

    static func sources(in html: String) -> [String] {
        html.components(separatedBy: " src=\"").dropFirst().compactMap { rest in
            rest.split(separator: "\"", maxSplits: 1).first.map {
                $0.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#38;", with: "&")
            }
        }.filter { $0.hasPrefix("/api/") }
    }

    @Test func thePagesFollowTheDisplayTheme() async throws {
        var config = KioskConfig()
        config.display.theme = .highContrast
        config.display.layout = .large
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            for (uri, body) in [
                ("/s/1091", "<body class=\"theme-high-contrast layout-large\">"),
                ("/", "<body class=\"theme-high-contrast layout-large\">"),
                ("/kiosk", "<body class=\"kiosk theme-high-contrast layout-large\""),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(String(buffer: response.body).contains(body), "\(uri)")
                }
            }
        }
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/1091", method: .get) { response in
                #expect(String(buffer: response.body).contains("<body class=\"\">"))
            }
            try await client.execute(uri: "/style.css", method: .get) { response in
                let css = String(buffer: response.body)
                #expect(css.contains("@media (prefers-contrast:more){"))
                #expect(css.contains("body.theme-high-contrast .badge{"))
                #expect(css.contains("body.layout-large .mode"))
            }
        }
    }

    /// WCAG's contrast ratio of two `#RRGGBB` colours.
    static func contrast(_ a: String, _ b: String) -> Double {
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16)!
            let channels = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
            let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (l1, l2) = (luminance(a), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    @Test func theHighContrastThemeKeepsEveryPairAtSevenToOne() {
        for (text, background) in Stylesheet.HighContrast.pairs {
            #expect(Self.contrast(text, background) >= 7, "\(text) on \(background)")
        }
        // Its rules use the palette's colours and nothing else.
        let rules = Stylesheet.HighContrast.rules(scope: "body")
        let palette = Set(Stylesheet.HighContrast.pairs.flatMap { [$0.0, $0.1] })
        let used = rules.components(separatedBy: "#").dropFirst().map { "#" + $0.prefix(6) }
        #expect(!used.isEmpty)
        for colour in used { #expect(palette.contains(colour), "\(colour)") }
    }

    @Test func theBrowserKioskHasSpeechButtonsAndKeysFromTheConfig() async throws {
        var config = KioskConfig()
        config.speech.autoSpeak = true
        config.speech.speakKey = 9
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk?lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("id=\"speak\""))
                #expect(page.contains(">Listen</button>"))
                #expect(page.contains("data-speak-key=\"F9\""))
                #expect(page.contains("data-auto-speak=\"true\""))
                #expect(page.contains("aria-label=\"Volume up\""))
            }
        }
        config.speech.enabled = false
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk", method: .get) { response in
                #expect(!String(buffer: response.body).contains("id=\"speak\""))
            }
        }
    }
}
