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
        subcommands: [
            ImportBench.self, LookupBench.self, PlanBench.self, LabelsBench.self, ScanBench.self, KioskBench.self,
            RealtimeBench.self, LivePlanBench.self, LiveBench.self, FeedMemoryBench.self, SpeechBench.self, MapsBench.self,
            ServeBench.self, TimetableBench.self, SearchBench.self, MultiFeedBench.self,
        ]
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

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    struct ChildRun {
        var seconds: Double
        /// The child's exit code, or 128 + the signal that ended it (as a shell reports it).
        var status: Int32
        /// User + system CPU of the child over its whole life.
        var cpuSeconds: Double
        /// The child's own peak resident memory, from the kernel's accounting at exit.
        var peakResidentMB: Double
    }

    /// Runs a command with posix_spawn and reaps it with wait4, so the time is the child's life and nothing else
    /// (Foundation's Process polls for exit and would add tens of milliseconds). Standard input comes from
    /// `stdinPath`, output goes to the given files (or /dev/null); `environment` entries are added to ours;
    /// with `stopAfter`, the child is sent SIGTERM after that many seconds.
    static func spawn(
        _ executable: String, _ arguments: [String], stdinPath: String = "/dev/null", stdoutPath: String = "/dev/null",
        stderrPath: String? = nil, environment: [String] = [], stopAfter: Double? = nil
    ) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        var inherited: [String] = []
        var index = 0
        while let entry = environ[index] { inherited.append(String(cString: entry)); index += 1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (inherited + environment).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw ValidationError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        if let stopAfter {
            Thread.sleep(forTimeInterval: stopAfter)
            kill(pid, SIGTERM)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        func value(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildRun(
            seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, status: code,
            cpuSeconds: value(usage.ru_utime) + value(usage.ru_stime), peakResidentMB: Double(usage.ru_maxrss) / 1024)
    }

    /// Runs a command to completion (optionally fed `stdin`) and fails loudly if it fails.
    @discardableResult
    static func runProcess(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> ChildRun {
        var inputPath = "/dev/null"
        if let stdin {
            inputPath =
                FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-stdin-\(getpid())").path
            try stdin.write(toFile: inputPath, atomically: false, encoding: .utf8)
        }
        defer { if stdin != nil { unlink(inputPath) } }
        let run = try spawn(executable, arguments, stdinPath: inputPath)
        guard run.status == 0 else {
            throw ValidationError(
                "\(executable) \(arguments.prefix(4).joined(separator: " ")) failed (status \(run.status))")
        }
        return run
    }

    /// The `kiosk` program built beside this one (same configuration, same folder).
    static func siblingKiosk() -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kiosk").path
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
