import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import SampleData
import ScanService
import Testing
import WebService

/// `/kiosk`: the page, its board fragments, and scans pushed over Server-Sent Events.
@Suite struct KioskPageTests {
    var config: KioskConfig {
        var config = KioskConfig()
        config.homeStop = "1091"
        config.idleTimeoutSeconds = 20
        return config
    }

    @Test func thePageLoadsItsScriptFromAFileAndNamesHome() async throws {
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk?lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("<script src=\"/kiosk.js\" defer></script>"))
                #expect(!page.contains("<script>"))
                #expect(page.contains("data-home=\"MQ09A\""))
                #expect(page.contains("data-idle=\"20\""))
                #expect(page.contains("Information unavailable"))
            }
            try await client.execute(uri: "/kiosk.js", method: .get) { response in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("new EventSource(\"/kiosk/events\")"))
            }
            try await client.execute(uri: "/kiosk/board?stop=MQ09A&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let board = String(buffer: response.body)
                #expect(board.contains("El Ejido") && board.contains("Departures in the next 60 min"))
            }
            try await client.execute(uri: "/kiosk/board", method: .get) { response in
                #expect(String(buffer: response.body).contains("Acerque el código"))
            }
            try await client.execute(uri: "/kiosk/board?stop=nope", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func aPublishedScanReachesTheEventStream() async throws {
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service(config: config)) { port, service in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /kiosk/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            let opening = await offPool { socket.read(until: ": connected") }
            #expect(opening.hasPrefix("HTTP/1.1 200"))
            #expect(opening.contains("text/event-stream"))
            service.scans.publish(event: "scan", json: #"{"status":"stop","stop_id":"MQ12A"}"#)
            // Up to the end of the scan event itself: a heartbeat (": ping", every 15 s) may come first on a slow
            // machine.
            let event = await offPool { socket.read(until: #"MQ12A"}"# + "\n\n") }
            #expect(event.contains("event: scan\ndata: {\"status\":\"stop\",\"stop_id\":\"MQ12A\"}"), "\(event)")
        }
    }

    /// The recorded demo session as the server's camera: its labels arrive as scans on the event stream.
    @Test(
        .enabled(
            if: DemoSessionLocator.find(resourceDirectory: SampleData.sampleNetworkFeed.deletingLastPathComponent())
                != nil, "the recorded demo session is not in this build's resources"))
    func theDemoCameraPushesStops() async throws {
        let sessionPath = try #require(
            DemoSessionLocator.find(resourceDirectory: SampleData.sampleNetworkFeed.deletingLastPathComponent()))
        let session = try DemoSession.load(sessionPath)
        let video = URL(fileURLWithPath: sessionPath).deletingLastPathComponent().appendingPathComponent(session.video)
            .path
        let service = try TestSupport.service(config: config)
        let scanner = WebScanService(source: .demo(session, videoPath: video), web: service)
        try await ConnectionLimitTests.withLiveServer(service, services: [scanner]) { port, _ in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /kiosk/events HTTP/1.1\r\nHost: x\r\n\r\n")
            // Colón, the session's first label. The replay starts with the server and loops: on a slow machine the
            // page may connect after Colón's first pass, and then sees it on the next one.
            let text = await offPool { socket.read(until: "\"code\":\"2010\"") }
            #expect(text.contains("event: scan"), "\(text.suffix(300))")
            #expect(text.contains("\"status\":\"stop\""), "\(text.suffix(300))")
            #expect(text.contains("\"code\":\"2010\""), "\(text.suffix(300))")
        }
    }
}
