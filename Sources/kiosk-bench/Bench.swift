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
        subcommands: [ImportBench.self, LookupBench.self, PlanBench.self, LabelsBench.self, ScanBench.self, KioskBench.self]
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

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

    struct ChildRun {
        var seconds: Double
        /// The child's own peak resident memory, from the kernel's accounting at exit.
        var peakResidentMB: Double
    }

    /// Runs a command with posix_spawn and reaps it with wait4, so the time is the child's life and nothing else
    /// (Foundation's Process polls for exit and would add tens of milliseconds). Standard output is discarded;
    /// `stdin`, when given, is fed from a temporary file.
    @discardableResult
    static func runProcess(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var inputPath: String?
        if let stdin {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-stdin-\(getpid())").path
            try stdin.write(toFile: path, atomically: false, encoding: .utf8)
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
            inputPath = path
        }
        defer { if let inputPath { unlink(inputPath) } }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ValidationError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else {
            throw ValidationError("\(executable) \(arguments.prefix(4).joined(separator: " ")) failed (wait status \(status))")
        }
        return ChildRun(seconds: elapsed, peakResidentMB: Double(usage.ru_maxrss) / 1024)
    }

    struct TimedRun {
        var seconds: Double
        /// User + system CPU of the child over its whole life.
        var cpuSeconds: Double
    }

    /// Starts a long-running command (extra `environment` entries added to ours, standard error to a file), lets it
    /// run for `seconds`, stops it with SIGTERM, and returns its wall and CPU time from wait4.
    static func runFor(seconds: Double, _ executable: String, _ arguments: [String], environment: [String], stderrPath: String) throws -> TimedRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var inherited: [String] = []
        var index = 0
        while let entry = environ[index] { inherited.append(String(cString: entry)); index += 1 }
        let envp = (inherited + environment).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw ValidationError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        Thread.sleep(forTimeInterval: seconds)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        func value(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return TimedRun(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpuSeconds: value(usage.ru_utime) + value(usage.ru_stime))
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
