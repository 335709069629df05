import Foundation
import KioskTesting
import Testing

/// The terminal kiosk takes a new timetable only once the file passed the same check as the server's
/// (`LiveRouteDatabase`: `PRAGMA quick_check` and the import's marks, off the kiosk's loop): a corrupted copy
/// moved over its database is refused, logged, and the previous timetable stays on the screen.
@Suite struct KioskDatabaseCheckTests {
    /// A folder with the sample network imported and a kiosk config whose home stop is El Ejido.
    static func kioskWithSampleDatabase(_ name: String) throws -> (directory: String, database: String, config: String) {
        let directory = TemporaryFolder.make(name).path
        let database = directory + "/routes.sqlite"
        #expect(try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", database]).status == 0)
        let config = directory + "/kiosk.toml"
        try """
        home_stop = "1091"
        [database]
        path = "\(database)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return (directory, database, config)
    }

    @Test func aCorruptedReplacementIsRefusedWhileRunning() throws {
        let (directory, database, config) = try Self.kioskWithSampleDatabase("kiosk-corrupt")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/kiosk.log"
        let kiosk = try Programs.startKiosk(
            ["run", "--config", config, "--no-camera", "--log", log], mergeOutput: false)
        #expect(kiosk.waitForOutput { $0.contains("El Ejido") }, "the idle screen never showed the home stop")

        try DatabaseDamage.corruptedCopy(of: database, to: database + ".copy")
        #expect(rename(database + ".copy", database) == 0)
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let refused = kiosk.waitForOutput(limit: 600) { _ in logText().contains("replacement refused") }

        // The next good import is taken: the kiosk kept running on the previous timetable meanwhile.
        #expect(try KioskFixtures.importRenamedHomeStop(over: database, in: directory) == 0)
        let switched = kiosk.waitForOutput(limit: 600) { $0.contains("El Ejido Renovado") }
        kiosk.signal(SIGTERM)
        let run = kiosk.wait()
        let text = logText()
        #expect(refused, "the corrupted copy was not refused; log:\n\(text.suffix(2000))")
        let line = text.split(separator: "\n").first { $0.contains("replacement refused") }.map(String.init) ?? ""
        #expect(line.contains(database), "\(line)")
        #expect(line.contains("quick_check") || line.contains("malformed"), "\(line)")
        #expect(text.components(separatedBy: "replacement refused").count == 2, "logged once:\n\(text.suffix(2000))")
        #expect(switched, "the kiosk never showed the good import:\n\(run.stdout.suffix(2000))")
        #expect(!run.stdout.contains("Horarios no disponibles") && !run.stdout.contains("Timetables unavailable"))
        #expect(run.status == 0, "\(run.stderr)")
    }
    /// `kiosk doctor` runs the same check: a database that opens but no longer reads whole is a problem to fix,
    /// named with SQLite's complaint, not "service dates cover today".
    @Test func doctorRefusesADamagedDatabase() throws {
        let (directory, database, config) = try Self.kioskWithSampleDatabase("doctor-corrupt")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func doctorDatabaseLines() throws -> String {
            let result = try Programs.runKiosk(["doctor", "--config", config, "--camera-timeout", "1"])
            return result.stdout.split(separator: "\n").filter { $0.contains("database") || $0.contains("fix:") }
                .joined(separator: "\n")
        }
        let sound = try doctorDatabaseLines()
        #expect(sound.contains("[ok] database") && !sound.contains("[FAIL] database"), "\(sound)")

        try DatabaseDamage.corruptedCopy(of: database, to: database + ".copy")
        #expect(rename(database + ".copy", database) == 0)
        let damaged = try doctorDatabaseLines()
        #expect(damaged.contains("[FAIL] database"), "\(damaged)")
        #expect(damaged.contains("quick_check") || damaged.contains("malformed"), "\(damaged)")
        #expect(damaged.contains("fix: import the feed again: kiosk import FEED.zip --db \(database)"), "\(damaged)")
    }
}
