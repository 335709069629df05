import ArgumentParser
import Foundation
import KioskConfiguration
import Realtime
import TransitModel
import TransitStore

extension ConfigOption {
    /// The config file in force, for messages ("(defaults)" when there is none).
    var shownPath: String {
        config ?? (FileManager.default.fileExists(atPath: Self.systemConfig) ? Self.systemConfig : "(defaults)")
    }

    /// Refuses, when the config meets the route database (kiosk run, serve, lookup), `[realtime]` feed ids the
    /// database does not hold, and realtime without `feed` in a database of several feeds: bad input (exit 2),
    /// naming the config file, the key, the id and the database's feeds. Offline mode fetches nothing and is
    /// not checked.
    func checkRealtimeFeeds(_ settings: RealtimeSettings, database: RouteDatabase) throws {
        guard settings.hasFeeds, settings.mode != .offline else { return }
        do {
            _ = try settings.bind(to: database)
        } catch {
            printError("error: \(shownPath): \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
    }

    /// As `checkRealtimeFeeds(_:database:)`, opening the database at `path`; one that cannot be opened is left
    /// for the command to report as it does.
    func checkRealtimeFeeds(_ settings: RealtimeSettings, databasePath: String) throws {
        guard settings.hasFeeds, settings.mode != .offline, let database = try? RouteDatabase(path: databasePath)
        else { return }
        try checkRealtimeFeeds(settings, database: database)
    }
}
