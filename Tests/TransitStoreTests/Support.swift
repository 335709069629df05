import Foundation
import Testing

/// Writes small GTFS feeds for tests and runs the built `kiosk` executable as a person would.
enum TestSupport {
    /// A fresh temporary directory, unique per call (tests run in parallel).
    static func temporaryDirectory(_ name: String = "t") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stopkiosk-tests-\(getpid())-\(name)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a feed directory from file name → exact contents (bytes are written as given: BOM, CRLF …).
    static func writeFeed(_ files: [String: String], name: String = "feed") -> URL {
        let dir = temporaryDirectory(name)
        for (file, contents) in files {
            try! Data(contents.utf8).write(to: dir.appendingPathComponent(file))
        }
        return dir
    }

    /// A minimal valid feed; tests replace one file at a time to exercise one rule.
    static let minimalFeed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://a.example,America/Guayaquil\n",
        "stops.txt": "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,101,Primera,-0.20,-78.50\nS2,102,Segunda,-0.21,-78.50\nS3,103,Tercera,-0.22,-78.50\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Uno,3\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Tercera\nR1,WK,T2,Tercera\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\nT2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\nT2,09:20:00,09:20:00,S3,3\n",
    ]

    static func feed(replacing changes: [String: String?]) -> URL {
        var files = minimalFeed
        for (file, contents) in changes { files[file] = contents }
        return writeFeed(files)
    }

    /// The directory holding the built products (the test bundle is built beside them).
    static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var kioskExecutable: URL { productsDirectory.appendingPathComponent("kiosk") }

    struct ProcessResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `kiosk ARGS…` to completion and captures what it printed.
    static func runKiosk(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try run(kioskExecutable.path, arguments, environment: environment)
    }

    /// Runs any executable to completion and captures what it printed.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Files rather than pipes: a chatty child can never block on a full pipe.
        let dir = temporaryDirectory("run")
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        try? FileManager.default.removeItem(at: dir)
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `../shared/data` beside the repository, where the real public feeds for checks live; nil (and the test
    /// skips with a message) on a clone without it.
    static var sharedData: URL? {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        let shared = dir.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }
}
