import Foundation
import KioskConfiguration
import ScanService
import StopPresentation
import SystemSupport
import TransitModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real terminal: raw keyboard input, the alternate screen, its size, and putting everything back.
///
/// `restore()` is idempotent and is called on every way out (normal end, SIGINT, SIGTERM, SIGHUP, an error), so
/// the shell a kiosk was started from never stays in raw mode or on the alternate screen.
public final class TerminalDevice: @unchecked Sendable {
    // Touched only by the kiosk's main loop (setup, writes, restore); the lock guards restore against a second
    // caller (an exit path racing a signal).
    private let lock = NSLock()
    private var savedAttributes: termios?
    private var active = false
    public let inputFD: Int32
    public let outputFD: Int32

    public init(inputFD: Int32 = STDIN_FILENO, outputFD: Int32 = STDOUT_FILENO) {
        self.inputFD = inputFD
        self.outputFD = outputFD
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Rows and columns, from the kernel (TIOCGWINSZ), else `LINES`/`COLUMNS`, else 80×24.
    public func size() -> (width: Int, height: Int) {
        var ws = winsize()
        if ioctl(outputFD, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        let env = ProcessInfo.processInfo.environment
        return (Int(env["COLUMNS"] ?? "") ?? 80, Int(env["LINES"] ?? "") ?? 24)
    }

    /// Raw keyboard (no echo, no line editing; Ctrl-C still raises SIGINT) and the alternate screen, cursor hidden.
    public func enter() {
        lock.lock()
        defer { lock.unlock() }
        guard !active else { return }
        if Self.isTerminal(inputFD) {
            var attributes = termios()
            if tcgetattr(inputFD, &attributes) == 0 {
                savedAttributes = attributes
                var raw = attributes
                raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
                raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP)
                withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
                tcsetattr(inputFD, TCSANOW, &raw)
            }
        }
        active = true
        writeAll(
            Array(
                (TerminalControl.enterAlternateScreen + TerminalControl.hideCursor + TerminalControl.disableAutowrap
                    + TerminalControl.clearScreen).utf8))
    }

    /// Leaves the alternate screen, shows the cursor and restores the keyboard settings. Idempotent.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard active else { return }
        active = false
        writeAll(
            Array(
                (TerminalControl.resetStyle + TerminalControl.enableAutowrap + TerminalControl.showCursor
                    + TerminalControl.leaveAlternateScreen).utf8))
        if var saved = savedAttributes {
            tcsetattr(inputFD, TCSANOW, &saved)
        }
    }

    /// Writes everything (retrying short writes and EINTR) in as few system calls as the kernel allows.
    public func writeAll(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(outputFD, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += n
            }
        }
    }
}

/// Reads keys from standard input on its own thread and hands them over; a lone ESC becomes Escape after
/// 50 ms without a following byte.
final class KeyReader: @unchecked Sendable {
    // `stopped` is only read and written under `lock`.
    private let lock = NSLock()
    private var stopped = false
    private let fd: Int32

    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    func start(_ deliver: @escaping @Sendable (KioskKey) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let fd = self.fd
        let thread = Thread { [self] in
            ThreadName.setCurrent("kiosk-keys")
            var parser = KeyInputParser()
            var buffer = [UInt8](repeating: 0, count: 256)
            while !self.isStopped {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, parser.hasPending ? 50 : 250)
                if ready < 0 {
                    if errno == EINTR { continue }
                    onEnd(); return
                }
                if ready == 0 {
                    for key in parser.flushPending() { deliver(key) }
                    continue
                }
                if descriptor.revents & Int16(POLLIN) == 0 { onEnd(); return }  // hang-up, error
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    onEnd(); return
                }
                for key in parser.feed(Array(buffer[0..<n])) { deliver(key) }
            }
        }
        thread.start()
    }

    var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    func stop() {
        lock.lock(); defer { lock.unlock() }
        stopped = true
    }
}
