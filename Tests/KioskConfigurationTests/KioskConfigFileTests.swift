import Foundation
import KioskTesting
import StopCodes
import Testing

@testable import KioskConfiguration

@Suite struct KioskConfigFileTests {
    static var exampleFile: String { Repository.root.appendingPathComponent("kiosk/kiosk.example.toml").path }

    @Test func theExampleDocumentsAndSetsEveryKey() throws {
        let text = try String(contentsOfFile: Self.exampleFile, encoding: .utf8)
        for (table, keys) in KioskConfigFile.knownKeys {
            if !table.isEmpty { #expect(text.contains("[\(table)]"), "example lacks [\(table)]") }
            for key in keys { #expect(text.contains("\(key) ="), "example lacks \(table).\(key)") }
        }
        let config = try KioskConfigFile.load(path: Self.exampleFile)
        #expect(config.cameraDevice.hasPrefix("/dev/"))
        #expect(config.homeStop != nil && config.databasePath != nil)
    }

    @Test func valuesAreRead() throws {
        let config = try KioskConfigFile.parse(
            """
            language = "en"
            home_stop = "1091"
            idle_timeout_seconds = 45
            [camera]
            device = "/dev/v4l/by-id/usb-cam-video-index0"
            width = 640
            height = 480
            frames_per_second = 15
            [database]
            path = "/var/lib/stopkiosk/routes.sqlite"
            [timetable]
            window_minutes = 90
            nearby_radius_meters = 300
            max_transfers = 2
            walk_radius_meters = 250
            [scanner]
            symbologies = ["qrcode", "code128"]
            debounce_seconds = 2.5
            [labels]
            url_template = "https://bus.example/p/{stop_code}"
            foreign_templates = ["https://other.example/stop/{stop_id}"]
            signature_policy = "off"
            public_keys = []
            feed_id = "bus.example"
            """, file: "k.toml")
        var expected = KioskConfig()
        expected.language = .en
        expected.homeStop = "1091"
        expected.idleTimeoutSeconds = 45
        expected.cameraDevice = "/dev/v4l/by-id/usb-cam-video-index0"
        expected.cameraWidth = 640
        expected.cameraHeight = 480
        expected.cameraFramesPerSecond = 15
        expected.databasePath = "/var/lib/stopkiosk/routes.sqlite"
        expected.windowMinutes = 90
        expected.nearbyRadiusMeters = 300
        expected.maxTransfers = 2
        expected.walkRadiusMeters = 250
        expected.symbologies = ["qrcode", "code128"]
        expected.debounceSeconds = 2.5
        expected.urlTemplate = "https://bus.example/p/{stop_code}"
        expected.foreignTemplates = ["https://other.example/stop/{stop_id}"]
        expected.signaturePolicy = .off
        expected.feedID = "bus.example"
        #expect(config == expected)
        #expect(try KioskConfigFile.parse("", file: "empty.toml") == KioskConfig())
    }

    @Test(arguments: [
        ("idle_timout_seconds = 30", "k.toml: idle_timout_seconds: unknown key"),
        (
            "[camera]\nwidht = 640",
            "k.toml: camera.widht: unknown key (known in [camera]: device, width, height, frames_per_second)"
        ),
        ("[cameras]\ndevice = \"/dev/video0\"", "k.toml: cameras: unknown key"),
        ("language = \"fr\"", "k.toml: language: must be \"es\" or \"en\", not \"fr\""),
        (
            "[camera]\nwidth = \"wide\"",
            "k.toml: camera.width: must be a whole number between 160 and 4096, not a string"
        ),
        ("[camera]\nwidth = 99999", "k.toml: camera.width: must be between 160 and 4096, not 99999"),
        ("[camera]\ndevice = \"video0\"", "k.toml: camera.device: must be an absolute device path"),
        ("idle_timeout_seconds = -1", "k.toml: idle_timeout_seconds: must be between 5 and 3600, not -1"),
        ("[scanner]\nsymbologies = [\"qrcode\", \"aztec\"]", "k.toml: scanner.symbologies: unknown symbology 'aztec'"),
        ("[scanner]\nsymbologies = \"qrcode\"", "k.toml: scanner.symbologies: must be a list of strings"),
        (
            "[scanner]\ndebounce_seconds = true",
            "k.toml: scanner.debounce_seconds: must be a number of seconds, not a bool"
        ),
        (
            "[labels]\nsignature_policy = \"always\"",
            "k.toml: labels.signature_policy: must be \"require\", \"prefer\" or \"off\""
        ),
        (
            "[labels]\nurl_template = \"https://x.example/s/\"",
            "k.toml: labels.url_template: stop URL template \"https://x.example/s/\" has no {stop}, {stop_code}"
        ),
        ("[labels]\npublic_keys = [\"nonsense\"]", "k.toml: labels.public_keys[0]: not a public key"),
        (
            "[labels]\nsignature_policy = \"require\"",
            "k.toml: labels.public_keys: signature_policy = \"require\" needs at least one public key"
        ),
        ("camera = 3", "k.toml: camera: must be a table"),
        ("[timetable]\nmax_transfers = 9", "k.toml: timetable.max_transfers: must be between 0 and 8, not 9"),
        (
            "[realtime]\nmode = \"live\"",
            "k.toml: realtime.mode: must be \"online\", \"mixed\" or \"offline\", not \"live\""
        ),
        ("[realtime]\npoll_seconds = 1", "k.toml: realtime.poll_seconds: must be between 5 and 3600, not 1"),
        (
            "[realtime]\ntrip_updates = \"ftp://feeds.example/tu.pb\"",
            "k.toml: realtime.trip_updates: \"ftp://feeds.example/tu.pb\" is neither a file path nor an http:// or https:// URL"
        ),
        ("[realtime]\nalerts = \" \"", "k.toml: realtime.alerts: is empty"),
        ("[realtime]\nalerts = 3", "k.toml: realtime.alerts: must be a string in quotes, not a integer"),
        (
            "[realtime]\ntripupdates = \"/x.pb\"",
            "k.toml: realtime.tripupdates: unknown key (known in [realtime]: trip_updates"
        ),
        (
            "[realtime]\nmode = \"online\"\nalerts = \"/a.pb\"",
            "k.toml: realtime.mode: \"online\" shows only live departures and needs trip_updates"
        ),
        (
            "[realtime]\nheaders = \"x-api-key: 1\"",
            "k.toml: realtime.headers: must be a table of header names and values"
        ),
        (
            "[realtime]\nheaders = { \"x api key\" = \"1\" }",
            "k.toml: realtime.headers.x api key: \"x api key\" is not an HTTP header name"
        ),
        (
            "[realtime]\nheaders = { \"x-api-key\" = 1 }",
            "k.toml: realtime.headers.x-api-key: must be a string in quotes"
        ),
        ("realtime = \"https://x.example/tu\"", "k.toml: realtime: must be a table"),
        (
            "[update]\ngtfs_url = \"/srv/gtfs.zip\"",
            "k.toml: update.gtfs_url: must be the http:// or https:// URL of the agency's GTFS zip, not \"/srv/gtfs.zip\""
        ),
        ("[update]\nheaders = { \"a:b\" = \"1\" }", "k.toml: update.headers.a:b: \"a:b\" is not an HTTP header name"),
    ])
    func badConfigsNameTheFileAndKey(text: String, message: String) {
        do {
            _ = try KioskConfigFile.parse(text, file: "k.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "got: \(error.description)")
        }
    }

    @Test func realtimeSectionIsRead() throws {
        let config = try KioskConfigFile.parse(
            """
            [realtime]
            trip_updates = "https://feeds.example/gtfs-rt/trip-updates"
            alerts = "/var/lib/stopkiosk/alerts.pb"
            vehicle_positions = "http://127.0.0.1:8080/vehicles"
            poll_seconds = 15
            mode = "online"
            headers = { "x-api-key" = "s3cret", Authorization = "Bearer abc" }
            """, file: "k.toml")
        #expect(config.realtime.tripUpdates == "https://feeds.example/gtfs-rt/trip-updates")
        #expect(config.realtime.alerts == "/var/lib/stopkiosk/alerts.pb")
        #expect(config.realtime.vehiclePositions == "http://127.0.0.1:8080/vehicles")
        #expect(config.realtime.pollSeconds == 15)
        #expect(config.realtime.mode == .online)
        #expect(config.realtime.headers == ["x-api-key": "s3cret", "Authorization": "Bearer abc"])
        let defaults = try KioskConfigFile.parse("[realtime]\n", file: "k.toml").realtime
        #expect(defaults.pollSeconds == 30 && defaults.mode == .mixed && !defaults.hasFeeds && defaults.headers.isEmpty)
        #expect(try KioskConfigFile.parse("", file: "k.toml").realtime == defaults)
        let update = try KioskConfigFile.parse(
            "[update]\ngtfs_url = \"https://agency.example/gtfs.zip\"\nheaders = { \"x-api-key\" = \"k\" }\n",
            file: "k.toml")
        #expect(update.updateURL == "https://agency.example/gtfs.zip" && update.updateHeaders == ["x-api-key": "k"])
    }

    @Test func syntaxErrorsGiveTheLine() {
        do {
            _ = try KioskConfigFile.parse("language = \"es\"\n[camera\nwidth = 3", file: "k.toml")
            Issue.record("accepted broken TOML")
        } catch {
            #expect(
                error.description.hasPrefix("k.toml:2:") && error.description.contains("TOML syntax error"),
                "got: \(error.description)")
        }
        do {
            _ = try KioskConfigFile.load(path: "/nonexistent/kiosk.toml")
        } catch {
            #expect(
                error.description == "/nonexistent/kiosk.toml: no such file (copy kiosk/kiosk.example.toml and edit it)"
            )
        }
    }
}

/// Found by fuzzing: toml++ asserts (aborting the kiosk) on a non-ASCII key; the config reader refuses it first.
@Suite struct TOMLPrecheckTests {
    @Test func nonASCIIKeysAreASyntaxErrorNotACrash() throws {
        let error = try #require(throws: KioskConfigError.self) {
            try KioskConfigFile.parse("[cámara]\ndevice = \"/dev/video0\"\n", file: "k.toml")
        }
        #expect(error.file == "k.toml:1:3")
        #expect(error.problem.contains("only ASCII may appear outside quoted strings"))
        let fuzzed = "[\u{FFFD}\u{FFFD}table]\nwindow_minutes = \"sixty\"\n"
        #expect(throws: KioskConfigError.self) { try KioskConfigFile.parse(fuzzed, file: "k.toml") }
    }

