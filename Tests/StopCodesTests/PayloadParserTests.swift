import KioskTesting
import Testing

@testable import StopCodes

/// Shared fixtures: two keys, the kiosk's own template, a foreign agency's template.
struct Fixture {
    static let ownPattern = "https://transit.example/s/{stop_code}"
    static let idPattern = "https://transit.example/id/{stop_id}"
    static let foreignPattern = "https://other.example/stop/{stop_id}"
    let key = KeyPair.generate()
    let otherKey = KeyPair.generate()
    let own = try! StopURLTemplate(Fixture.ownPattern)
    let byID = try! StopURLTemplate(Fixture.idPattern)
    let foreign = try! StopURLTemplate(Fixture.foreignPattern)

    func parser(_ policy: SignaturePolicy, trusted: [PublicKey]? = nil) -> PayloadParser {
        PayloadParser(
            feedID: "carta", ownTemplates: [own, byID], foreignTemplates: [foreign],
            trustedKeys: trusted ?? [key.publicKey], policy: policy)
    }

    func signed(
        _ value: String, template: StopURLTemplate? = nil, feed: String = "carta", by signer: KeyPair? = nil
    ) -> String {
        (signer ?? key).signedURL(template: template ?? own, feedID: feed, value: value)!
    }
}

/// Replaces the `s=` value of a signed URL.
func replacingSignature(in url: String, with transform: ([UInt8]) -> [UInt8]) -> String {
    let range = url.range(of: "&s=")!
    let signature = Base64URL.decode(url[range.upperBound...])!
    return String(url[..<range.upperBound]) + Base64URL.encode(transform(signature))
}

@Suite struct PayloadParserTests {
    let fixture = Fixture()

