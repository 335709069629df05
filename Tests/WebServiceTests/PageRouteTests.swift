import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Testing
import TransitStore
import WebService

/// The phone pages in process: the stop a label names, the label policy, search, plans, languages, escaping.
@Suite struct PageRouteTests {
    /// A feed whose text tries to break out of the page.
    static let hostileFeed: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://hostile.example,America/Guayaquil\n",
        "stops.txt":
            "stop_id,stop_name,stop_lat,stop_lon\nS1,<script>alert('x')</script> & \"Co\",-0.20,-78.50\nS2,Segunda <b>,-0.2001,-78.50\n",
        "routes.txt":
            "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR1,A,<i>1</i>,Uno,3,zz;}body{,FFFFFF\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,\"<img src=x onerror=alert(1)>\"\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:10:00,08:10:00,S1,1\nT1,08:20:00,08:20:00,S2,2\n",
    ]

    @Test func theStopPageShowsTheStopInTheReadersLanguage() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/1091", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let csp = try #require(response.headers[.contentSecurityPolicy])
                #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
                let page = String(buffer: response.body)
                #expect(page.contains("<html lang=\"es\">"))
                #expect(page.contains("El Ejido"))
                #expect(page.contains("Salidas en los próximos 60 min"))
                #expect(page.contains("<strong>3 min</strong> <span class=\"clock\">08:03</span>"))  // 08:03:30, from 08:00
                #expect(page.contains("action=\"/plan\""))
                #expect(page.contains("Paradas cercanas"))
                #expect(!page.contains("<script"))
                #expect(!page.contains("style=\""))
            }
            try await client.execute(uri: "/s/1091?lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("<html lang=\"en\">") && page.contains("Departures in the next 60 min"))
            }
            try await client.execute(uri: "/s/1091", method: .get, headers: [.acceptLanguage: "en-GB,en;q=0.9"]) {
                response in
                #expect(String(buffer: response.body).contains("<html lang=\"en\">"))
            }
            try await client.execute(uri: "/s/1091", method: .get, headers: [.acceptLanguage: "fr, de;q=0.5"]) {
                response in
                #expect(String(buffer: response.body).contains("<html lang=\"es\">"))
            }
        }
    }

    @Test func theConfiguredLanguageIsTheDefault() async throws {
        var config = KioskConfig()
        config.language = .en
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body).contains("Find a stop"))
            }
        }
    }

    @Test func aForgedLabelGetsAWarningNotTheStop() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let forged =
                "/s/1091?k=0123456789abcdef&s=" + String(repeating: "A", count: 86)
            try await client.execute(uri: forged, method: .get) { response in
                #expect(response.status == .forbidden)
                let page = String(buffer: response.body)
                #expect(page.contains("Etiqueta no válida"))
                #expect(!page.contains("Salidas en los próximos"))
            }
            var strict = KioskConfig()
            strict.signaturePolicy = .require
            strict.publicKeys = ["stopkiosk-ed25519-public-v1:" + String(repeating: "A", count: 43)]
            try await TestSupport.withRouter(try TestSupport.service(config: strict)) { strictClient in
                try await strictClient.execute(uri: "/s/1091?lang=en", method: .get) { response in
                    #expect(response.status == .forbidden)
                    #expect(String(buffer: response.body).contains("Unsigned label"))
                }
            }
        }
    }

    @Test func unknownStopsAndPagesAre404WithASearchBox() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            for uri in ["/s/9999", "/no/such/page", "/s/9999?lang=en"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    let page = String(buffer: response.body)
                    #expect(page.contains("role=\"search\""), "\(uri)")
                    #expect(page.contains(uri.hasSuffix("en") ? "lang=\"en\"" : "lang=\"es\""))
                }
            }
        }
    }

    @Test func searchIgnoresAccents() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/?q=cumbaya", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("Cumbayá"))
                #expect(page.contains("href=\"/s/"))
            }
            try await client.execute(uri: "/?q=zzzzqq&lang=en", method: .get) { response in
                #expect(String(buffer: response.body).contains("No stop matches"))
            }
        }
    }

    @Test func thePlanFormPlans() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/plan?from=1091&to=Cumbay%C3%A1&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("From El Ejido to Cumbayá"))
                #expect(page.contains("Option 1:"))
            }
            try await client.execute(uri: "/plan?from=1091&to=nowhere-at-all", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("No encontramos"))
            }
            try await client.execute(uri: "/plan", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("name=\"to\""))
            }
        }
    }

    @Test func feedTextIsEscapedEverywhere() async throws {
        let feed = TemporaryFolder.make("hostile-feed", files: Self.hostileFeed)
        let path = TemporaryFolder.make("hostile").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            for uri in ["/s/S1", "/?q=script", "/plan?from=S1&to=S2", "/s/S2"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let page = String(buffer: response.body)
                    #expect(!page.contains("<script"), "\(uri)")
                    #expect(!page.contains("<img src=x"), "\(uri)")
                    #expect(!page.contains("<i>1"), "\(uri)")
                    #expect(!page.contains("<b>"), "\(uri)")
                    if uri == "/s/S1" {
                        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"))
                        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
                    }
                }
            }
            try await client.execute(uri: "/routes.css", method: .get) { response in
                let css = String(buffer: response.body)
                #expect(!css.contains("body{"))
            }
        }
    }

    @Test(arguments: [
        ("/s/..%2F..%2Fetc%2Fpasswd", HTTPResponse.Status.notFound),
        ("/s/%2e%2e", .notFound),
        ("/../etc/passwd", .notFound),
        ("/style.css/..", .notFound),
        ("/s/%ZZ", .badRequest),
        ("/?q=%E0%A4%A", .badRequest),
        ("/?q=%FF", .badRequest),
    ])
    func traversalAndMalformedEncoding(uri: String, status: HTTPResponse.Status) async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == status, "\(uri)")
                #expect(!String(buffer: response.body).contains("root:"))
            }
        }
    }

    @Test func limitsOnURLAndBody() async throws {
        var config = KioskConfig()
        config.server.maxURLBytes = 256
        config.server.maxBodyBytes = 10
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/?q=" + String(repeating: "a", count: 300), method: .get) { response in
                #expect(response.status == .uriTooLong)
            }
            try await client.execute(
                uri: "/api/v1/feed", method: .post, body: ByteBuffer(string: String(repeating: "x", count: 100))
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            for uri in ["/api/v1/stops/1091", "/api/v1/stops/1091", "/api/v1/stops/9999", "/s/1091", "/nothing"] {
                try await client.execute(uri: uri, method: .get) { _ in }
            }
            try await client.execute(uri: "/api/v1/resolve?payload=1091", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                #expect(
                    text.contains(
                        #"stopkiosk_http_requests_total{route="/api/v1/stops/{id}",method="GET",status="200"} 2"#),
                    "\(text.prefix(2000))")
                #expect(
                    text.contains(
                        #"stopkiosk_http_requests_total{route="/api/v1/stops/{id}",method="GET",status="404"} 1"#))
                #expect(text.contains(#"route="unmatched",method="GET",status="404"} 1"#))
                #expect(text.contains("stopkiosk_http_request_duration_seconds_bucket{route=\"/s/{code}\""))
                #expect(text.contains(#"stopkiosk_scans_total{status="stop",source="api"} 1"#))
                #expect(text.contains(#"stopkiosk_scans_total{status="stop",source="page"} 1"#))
                #expect(text.contains("stopkiosk_feed_age_seconds "))
                #expect(text.contains("stopkiosk_database_generation 0"))
            }
        }
    }
}
