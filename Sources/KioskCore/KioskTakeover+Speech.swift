import Foundation
import StopPresentation
import TransitModel

/// What other surfaces (the browser kiosk, `/kiosk`) need to say a takeover as `kiosk run` says it.
extension KioskTakeover {
    /// What the kiosk says for `alerts` (messages of one language): each header, then its description, as
    /// sentences — the text `auto_speak` says on the terminal.
    public static func spokenText(_ alerts: [StopAlert]) -> String {
        alerts.map { alert in
            ([alert.header] + (alert.description.map { [$0] } ?? [])).map {
                SpeechText.sentence(SpeechText.clean($0))
            }.joined(separator: " ")
        }.joined(separator: " ")
    }

    /// What identifies `alert` once said, in 16 hex digits: its id and its text in both languages, so a message is
    /// said once whatever the screen's language, and again when its text is changed (FNV-1a 64 of `spokenKey`).
    public func spokenDigest(_ alert: StopAlert) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in spokenKey(alert).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
