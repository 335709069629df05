import Foundation
import KioskCore
import StopPresentation
import TransitModel

/// The speech keys and defaults the state machine works with (from the config's `[speech]`).
public struct KioskSpeechControls: Sendable, Equatable {
    /// Says the current screen (the short form); pressed again, says it again from the start.
    public var speakKey: KioskKey
    /// Says the full form of the current screen.
    public var moreKey: KioskKey
    public var volumeDownKey: KioskKey
    public var volumeUpKey: KioskKey
    /// The volume each passenger starts at (0–200), and how much a volume key changes it.
    public var volume: Int
    public var volumeStep: Int
    /// Say a scanned stop's departures (or a scanned destination's plan) as soon as they are shown.
    public var autoSpeak: Bool

    public init(
        speakKey: KioskKey = .function(5), moreKey: KioskKey = .function(6), volumeDownKey: KioskKey = .function(7),
        volumeUpKey: KioskKey = .function(8), volume: Int = 100, volumeStep: Int = 20, autoSpeak: Bool = false
    ) {
        self.speakKey = speakKey
        self.moreKey = moreKey
        self.volumeDownKey = volumeDownKey
        self.volumeUpKey = volumeUpKey
        self.volume = volume
        self.volumeStep = volumeStep
        self.autoSpeak = autoSpeak
    }
}

/// One thing to say: the text, its voice, the passenger's volume; `automatic` when no key asked for it (quiet
/// hours silence those).
public struct KioskUtterance: Sendable, Equatable {
    public var text: String
    public var language: Language
    public var volume: Int
    public var automatic: Bool

    public init(text: String, language: Language, volume: Int, automatic: Bool) {
        self.text = text
        self.language = language
        self.volume = volume
        self.automatic = automatic
    }
}

extension KioskState {
    /// The speech keys: nil when `key` is not one of them (or speech is off).
    mutating func handleSpeechKey(_ key: KioskKey) -> [KioskEffect]? {
        guard let speech else { return nil }
        switch key {
        case speech.speakKey: return say(KioskSpeech.text(for: self, detail: .short), automatic: false)
        case speech.moreKey: return say(KioskSpeech.text(for: self, detail: .full), automatic: false)
        case speech.volumeDownKey, speech.volumeUpKey:
            let step = key == speech.volumeUpKey ? speech.volumeStep : -speech.volumeStep
            speechVolume = min(200, max(0, speechVolume + step))
            return say(Message.speechVolume(percent: speechVolume / 2).text(language), automatic: false)
        default: return nil
        }
    }

    /// What a scan asked to be said, once its stop or plan is on the screen.
    mutating func autoSpeak() -> [KioskEffect] {
        guard autoSpeakPending else { return [] }
        autoSpeakPending = false
        return say(KioskSpeech.text(for: self, detail: .short), automatic: true)
    }

    private mutating func say(_ text: String, automatic: Bool) -> [KioskEffect] {
        speaking = true
        return [.speak(KioskUtterance(text: text, language: language, volume: speechVolume, automatic: automatic))]
    }
}

/// What the kiosk says for the screen a passenger sees: the same values the screen draws, through the spoken
/// renderings of StopPresentation.
public enum KioskSpeech {
    public static func text(for state: KioskState, detail: SpeechDetail) -> String {
        let language = state.language
        let say = { (message: Message) in message.text(language) }
        if let notice = state.notice {
            switch notice.kind {
            case .notAStopCode: return SpeechText.sentence(say(.notAStopCode))
            case let .unknownStop(value): return SpeechText.sentence(say(.unknownStop(SpeechText.clean(value))))
            case .forged: return SpeechText.sentence(say(.forged)) + " " + SpeechText.sentence(say(.forgedDetail("")))
            case .signatureRequired:
                return SpeechText.sentence(say(.signatureRequired)) + " " + say(.signatureRequiredDetail)
            case let .failure(failure): return failureText(failure, language)
            }
        }
        switch state.screen {
        case .idle:
            // A severe message that took over the screen is said first.
            var parts = state.screenMessages.map { KioskTakeover.spokenText([$0]) }
            if let home = state.home {
                parts.append(StopViewSpeech.text(home.view, language: language, detail: detail))
            }
            parts.append(SpeechText.sentence(say(.holdCodePrompt)))
            return parts.joined(separator: " ")
        case let .stop(stop):
            if let board = stop.board { return StopViewSpeech.text(board.view, language: language, detail: detail) }
            if let failure = stop.failure { return failureText(failure, language) }
            return say(.loadingStop)
        case let .entry(entry):
            var parts = [say(.whereTo)]
            if !entry.text.isEmpty { parts.append(SpeechText.sentence(SpeechText.clean(entry.text))) }
            if entry.matches.indices.contains(entry.selected) {
                parts.append(SpeechText.sentence(SpeechText.clean(entry.matches[entry.selected].name)))
            }
            return parts.joined(separator: " ")
        case let .plan(plan):
            if let journey = plan.plan { return JourneyPlanSpeech.text(journey, language: language, detail: detail) }
            if let failure = plan.failure { return failureText(failure, language) }
            return say(.planning)
        case let .diagram(diagram):
            // The line diagram's text equivalent is already written to be read: stops in order, marks in words.
            if let route = diagram.diagram {
                return RouteDiagramRendering.text(route, language: language)
            }
            if let failure = diagram.failure { return failureText(failure, language) }
            return say(.loadingStop)
        case let .routeList(list):
            return RouteListScreen.spoken(list, language: language)
        }
    }

    static func failureText(_ failure: KioskFailure, _ language: Language) -> String {
        let say = { (message: Message) in message.text(language) }
        switch failure {
        case .databaseUnavailable: return SpeechText.sentence(say(.databaseUnavailable)) + " " + say(.databaseUnavailableDetail)
        case .outOfService: return say(.outOfServiceDetail)
        case let .noSuchStop(query): return say(.noSuchStop(SpeechText.clean(query)))
        case .ambiguous: return say(.ambiguous)
        case .sameStop: return say(.sameStop)
        case .other: return say(.lookupFailed)
        }
    }
}
