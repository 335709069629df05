import Foundation

/// What a finished child process printed, and how it ended.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status; 128 + the signal's number when a signal ended the process (as a shell reports it).
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The signal that ended the process, nil when it exited.
    public var signal: Int32?
    public init(status: Int32, stdout: String, stderr: String, signal: Int32? = nil) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.signal = signal
    }

    /// Standard output's lines that are JSON objects.
    public var jsonLines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    public var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Runs the built executables (and other programs) as a person would, for every test target.
///
/// Children are started with posix_spawn and reaped with waitpid rather than with Foundation's `Process`: a child
/// that leaves a daemon behind (`tmux new-session`) would keep every inherited descriptor open, and `Process` on
/// Linux waits for those to close as well as for the child. Output goes to files rather than pipes, so a chatty
/// child can never block on a full pipe.
public enum Programs {
    /// The folder holding the built products (test bundles are built beside them).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The built `kiosk` executable.
    public static var kiosk: URL { productsDirectory.appendingPathComponent("kiosk") }

    /// One cache for the imported sample network, shared by the CLI tests of a test process (imported once).
    public static let sampleCache = TemporaryFolder.make("cache")

    /// Runs `kiosk ARGS…` to completion with the shared sample cache (unless `environment` sets another).
    public static func runKiosk(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        preload: String? = nil, limit: Double = 600
    ) throws -> ProcessResult {
        try run(
            kiosk, arguments, environment: kioskEnvironment(environment), input: input, preload: preload, limit: limit)
    }

    /// Starts `kiosk ARGS…` in the background with the shared sample cache (unless `environment` sets another).
    public static func startKiosk(
        _ arguments: [String], environment: [String: String] = [:], preload: String? = nil,
        mergeOutput: Bool = false
    ) throws -> RunningProgram {
        try start(
            kiosk, arguments, environment: kioskEnvironment(environment), preload: preload, mergeOutput: mergeOutput)
    }

    private static func kioskEnvironment(_ environment: [String: String]) -> [String: String] {
        var env = ["XDG_CACHE_HOME": sampleCache.path]
        for (key, value) in environment { env[key] = value }
        return env
    }