    @Test(arguments: [SignaturePolicy.require, .prefer])
    func signedLabelRoundTrips(policy: SignaturePolicy) {
        let url = fixture.signed("2201")
        #expect(url.hasPrefix("https://transit.example/s/2201?k=\(fixture.key.keyID)&s="))
        #expect(url.count == "https://transit.example/s/2201".count + 3 + 16 + 3 + 86)
        let result = fixture.parser(policy).parse(url)
        #expect(
            result
                == .stopReference(
                    StopReference(
                        kind: .stopCode, value: "2201", signature: .verified(keyID: fixture.key.keyID),
                        source: .ownLabel(template: Fixture.ownPattern))))
    }

    @Test func signedStopIDWithAwkwardCharactersRoundTrips() {
        let value = "vln:Bijūnų/12 A"
        let url = fixture.signed(value, template: fixture.byID)
        guard case .stopReference(let reference) = fixture.parser(.require).parse(Array(url.utf8)) else {
            Issue.record("not accepted: \(url)"); return
        }
        #expect(reference.kind == .stopID)
        #expect(reference.value == value)
        #expect(reference.signature == .verified(keyID: fixture.key.keyID))
    }

    @Test func keyIDIsFirstEightBytesOfSHA256InHex() {
        #expect(fixture.key.keyID.count == 16)
        #expect(fixture.key.keyID.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(fixture.key.keyID != fixture.otherKey.keyID)
        // Known answer: the all-zero public key… is not a valid point, so use RFC 8032 test vector 1's key.
        let raw: [UInt8] = [
            0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a,
            0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a,
        ]
        #expect(PublicKey.keyID(of: raw) == "21fe31dfa154a261")
    }

    @Test func canonicalMessageIsDocumentedFormat() {
        let message = LabelSignature.message(feedID: "carta", kind: .stopCode, value: "2201")
        #expect(message == Array("stopkiosk-label-v1\ncarta\nstop_code\n2201".utf8))
        #expect(LabelSignature.message(feedID: "car\nta", kind: .stopCode, value: "1") == nil)
        #expect(fixture.key.sign(feedID: "carta", kind: .stopID, value: "a\nb") == nil)
    }

    // MARK: forgeries

    @Test func bitFlippedSignatureIsForged() {
        let url = replacingSignature(in: fixture.signed("2201")) { bytes in
            var copy = bytes; copy[17] ^= 0x04; return copy
        }
        #expect(fixture.parser(.prefer).parse(url) == forged(.badSignature(keyID: fixture.key.keyID), "2201"))
    }

    @Test func truncatedSignatureIsForged() {
        let url = fixture.signed("2201")
        for cut in [1, 2, 10, 85] {
            #expect(
                fixture.parser(.prefer).parse(String(url.dropLast(cut))) == forged(.malformedSignature, "2201"),
                "cut \(cut)")
        }
        // Cut into the key id, or right after it.
        let keyStart = url.range(of: "?k=")!.upperBound
        #expect(
            fixture.parser(.prefer).parse(String(url[..<url.index(keyStart, offsetBy: 5)]))
                == forged(.malformedSignature, "2201"))
        #expect(
            fixture.parser(.prefer).parse(String(url[..<url.index(keyStart, offsetBy: 16)]))
                == forged(.malformedSignature, "2201"))
    }

    @Test func nonCanonicalSignatureEncodingIsForged() {
        let url = fixture.signed("2201")
        // The last base64url character carries 4 unused bits; changing them keeps the bytes but not the text.
        let last = url.last!
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let position = alphabet.firstIndex(of: last)!
        let tweaked = String(url.dropLast()) + String(alphabet[position ^ 1])
        #expect(fixture.parser(.prefer).parse(tweaked) == forged(.malformedSignature, "2201"))
    }

    @Test func signatureByAnotherKeyIsForged() {
        // Signed by a key the kiosk does not trust: its id is unknown.
        let url = fixture.signed("2201", by: fixture.otherKey)
        #expect(fixture.parser(.prefer).parse(url) == forged(.unknownKey(keyID: fixture.otherKey.keyID), "2201"))
        // Signed by another key but claiming the trusted key's id.
        let impostor = url.replacingOccurrences(of: "k=\(fixture.otherKey.keyID)", with: "k=\(fixture.key.keyID)")
        #expect(fixture.parser(.prefer).parse(impostor) == forged(.badSignature(keyID: fixture.key.keyID), "2201"))
    }

    @Test func unknownKeyIDIsForged() {
        let url = fixture.signed("2201").replacingOccurrences(of: fixture.key.keyID, with: "00000000deadbeef")
        #expect(fixture.parser(.require).parse(url) == forged(.unknownKey(keyID: "00000000deadbeef"), "2201"))
    }

    @Test func editedPayloadIsForged() {
        let url = fixture.signed("2201").replacingOccurrences(of: "/s/2201?", with: "/s/2202?")
        #expect(fixture.parser(.prefer).parse(url) == forged(.badSignature(keyID: fixture.key.keyID), "2202"))
    }

    @Test func labelOfAnotherFeedIsForged() {
        let url = fixture.signed("2201", feed: "vilnius")
        #expect(fixture.parser(.prefer).parse(url) == forged(.badSignature(keyID: fixture.key.keyID), "2201"))
    }

    @Test func signatureForAStopCodeDoesNotCoverTheSameStopID() {
        let codeURL = fixture.signed("2201")
        let moved = codeURL.replacingOccurrences(of: "/s/2201?", with: "/id/2201?")
        guard case .forged(.badSignature, let claimed) = fixture.parser(.prefer).parse(moved) else {
            Issue.record("accepted a stop_code signature as a stop_id one"); return
        }
        #expect(claimed.kind == .stopID)
    }

    @Test(arguments: [
        "?k=0011223344556677",  // s missing
        "?s=AAAA",  // k missing
        "?k=0011223344556677&s=",  // empty signature
        "?k=00112233445566&s=AAAA",  // short key id
        "?k=0011223344556677&s=AAAA&s=AAAA",  // repeated
        "?k=0011223344556677&s=AAAA&x=1",  // trailing junk
        "?k=00112233445566ZZ&s=AAAA",  // not hex
    ])
    func malformedSignatureParametersAreForged(suffix: String) {
        let result = fixture.parser(.prefer).parse("https://transit.example/s/2201" + suffix)
        #expect(result == forged(.malformedSignature, "2201"))
    }

    func forged(_ reason: ForgeryReason, _ value: String) -> ScanResolution {
        let template = value == "2201" || value == "2202" ? Fixture.ownPattern : Fixture.idPattern
        return .forged(
            reason,
            claimed: StopReference(
                kind: .stopCode, value: value, signature: .unsigned,
                source: .ownLabel(template: template)))
    }

    // MARK: policies

    @Test func requireRefusesUnsignedURLsAndBareCodes() {
        let parser = fixture.parser(.require)
        #expect(
            parser.parse("https://transit.example/s/2201")
                == .signatureRequired(
                    StopReference(
                        kind: .stopCode, value: "2201", signature: .unsigned,
                        source: .ownLabel(template: Fixture.ownPattern))))
        #expect(
            parser.parse("2201")
                == .signatureRequired(
                    StopReference(
                        kind: .codeOrID, value: "2201", signature: .unsigned, source: .bare)))
        #expect(
            parser.parse("https://other.example/stop/X1")
                == .signatureRequired(
                    StopReference(
                        kind: .stopID, value: "X1", signature: .unsigned,
                        source: .foreignLabel(template: Fixture.foreignPattern))))
    }

    @Test func preferAcceptsUnsigned() {
        let parser = fixture.parser(.prefer)
        #expect(
            parser.parse("https://transit.example/s/2201")
                == .stopReference(
                    StopReference(
                        kind: .stopCode, value: "2201", signature: .unsigned,
                        source: .ownLabel(template: Fixture.ownPattern))))
        #expect(
            parser.parse(" 2201\r\n")
                == .stopReference(
                    StopReference(
                        kind: .codeOrID, value: "2201", signature: .unsigned, source: .bare)))
    }

    @Test func offIgnoresSignaturesEvenBadOnes() {
        let parser = fixture.parser(.off)
        let bad = replacingSignature(in: fixture.signed("2201")) { bytes in
            var copy = bytes; copy[0] ^= 1; return copy
        }
        for url in [fixture.signed("2201"), bad, "https://transit.example/s/2201"] {
            #expect(
                parser.parse(url)
                    == .stopReference(
                        StopReference(
                            kind: .stopCode, value: "2201", signature: .notChecked,
                            source: .ownLabel(template: Fixture.ownPattern))))
        }
    }

    @Test func foreignAgencyURLsAreReferences() {
        #expect(
            fixture.parser(.prefer).parse("https://other.example/stop/STBA%3A12")
                == .stopReference(
                    StopReference(
                        kind: .stopID, value: "STBA:12", signature: .unsigned,
                        source: .foreignLabel(template: Fixture.foreignPattern))))
    }

    @Test func noTrustedKeysMeansEverySignatureIsUnknown() {
        let parser = fixture.parser(.prefer, trusted: [])
        #expect(parser.parse(fixture.signed("2201")) == forged(.unknownKey(keyID: fixture.key.keyID), "2201"))
    }

    // MARK: bare references

    @Test(arguments: ["2201", "STBA", "vln:1234", "1_2345", "A-12.b", "Bijūnų", "#12"])
    func bareCodesAreReferences(text: String) {
        #expect(
            fixture.parser(.prefer).parse(text)
                == .stopReference(
                    StopReference(
                        kind: .codeOrID, value: text, signature: .unsigned, source: .bare)))
    }

    // MARK: junk

    @Test(arguments: [
        "", "   ", "\r\n",
        "https://unknown.example/s/2201", "http://transit.example.evil/s/2201",
        "https://transit.example/s/22/01", "https://transit.example/s/2201/extra",
        "tel:+15551234", "WIFI:S:kiosk;T:WPA;P:secret;;", "BEGIN:VCARD", "mailto:x@example.com",
        "two words", "a\u{1B}[2Jb", "\u{1B}]0;title\u{07}", "<script>", "stop;drop", "---",
    ])
    func otherTextIsNotAStopCode(text: String) {
        guard case .notAStopCode(let shown) = fixture.parser(.prefer).parse(text) else {
            Issue.record("accepted \(text.debugDescription)"); return
        }
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) })
    }

    @Test func hugePayloadIsNotAStopCodeAndShortened() {
        let huge = String(repeating: "9", count: 4096)
        guard case .notAStopCode(let shown) = fixture.parser(.prefer).parse(huge) else {
            Issue.record("accepted"); return
        }
        #expect(shown.count <= 81 && shown.hasSuffix("…"))
        let hugeURL = "https://transit.example/s/" + String(repeating: "7", count: 4096)
        guard case .notAStopCode = fixture.parser(.prefer).parse(hugeURL) else { Issue.record("accepted"); return }
    }

    @Test func binaryJunkIsNotAStopCode() {
        var generator = SplitMix64(seed: 42)
        for length in [1, 3, 64, 1000, 4096] {
            let junk = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let result = fixture.parser(.prefer).parse(junk)
            if case .notAStopCode(let shown) = result {
                #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x1B })
                #expect(shown.count <= 81)
            } else if case .stopReference(let reference) = result {
                // A short random byte string can happen to be valid text made of letters.
                #expect(reference.source == .bare && length <= 3)
            } else {
                Issue.record("unexpected \(result)")
            }
        }
        #expect(fixture.parser(.prefer).parse([0xFF, 0xFE, 0x00, 0x1B]) == .notAStopCode(text: "\u{FFFD}\u{FFFD}"))
    }

    @Test func escapeSequencesInAForeignURLAreStripped() {
        let payload = "https://evil.example/\u{1B}]8;;http://x\u{07}click\u{1B}[8m hidden\u{202E}txt"
        #expect(fixture.parser(.prefer).parse(payload) == .notAStopCode(text: "https://evil.example/click hiddentxt"))
    }
}
