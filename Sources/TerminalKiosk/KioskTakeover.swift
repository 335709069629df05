import Foundation
import Realtime
import StopPresentation
import TransitModel

/// Severe messages for the kiosk's own stop or for every kiosk (a staff message written with `kiosk message add
/// --severity severe`, or an agency's severe stop-wide or agency-wide alert), in both languages: the screen shows
/// the one it is in. The runtime reads them with every board it loads; the screen drops each at its end
/// (`StopAlert.activeUntil`) by itself, at the state's clock, without waiting for the next read.
public struct KioskTakeover: Sendable, Equatable {
    public var spanish: [StopAlert]
    public var english: [StopAlert]

    public init(spanish: [StopAlert] = [], english: [StopAlert] = []) {
        self.spanish = spanish
        self.english = english
    }

    public func alerts(_ language: Language) -> [StopAlert] { language == .es ? spanish : english }

    /// The messages in force at `now`, in `language`.
    public func inForce(_ language: Language, at now: Date) -> [StopAlert] {
        alerts(language).filter { $0.isInForce(at: now) }
    }

    /// What identifies a message once said: its id and its text in both languages (an updated text is said again).
    func spokenKey(_ alert: StopAlert) -> String {
        let es = spanish.first { $0.id == alert.id }?.header ?? ""
        let en = english.first { $0.id == alert.id }?.header ?? ""
        return "\(alert.id)\u{1F}\(es)\u{1F}\(en)"
    }
}

extension KioskState {
    /// The messages that head the screen now: on the idle screen the takeover; on a stop screen the takeover and
    /// the board's own severe messages for that stop or for every kiosk; elsewhere none.
    public var screenMessages: [StopAlert] {
        let own = takeover.inForce(language, at: now)
        switch screen {
        case .idle: return own
        case let .stop(stop):
            let board = (stop.board?.view.alerts ?? []).filter { $0.takesOverScreens && $0.isInForce(at: now) }
            return own + board.filter { alert in !own.contains { $0.id == alert.id } }
        case .entry, .plan, .diagram, .routeList: return []
        }
    }

    /// With `auto_speak`, says each takeover message once, when the kiosk is idle and silent (a passenger using
    /// it is never interrupted; the message is said when the kiosk is next idle).
    mutating func speakTakeover() -> [KioskEffect] {
        guard speech?.autoSpeak == true, isIdle, !speaking else { return [] }
        let due = takeover.inForce(language, at: now).filter { !spokenTakeover.contains(takeover.spokenKey($0)) }
        guard !due.isEmpty else { return [] }
        if spokenTakeover.count > 1_000 { spokenTakeover = [] }
        for alert in due { spokenTakeover.insert(takeover.spokenKey(alert)) }
        let text = due.map { alert in
            ([alert.header] + (alert.description.map { [$0] } ?? [])).map {
                KioskSpeech.sentence(SpeechText.clean($0))
            }.joined(separator: " ")
        }.joined(separator: " ")
        speaking = true
        return [.speak(KioskUtterance(text: text, language: language, volume: speechVolume, automatic: true))]
    }
}
