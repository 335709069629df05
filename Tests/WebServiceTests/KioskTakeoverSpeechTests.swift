import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Logging
import Realtime
import SampleData
import KioskCore
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// Severe messages said on `/kiosk` (issue 26): the board marks each message of the kiosk's own takeover (its home
/// stop or every kiosk) with the digest `/kiosk/takeover/speech` says it by, in the text `kiosk run` says, as a
/// WAV; a message for another stop is shown but not marked; once a message has ended the endpoint refuses it, so a
/// page never says it. (The page's once-only behaviour is checked in a browser: `KioskTakeoverBrowserTests`.)
struct KioskTakeoverSpeechTests {
    /// The `data-say` digests on a board, in order.
    static func digests(_ page: String) -> [String] {
        page.components(separatedBy: "data-say=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func theKiosksOwnSevereMessagesAreMarkedAndSaidUntilTheyEnd() async throws {
        let t0 = TestSupport.morning
        let until = t0.addingTimeInterval(90)
        let folder = TemporaryFolder.make("kiosk-takeover-speech")
        let staff = folder.appendingPathComponent("messages.pb").path
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        try StaffMessages.write(
            [
                KioskTakeoverTests.message(
                    "strike", es: "Huelga: no hay servicio", en: "Strike: no service",
                    .agencies(try database.agencyIDs()), .severe, until: until),
                KioskTakeoverTests.message(
                    "colon", es: "Parada Colón cerrada", en: "Colón stop closed", .stops(["TB-COLON"]), .severe,
                    until: until),
            ].map(\.entity), to: staff, now: t0.addingTimeInterval(-86_400))

        var config = KioskConfig()
        config.homeStop = "1091"
        config.speech.autoSpeak = true
        config.realtime = RealtimeSettings(alerts: staff, pollSeconds: 100)
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        let clock = KioskTakeoverTests.Clock(t0)
        let polling = LiveFeedPolling()
        let (polls, pollLanded) = AsyncStream.makeStream(of: Void.self)
        polling.start(
            settings: config.realtime, database: databases.current(), clock: { clock.now },
            changed: { pollLanded.yield() })
        var landed = polls.makeAsyncIterator()
        _ = await landed.next()
        try #require(polling.live?.alerts?.value.entries.count == 2, "the staff file was read")
        var logger = Logger(label: "test.web.takeover-speech")
        logger.logLevel = .critical
        let service = try WebService(
            config: config, databases: databases, logger: logger, now: { clock.now }, live: polling)
        let routes = KioskRoutes(service: service)

        try await TestSupport.withRouter(service) { client in
            let board = { (uri: String) async throws -> String in
                try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }
            }
            let home = try await board("/kiosk/board?stop=1091&lang=en")
            let said = Self.digests(home)
            try #require(said.count == 1, "one message for this kiosk on its home board: \(home.prefix(600))")
            let strike = said[0]
            #expect(strike.count == 16 && strike.allSatisfy(\.isHexDigit), "\(strike)")
            // The same message has the same digest in either language: the language switch does not say it again.
            let spanish = try await board("/kiosk/board?stop=1091&lang=es")
            #expect(Self.digests(spanish) == [strike], "\(spanish.prefix(600))")
            // On another stop's board its own severe message heads it too, but only the kiosk's own is said.
            let colon = try await board("/kiosk/board?stop=2010&lang=en")
            #expect(colon.contains("Colón stop closed") && Self.digests(colon) == [strike], "\(colon.prefix(800))")

            // The text is what `kiosk run` says, in the language asked for.
            #expect(routes.takeoverText(say: [strike], language: .en) == "Strike: no service.")
            #expect(routes.takeoverText(say: [strike], language: .es) == "Huelga: no hay servicio.")
            #expect(routes.takeoverText(say: ["0000000000000000"], language: .en) == nil)

            try await client.execute(uri: "/kiosk/takeover/speech?say=\(strike)&lang=es", method: .get) { response in
                let bytes = Array(response.body.readableBytesView)
                #expect(response.status == .ok, "\(String(buffer: response.body).prefix(300))")
                #expect(response.headers[.contentType] == "audio/wav")
                #expect(response.headers[.contentLanguage] == "es")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(bytes.count > 44, "\(bytes.count) bytes")
                let riff = String(decoding: bytes.prefix(4), as: UTF8.self)
                let wave = String(decoding: bytes.dropFirst(8).prefix(4), as: UTF8.self)
                #expect(riff == "RIFF" && wave == "WAVE", "\(riff) \(wave)")
            }
            for (query, status) in [
                ("say=0000000000000000&lang=en", HTTPResponse.Status.notFound),
                ("say=\(strike)&lang=fr", .badRequest), ("say=nothex&lang=en", .badRequest),
                ("lang=en", .badRequest), ("say=\(strike),&lang=en", .badRequest),
            ] {
                try await client.execute(uri: "/kiosk/takeover/speech?\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query): \(String(buffer: response.body).prefix(300))")
                }
            }
            // Past its `until` the message has ended: it is not said, even by a page drawn before.
            clock.set(until.addingTimeInterval(1))
            try await client.execute(uri: "/kiosk/takeover/speech?say=\(strike)&lang=es", method: .get) { response in
                #expect(response.status == .notFound, "\(String(buffer: response.body).prefix(300))")
            }
            #expect(Self.digests(try await board("/kiosk/board?stop=1091&lang=en")).isEmpty)
        }
        polling.stop()
    }
}
