import ArgumentParser
import Foundation
import Logging
import TransitStore

@main
struct Kiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "StopKiosk: scan a stop's code, see its routes and departures, plan a trip. Works offline.",
        discussion: """
            Without --db, commands use the bundled Quito sample network (imported once into a cache file).
            Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage.
            """,
        version: Kiosk.version,
        subcommands: [
            ImportCommand.self, LookupCommand.self, PlanCommand.self, ScanCommand.self, LabelsCommand.self,
            KeysCommand.self, RunCommand.self, DemoCommand.self, DoctorCommand.self, RealtimeCommand.self,
            UpdateCommand.self, MapCommand.self, DiagramCommand.self, ServeCommand.self,
            RoutesCommand.self, RouteCommand.self, TimetableCommand.self, MessageCommand.self,
        ]
    )

    /// What `kiosk --version` prints. The route database schema says which databases this build reads.
    static let version = "StopKiosk 0.1.0 (route database schema \(Schema.version))"

    /// ArgumentParser reports usage errors with status 64; the kiosk's contract is 2 for any bad input.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Answered before ArgumentParser reflects over eighteen commands: scripts ask this to check the install.
        if arguments == ["--version"] {
            print(version)
            return
        }
        do {
            var command: any ParsableCommand = try PlainLookup.command(arguments) ?? parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(ExitStatus.badInput)
            }
            exit(withError: error)
        }
    }
}

/// Shared handling of the exit codes the design promises: 2 for bad input, 1 for everything else.
enum ExitStatus {
    static let badInput: Int32 = 2
    static let failure: Int32 = 1
}

func bootstrapLogging(verbose: Bool) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = verbose ? .debug : .warning
        return handler
    }
}

/// Writes to standard error (errors and progress never mix with a command's output).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
