/// How journeys may be put together: the planner's knobs, as `kiosk plan` and the kiosk config expose them.
public struct PlanningRules: Sendable, Equatable {
    /// Generated walks between different stops within this straight-line distance (0: none).
    public var walkRadiusMeters: Int = 400
    public var walkSpeedMetersPerSecond: Double = 1.2
    /// Minimum time to change vehicles at the same stop.
    public var minTransferSeconds: Int = 60

    public init(walkRadiusMeters: Int = 400, walkSpeedMetersPerSecond: Double = 1.2, minTransferSeconds: Int = 60) {
        self.walkRadiusMeters = walkRadiusMeters
        self.walkSpeedMetersPerSecond = walkSpeedMetersPerSecond
        self.minTransferSeconds = minTransferSeconds
    }

    public static let walkRadiusLimit = 2000
}
