import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Logging
import Realtime
import SampleData
import Synchronization
import Testing
import TransitModel
import TransitStore
import WebService

/// Staff messages on the `/kiosk` board (issue 26): a severe message for the stop on screen, the kiosk's own
/// stop or every kiosk heads the board in the board's language, beside the agency's alerts (two alerts
/// sources), and is gone at its `until` — seen at a second render with the service's clock moved past it.
struct KioskTakeoverTests {
    final class Clock: Sendable {
        let value: Mutex<Date>
        init(_ start: Date) { value = Mutex(start) }
        var now: Date { value.withLock { $0 } }
        func set(_ date: Date) { value.withLock { $0 = date } }
    }

    static func message(
        _ id: String, es: String, en: String, _ audience: StaffMessages.Audience, _ severity: StaffMessages.Severity,
        until: Date
    ) -> StaffMessages.Message {
        StaffMessages.Message(
            id: id, textES: es, textEN: en, audience: audience, from: nil, until: until, severity: severity)
    }

    /// The band's HTML, or "" when the board has none.
    static func band(_ page: String) -> String {
        guard let start = page.range(of: "<section class=\"takeover\""),
            let end = page.range(of: "</section>", range: start.upperBound..<page.endIndex)
        else { return "" }
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test func severeMessagesHeadTheKioskBoardAndEndAtTheirUntil() async throws {
        let t0 = TestSupport.morning
        let until = t0.addingTimeInterval(90)
        let folder = TemporaryFolder.make("kiosk-takeover")
        let staff = folder.appendingPathComponent("messages.pb").path
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        try StaffMessages.write(
            [
                Self.message(
                    "strike", es: "Huelga: no hay servicio", en: "Strike: no service",
                    .agencies(try database.agencyIDs()), .severe, until: until),
                Self.message(
                    "colon", es: "Parada Colón cerrada", en: "Colón stop closed", .stops(["TB-COLON"]), .severe,
                    until: until),
                Self.message(
                    "detour", es: "Desvío del trole", en: "Trolleybus detour", .routes(["EP-TB"]), .severe,
                    until: until),
                Self.message(
                    "fare", es: "Tarifa nueva", en: "New fare", .stops(["TB-COLON"]), .info, until: until),
            ].map(\.entity), to: staff, now: t0.addingTimeInterval(-86_400))

        var config = KioskConfig()
        let scenario = SampleData.realtimeScenario.path
        config.realtime = RealtimeSettings(
            tripUpdates: scenario, alerts: scenario, pollSeconds: 100, moreAlerts: [staff])
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        let clock = Clock(t0)
        let polling = LiveFeedPolling()
        let (polls, pollLanded) = AsyncStream.makeStream(of: Void.self)
        polling.start(
            settings: config.realtime, database: databases.current(), clock: { clock.now },
            changed: { pollLanded.yield() })
        var landed = polls.makeAsyncIterator()
        _ = await landed.next()
        try #require(polling.live?.alerts?.value.entries.count == 5, "both alerts sources were read")
        var logger = Logger(label: "test.web.takeover")
        logger.logLevel = .critical
        let service = try WebService(
            config: config, databases: databases, logger: logger, now: { clock.now }, live: polling)

        try await TestSupport.withRouter(service) { client in
            try await client.execute(uri: "/kiosk/board?stop=2010&lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                let band = Self.band(page)
                #expect(response.status == .ok)
                #expect(page.hasPrefix("<section class=\"takeover\""), "the band comes first: \(page.prefix(300))")
                #expect(band.contains("data-messages=\"2\"") && band.contains("Important notice"), "\(band)")
                #expect(band.contains("Strike: no service") && band.contains("Colón stop closed"), "\(band)")
                #expect(band.contains("Until 08:01"), "\(band)")
                #expect(!band.contains("Trolleybus detour") && !band.contains("New fare"), "\(band)")
                // The milder messages and the route's show as ordinary alerts, beside the agency's.
                #expect(page.contains("New fare") && page.contains("Trolleybus detour"), "\(page)")
                #expect(page.contains("Trolleybus: delays due to roadworks"), "the agency's alert: \(page)")
            }
            // The idle prompt (no stop on screen): the message for every kiosk, in Spanish.
            try await client.execute(uri: "/kiosk/board?lang=es", method: .get) { response in
                let band = Self.band(String(buffer: response.body))
                #expect(band.contains("Aviso importante") && band.contains("Huelga: no hay servicio"), "\(band)")
                #expect(band.contains("Hasta las 08:01") && !band.contains("Colón"), "\(band)")
            }
            // Past `until` the messages have ended: the next render (the page reloads every 30 s) has no band.
            clock.set(until.addingTimeInterval(1))
            try await client.execute(uri: "/kiosk/board?stop=2010&lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(!page.contains("class=\"takeover\"") && !page.contains("Strike"), "\(page)")
            }
        }
        polling.stop()
    }
}
