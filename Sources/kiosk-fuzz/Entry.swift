import Foundation

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `kiosk-fuzz TARGET FILE|FOLDER…` replays inputs (the seed corpus, or a crash file a fuzzer found) through a
/// target, so a regression test can run them on every build. Built for fuzzing (kiosk/fuzz/run-fuzzers.sh), any
/// other command line is libFuzzer's; replaying still works there, so the corpus test passes with either build.
@main
struct KioskFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        #if FUZZING
        if arguments.first.flatMap(FuzzTarget.init(rawValue:)) == nil {
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
        }
        #endif
        replay(arguments)
    }

    static func replay(_ arguments: [String]) {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            printError("usage: kiosk-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|FOLDER…")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("kiosk-fuzz: \(path): no such file or folder")
                exit(2)
            }
            let files =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(path)/\($0)" }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                data.withUnsafeBytes { target.run($0) }
                count += 1
            }
        }
        print("kiosk-fuzz \(target.rawValue): \(count) inputs replayed")
    }
}

#if FUZZING
// Built with -sanitize=fuzzer (KIOSK_FUZZ=1). SwiftPM links an executable's entry point under its own name
// (kiosk_fuzz_main, for testable executables), so `main` above is ours and hands over to libFuzzer's driver, which
// calls the two functions below.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

nonisolated(unsafe) private var selected = FuzzTarget.csv

/// Leaks in dependencies the fuzzers found, suppressed so that a leak in our own code still fails a run (fuzzing, or
/// replaying the corpus with this build). TOMLKit 0.6.0: TOMLTable(string:) never frees its C++ table (the class has
/// no deinit) nor, on a parse error, the error it allocates; the kiosk parses its config once per start, so it
/// costs a few kilobytes per process. LeakSanitizer asks for this list when it starts.
private let leakSuppressions = StaticString("leak:TOMLKit\nleak:tableCreateFromString\n")

@_cdecl("__lsan_default_suppressions")
public func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(leakSuppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let name = ProcessInfo.processInfo.environment["KIOSK_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        printError("set KIOSK_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selected.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
#endif
