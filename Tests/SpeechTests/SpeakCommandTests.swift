import Foundation
import KioskTesting
import Testing

/// `kiosk lookup … --speak-to FILE.wav` and `kiosk plan … --speak-to`, checked with sox as an independent
/// reader; `--speak` with no sound device, with a player that fails, and with one that plays.
@Suite struct SpeakCommandTests {
    static var sox: URL? { Programs.which("sox") }

    struct Stat {
        var seconds: Double
        var rms: Double
    }

    /// `sox FILE -n stat`: length and RMS amplitude (0–1).
    static func stat(_ path: String) throws -> Stat {
        let result = try Programs.run(sox!, [path, "-n", "stat"])
        #expect(result.status == 0, "\(result)")
        func value(_ name: String) -> Double? {
            for line in result.stderr.split(separator: "\n") where line.hasPrefix(name) {
                return line.split(separator: ":").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            }
            return nil
        }
        return Stat(seconds: value("Length (seconds)") ?? -1, rms: value("RMS     amplitude") ?? -1)
    }

    /// The spoken text and the WAV it became: the duration follows the text's length (espeak-ng at 160 words a
    /// minute says 10–20 characters a second in both languages), and it is speech-loud, not silence.
    @Test(.enabled(if: sox != nil, "sox is not installed (kiosk/setup.sh installs it)"))
    func lookupAndPlanWAVMatchTheirText() throws {
        let folder = TemporaryFolder.make("speak")
        let cases: [(String, [String])] = [
            ("lookup-es", ["lookup", "1091", "--at", "2026-11-25T08:00", "--lang", "es"]),
            ("lookup-en", ["lookup", "1091", "--at", "2026-11-25T08:00", "--lang", "en"]),
            ("lookup-full-es", ["lookup", "1091", "--at", "2026-11-25T08:00", "--lang", "es", "--speech", "full"]),
            ("plan-es", ["plan", "cumbaya", "La Carolina", "--at", "2026-11-25T08:00", "--lang", "es"]),
            ("plan-en", ["plan", "cumbaya", "La Carolina", "--at", "2026-11-25T08:00", "--lang", "en"]),
        ]
        var lengths: [String: (characters: Int, seconds: Double)] = [:]
        for (name, arguments) in cases {
            let wav = folder.appendingPathComponent("\(name).wav").path
            let printed = try Programs.runKiosk(arguments + ["--print-speech"])
            #expect(printed.status == 0, "\(printed)")
            let text = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let result = try Programs.runKiosk(arguments + ["--speak-to", wav])
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.isEmpty)  // the answer is still printed
            let stat = try Self.stat(wav)
            let perSecond = Double(text.count) / stat.seconds
            #expect((10...20).contains(perSecond), "\(name): \(text.count) characters in \(stat.seconds) s")
            #expect(stat.rms > 0.05, "\(name): RMS \(stat.rms)")
            lengths[name] = (text.count, stat.seconds)
        }
        #expect(try #require(lengths["lookup-es"]).characters > 60)
        #expect(try #require(lengths["lookup-full-es"]).seconds > lengths["lookup-es"]!.seconds)
        let printed = try Programs.runKiosk([
            "lookup", "1091", "--at", "2026-11-25T08:00", "--lang", "es", "--print-speech",
        ])
        #expect(
            printed.stdout.hasPrefix("Parada El Ejido. Línea L1 hacia El Labrador, en 3 minutos, luego en 7 minutos."))
    }

    @Test(.enabled(if: sox != nil, "sox is not installed (kiosk/setup.sh installs it)"))
    func configVolumeAndRateReachTheAudio() throws {
        let folder = TemporaryFolder.make("speak-config", files: ["quiet.toml": "[speech]\nvolume = 30\nrate = 300\n"])
        let normal = folder.appendingPathComponent("normal.wav").path
        let quiet = folder.appendingPathComponent("quiet.wav").path
        let arguments = ["lookup", "1091", "--at", "2026-11-25T08:00", "--lang", "en"]
        #expect(try Programs.runKiosk(arguments + ["--speak-to", normal]).status == 0)
        let result = try Programs.runKiosk(
            arguments + ["--speak-to", quiet, "--config", folder.appendingPathComponent("quiet.toml").path])
        #expect(result.status == 0, "\(result)")
        let a = try Self.stat(normal)
        let b = try Self.stat(quiet)
        #expect(b.rms < a.rms * 0.6, "RMS \(b.rms) against \(a.rms)")
        #expect(b.seconds < a.seconds * 0.75, "\(b.seconds) s against \(a.seconds) s")
    }

    /// No player program at all: one line saying so, exit 1, the answer still printed.
    @Test func speakWithoutASoundPlayerSaysSoOnce() throws {
        let empty = TemporaryFolder.make("no-players")
        let result = try Programs.runKiosk(
            ["lookup", "1091", "--at", "2026-11-25T08:00", "--speak"], environment: ["PATH": empty.path], limit: 120)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("El Ejido"))
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("error: no sound device: no sound player found (looked for aplay, paplay, pw-play"))
    }

    /// The real aplay on a machine without a sound card (a test machine, a headless server): its message, once.
    @Test(
        .enabled(
            if: Programs.which("aplay") != nil && !FileManager.default.fileExists(atPath: "/dev/snd"),
            "needs aplay (alsa-utils) and a machine without sound devices"))
    func speakWithAplayAndNoSoundCard() throws {
        let result = try Programs.runKiosk(
            ["lookup", "1091", "--at", "2026-11-25T08:00", "--speak", "--lang", "en"], limit: 120)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("El Ejido"))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: no sound device: aplay: "), "\(result.stderr)")
        #expect(result.stderr.contains("audio open error"), "\(result.stderr)")
    }

    /// A player that cannot open the device (what aplay does on a machine without sound cards): its own message,
    /// once, exit 1, no hang. A player that works receives the raw PCM of the whole text.
    @Test func speakThroughAPlayerProgram() throws {
        let failing = TemporaryFolder.make(
            "failing-player",
            files: [
                "aplay":
                    "#!/bin/sh\necho 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default' >&2\necho 'aplay: main:850: audio open error: No such file or directory' >&2\nexit 1\n"
            ])
        chmod(failing.appendingPathComponent("aplay").path, 0o755)
        let result = try Programs.runKiosk(
            ["plan", "cumbaya", "La Carolina", "--at", "2026-11-25T08:00", "--speak"],
            environment: ["PATH": failing.path + ":/usr/bin:/bin"], limit: 120)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                == "error: no sound device: aplay: main:850: audio open error: No such file or directory (--speak-to FILE.wav writes the audio to a file instead)"
        )

        let output = TemporaryFolder.make("player-output")
        let played = output.appendingPathComponent("pcm").path
        let working = TemporaryFolder.make(
            "working-player", files: ["aplay": "#!/bin/sh\necho \"$@\" > '\(played).args'\ncat > '\(played)'\n"])
        chmod(working.appendingPathComponent("aplay").path, 0o755)
        let ok = try Programs.runKiosk(
            ["lookup", "1091", "--at", "2026-11-25T08:00", "--speak"],
            environment: ["PATH": working.path + ":/usr/bin:/bin"], limit: 120)
        #expect(ok.status == 0, "\(ok)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: played)).count
        #expect(bytes > 22_050 * 2 * 3, "\(bytes) bytes of PCM")  // several seconds of 16-bit 22.05 kHz audio
        let arguments = try String(contentsOfFile: played + ".args", encoding: .utf8)
        #expect(arguments.trimmingCharacters(in: .newlines) == "-q -t raw -f S16_LE -c 1 -r 22050 -")
    }
}
