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
    package func spokenKey(_ alert: StopAlert) -> String {
        let es = spanish.first { $0.id == alert.id }?.header ?? ""
        let en = english.first { $0.id == alert.id }?.header ?? ""
        return "\(alert.id)\u{1F}\(es)\u{1F}\(en)"
    }
}
