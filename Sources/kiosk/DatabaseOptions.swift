import ArgumentParser
import Crypto
import Foundation
import SampleData
import TransitStore

/// `--db`, shared by every command that reads the route database. Without it, the bundled sample network is
/// used: imported once into the user's cache directory and reused while the sample is unchanged.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The route database (made by 'kiosk import'). Default: the bundled Quito sample network.")
    var db: String?

    func open() throws -> RouteDatabase {
        if let db { return try RouteDatabase(path: db) }
        return try RouteDatabase(path: try DefaultDatabase.samplePath())
    }
}

enum DefaultDatabase {
    /// The cached import of the sample feed, named after a hash of its contents so an updated sample (a new
    /// build of the program) is imported afresh.
    static func samplePath() throws -> String {
        let feed = SampleData.sampleNetworkFeed
        var hasher = SHA256()
        for name in try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted() where name.hasSuffix(".txt") {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: try Data(contentsOf: feed.appendingPathComponent(name)))
        }
        let tag = hasher.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
        let environment = ProcessInfo.processInfo.environment
        let cacheRoot = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let directory = cacheRoot.appendingPathComponent("stopkiosk")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("sample-\(tag).sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        }
        return path
    }
}
