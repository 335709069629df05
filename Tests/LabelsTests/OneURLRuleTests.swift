import Foundation
import StopCodes
import Testing

@testable import Labels

/// The one URL rule: `{stop}` (the default template) is the stop's code where it has one and its ID otherwise, the
/// same for labels, the scanner and `kiosk serve`; a signed `{stop}` label says which of the two it names.
@Suite("The one URL rule ({stop})")
struct OneURLRuleTests {
    let template = TestSupport.template("https://transit.example/s/{stop}")
    let key = KeyPair.generate()

    func parser(_ templates: [StopURLTemplate]) -> PayloadParser {
        PayloadParser(feedID: "f", ownTemplates: templates, trustedKeys: [key.publicKey], policy: .require)
    }

    @Test("the code where the stop has one, else the ID; a feed without codes gets labels")
    func codeElseID() throws {
        let builder = LabelPayloadBuilder(template: template, feedID: "f")
        #expect(
            try builder.payload(for: LabelStop(id: "MQ01", code: "1011", name: "Quitumbe"))
                == "https://transit.example/s/1011")
        #expect(
            try builder.payload(for: LabelStop(id: "MQ01", code: nil, name: "Quitumbe"))
                == "https://transit.example/s/MQ01")
        #expect(
            try builder.payload(for: LabelStop(id: "MQ01", code: "", name: "Quitumbe"))
                == "https://transit.example/s/MQ01")
        #expect(StopKeyKind.stop.value(code: nil, id: "A B") == "A B")
        #expect(StopKeyKind.stopCode.value(code: nil, id: "A") == nil)
        #expect(StopKeyKind.labelValue(code: "7", id: "A") == "7")
    }

    @Test("signed {stop} labels name the key kind they are; unsigned ones are looked up as either")
    func signedKinds() throws {
        let builder = LabelPayloadBuilder(template: template, feedID: "f", signingKey: key)
        for (stop, kind) in [
            (LabelStop(id: "MQ01", code: "1011", name: "Quitumbe"), StopReference.Kind.stopCode),
            (LabelStop(id: "MQ02", code: nil, name: "Morán Valverde"), .stopID),
        ] {
            let payload = try builder.payload(for: stop)
            guard case .stopReference(let reference) = parser([template]).parse(payload) else {
                Issue.record("not accepted: \(payload)"); continue
            }
            #expect(reference.kind == kind)
            #expect(reference.signature == .verified(keyID: key.keyID))
        }
        let open = PayloadParser(feedID: "f", ownTemplates: [template], policy: .prefer)
        guard case .stopReference(let unsigned) = open.parse("https://transit.example/s/MQ02") else {
            Issue.record("unsigned {stop} URL not read"); return
        }
        #expect(unsigned.kind == .codeOrID && unsigned.value == "MQ02")
    }

    @Test("labels signed under the old {stop_code} default still verify under {stop}")
    func oldLabelsStillVerify() throws {
        let old = LabelPayloadBuilder(
            template: TestSupport.template("https://transit.example/s/{stop_code}"), feedID: "f", signingKey: key)
        let payload = try old.payload(for: LabelStop(id: "MQ01", code: "1011", name: "Quitumbe"))
        guard case .stopReference(let reference) = parser([template]).parse(payload) else {
            Issue.record("old label refused: \(parser([template]).parse(payload))"); return
        }
        #expect(reference.kind == .stopCode && reference.value == "1011")
        // A code signature is not an ID signature: the same value signed as a stop_id does not pass as a code.
        let forgedKind = try #require(
            key.signedURL(
                template: TestSupport.template("https://transit.example/s/{stop_id}"), feedID: "f", value: "1011"))
        guard case .stopReference(let asID) = parser([template]).parse(forgedKind) else {
            Issue.record("ID-signed label refused"); return
        }
        #expect(asID.kind == .stopID)
    }
}
