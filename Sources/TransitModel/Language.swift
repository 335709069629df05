/// The languages the kiosk speaks. Spanish first: the Quito Q-Bus design it descends from.
public enum Language: String, Sendable, CaseIterable, Codable {
    case es, en

    public var other: Language { self == .es ? .en : .es }
}
