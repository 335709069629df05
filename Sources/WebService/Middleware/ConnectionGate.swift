import Foundation
import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How many connections the server holds at once, worked out from the process's file limit so that accepting a
/// connection never meets `EMFILE`: every connection is a descriptor, and so are the database files, a replacement
/// database being checked, the speech voice and the log.
///
/// Of the descriptors the limit leaves once the server is up (`fileLimit - inUse`), `reserve` stay free for the
/// database and speech; of the rest, `refusing` hold connections that are answered 503 and closed, and `served`
/// hold connections the server serves. Past `served + refusing` the server accepts nothing more until one closes:
/// further clients wait in the kernel's listen queue.
public struct ConnectionBudget: Sendable, Equatable, CustomStringConvertible {
    /// Connections served at once.
    public var served: Int
    /// Connections beyond `served` accepted only to be answered 503 and closed.
    public var refusing: Int
    /// The process's file limit (soft), nil when there is none.
    public var fileLimit: Int?
    /// Descriptors open when the budget was made.
    public var inUse: Int
    /// Descriptors kept free for everything but connections.
    public static let reserve = 24

    public init(served: Int, refusing: Int, fileLimit: Int?, inUse: Int) {
        self.served = served
        self.refusing = refusing
        self.fileLimit = fileLimit
        self.inUse = inUse
    }

    /// The budget for `configured` connections (`[server] max_connections`) under `fileLimit` with `inUse`
    /// descriptors already open: at least one connection served and one refused, however low the limit.
    public static func make(configured: Int, fileLimit: Int?, inUse: Int) -> ConnectionBudget {
        guard let fileLimit else {
            return ConnectionBudget(
                served: configured, refusing: max(1, min(32, configured / 8)), fileLimit: nil, inUse: inUse)
        }
        let available = max(2, fileLimit - inUse - reserve)
        let refusing = max(1, min(32, available / 8))
        return ConnectionBudget(
            served: max(1, min(configured, available - refusing)), refusing: refusing, fileLimit: fileLimit,
            inUse: inUse)
    }

    /// The budget for this process now: its soft `RLIMIT_NOFILE` and the descriptors in `/proc/self/fd`.
    public static func current(configured: Int) -> ConnectionBudget {
        make(configured: configured, fileLimit: FileLimit.soft, inUse: FileLimit.descriptorsInUse())
    }

    public var description: String {
        let limit = fileLimit.map { "file limit \($0), \(inUse) in use, \(Self.reserve) kept for the database" } ?? "no file limit"
        return "at most \(served) connections served at once, \(refusing) more answered 503 (\(limit))"
    }
}

/// The process's limit on open files (`RLIMIT_NOFILE`).
public enum FileLimit {
    /// The soft limit, nil when unlimited.
    public static var soft: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one (at most `ceiling`), as a server that holds a descriptor per client
    /// should: systemd starts services with a soft limit of 1,024 under a hard one of 524,288. Returns the soft
    /// limit in force afterwards.
    @discardableResult
    public static func raiseSoftToHard(ceiling: Int = 65536) -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return soft }
        let wanted = limit.rlim_max == rlim_t.max ? rlim_t(ceiling) : min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            limit.rlim_cur = wanted
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return soft
    }

    /// How many descriptors the process has open (the entries of `/proc/self/fd`, less the one listing them).
    public static func descriptorsInUse() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return max(0, entries.count - 1)
    }
}

/// What the gate has done, for `/metrics` and the tests.
public final class ConnectionGateStatistics: Sendable {
    private struct Counts {
        var open = 0
        var refused = 0
        var failedAccepts = 0
        var backoffs = 0
        var reportedRefused = 0
        var reportedFailedAccepts = 0
    }
    private let counts = Mutex(Counts())

    public init() {}

    /// Connections served now.
    public var open: Int { counts.withLock { $0.open } }
    /// Connections answered 503 because `served` were open.
    public var refused: Int { counts.withLock { $0.refused } }
    /// `accept` calls that failed for want of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`).
    public var failedAccepts: Int { counts.withLock { $0.failedAccepts } }
    /// Times accepting was paused after such a failure.
    public var backoffs: Int { counts.withLock { $0.backoffs } }

    /// Refusals and failed accepts since the last call (what `/metrics` adds to its counters).
    func takeUnreported() -> (refused: Int, failedAccepts: Int) {
        counts.withLock { counts in
            defer { (counts.reportedRefused, counts.reportedFailedAccepts) = (counts.refused, counts.failedAccepts) }
            return (counts.refused - counts.reportedRefused, counts.failedAccepts - counts.reportedFailedAccepts)
        }
    }

    func opened() { counts.withLock { $0.open += 1 } }
    func closed() { counts.withLock { $0.open -= 1 } }
    func refusedOne() { counts.withLock { $0.refused += 1 } }
    func failedAccept(backingOff: Bool) {
        counts.withLock {
            $0.failedAccepts += 1
            if backingOff { $0.backoffs += 1 }
        }
    }
}

