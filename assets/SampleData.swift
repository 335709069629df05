import Foundation

/// Data the program ships in `assets/`: the Quito sample network that every command falls back on when no
/// database is configured (the README's demo, tests, a kiosk on its first boot).
public enum SampleData {
    /// The sample GTFS feed, as a directory of `.txt` files.
    public static var sampleNetworkFeed: URL {
        Bundle.module.url(forResource: "sample-network", withExtension: nil)!
    }
}
