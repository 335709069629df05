import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import KioskCore
@testable import TerminalKiosk

/// What the browser kiosk says for a takeover (`KioskTakeover.spokenText`, by `spokenDigest`) is what `kiosk run`
/// says with `auto_speak`, and a message's digest is the same in both languages and changes with its text.
@Suite struct KioskTakeoverSpokenTextTests {
    static func alert(_ id: String, _ header: String, _ description: String?, language: String) -> StopAlert {
        StopAlert(
            id: id, header: header, description: description, url: nil, language: language, cause: "other_cause",
            effect: "other_effect", severity: "severe", scope: "agency", activeFrom: nil,
            activeUntil: KioskFixtures.morning.addingTimeInterval(3_600))
    }

    static let takeover = KioskTakeover(
        spanish: [
            alert("strike", "Huelga: no hay servicio", "Use el metro", language: "es"),
            alert("flood", "Inundación en la Av. 10 de Agosto!", nil, language: "es"),
        ],
        english: [
            alert("strike", "Strike: no service", "Take the metro", language: "en"),
            alert("flood", "Flooding on Av. 10 de Agosto!", nil, language: "en"),
        ])

    @Test func theBrowserSaysWhatTheTerminalSays() throws {
        for language in [Language.es, .en] {
            var state = KioskFixtures.idleState(language: language)
            state.speech = KioskSpeechControls(autoSpeak: true)
            let effects = state.handle(.takeoverLoaded(Self.takeover), now: KioskFixtures.morning)
            guard case .speak(let utterance) = try #require(effects.first, "said with auto_speak") else {
                Issue.record("not speech: \(effects)")
                continue
            }
            #expect(KioskTakeover.spokenText(Self.takeover.alerts(language)) == utterance.text)
        }
        #expect(
            KioskTakeover.spokenText(Self.takeover.spanish)
                == "Huelga: no hay servicio. Use el metro. Inundación en la Av. 10 de Agosto!")
    }

    @Test func aMessagesDigestIsTheSameInBothLanguagesAndChangesWithItsText() {
        let takeover = Self.takeover
        let strike = takeover.spokenDigest(takeover.spanish[0])
        #expect(strike.count == 16 && strike.allSatisfy(\.isHexDigit))
        #expect(takeover.spokenDigest(takeover.english[0]) == strike)
        #expect(takeover.spokenDigest(takeover.spanish[1]) != strike)
        var changed = takeover
        changed.english[0].header = "Strike: reduced service"
        #expect(changed.spokenDigest(changed.spanish[0]) != strike)
    }
}
