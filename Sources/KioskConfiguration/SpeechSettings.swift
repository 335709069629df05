import Foundation
import TransitModel

/// The `[speech]` section: spoken departures for passengers who cannot read the screen.
public struct SpeechSettings: Sendable, Equatable {
    /// Where audio goes: the sound device through a player program, or a log file of what would be played.
    public enum Output: Sendable, Equatable {
        /// `player`: the named program (`aplay`, `paplay`, `pw-play`), or the first one on the PATH when nil.
        case player(String?)
        /// A text log of each utterance (`begin …`, `end …`, `cancelled …`) paced as if played: tests, or a kiosk
        /// without speakers that should still show what it would say.
        case log(path: String)
    }

    /// Speech on or off (the keys do nothing when off).
    public var enabled = true
    /// Say the stop's departures as soon as a scan shows them.
    public var autoSpeak = false
    /// espeak-ng volume, 0–200 (100 normal).
    public var volume = 100
    /// Words per minute, 80–450.
    public var rate = 160
    /// How much the volume keys change the volume.
    public var volumeStep = 20
    /// Quiet hours, local minutes of the day [start, end) (may wrap past midnight): no auto-speak, and the volume
    /// is at most `quietVolume`. Nil: none.
    public var quietHours: (start: Int, end: Int)?
    public var quietVolume = 60
    /// Function keys (F1–F12): say the screen (again: repeat), say the full form, volume down, volume up.
    public var speakKey = 5
    public var moreKey = 6
    public var volumeDownKey = 7
    public var volumeUpKey = 8
    public var output: Output = .player(nil)

    public init() {}

    public static func == (a: SpeechSettings, b: SpeechSettings) -> Bool {
        a.enabled == b.enabled && a.autoSpeak == b.autoSpeak && a.volume == b.volume && a.rate == b.rate
            && a.volumeStep == b.volumeStep && a.quietHours?.start == b.quietHours?.start
            && a.quietHours?.end == b.quietHours?.end && a.quietVolume == b.quietVolume && a.speakKey == b.speakKey
            && a.moreKey == b.moreKey && a.volumeDownKey == b.volumeDownKey && a.volumeUpKey == b.volumeUpKey
            && a.output == b.output
    }

    /// Whether `minuteOfDay` (0–1439, local) falls in the quiet hours.
    public func isQuiet(minuteOfDay: Int) -> Bool {
        guard let quietHours else { return false }
        if quietHours.start <= quietHours.end {
            return minuteOfDay >= quietHours.start && minuteOfDay < quietHours.end
        }
        return minuteOfDay >= quietHours.start || minuteOfDay < quietHours.end
    }

    /// "22:00-06:30" → minutes of the day; nil when unreadable.
    public static func parseQuietHours(_ text: String) -> (start: Int, end: Int)? {
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return nil }
        func minutes(_ clock: String) -> Int? {
            let hm = clock.split(separator: ":")
            guard hm.count == 2, hm[0].count <= 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
                (0...23).contains(h), (0...59).contains(m)
            else { return nil }
            return h * 60 + m
        }
        guard let start = minutes(parts[0]), let end = minutes(parts[1]), start != end else { return nil }
        return (start, end)
    }

    /// "F5" → 5; nil for anything else.
    public static func parseKey(_ text: String) -> Int? {
        guard text.count >= 2, text.first == "F" || text.first == "f", let n = Int(text.dropFirst()),
            (1...12).contains(n)
        else { return nil }
        return n
    }
}

/// The `[display]` section: how the terminal screen looks.
public struct DisplaySettings: Sendable, Equatable {
    public enum Theme: String, Sendable, CaseIterable {
        /// The terminal's own palette with the route colours of the feed.
        case `default`
        /// White and yellow on black only (every text/background pair ≥ 7:1), no feed colours.
        case highContrast = "high-contrast"
    }

    public enum Layout: String, Sendable, CaseIterable {
        /// Every column that fits.
        case standard
        /// Large: fewer, wider columns; secondary columns are dropped instead of wrapping.
        case large
    }

    public var theme: Theme = .default
    public var layout: Layout = .standard

    public init() {}
}
