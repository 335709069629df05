import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way this program handles signals: executables (never libraries) ask for a handler that runs on a
/// dispatch queue, outside signal context, so it may do anything: restore the terminal, stop a loop, remove
/// temporary files and exit.
public enum ProcessSignals {
    /// Signals that ask a program to stop.
    public static let termination: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Handles `signals` with `handler` instead of their default action until the returned observation is
    /// cancelled or released; a signal sent once this returns is handled. Call it from the main thread before starting other threads: the signals are
    /// blocked there (and so in every thread started later) and read through the dispatch source.
    public static func observe(
        _ signals: [Int32], queue: DispatchQueue = DispatchQueue(label: "signals"),
        handler: @escaping @Sendable (Int32) -> Void
    ) -> SignalObservation {
        // A parent may hand us these signals blocked (Dispatch pool threads block them, and children inherit the
        // mask); unblock first so the ignore-then-source set-up below sees them.
        var mask = sigset_t()
        sigemptyset(&mask)
        for signalNumber in signals { sigaddset(&mask, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        // A source is armed on its queue after `resume()` returns; until then an ignored signal is lost (on a
        // loaded machine, a SIGHUP sent right after start-up was). Return only once every source is armed.
        let armed = DispatchSemaphore(value: 0)
        let sources = signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            source.setRegistrationHandler { armed.signal() }
            source.resume()
            return source
        }
        for _ in sources { armed.wait() }
        return SignalObservation(sources: sources)
    }

    /// The policy of commands that write files (import, labels, keys): on SIGINT, SIGTERM or SIGHUP remove the
    /// temporary files being written, say so on standard error, and exit with 128 + the signal's number. The
    /// destination files are untouched, since they are only ever replaced by a rename.
    public static func removeTemporaryFilesOnTermination(command: String) -> SignalObservation {
        reportFileSizeLimitAsError()
        return observe(termination) { signalNumber in
            let removed = TemporaryFiles.removeAll()
            let name = String(cString: strsignal(signalNumber))
            let message =
                "kiosk \(command): stopped by \(name.lowercased())"
                + (removed > 0 ? "; unfinished output removed, previous files unchanged\n" : "\n")
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            _exit(128 + signalNumber)
        }
    }

    /// Past `ulimit -f` the kernel sends SIGXFSZ, which kills the process without a word; ignored, the write
    /// fails with EFBIG instead and the writer reports "file size limit reached" by name.
    public static func reportFileSizeLimitAsError() {
        signal(SIGXFSZ, SIG_IGN)
    }
}

/// Keeps signal sources alive; `cancel()` (or releasing it) stops handling and restores the default actions.
public final class SignalObservation: @unchecked Sendable {
    private var sources: [DispatchSourceSignal]

    init(sources: [DispatchSourceSignal]) { self.sources = sources }

    public func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
        sources.removeAll()
    }

    deinit { cancel() }
}
