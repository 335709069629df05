// What the terminal kiosk adds to KioskCore's types: the takeover on its screen and in speech, its camera in health.
import KioskCore
import StopPresentation
import TransitModel

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
        let text = KioskTakeover.spokenText(due)
        speaking = true
        return [.speak(KioskUtterance(text: text, language: language, volume: speechVolume, automatic: true))]
    }
}

extension KioskHealth {
    /// The camera as the screen shows it, in the health's terms.
    func noteCamera(_ status: KioskCameraStatus) {
        switch status {
        case .starting: noteCamera(Camera.starting)
        case .streaming: noteCamera(Camera.streaming)
        case .unavailable: noteCamera(Camera.unavailable)
        case .none: noteCamera(Camera.none)
        }
    }
}
