import ArgumentParser
import SystemSupport

/// The command line's side of `OutputDestination`: every option that names a file to write (`--out`, `--map`,
/// `--speak-to`) is checked here before any work, so each command refuses the same things with the same words,
/// exit 2 and nothing written.
enum OutputFile {
    /// What `-` (standard output) means for an option.
    enum StandardOutput {
        /// The document goes to standard output; a binary one never to a terminal.
        case allowed(binary: Bool)
        /// Not here, because of `why`.
        case refused(why: String)
    }

    /// Checks `path`, given to `option` for a `format` file (its file name extensions `extensions`). `hint`
    /// follows a wrong extension's message (how else to choose the format).
    static func check(
        _ path: String, option: String, format: String, extensions: [String], standardOutput: StandardOutput,
        hint: String = ""
    ) throws {
        do {
            if path == OutputDestination.standardOutputName {
                switch standardOutput {
                case .allowed(let binary): try OutputDestination.checkStandardOutput(binary: binary, format: format)
                case .refused(let why):
                    printError("error: \(option) -: standard output cannot be used here: \(why); nothing was written")
                    throw ExitCode(ExitStatus.badInput)
                }
                return
            }
            try OutputDestination.checkExtension(path, format: format, extensions: extensions)
            _ = try OutputDestination.check(path, rule: .writableByMode)
        } catch let error as FileError {
            if error.path == FileError.standardOutput {
                printError("error: \(option) -: standard output \(error.reason); nothing was written")
            } else if case .wrongExtension = error.problem {
                printError("error: \(option) \(error)\(hint); nothing was written")
            } else {
                printError("error: \(option) \(error); nothing was written")
            }
            throw ExitCode(ExitStatus.badInput)
        }
    }

    /// A private folder for a document bound for standard output (`--out -`); failing to make one is a runtime
    /// failure (exit 1).
    static func staging() throws -> StandardOutputStaging {
        do { return try StandardOutputStaging() } catch { throw failure(error, option: "--out") }
    }

    /// Reports a failure to write `option`'s file: exit 2 when the path was the problem, 1 when writing failed
    /// (a full disk).
    static func failure(_ error: FileError, option: String) -> ExitCode {
        if error.path == FileError.standardOutput {
            printError("error: \(option) -: cannot write to standard output: \(error.reason)")
        } else {
            printError("error: \(option) \(error)")
        }
        return ExitCode(error.isBadDestination ? ExitStatus.badInput : ExitStatus.failure)
    }
}
