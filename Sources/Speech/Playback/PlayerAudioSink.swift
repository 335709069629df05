import Foundation
import Synchronization

/// Plays through the first sound player program found on the PATH (`aplay` for ALSA, `paplay` for PulseAudio
/// or PipeWire's Pulse server, `pw-play` for PipeWire), raw PCM on its standard input. A player is simpler and
/// more robust than linking a sound library: it follows the system's own sound set-up, and a missing or busy
/// device ends the player with its own message, which `finish` reports, instead of hanging the kiosk.
///
/// The PCM goes through a socket pair (sent with MSG_NOSIGNAL), so a player that dies cannot raise SIGPIPE.
public struct PlayerAudioSink: AudioSink {
    public let program: String
    public let programPath: String

    public static let candidates = ["aplay", "paplay", "pw-play"]

    /// The first player on the PATH (or `program` if given: a name on the PATH or a path).
    public init(program: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let names = program.map { [$0] } ?? Self.candidates
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in names {
            if name.contains("/") {
                if FileManager.default.isExecutableFile(atPath: name) {
                    self.program = URL(fileURLWithPath: name).lastPathComponent
                    self.programPath = name
                    return
                }
                continue
            }
            for directory in directories {
                let path = directory + "/" + name
                if FileManager.default.isExecutableFile(atPath: path) {
                    self.program = name
                    self.programPath = path
                    return
                }
            }
        }
        throw SpeechError.noSoundDevice(
            "no sound player found (looked for \(names.joined(separator: ", ")) on the PATH; install alsa-utils)")
    }

    public func arguments(sampleRate: Int) -> [String] {
        switch program {
        case "paplay": return ["--raw", "--format=s16le", "--channels=1", "--rate=\(sampleRate)"]
        case "pw-play": return ["--format", "s16", "--rate", "\(sampleRate)", "--channels", "1", "-"]
        default: return ["-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", "\(sampleRate)", "-"]
        }
    }

    public func open(sampleRate: Int, text: String, settings: VoiceSettings) throws -> any AudioPlayback {
        try PlayerPlayback(path: programPath, name: program, arguments: arguments(sampleRate: sampleRate))
    }
}

final class PlayerPlayback: AudioPlayback, @unchecked Sendable {
    private let process = Process()
    private let name: String
    private let socket: Int32
    private let errors = Pipe()
    private let cancelled = Atomic<Bool>(false)

    init(path: String, name: String, arguments: [String]) throws {
        self.name = name
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw SpeechError.playbackFailed("socketpair: \(String(cString: strerror(errno)))")
        }
        socket = pair[0]
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let playerEnd = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.standardInput = playerEnd
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            try? playerEnd.close()  // ours is closed by deinit
            throw SpeechError.noSoundDevice("cannot start \(path): \(error.localizedDescription)")
        }
        // Only the player may hold its end: when it exits, our sends fail at once instead of filling a buffer.
        try? playerEnd.close()
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let base = samples.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        let total = samples.count * 2
        while offset < total {
            if cancelled.load(ordering: .relaxed) { return }
            let sent = send(socket, raw + offset, total - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                if cancelled.load(ordering: .relaxed) { return }
                try finish()  // the player is gone: report its own message
                throw SpeechError.playbackFailed("\(name) stopped reading")
            }
            offset += sent
        }
    }

    func finish() throws {
        shutdown(socket, Int32(SHUT_WR))  // end of audio: the player drains what it has and exits
        process.waitUntilExit()
        if cancelled.load(ordering: .relaxed) { return }
        guard process.terminationStatus == 0 else {
            // The player's own last word (aplay prints ALSA's library chatter first, then "aplay: …: audio open
            // error: …").
            let lines = String(decoding: errors.fileHandleForReading.availableData.suffix(4000), as: UTF8.self)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let message =
                lines.last(where: { $0.hasPrefix(name + ":") }) ?? lines.last
                ?? "exited with status \(process.terminationStatus)"
            throw SpeechError.noSoundDevice(message.hasPrefix(name) ? message : "\(name): \(message)")
        }
    }

    /// Stops the player; a `write` blocked on a full socket returns. The descriptor itself is closed only when
    /// the playback goes away, so a concurrent `write` can never reach a reused descriptor number.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        if process.isRunning { process.terminate() }
        shutdown(socket, Int32(SHUT_RDWR))
    }

    deinit {
        close(socket)
    }
}