/// Sits first in the listening socket's pipeline and keeps the server inside its `ConnectionBudget`:
///
/// - counts the connections served; one accepted while `served` are open is answered 503 (problem+json,
///   `Retry-After: 1`, `Connection: close`) and closed (`ConnectionRefusal`), never read as a request;
/// - while `served + refusing` are open it asks for no more (`accept` is not called: clients wait in the listen
///   queue) until one closes;
/// - when `accept` fails anyway (`EMFILE` because something else took the descriptors, `ENFILE`, `ENOBUFS`,
///   `ENOMEM`) it stops watching the socket for `backoff` (doubling to 1 s while it keeps failing) instead of
///   retrying at once — NIO leaves the socket readable and would call `accept` thousands of times a second —
///   and logs once per episode, then once when accepting works again.
final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never
    typealias OutboundOut = Never

    static let firstBackoff = TimeAmount.milliseconds(50)
    static let longestBackoff = TimeAmount.seconds(1)

    private let budget: ConnectionBudget
    private let logger: Logger
    private let statistics: ConnectionGateStatistics
    private var served = 0
    private var refusing = 0
    /// A `read` (accept more) asked for while full, not passed on.
    private var readHeld = false
    /// After an accept failure, until the backoff ends.
    private(set) var backingOff = false
    /// `autoRead` was turned off for the backoff and is still off.
    private var autoReadOff = false
    private var backoff = ConnectionGate.firstBackoff
    /// Failed accepts of the current episode (logged when it ends).
    private var episodeFailures = 0

    init(budget: ConnectionBudget, logger: Logger, statistics: ConnectionGateStatistics) {
        self.budget = budget
        self.logger = logger
        self.statistics = statistics
    }

    private var isFull: Bool { served + refusing >= budget.served + budget.refusing }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        if episodeFailures > 0 {
            logger.notice(
                "accepting connections again after \(episodeFailures) failed accept calls (file limit \(FileLimit.soft.map(String.init) ?? "none"))"
            )
            episodeFailures = 0
            backoff = Self.firstBackoff
        }
        let refused = served >= budget.served
        if refused {
            refusing += 1
            statistics.refusedOne()
            ConnectionRefusal.install(on: child)
        } else {
            served += 1
            statistics.opened()
        }
        let loopBound = NIOLoopBound((gate: self, context: context), eventLoop: context.eventLoop)
        child.closeFuture.hop(to: context.eventLoop).whenComplete { _ in
            let (gate, context) = loopBound.value
            gate.childClosed(refused: refused, context: context)
        }
        context.fireChannelRead(data)
    }

    private func childClosed(refused: Bool, context: ChannelHandlerContext) {
        if refused {
            refusing -= 1
        } else {
            served -= 1
            statistics.closed()
        }
        resumeIfPossible(context: context)
    }

    func read(context: ChannelHandlerContext) {
        if isFull || backingOff {
            readHeld = true
            return
        }
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let ioError = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(ioError.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        let startsBackoff = !backingOff
        statistics.failedAccept(backingOff: startsBackoff)
        if episodeFailures == 0 {
            logger.error(
                "cannot accept connections: \(ioError.description) (file limit \(FileLimit.soft.map(String.init) ?? "none"), \(served) connections served, \(refusing) being refused); accepting again in \(backoff.nanoseconds / 1_000_000) ms, retried with backoff up to 1 s; logged once until accepting works again"
            )
        }
        episodeFailures += 1
        guard startsBackoff else { return }
        // NIO keeps a read pending after a failed accept, so the socket would stay watched and readable: turning
        // autoRead off stops watching it until the backoff ends.
        backingOff = true
        autoReadOff = true
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        let wait = backoff
        backoff = .nanoseconds(min(backoff.nanoseconds * 2, Self.longestBackoff.nanoseconds))
        let loopBound = NIOLoopBound((gate: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: wait) {
            let (gate, context) = loopBound.value
            gate.backingOff = false
            gate.resumeIfPossible(context: context)
        }
    }

    /// Accepts again once neither full nor backing off.
    private func resumeIfPossible(context: ChannelHandlerContext) {
        guard !backingOff, !isFull, context.channel.isActive else { return }
        if autoReadOff {
            autoReadOff = false
            readHeld = false
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)  // watches the socket again
        } else if readHeld {
            readHeld = false
            context.read()
        }
    }
}

/// The answer to a connection over the budget: 503 problem+json written as soon as it is accepted, the sending side
/// shut, whatever the client sends read and dropped until it closes (closing with its request unread would reset
/// the connection and could lose the answer), and the connection closed after `lingerSeconds` at the latest.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let lingerSeconds: Int64 = 5

    static let answer: String = {
        let body =
            "{\"detail\":\"the server is holding as many connections as it can; try again in a second\",\"instance\":\"\",\"status\":503,\"title\":\"Too many connections\",\"type\":\"about:blank\"}\n"
        var head =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\nCache-Control: no-store\r\n"
        head += "Content-Security-Policy: \(SecurityHeadersMiddleware.contentSecurityPolicy)\r\n"
        head += "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n"
        return head + "\r\n" + body
    }()

    /// Puts a refusal first in `child`'s pipeline, before it is registered (the server's own handlers are added
    /// behind it and never see a request).
    static func install(on child: any Channel) {
        if child.eventLoop.inEventLoop {
            try? child.pipeline.syncOperations.addHandler(ConnectionRefusal(), position: .first)
        } else {
            child.eventLoop.execute {
                try? child.pipeline.syncOperations.addHandler(ConnectionRefusal(), position: .first)
            }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.answer))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        context.eventLoop.scheduleTask(in: .seconds(Self.lingerSeconds)) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
