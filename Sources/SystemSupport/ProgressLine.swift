import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How far a long job is: the stage, the work done in it, and — when the total is known — the share of the
/// whole job, from which the rate and the time left follow.
public struct ProgressUpdate: Sendable, Equatable {
    /// What is being done now ("stop_times.txt", "indexes", "labels").
    public var stage: String
    /// Items done in this stage (rows, labels).
    public var done: Int
    /// The unit of `done`, e.g. "rows".
    public var unit: String
    /// Work done and total work of the whole job, in any unit (bytes read, labels); total 0 when unknown.
    public var workDone: Int64
    public var workTotal: Int64

    public init(stage: String, done: Int, unit: String, workDone: Int64 = 0, workTotal: Int64 = 0) {
        self.stage = stage
        self.done = done
        self.unit = unit
        self.workDone = workDone
        self.workTotal = workTotal
    }
}

/// Shows progress of a long command on standard error, without touching its output or final summary.
///
/// - `.terminal`: one line redrawn in place (`\r` and erase-line), at most ten times a second, and erased when
///   the job ends; chosen by `.auto` only when standard error is a terminal, so logs and pipes never see it.
/// - `.lines`: machine-readable lines, at most one a second and one at the end:
///   `progress stage=stop_times.txt done=120000 unit=rows percent=41.5 rate=250000 eta_seconds=3`.
/// - `.off`: nothing.
public final class ProgressLine: @unchecked Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case auto, terminal, lines, off
    }

    public let mode: Mode
    private let lock = NSLock()
    private let started: UInt64
    private var lastDraw: UInt64 = 0
    private var stageStarted: UInt64
    private var stage = ""
    private var drawn = false
    /// The last update not drawn (throttled): `.lines` writes it at the end, so the last line is the final count.
    private var undrawn: ProgressUpdate?
    private let write: @Sendable (String) -> Void

    /// `mode` `.auto` becomes `.terminal` when `isatty(descriptor)`, else `.off`.
    public init(
        mode: Mode, descriptor: Int32 = STDERR_FILENO,
        write: (@Sendable (String) -> Void)? = nil
    ) {
        switch mode {
        case .auto: self.mode = isatty(descriptor) == 1 ? .terminal : .off
        default: self.mode = mode
        }
        self.write = write ?? { ProgressLine.writeAll($0, to: descriptor) }
        started = DispatchTime.now().uptimeNanoseconds
        stageStarted = started
    }

    public var isActive: Bool { mode == .terminal || mode == .lines }

    /// Reports progress; cheap enough to call for every chunk or label (drawing is throttled).
    public func update(_ progress: ProgressUpdate) {
        guard isActive else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        if progress.stage != stage {
            stage = progress.stage
            stageStarted = now
        } else {
            let interval: UInt64 = mode == .terminal ? 100_000_000 : 1_000_000_000
            if now - lastDraw < interval {
                undrawn = progress
                return
            }
        }
        lastDraw = now
        undrawn = nil
        draw(progress, now: now)
    }

    /// Ends the display: erases the terminal line (the command's summary follows on a clean line), or writes a
    /// last machine-readable line: `last`, else the last update that was not written.
    public func finish(_ last: ProgressUpdate? = nil) {
        lock.lock()
        defer { lock.unlock() }
        switch mode {
        case .terminal:
            if drawn { write("\r\u{1B}[2K") }
            drawn = false
        case .lines:
            if let final = last ?? undrawn { draw(final, now: DispatchTime.now().uptimeNanoseconds) }
            undrawn = nil
        case .auto, .off: break
        }
    }

    private func draw(_ p: ProgressUpdate, now: UInt64) {
        let elapsed = Double(now - started) / 1e9
        let stageElapsed = Double(now - stageStarted) / 1e9
        let rate = stageElapsed > 0.05 ? Double(p.done) / stageElapsed : 0
        var percent: Double?
        var eta: Double?
        if p.workTotal > 0 {
            let share = min(1, Double(p.workDone) / Double(p.workTotal))
            percent = share * 100
            if share > 0.01, elapsed > 0.5 { eta = elapsed * (1 - share) / share }
        }
        switch mode {
        case .terminal:
            var text = "\(p.stage): \(Self.grouped(p.done)) \(p.unit)"
            if rate > 0 { text += " · \(Self.grouped(Int(rate)))/s" }
            if let percent { text += " · " + String(format: "%.0f%%", percent) }
            if let eta { text += " · " + Self.duration(eta) + " left" }
            write("\r\u{1B}[2K" + text)
            drawn = true
        case .lines:
            var text =
                "progress stage=\(p.stage.replacingOccurrences(of: " ", with: "_")) done=\(p.done) unit=\(p.unit)"
            if let percent { text += String(format: " percent=%.1f", percent) }
            text += " rate=\(Int(rate))"
            if let eta { text += " eta_seconds=\(Int(eta.rounded()))" }
            write(text + "\n")
        case .auto, .off: break
        }
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60) min \(s % 60) s" : "\(s) s"
    }
}
