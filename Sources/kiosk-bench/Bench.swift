import ArgumentParser
import Foundation
import Logging

/// The benchmark executable: every performance claim in the README is measured here, as a ratio against a
/// peer or a limit in the same run, on the release build (`swift run -c release kiosk-bench …`).
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-bench",
        abstract: "Measure StopKiosk against its peers (release build).",
        subcommands: [ImportBench.self]
    )
}

/// Timing helpers shared by the benchmarks.
enum Measure {
    static func seconds<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Peak resident memory of this process so far, in MB (the kernel's own accounting).
    static func peakResidentMB() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 50) }

    /// Runs a command, waits, and returns its wall time; fails loudly if it fails.
    static func runProcess(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let input = Pipe()
        if stdin != nil { process.standardInput = input }
        process.standardOutput = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else {
            throw ValidationError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return elapsed
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Library progress logs would only add noise (and time) to what is measured.
    static var quietLogger: Logger {
        var logger = Logger(label: "kiosk-bench")
        logger.logLevel = .warning
        return logger
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }
    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
}
