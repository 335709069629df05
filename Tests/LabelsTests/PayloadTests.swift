import Foundation
import StopCodes
import Testing

@testable import Labels

@Suite("Label payloads")
struct PayloadTests {
    let stop = TestSupport.stops[0]
    let key = KeyPair.generate()

    @Test("unsigned: the template filled with the stop code")
    func unsigned() throws {
        let builder = LabelPayloadBuilder(template: TestSupport.template(), feedID: "transit.example")
        #expect(try builder.payload(for: stop) == "https://transit.example/s/1011")
        #expect(try builder.value(for: stop) == "1011")
    }

    @Test("a {stop_id} template uses the ID, percent-encoded")
    func stopIDTemplate() throws {
        let builder = LabelPayloadBuilder(
            template: TestSupport.template("https://t.example/stop/{stop_id}"), feedID: "f")
        let spaced = LabelStop(id: "Plaza Grande 2", code: nil, name: "Plaza Grande")
        #expect(try builder.payload(for: spaced) == "https://t.example/stop/Plaza%20Grande%202")
        #expect(try builder.value(for: spaced) == "Plaza Grande 2")
    }

    @Test("signed: the kiosk's parser verifies it with the public key and reads the same stop")
    func signedVerifies() throws {
        let builder = LabelPayloadBuilder(template: TestSupport.template(), feedID: "transit.example", signingKey: key)
        let payload = try builder.payload(for: stop)
        #expect(payload.hasPrefix("https://transit.example/s/1011?k=\(key.keyID)&s="))
        let parser = PayloadParser(
            feedID: "transit.example", ownTemplates: [TestSupport.template()], trustedKeys: [key.publicKey],
            policy: .require)
        guard case .stopReference(let reference) = parser.parse(payload) else {
            Issue.record("not accepted: \(parser.parse(payload))"); return
        }
        #expect(reference.value == "1011")
        #expect(reference.signature == .verified(keyID: key.keyID))
    }

    @Test("forged labels are refused: edited stop, another key, another feed")
    func forgeries() throws {
        let template = TestSupport.template()
        let parser = PayloadParser(
            feedID: "transit.example", ownTemplates: [template], trustedKeys: [key.publicKey], policy: .require)
        let genuine = try LabelPayloadBuilder(template: template, feedID: "transit.example", signingKey: key).payload(
            for: stop)

        // The stop code edited, the signature kept.
        let edited = genuine.replacingOccurrences(of: "/s/1011?", with: "/s/1012?")
        guard case .forged(.badSignature(let keyID), let claimed) = parser.parse(edited) else {
            Issue.record("edited payload not refused: \(parser.parse(edited))"); return
        }
        #expect(keyID == key.keyID)
        #expect(claimed.value == "1012")

        // Signed with a key the kiosk does not trust.
        let other = KeyPair.generate()
        let foreign = try LabelPayloadBuilder(template: template, feedID: "transit.example", signingKey: other).payload(
            for: stop)
        #expect(
            parser.parse(foreign)
                == .forged(
                    .unknownKey(keyID: other.keyID),
                    claimed: StopReference(
                        kind: .stopCode, value: "1011", signature: .unsigned,
                        source: .ownLabel(template: template.pattern))))

        // Another key's signature under the trusted key's id.
        let swapped = foreign.replacingOccurrences(of: "k=\(other.keyID)", with: "k=\(key.keyID)")
        guard case .forged(.badSignature, _) = parser.parse(swapped) else {
            Issue.record("key id swap not refused"); return
        }

        // A genuine label of another feed.
        let otherFeed = try LabelPayloadBuilder(template: template, feedID: "other.example", signingKey: key).payload(
            for: stop)
        guard case .forged(.badSignature, _) = parser.parse(otherFeed) else {
            Issue.record("other feed's label not refused"); return
        }
    }

    @Test("a stop without a code cannot fill {stop_code}: the problem names the stop and the fix")
    func missingCode() {
        let builder = LabelPayloadBuilder(template: TestSupport.template(), feedID: "f")
        let noCode = LabelStop(id: "MQ01", code: nil, name: "Quitumbe")
        #expect { try builder.payload(for: noCode) } throws: { error in
            let text = "\(error)"
            return text.contains("MQ01") && text.contains("{stop_id}")
        }
    }

    @Test("a value the scanner would refuse is refused here, before anything is drawn")
    func unusableValues() {
        let builder = LabelPayloadBuilder(template: TestSupport.template(), feedID: "f")
        for code in ["12\u{1B}[31m", " 1011", String(repeating: "9", count: 200)] {
            let stop = LabelStop(id: "X", code: code, name: "X")
            #expect(throws: LabelError.StopProblem.self, "\(code.debugDescription)") { try builder.payload(for: stop) }
        }
    }
}
