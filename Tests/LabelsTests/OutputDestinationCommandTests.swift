import Foundation
import KioskTesting
import Testing

/// Every command that writes a file named on the command line, attacked as issue 36 did: a FIFO, /dev/null (only
/// looked at, never written: it must still be the character device afterwards), a read-only file, /proc/self/mem
/// and a name whose extension is not the format. Each is refused before any work with exit 2, a message naming the
/// path and what it is, the target unchanged and no temporary file left; `-` is standard output where the format
/// allows it and refused saying why where it does not.
@Suite("--out, --map and --speak-to destinations (CLI)")
struct OutputDestinationCommandTests {
    /// A command with the option that names its file, and that file's extension.
    struct Writer: CustomStringConvertible {
        var arguments: [String]
        var option: String
        var ext: String
        var format: String
        var description: String { arguments.prefix(2).joined(separator: " ") + " \(option)" }
    }

    static let at = "2026-11-25T08:00"
    static let writers: [Writer] = [
        // Proof copies: the sample network's labels carry the placeholder address.
        Writer(
            arguments: ["timetable", "1091", "--date", "2026-11-25", "--proof"], option: "--out", ext: "pdf",
            format: "a PDF"),
        Writer(arguments: ["labels", "--stops", "1091", "--proof"], option: "--out", ext: "pdf", format: "a PDF"),
        Writer(
            arguments: ["labels", "--stops", "1091", "--format", "png", "--proof"], option: "--out", ext: "png",
            format: "a PNG"),
        Writer(arguments: ["map", "1091"], option: "--out", ext: "svg", format: "an SVG"),
        Writer(arguments: ["diagram", "L1"], option: "--out", ext: "svg", format: "an SVG"),
        Writer(
            arguments: ["plan", "cumbaya", "La Carolina", "--at", at], option: "--map", ext: "svg", format: "an SVG"),
        Writer(arguments: ["lookup", "1091", "--at", at], option: "--speak-to", ext: "wav", format: "a WAV file"),
        Writer(
            arguments: ["plan", "cumbaya", "La Carolina", "--at", at], option: "--speak-to", ext: "wav",
            format: "a WAV file"),
    ]

    private func status(_ path: String) -> stat? {
        var result = stat()
        return lstat(path, &result) == 0 ? result : nil
    }

    private func leftovers(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tmp") }
    }

