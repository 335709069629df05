import Foundation
import KioskConfiguration
import KioskTesting
import Testing

/// The deployment files in kiosk/deploy/ against the real programs: Debian's nginx in front of two `kiosk serve`
/// instances, and Prometheus's promtool on the scrape configuration and the alert rules (kiosk/setup.sh installs
/// both packages). A missing program fails the test, naming the package.
@Suite(.serialized) struct DeploymentTests {
    static let deploy = Repository.root.appendingPathComponent("kiosk/deploy")

    /// Runs one of kiosk/tests/deploy's checks on this build's kiosk: it exits 0 and prints its summary line.
    static func runCheck(_ script: String, expecting summary: String) throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let path = Repository.root.appendingPathComponent("kiosk/tests/deploy/\(script)").path
        let result = try Programs.run(python, [path, Programs.kiosk.path], limit: 1800)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(summary), "\(result.stdout)")
    }

    /// kiosk/tests/deploy/nginx_check.py: both instances answer, a repeated stop view is a cache HIT, the cached
    /// page's language is the instance's choice for the reader's Accept-Language, /metrics/ closed, gzip when
    /// asked, 429 problem+json after a client's allowance of plans (however the path is spelled) while another
    /// client is served, the instances' access log naming nginx's client, an instance
    /// killed and a new database imported on each instance in turn without a failed request or a mixed answer,
    /// and with every instance gone the cache's answers still served and the rest 503 problem+json.
    @Test func nginxInFrontOfTwoInstances() throws {
        _ = try #require(
            Programs.which("nginx") ?? Programs.which("/usr/sbin/nginx"),
            "nginx is not installed (kiosk/setup.sh installs Debian's nginx)")
        try Self.runCheck("nginx_check.py", expecting: "nginx check: 36 checks, 0 failures")
    }

    /// kiosk/tests/deploy/notify_check.py: `kiosk serve` and `kiosk run` speak systemd's notify protocol to a socket
    /// the check owns (READY=1, WATCHDOG=1 pings, none while the screen loop hangs and again after, STOPPING=1).
    @Test func bothProgramsNotifySystemd() throws {
        try Self.runCheck("notify_check.py", expecting: "notify check: 12 checks, 0 failures")
    }

    /// kiosk/tests/deploy/kiosk_metrics_check.py: `kiosk run`'s `/metrics` with the demo session replayed.
    @Test func kioskRunExportsItsMetrics() throws {
        try Self.runCheck("kiosk_metrics_check.py", expecting: "kiosk metrics check: 21 checks, 0 failures")
    }

    /// The units as systemd reads them (`systemd-analyze verify`, the program path pointed at this build), and the
    /// settings the watchdog and the file limit depend on.
    @Test func theUnitsVerify() throws {
        let analyze = try #require(
            Programs.which("systemd-analyze"), "systemd-analyze is needed (Debian's systemd package)")
        let folder = TemporaryFolder.make("units")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["stopkiosk.service", "stopkiosk-web.service", "stopkiosk-web@.service"] {
            let text = try String(
                contentsOf: Repository.root.appendingPathComponent("kiosk/\(name)"), encoding: .utf8)
            for setting in ["Type=notify", "NotifyAccess=main", "WatchdogSec=", "LimitNOFILE="] {
                #expect(text.contains("\n\(setting)"), "\(name) lacks \(setting)")
            }
            let unit = folder.appendingPathComponent(name == "stopkiosk-web@.service" ? "stopkiosk-web@8081.service" : name)
            try text.replacingOccurrences(of: "/usr/local/bin/kiosk", with: Programs.kiosk.path)
                .replacingOccurrences(of: "ExecStartPre=-/usr/bin/chvt 1\n", with: "")
                .write(to: unit, atomically: true, encoding: .utf8)
            let result = try Programs.run(analyze, ["verify", unit.path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name): \(result.stdout)\n\(result.stderr)")
        }
    }

    /// `[metrics] listen`: off by default; an address and a port, IPv6 in brackets; anything else is refused naming
    /// the file, the key and the value.
    @Test func theMetricsAddressIsReadStrictly() throws {
        #expect(KioskConfig().metrics.listen == nil)
        let v4 = try KioskConfigFile.parse("[metrics]\nlisten = \"127.0.0.1:9464\"\n", file: "k.toml")
        #expect(v4.metrics.listen?.host == "127.0.0.1" && v4.metrics.listen?.port == 9464)
        let v6 = try KioskConfigFile.parse("[metrics]\nlisten = \"[::1]:9100\"\n", file: "k.toml")
        #expect(v6.metrics.listen?.host == "::1" && v6.metrics.listen?.port == 9100)
        for bad in ["9464", "kiosk.example:9464", "127.0.0.1:99999", "127.0.0.1:", "[::1]9464", "1.2.3:80"] {
            do {
                _ = try KioskConfigFile.parse("[metrics]\nlisten = \"\(bad)\"\n", file: "k.toml")
                Issue.record("\(bad) was accepted")
            } catch {
                let text = String(describing: error)
                #expect(text.contains("k.toml") && text.contains("metrics.listen") && text.contains(bad), "\(text)")
            }
        }
        #expect(throws: KioskConfigError.self) { try KioskConfigFile.parse("[metrics]\nport = 9464\n", file: "k.toml") }
    }

    static func promtool() throws -> URL {
        try #require(
            Programs.which("promtool"), "promtool is not installed (kiosk/setup.sh installs Debian's prometheus)")
    }

    /// The scrape configuration as Prometheus reads it: its rule file beside it, a kiosks.d/ file for the file
    /// discovery.
    @Test func promtoolAcceptsTheScrapeConfiguration() throws {
        let promtool = try Self.promtool()
        let folder = TemporaryFolder.make("prometheus")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Self.deploy.appendingPathComponent("prometheus")
        for name in ["prometheus.yml", "stopkiosk-rules.yml"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("kiosks.d"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("kiosks.example.yml"),
            to: folder.appendingPathComponent("kiosks.d/city.yml"))
        let config = try Programs.run(promtool, ["check", "config", folder.appendingPathComponent("prometheus.yml").path])
        #expect(config.status == 0, "\(config.stdout)\n\(config.stderr)")
        #expect(config.stdout.contains("SUCCESS: 1 rule files found"), "\(config.stdout)")
        let targets = try String(
            contentsOf: folder.appendingPathComponent("kiosks.d/city.yml"), encoding: .utf8)
        #expect(targets.contains("targets:") && targets.contains(":9464"))
    }

    @Test func promtoolAcceptsTheRules() throws {
        let rules = Self.deploy.appendingPathComponent("prometheus/stopkiosk-rules.yml").path
        let result = try Programs.run(try Self.promtool(), ["check", "rules", rules])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("SUCCESS: 10 rules found"), "\(result.stdout)")
    }

    /// `promtool test rules`: every alert fires when it should and not before, not outside service hours, and
    /// not for the instance beside it that is fine (stopkiosk-rules.test.yml).
    @Test func theAlertRulesPassTheirUnitTests() throws {
        let folder = Self.deploy.appendingPathComponent("prometheus")
        let result = try Programs.run(
            try Self.promtool(), ["test", "rules", folder.appendingPathComponent("stopkiosk-rules.test.yml").path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("SUCCESS"), "\(result.stdout)")
    }

    /// The metric names the rules use are ones the programs export (`kiosk serve`'s WebMetrics, the shared gauges,
    /// `kiosk run`'s KioskRunMetrics), so a renamed metric cannot silently disable an alert.
    @Test func theRulesUseExportedMetricNames() throws {
        let rules = try String(
            contentsOf: Self.deploy.appendingPathComponent("prometheus/stopkiosk-rules.yml"), encoding: .utf8)
        let sources = Repository.root.appendingPathComponent("Sources/WebService")
        var exported = ""
        for file in ["Middleware/WebMetrics.swift", "Monitoring/SharedGauges.swift", "Monitoring/KioskRunMetrics.swift"] {
            exported += try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        }
        let used = Set(
            rules.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init).filter {
                $0.hasPrefix("stopkiosk_")
            })
        #expect(used.count >= 7, "\(used)")
        for name in used {
            // WebMetrics spells its names in parts (namespace, subsystem, name, unit).
            let parts = name.dropFirst("stopkiosk_".count)
            let spelled =
                exported.contains("\"\(name)\"")
                || (name == "stopkiosk_http_requests_total" && exported.contains("metricName: \"requests\""))
                || (name == "stopkiosk_database_healthy" && exported.contains("metricName: \"database_healthy\""))
                || exported.contains("metricName: \"\(parts)\"")
            #expect(spelled, "the rules use \(name), which no program exports")
        }
    }
}
