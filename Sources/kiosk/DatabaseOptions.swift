import ArgumentParser
import Crypto
import Foundation
import KioskConfiguration
import SampleData
import StopPresentation
import TransitStore
import TripPlanning

/// `--config`: the kiosk's TOML file, so that headless commands read codes and databases exactly as the kiosk
/// screen does (URL templates, trusted keys, signature policy, database path).
struct ConfigOption: ParsableArguments {
    static let systemConfig = "/etc/stopkiosk/kiosk.toml"

    @Option(
        help: ArgumentHelp(
            "The kiosk's TOML config (default: \(ConfigOption.systemConfig) if it exists, else built-in defaults).",
            valueName: "path"))
    var config: String?

    /// The configuration in force; a bad file is bad input (exit 2) with the file and key named.
    func load() throws -> KioskConfig {
        do {
            if let config { return try KioskConfigFile.load(path: config) }
            if FileManager.default.fileExists(atPath: Self.systemConfig) {
                return try KioskConfigFile.load(path: Self.systemConfig)
            }
            return KioskConfig()
        } catch {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
    }
}

/// `--db`, shared by every command that reads the route database. Without it, the bundled sample network is
/// used: imported once into the user's cache directory and reused while the sample is unchanged.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long, help: "The route database (made by 'kiosk import'). Default: the bundled Quito sample network.")
    var db: String?

    /// `--db`, else the config's database, else the bundled sample.
    func open(config: KioskConfig = KioskConfig()) throws -> RouteDatabase {
        try RouteDatabase(path: try db ?? config.databasePath ?? DefaultDatabase.samplePath())
    }
}

enum DefaultDatabase {
    /// The cached import of the sample feed, named after a hash of its contents and the schema version so an
    /// updated sample or schema (a new build of the program) is imported afresh.
    static func samplePath() throws -> String {
        let feed = SampleData.sampleNetworkFeed
        var hasher = SHA256()
        // The schema version too: a new program's schema must not find the previous build's cached import.
        hasher.update(data: Data("schema \(Schema.version)".utf8))
        for name in try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted() where name.hasSuffix(".txt")
        {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: try Data(contentsOf: feed.appendingPathComponent(name)))
        }
        let tag = hasher.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
        let environment = ProcessInfo.processInfo.environment
        let cacheRoot =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let directory = cacheRoot.appendingPathComponent("stopkiosk")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("sample-\(tag).sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            var importer = GTFSImporter(feedPath: feed.path, databasePath: path)
            importer.writePlanningImage()
            _ = try importer.run()
        }
        return path
    }
}
