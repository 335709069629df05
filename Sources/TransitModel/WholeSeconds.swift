import Foundation

extension Int {
    /// Whole seconds of an interval, rounded down, saturating at ±2^53 (285 million years) and 0 for NaN:
    /// `Int(_: Double)` traps on values it cannot represent, and intervals here may come from outside input
    /// (a feed's timestamps), so conversions that must never trap go through this.
    public init(wholeSecondsOf interval: TimeInterval) {
        let limit = 9_007_199_254_740_992.0  // 2^53: every integer up to it is exact in a Double
        self = interval.isNaN ? 0 : Int(Swift.min(Swift.max(interval.rounded(.down), -limit), limit))
    }
}