    private func refused(_ writer: Writer, _ path: String, _ reason: String) throws {
        let result = try Programs.runKiosk(writer.arguments + [writer.option, path])
        #expect(result.status == 2, "\(writer) \(path): \(result)")
        #expect(
            result.stderr.contains("error: \(writer.option) \(path): \(reason)"), "\(writer) \(path): \(result.stderr)")
        #expect(result.stderr.hasSuffix("; nothing was written\n"), "\(writer) \(path): \(result.stderr)")
    }

    @Test(arguments: writers)
    func devicesFIFOsReadOnlyFilesAndProcAreRefused(_ writer: Writer) throws {
        let folder = TemporaryFolder.make("out-\(writer.ext)")
        let null = try #require(status("/dev/null"))
        try refused(writer, "/dev/null", "is a character device, not a regular file; only a regular file is replaced")
        let after = try #require(status("/dev/null"))
        #expect(after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == null.st_rdev)

        let fifo = folder.appendingPathComponent("fifo.\(writer.ext)").path
        try #require(mkfifo(fifo, 0o666) == 0)
        try refused(writer, fifo, "is a FIFO (named pipe), not a regular file; only a regular file is replaced")
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)

        let readOnly = folder.appendingPathComponent("kept.\(writer.ext)").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: readOnly))
        #expect(chmod(readOnly, 0o444) == 0)
        try refused(writer, readOnly, "is not writable by this user (owner ")
        #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "keep me")

        try refused(writer, "/proc/self/mem", "is on /proc, a kernel file system, not a file on disk")

        let folderAsFile = folder.path
        try refused(writer, folderAsFile, "is a folder, not a file")

        let wrong = folder.appendingPathComponent("answer.txt").path
        try refused(writer, wrong, "ends in .txt, but what is written is \(writer.format) (.\(writer.ext))")
        #expect(!FileManager.default.fileExists(atPath: wrong))
        #expect(leftovers(folder).isEmpty)
    }

    /// The format's own extension in another case is fine, and the new file is written.
    @Test func theRightExtensionInCapitalsIsWritten() throws {
        let folder = TemporaryFolder.make("out-ok")
        let path = folder.appendingPathComponent("STOP.SVG").path
        let result = try Programs.runKiosk(["map", "1091", "--out", path])
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("<svg"))
    }

    /// An unknown extension used to mean a PDF silently: now it names both.
    @Test func labelsAndTimetablesNameTheWayToChooseTheFormat() throws {
        let folder = TemporaryFolder.make("out-ext")
        let jpg = folder.appendingPathComponent("poster.jpg").path
        var result = try Programs.runKiosk(["timetable", "1091", "--date", "2026-11-25", "--proof", "--out", jpg])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "\(jpg): ends in .jpg, but what is written is a PDF (.pdf) "
                    + "(the extension chooses the format: .pdf, .svg, .png)"
            ),
            "\(result.stderr)")
        let pdf = folder.appendingPathComponent("labels.pdf").path
        result = try Programs.runKiosk(["labels", "--stops", "1091", "--format", "svg", "--proof", "--out", pdf])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains("\(pdf): ends in .pdf, but what is written is an SVG (.svg) (--format svg)"),
            "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// `kiosk keys generate --out DIR` never replaced anything (link() refuses an existing name), and
    /// `timetable --all-stops --out DIR` writes each poster through the same writer; a folder that is a device, a
    /// FIFO or on /proc is named for what it is (it was "is a file", or Foundation's "The file doesn't exist").
    @Test func foldersToWriteIntoAreNamedForWhatTheyAre() throws {
        let fifo = TemporaryFolder.make("folder-fifo").appendingPathComponent("posters").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for command in [["keys", "generate"], ["timetable", "--all-stops", "--proof"]] {
            for (out, reason) in [
                ("/dev/null", "/dev/null: is a character device, not a folder"),
                (fifo, "\(fifo): is a FIFO (named pipe), not a folder"),
                ("/proc/posters", "/proc/posters: is on /proc, a kernel file system, not a file on disk"),
                ("/nonexistent-36/posters", "/nonexistent-36/posters: there is no folder /nonexistent-36"),
            ] {
                // keys generate makes missing parent folders (mkdir -p); --all-stops makes only the last one.
                if command[0] == "keys", out.hasPrefix("/nonexistent") { continue }
                let result = try Programs.runKiosk(command + ["--out", out])
                #expect(result.status == 2, "\(command) \(out): \(result)")
                #expect(result.stderr.contains("error: --out \(reason)"), "\(command) \(out): \(result.stderr)")
            }
        }
        #expect(status("/dev/null").map { $0.st_mode & S_IFMT } == S_IFCHR)
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)
    }

    @Test func keysGenerateNeverReplacesAKeyFile() throws {
        let folder = TemporaryFolder.make("keys-fifo")
        let fifo = folder.appendingPathComponent("label-signing.key").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try Programs.runKiosk(["keys", "generate", "--out", folder.path])
        #expect(result.status == 2 && result.stderr.contains("already exists; it was not overwritten"), "\(result)")
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)
    }

    /// `kiosk import --db` replaced whatever was there, after the whole import; now a FIFO or a device is refused
    /// before any work (no timetable image beside it either). Root may still replace a service account's database,
    /// so a read-only one is not refused here (ImportOutputSafetyTests).
    @Test func importRefusesADatabasePathThatIsNotAFile() throws {
        let folder = TemporaryFolder.make("import-fifo")
        let fifo = folder.appendingPathComponent("routes.sqlite").path
        try #require(mkfifo(fifo, 0o666) == 0)
        let result = try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", fifo])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "error: --db \(fifo): is a FIFO (named pipe), not a regular file; only a regular file is replaced; "
                    + "nothing was imported"), "\(result.stderr)")
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["routes.sqlite"])
        let null = try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", "/dev/null"])
        #expect(null.status == 2 && null.stderr.contains("is a character device"), "\(null)")
        #expect(status("/dev/null").map { $0.st_mode & S_IFMT } == S_IFCHR)
    }

    /// A WAV cut short by the file-size limit is a runtime failure by name (exit 1, no SIGXFSZ death) and the
    /// previous file stays whole: --speak-to now goes through the atomic writer.
    @Test func aWAVCutShortLeavesThePreviousFile() throws {
        let folder = TemporaryFolder.make("wav-limit")
        let wav = folder.appendingPathComponent("answer.wav").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: wav))
        // The shared sample database is imported first, outside the limit.
        #expect(try Programs.runKiosk(["lookup", "1091", "--at", "2026-11-25T08:00"]).status == 0)
        // 16 blocks of 512 bytes (dash) or 1 KB (bash): far less than a spoken answer.
        let script = "ulimit -f 16; exec \"$0\" lookup 1091 --at 2026-11-25T08:00 --speak-to \"$1\""
        let result = try Programs.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, Programs.kiosk.path, wav],
            environment: ["XDG_CACHE_HOME": Programs.sampleCache.path])
        #expect(result.signal == nil && result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(
                "error: --speak-to file size limit (ulimit -f) reached while writing \(wav); "
                    + "the previous file is unchanged"), "\(result.stderr)")
        #expect(try String(contentsOfFile: wav, encoding: .utf8) == "previous")
        #expect(leftovers(folder).isEmpty)
    }

    // MARK: - Standard output

    /// Runs `kiosk ARGS` with standard output sent to `file` (a shell redirection, so binary output arrives as
    /// bytes) and its temporary folder (TMPDIR, where a document waits until it is checked) `temporary`.
    private func toFile(_ arguments: [String], _ file: String, temporary: URL) throws -> ProcessResult {
        try Programs.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "out=\"$1\"; shift; exec \"$0\" \"$@\" > \"$out\"", Programs.kiosk.path, file] + arguments,
            environment: ["XDG_CACHE_HOME": Programs.sampleCache.path, "TMPDIR": temporary.path])
    }

    @Test func aPDFTimetableAndOnePageLabelsGoToStandardOutput() throws {
        let folder = TemporaryFolder.make("stdout")
        let temporary = TemporaryFolder.make("stdout-tmp")
        let poster = folder.appendingPathComponent("poster.bin").path
        var result = try toFile(
            ["timetable", "1091", "--date", "2026-11-25", "--proof", "--out", "-"], poster, temporary: temporary)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("to standard output; every page checked"), "\(result.stderr)")
        let pdf = try Data(contentsOf: URL(fileURLWithPath: poster))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdf.suffix(16), as: UTF8.self).contains("%%EOF"))

        let label = folder.appendingPathComponent("label.bin").path
        result = try toFile(
            ["labels", "--stops", "1091", "--layout", "single", "--format", "png", "--proof", "--out", "-"], label,
            temporary: temporary)
        #expect(result.status == 0, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: label)).starts(with: [0x89, 0x50, 0x4E, 0x47]))

        // The same bytes as the file --out FILE writes.
        let mapFile = folder.appendingPathComponent("map.svg").path
        #expect(try Programs.runKiosk(["map", "1091", "--out", mapFile]).status == 0)
        result = try Programs.runKiosk(["map", "1091", "--out", "-"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try String(contentsOfFile: mapFile, encoding: .utf8)))
        result = try Programs.runKiosk(["diagram", "L1", "--out", "-"])
        #expect(result.status == 0 && result.stdout.contains("<svg"), "\(result)")
        // Labels filling several SVG pages cannot go to standard output: refused once drawn, nothing written.
        let pages = folder.appendingPathComponent("pages.bin").path
        result = try toFile(
            ["labels", "--route", "L1", "--format", "svg", "--proof", "--out", "-"], pages, temporary: temporary)
        #expect(result.status == 2 && result.stderr.contains("error: --out -: the labels fill "), "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: pages)).isEmpty)
        // Nothing is left behind: each staging folder goes with its command.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "label.bin", "map.svg", "pages.bin", "poster.bin",
            ])
    }

    /// A PDF or PNG is never sent to a terminal (run under script(1), which gives the command one); an SVG is text
    /// and is.
    @Test(.enabled(if: Programs.which("script") != nil, "script (util-linux) is not installed"))
    func binaryOutputNeverGoesToATerminal() throws {
        let script = try #require(Programs.which("script"))
        let environment = ["XDG_CACHE_HOME": Programs.sampleCache.path, "KIOSK": Programs.kiosk.path]
        var result = try Programs.run(
            script, ["-qec", "\"$KIOSK\" timetable 1091 --date 2026-11-25 --out -", "/dev/null"],
            environment: environment)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stdout.contains(
                "error: --out -: standard output is a terminal, and a PDF is binary: redirect it to a file or pipe it; "
                    + "nothing was written"), "\(result)")
        #expect(!result.stdout.contains("%PDF"))
        result = try Programs.run(
            script, ["-qec", "\"$KIOSK\" map 1091 --out -", "/dev/null"], environment: environment)
        #expect(result.status == 0 && result.stdout.contains("<svg"), "\(result)")
    }

    @Test func standardOutputIsRefusedWhereItCannotWork() throws {
        let cases: [([String], String)] = [
            (["timetable", "--all-stops", "--out", "-"], "--all-stops writes a file per stop into a folder"),
            (["labels", "--stops", "1091", "--out", "-", "--json"], "--json prints the summary on standard output"),
            (
                ["plan", "cumbaya", "La Carolina", "--at", Self.at, "--map", "-"],
                "error: --map -: standard output cannot be used here: the plan itself is printed there"
            ),
            (
                ["lookup", "1091", "--at", Self.at, "--speak-to", "-"],
                "error: --speak-to -: standard output cannot be used here: the answer is printed there"
            ),
        ]
        for (arguments, message) in cases {
            let result = try Programs.runKiosk(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("<svg") && !result.stdout.contains("RIFF"), "\(arguments)")
        }
    }
}