    /// Runs a program to completion and captures what it printed. `limit` seconds is a guard against hangs only:
    /// a child still running then is killed, and its standard error says so.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        preload: String? = nil, limit: Double = 600
    ) throws -> ProcessResult {
        try start(executable, arguments, environment: environment, input: input, preload: preload).wait(limit: limit)
    }

    /// Starts a program in the background, its output going to files in a folder of its own.
    ///
    /// The child inherits this process's environment, without `LD_PRELOAD` and `FAKEV4L2_*` (a preload only ever
    /// reaches the child it is meant for), with `environment` on top and `LD_PRELOAD` = `preload` when given.
    /// With `mergeOutput`, standard error goes to the same file as standard output, so the order of the two can be
    /// read back. Standard input is `input`, else /dev/null.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        preload: String? = nil, mergeOutput: Bool = false
    ) throws -> RunningProgram {
        var env = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("FAKEV4L2_") && $0.key != "LD_PRELOAD"
        }
        for (key, value) in environment { env[key] = value }
        if let preload { env["LD_PRELOAD"] = preload }
        let directory = TemporaryFolder.make("run")
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = mergeOutput ? outPath : directory.appendingPathComponent("stderr").path
        var inPath = "/dev/null"
        if let input {
            inPath = directory.appendingPathComponent("stdin").path
            try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if mergeOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        // The test runner's threads block most signals, and a spawned child inherits that mask: a tmux server
        // started from them ignored SIGHUP and SIGTERM and outlived its test (kill-server could not end its pane).
        // Children start as from a shell: nothing blocked, default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        return RunningProgram(pid: pid, directory: directory, outPath: outPath, errPath: errPath)
    }

    /// An executable on the PATH (or a path to one), or nil.
    public static func which(_ name: String) -> URL? {
        if name.contains("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    /// A C compiler: $CC, else cc, gcc or clang on the PATH.
    public static var compiler: URL? {
        if let cc = ProcessInfo.processInfo.environment["CC"], !cc.isEmpty, let found = which(cc) { return found }
        return ["cc", "gcc", "clang"].lazy.compactMap(which).first
    }
}

/// A program started by `Programs.start`: its output so far, signals, and waiting for it (with a hang guard).
public final class RunningProgram {
    public let pid: pid_t
    /// The folder holding the output files; removed by `wait`.
    public let directory: URL
    let outPath: String
    let errPath: String
    private var exitStatus: Int32?

    init(pid: pid_t, directory: URL, outPath: String, errPath: String) {
        self.pid = pid
        self.directory = directory
        self.outPath = outPath
        self.errPath = errPath
    }

    /// What the program has written to standard output so far (with standard error, when merged).
    public var output: String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(), as: UTF8.self)
    }

    public var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { exitStatus = status; return false }
        return reaped == 0 || (reaped == -1 && errno == EINTR)
    }

    /// Polls the output until `condition` holds, the program ends or `limit` seconds pass (a hang guard).
    public func waitForOutput(limit: Double = 120, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if condition(output) { return true }
            if !isRunning { return condition(output) }
            usleep(50_000)
        }
        return false
    }

    public func signal(_ number: Int32) { if isRunning { kill(pid, number) } }

    /// Waits for the program to end; after `limit` seconds (a guard against hangs only) it is terminated, then
    /// killed, and its standard error says so. Removes the output folder.
    public func wait(limit: Double = 300) -> ProcessResult {
        let deadline = Date().addingTimeInterval(limit)
        while isRunning && Date() < deadline { usleep(10_000) }
        var killed = false
        if isRunning {
            killed = true
            kill(pid, SIGTERM)
            usleep(500_000)
            if isRunning { kill(pid, SIGKILL) }
        }
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus ?? 0
        let signal: Int32? = status & 0x7F == 0 ? nil : status & 0x7F
        let stdout = output
        var stderr =
            outPath == errPath
            ? "" : String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self)
        if killed { stderr += "\n[test harness: killed after \(limit) s]" }
        try? FileManager.default.removeItem(at: directory)
        return ProcessResult(
            status: signal.map { 128 + $0 } ?? (status >> 8) & 0xFF, stdout: stdout, stderr: stderr, signal: signal)
    }
}

/// Fresh temporary folders, unique per call (tests run in parallel).
public enum TemporaryFolder {
    public static func make(_ label: String = "t") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stopkiosk-tests-\(getpid())-\(label)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fresh folder holding `files`: name → exact contents, written as given (BOM, CRLF …). A GTFS feed, say.
    public static func make(_ label: String, files: [String: String]) -> URL {
        let url = make(label)
        for (name, contents) in files { try! Data(contents.utf8).write(to: url.appendingPathComponent(name)) }
        return url
    }
}

/// `../shared/data` beside the repository: the real public feeds and photos for checks.
public enum SharedData {
    /// The folder, or nil on a clone without it; tests that need it are disabled with `SharedData.missing` as
    /// the reason, so the skip is reported, never silent.
    public static var folder: URL? {
        let shared = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }

    public static var isAvailable: Bool { folder != nil }

    public static let missing =
        "../shared/data is not beside the repository: the checks on real public data are skipped"
}

/// Files of the repository the tests read: fixtures, the sample network's text.
public enum Repository {
    /// The repository's root folder (this file is Tests/KioskTesting/Programs.swift).
    public static var root: URL {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        return dir
    }

    /// Tests/Fixtures.
    public static var fixtures: URL { root.appendingPathComponent("Tests/Fixtures") }

    /// The Quito sample network's GTFS text (assets/sample-network).
    public static var sampleNetwork: URL { root.appendingPathComponent("assets/sample-network") }
}

extension Programs {
    /// `truncate -s SIZE PATH` as an operator types it, as a shell command that tries again while it fails:
    /// truncate(1) opens the file without waiting, so on a file a process holds a lease on (`StableFileMapping`) the
    /// first try fails ("Resource temporarily unavailable"), leaving the file as it was, and sets off the lease's
    /// break; a later try succeeds once the holder has let go (tries for at most 60 s).
    public static func truncateCommand(_ path: String, size: Int) -> String {
        "for try in $(seq 600); do truncate -s \(size) '\(path)' 2>/dev/null && exit 0; sleep 0.1; done; exit 1"
    }
}
