import Foundation

/// The sentences of the kiosk screen (prompts, key hints, notices), in both languages, beside `Message` (the
/// stop-view sentences shared with `kiosk lookup`). Values, so a screen can be drawn in either language from
/// the same state and a test can check both.
public enum ScreenText: Sendable, Equatable {
    case holdCodePrompt
    case holdCodeDetail
    case typeInstead(hasHome: Bool)
    case nextDeparturesHere
    case whereTo
    case typeOrScanDestination
    case typeYourStop
    case noMatches
    case searching
    case planning
    case loadingStop
    case keyLanguage
    case keyBack
    case keyHome
    case keyPick
    case keyPlan
    case keyScroll
    case keyNewDestination
    case cameraUnavailable
    case cameraStarting
    case notAStopCode
    case notAStopCodeDetail(String)
    case unknownStop(String)
    case unknownStopDetail
    case forged
    case forgedDetail(String)
    case signatureRequired
    case signatureRequiredDetail
    case databaseUnavailable
    case databaseUnavailableDetail
    case outOfService(start: String, end: String)
    case outOfServiceDetail
    case noSuchStop(String)
    case ambiguous
    case sameStop
    case lookupFailed
    case pressAnyKey
    case demoBanner
    case moreBelow(Int)
    case serviceTo(String)

    public func text(_ language: Language) -> String {
        let es = language == .es
        switch self {
        case .holdCodePrompt: return es ? "Acerque el código de su parada a la cámara" : "Hold your stop code to the camera"
        case .holdCodeDetail: return es ? "El código QR está en el poste o en la marquesina" : "The QR code is on the pole or the shelter"
        case let .typeInstead(hasHome):
            return hasHome ? (es ? "…o escriba a dónde va" : "…or type where you are going")
                           : (es ? "…o escriba el nombre o el código de su parada" : "…or type your stop's name or code")
        case .nextDeparturesHere: return es ? "Próximas salidas desde aquí" : "Next departures from here"
        case .whereTo: return es ? "¿A dónde va?" : "Where are you going?"
        case .typeOrScanDestination: return es ? "Escriba su destino o acerque su código a la cámara" : "Type your destination or hold its code to the camera"
        case .typeYourStop: return es ? "Escriba el nombre o el código de su parada" : "Type your stop's name or code"
        case .noMatches: return es ? "Ninguna parada coincide. Pruebe con otro nombre o con el código." : "No stop matches. Try another name or the code."
        case .searching: return es ? "Buscando…" : "Searching…"
        case .planning: return es ? "Buscando cómo llegar…" : "Finding the way…"
        case .loadingStop: return es ? "Cargando la parada…" : "Loading the stop…"
        case .keyLanguage: return es ? "Tab: English" : "Tab: Español"
        case .keyBack: return es ? "Esc: volver" : "Esc: back"
        case .keyHome: return es ? "Esc: inicio" : "Esc: start"
        case .keyPick: return es ? "↑↓ elegir" : "↑↓ choose"
        case .keyPlan: return es ? "Enter: cómo llegar" : "Enter: how to get there"
        case .keyScroll: return es ? "↑↓ desplazar" : "↑↓ scroll"
        case .keyNewDestination: return es ? "Escriba otro destino" : "Type another destination"
        case .cameraUnavailable: return es ? "Cámara no disponible: reintentando. Puede escribir su parada." : "Camera unavailable: retrying. You can type your stop."
        case .cameraStarting: return es ? "Iniciando la cámara…" : "Starting the camera…"
        case .notAStopCode: return es ? "Este código no es de una parada" : "This is not a stop code"
        case let .notAStopCodeDetail(text): return es ? "Dice: \(text)" : "It says: \(text)"
        case let .unknownStop(value): return es ? "Parada desconocida: \(value)" : "Unknown stop: \(value)"
        case .unknownStopDetail: return es ? "Este código no está en los horarios de esta red." : "This code is not in this network's timetable."
        case .forged: return es ? "Etiqueta no válida" : "This label is not genuine"
        case let .forgedDetail(value):
            let claim = value.isEmpty ? "" : (es ? " (dice ser \(value))" : " (claims to be \(value))")
            return es ? "Su firma no es correcta\(claim). Por favor avise al personal." : "Its signature does not verify\(claim). Please tell the staff."
        case .signatureRequired: return es ? "Etiqueta sin firma" : "Unsigned label"
        case .signatureRequiredDetail: return es ? "Este quiosco solo acepta etiquetas oficiales firmadas." : "This kiosk only accepts signed official labels."
        case .databaseUnavailable: return es ? "Horarios no disponibles" : "Timetables unavailable"
        case .databaseUnavailableDetail: return es ? "El quiosco no encuentra sus datos. El personal ha sido avisado." : "The kiosk cannot find its data. Staff have been told."
        case let .outOfService(start, end): return es ? "Horarios vencidos (válidos del \(start) al \(end))" : "Timetable out of date (valid \(start) to \(end))"
        case .outOfServiceDetail: return es ? "Los horarios no cubren la fecha de hoy. Consulte la información en la parada." : "The timetable does not cover today. Please check the information at the stop."
        case let .noSuchStop(query): return es ? "No encontramos «\(query)»" : "No stop called “\(query)”"
        case .ambiguous: return es ? "Varias paradas coinciden: elija una de la lista." : "Several stops match: pick one from the list."
        case .sameStop: return es ? "Ya está en esa parada." : "You are already at that stop."
        case .lookupFailed: return es ? "No se pudo consultar" : "The lookup failed"
        case .pressAnyKey: return es ? "Pulse cualquier tecla para continuar" : "Press any key to continue"
        case .demoBanner: return es ? "DEMO" : "DEMO"
        case let .moreBelow(n): return es ? "… y \(n) más (↓)" : "… and \(n) more (↓)"
        case let .serviceTo(h): return es ? "hacia \(h)" : "to \(h)"
        }
    }
}
