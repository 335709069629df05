import Testing

@testable import StopCodes

@Suite struct StopURLTemplateTests {
    @Test func buildsAndMatchesAStopCodeURL() throws {
        let template = try StopURLTemplate("https://transit.example/s/{stop_code}")
        #expect(template.kind == .stopCode)
        #expect(template.url(for: "2201") == "https://transit.example/s/2201")
        #expect(template.match("https://transit.example/s/2201") == "2201")
    }

    @Test func percentEncodesAndDecodesTheValue() throws {
        let template = try StopURLTemplate("https://transit.example/stops/{stop_id}/board")
        let value = "Bijūnų g./A 1?&#%"
        let url = template.url(for: value)
        #expect(url == "https://transit.example/stops/Bij%C5%ABn%C5%B3%20g.%2FA%201%3F%26%23%25/board")
        #expect(template.match(url) == value)
        #expect(template.kind == .stopID)
    }

    @Test func matchesUpperCaseURLs() throws {
        // Upper-case URLs fit QR alphanumeric mode, so label printers may use them.
        let template = try StopURLTemplate("https://transit.example/s/{stop_code}")
        #expect(template.match("HTTPS://TRANSIT.EXAMPLE/S/2201") == "2201")
    }

    @Test func rejectsURLsThatDoNotFit() throws {
        let template = try StopURLTemplate("https://transit.example/s/{stop_code}")
        #expect(template.match("https://transit.example/s/") == nil)
        #expect(template.match("https://transit.example/s/12/34") == nil)
        #expect(template.match("https://transit.example/s/12?x=1") == nil)
        #expect(template.match("https://evil.example/s/12") == nil)
        #expect(template.match("https://transit.example/s/%ZZ") == nil)
        #expect(template.match("https://transit.example/s/%FF") == nil)  // not UTF-8
        #expect(template.match("https://transit.example/s/a%0Ab") == nil)  // control character
        #expect(template.match("https://transit.example/s/" + String(repeating: "9", count: 200)) == nil)
    }

    @Test func templateWithQueryGetsSignatureAfterAmpersand() throws {
        let template = try StopURLTemplate("https://transit.example/stop?code={stop_code}")
        let signature = LabelSignature(keyID: "0011223344556677", signature: Array(repeating: 7, count: 64))
        let url = template.url(for: "12", signature: signature)
        #expect(url.hasPrefix("https://transit.example/stop?code=12&k=0011223344556677&s="))
    }

    @Test(arguments: [
        ("", "empty"),
        ("https://transit.example/s/", "missing"),
        ("https://transit.example/{stop_code}/{stop_id}", "multiple"),
        ("https://transit.example/{stop_code}/{stop_code}", "multiple"),
        ("https://transit.example/{stop_name}", "unknown"),
        ("https://transit.example/{stop_code}#x", "invalid"),
        ("https://transit.example/ {stop_code}", "invalid"),
        ("https://transit.example/{stop_code", "invalid"),
        ("https://transit.example/s?k={stop_code}", "reserved"),
    ])
    func rejectsBadTemplates(pattern: String, expected: String) {
        do {
            _ = try StopURLTemplate(pattern)
            Issue.record("accepted \(pattern)")
        } catch {
            let kind: String
            switch error {
            case .empty: kind = "empty"
            case .missingPlaceholder: kind = "missing"
            case .multiplePlaceholders: kind = "multiple"
            case .unknownPlaceholder: kind = "unknown"
            case .invalidCharacter: kind = "invalid"
            case .reservedParameter: kind = "reserved"
            }
            #expect(kind == expected, "\(pattern): \(error)")
            #expect(error.description.contains("template"))
        }
    }

    @Test func base64URLIsStrict() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
        }
        #expect(Base64URL.decode("AQ") == [1])
        #expect(Base64URL.decode("AB") == nil)  // non-zero unused bits: not canonical
        #expect(Base64URL.decode("AB==") == nil)  // padding
        #expect(Base64URL.decode("AF") == nil)  // non-zero unused bits: not canonical
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AB+/") == nil)  // standard alphabet
    }
}
