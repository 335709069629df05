import StopCodes

/// Builds the text a stop's QR code carries: the stop URL from the configured template, signed when a key is
/// given, and proves that the kiosk's own payload parser reads it back as the same stop before anything is
/// drawn (a value the scanner would refuse — a stop code with a control character, say — fails here, naming
/// the stop, rather than on a pole).
public struct LabelPayloadBuilder: Sendable {
    public var template: StopURLTemplate
    /// The feed ID the signature names (`RouteDatabase.feedID` unless configured).
    public var feedID: String
    /// Signs every label when set. The private key never leaves this value.
    public var signingKey: KeyPair?

    public init(template: StopURLTemplate, feedID: String, signingKey: KeyPair? = nil) {
        self.template = template
        self.feedID = feedID
        self.signingKey = signingKey
    }

    /// The value the template's placeholder takes for `stop`: its code for `{stop_code}`, its ID for
    /// `{stop_id}`, its code else its ID for `{stop}` (the one URL rule). It is also what the label prints in large type and what a person types at the kiosk.
    public func value(for stop: LabelStop) throws(LabelError.StopProblem) -> String {
        guard let value = template.kind.value(code: stop.code, id: stop.id) else {
            throw LabelError.missingStopCode(stopID: stop.id, template: template.pattern)
        }
        return value
    }

    /// The QR payload for `stop`, checked by parsing it back (with the signing key's public half trusted).
    public func payload(for stop: LabelStop) throws(LabelError.StopProblem) -> String {
        let value = try value(for: stop)
        let payload: String
        if let signingKey {
            let kind: StopKeyKind = stop.code.map { !$0.isEmpty && $0 == value } == true ? .stopCode : .stopID
            guard let signed = signingKey.signedURL(template: template, feedID: feedID, value: value, signedKind: kind)
            else {
                throw LabelError.unusableValue(
                    stopID: stop.id, value: value, reason: "it contains control characters, which cannot be signed")
            }
            payload = signed
        } else {
            payload = template.url(for: value)
        }
        let parser = PayloadParser(
            feedID: feedID, ownTemplates: [template],
            trustedKeys: signingKey.map { [$0.publicKey] } ?? [],
            policy: signingKey == nil ? .prefer : .require, acceptsBareReferences: false)
        switch parser.parse(payload) {
        case .stopReference(let reference) where reference.value == value:
            if signingKey != nil, case .verified = reference.signature {
            } else if signingKey != nil {
                throw LabelError.unusableValue(stopID: stop.id, value: value, reason: "the signed URL does not verify")
            }
            return payload
        case .stopReference(let reference):
            throw LabelError.unusableValue(
                stopID: stop.id, value: value, reason: "the scanner would read it as '\(reference.value)'")
        case .notAStopCode:
            throw LabelError.unusableValue(
                stopID: stop.id, value: value,
                reason:
                    "the scanner would not accept it as a stop (empty, over 128 characters, or with control or leading/trailing space characters)"
            )
        case .forged(let reason, _):
            throw LabelError.unusableValue(
                stopID: stop.id, value: value, reason: "the signed URL is refused: \(reason)")
        case .signatureRequired:
            throw LabelError.unusableValue(stopID: stop.id, value: value, reason: "the URL is not signed")
        }
    }
}