    @Test(arguments: ["a = [1, }\n", "a = [[1],}\n", "h =" + String(repeating: "[", count: 40) + "}\n"])
    func mismatchedBracketsAreASyntaxError(text: String) throws {
        let error = try #require(throws: KioskConfigError.self) { try KioskConfigFile.parse(text, file: "k.toml") }
        #expect(
            error.problem.contains("does not close") || error.problem.contains("nested more than 32 deep"), "\(error)")
    }

    @Test(arguments: ["[:scanner]\n", "[.a]\n", "[[.a]]\n", "x = 1\n  [ :y]\n"])
    func tableHeadersThatCannotStartWithAKeyAreASyntaxError(text: String) throws {
        let error = try #require(throws: KioskConfigError.self) { try KioskConfigFile.parse(text, file: "k.toml") }
        #expect(error.problem.contains("a table header must start with a key"), "\(error)")
    }

    @Test func nonASCIIInsideStringsAndCommentsIsFine() throws {
        let text = """
            # Configuración del quiosco — Quito
            home_stop = "1091"  # El Ejido, andén 1
            [labels]
            url_template = "https://transit.example/s/{stop_code}"
            foreign_templates = ['https://other.example/parada/{stop_code}']
            feed_id = \"\"\"quito.example\"\"\"

            """
        let config = try KioskConfigFile.parse(text, file: "k.toml")
        #expect(config.homeStop == "1091")
    }
}
