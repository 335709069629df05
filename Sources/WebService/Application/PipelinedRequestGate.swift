import NIOCore
import NIOHTTP1
import Synchronization

/// Stops reading a connection while its answers are unsent: a client that pipelines requests and never reads its
/// answers costs the server one answer, the write buffer's mark (`SlowReaderGuard`) and at most 64 KiB of its
/// requests, not everything it manages to send (200 such clients took a server from 79 MB to 1.1 GB: NIO decodes
/// every request of each read, four reads of up to 64 KiB a time, and the decoded requests wait in the
/// connection's queue at ~0.5 KB each).
///
/// It sits between the response encoder and the request decoder, so what it holds is raw bytes, never decoded
/// requests. It gives the decoder 512 bytes at a time, and only while every request the decoder completed has been
/// answered (its answer's end written) and the connection is writable (below the write buffer's mark); otherwise
/// it keeps the rest of the read and passes no `read()` on, so the socket is not read again. A connection reads
/// one buffer (at most 64 KiB) a time (`maxMessagesPerRead` 1). One case reads past that: NIO reads everything a
/// client sent before it closed its side; a client that has more than 64 KiB of requests waiting then is closed
/// and counted (`PipelineStatistics.closedConnections`).
///
/// It also follows the request lines it passes on, so that a URL too long for the decoder (its header field limit,
/// `[server] max_header_bytes`) gets the 414 problem+json a shorter over-long URL gets from
/// `RequestLimitsMiddleware` rather than the bare 400 the server writes for a request it cannot parse
/// (`PipelinedRequestCounter` rewrites it).
final class PipelinedRequestGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    /// What the decoder gets at once: a few small requests (the shortest is 18 bytes), so few are decoded ahead.
    static let sliceBytes = 512
    /// Raw bytes held at most, beyond which the connection is closed: one read's buffer.
    static let heldLimit = 65536

    let statistics: PipelineStatistics
    private var context: ChannelHandlerContext?
    private var held = CircularBuffer<ByteBuffer>()
    private var heldBytes = 0
    /// The client closed its side behind the held bytes: passed on once they are.
    private var inputClosedHeld = false
    private var readPending = false
    /// Requests the decoder completed (their end passed on), and answers whose end was written.
    private var requestsRead = 0
    private var answersWritten = 0
    private var releasing = false
    /// The request-line scan: the line's length so far, whether it is a request line, and the longest request line
    /// since the last decoded request head.
    private var lineLength = 0
    private var atRequestLine = true
    private(set) var longestRequestLine = 0

    init(statistics: PipelineStatistics) {
        self.statistics = statistics
    }

    /// An answer may precede its request's end (a 413 for a body still arriving): only a request read whose
    /// answer is not written holds the connection.
    private func mayPass(_ context: ChannelHandlerContext) -> Bool {
        requestsRead <= answersWritten && context.channel.isWritable
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        drop()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard bytes.readableBytes > 0 else { return }
        held.append(bytes)
        heldBytes += bytes.readableBytes
        statistics.hold(bytes.readableBytes, connectionHolds: heldBytes)
        release(context, inReadCycle: true)
        if heldBytes > Self.heldLimit {
            statistics.recordClose()
            drop()
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if held.isEmpty && mayPass(context) {
            context.read()
        } else {
            readPending = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        if context.channel.isWritable { release(context, inReadCycle: false) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event as? ChannelEvent == .some(.inputClosed), !held.isEmpty {
            inputClosedHeld = true
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        drop()
        context.fireChannelInactive()
    }

    /// The decoder passed on a request head (`PipelinedRequestCounter`).
    func requestBegan() {
        longestRequestLine = 0
    }

    /// The decoder passed on a request's end.
    func requestRead() {
        requestsRead += 1
        statistics.noteWaiting(requestsRead - answersWritten)
    }

    /// An answer's end was written: the next requests may be decoded once the write has returned.
    func answerWritten() {
        answersWritten += 1
        guard let context else { return }
        context.eventLoop.assumeIsolated().execute { [self] in
            guard let context = self.context else { return }
            release(context, inReadCycle: false)
        }
    }

    /// Passes held bytes to the decoder a slice at a time while it may, then the held end of input and a pending
    /// read. Outside a read cycle it ends what it passed with a read-complete, which is when the server's request
    /// queue takes them.
    private func release(_ context: ChannelHandlerContext, inReadCycle: Bool) {
        guard !releasing else { return }
        releasing = true
        defer { releasing = false }
        var passed = false
        while mayPass(context), context.channel.isActive, var first = held.popFirst() {
            let slice = first.readSlice(length: min(Self.sliceBytes, first.readableBytes))!
            if first.readableBytes > 0 { held.prepend(first) }
            heldBytes -= slice.readableBytes
            statistics.release(slice.readableBytes)
            scan(slice)
            passed = true
            context.fireChannelRead(wrapInboundOut(slice))
        }
        if passed && !inReadCycle { context.fireChannelReadComplete() }
        if held.isEmpty && inputClosedHeld {
            inputClosedHeld = false
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        if readPending && held.isEmpty && mayPass(context) {
            readPending = false
            context.read()
        }
    }

    /// Follows line ends: a request line is the first line of the connection or one after an empty line (the end
    /// of a head; requests here carry no body, and a wrong guess only turns a 414 into a 431).
    private func scan(_ bytes: ByteBuffer) {
        bytes.withUnsafeReadableBytes { raw in
            for byte in raw {
                if byte == UInt8(ascii: "\n") {
                    atRequestLine = lineLength == 0
                    lineLength = 0
                } else if byte != UInt8(ascii: "\r") {
                    lineLength += 1
                    if atRequestLine { longestRequestLine = max(longestRequestLine, lineLength) }
                }
            }
        }
    }

    private func drop() {
        statistics.release(heldBytes)
        heldBytes = 0
        held.removeAll()
        inputClosedHeld = false
    }

    /// Added through `HTTP1Channel.Configuration.additionalChannelHandlers`: puts a gate before the request
    /// decoder and a `PipelinedRequestCounter` after it, reads one buffer a time, and fixes the send buffer.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let statistics: PipelineStatistics
        let maxHeaderBytes: Int
        let maxURLBytes: Int

        static let sendBufferBytes: SocketOptionValue = 131072

        init(statistics: PipelineStatistics, maxHeaderBytes: Int, maxURLBytes: Int) {
            self.statistics = statistics
            self.maxHeaderBytes = maxHeaderBytes
            self.maxURLBytes = maxURLBytes
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else {
                preconditionFailure("the HTTP/1 pipeline has no request decoder to put the pipelining gate before")
            }
            let gate = PipelinedRequestGate(statistics: statistics)
            do {
                try context.channel.syncOptions?.setOption(.maxMessagesPerRead, value: 1)
                // A fixed send buffer (Linux doubles it: 256 KiB), not one the kernel grows to 4 MB for a client that
                // reads nothing: such a client got ~6,500 answers made for it (4 MB of kernel memory, and the CPU that
                // kept `/health` waiting 20 s behind 200 of them); 256 KiB still carries 10 Mbit/s at 200 ms.
                try context.channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: Self.sendBufferBytes)
                try pipeline.addHandler(gate, position: .before(decoder))
                try pipeline.addHandler(
                    PipelinedRequestCounter(gate: gate, maxHeaderBytes: maxHeaderBytes, maxURLBytes: maxURLBytes),
                    position: .after(decoder))
            } catch {
                preconditionFailure("cannot add the pipelining gate to the HTTP/1 pipeline: \(error)")
            }
        }
    }
}

/// The gate's other half, after the request decoder: counts the requests decoded and the answers written, and
/// turns the server's bare 400 for a request line or header over the decoder's limit into 414 or 431
/// problem+json.
final class PipelinedRequestCounter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let gate: PipelinedRequestGate
    let maxHeaderBytes: Int
    let maxURLBytes: Int
    /// Set when the decoder refused a head over its limit: the status the server's 400 becomes.
    private var overflow: (status: HTTPResponseStatus, detail: String)?

    init(gate: PipelinedRequestGate, maxHeaderBytes: Int, maxURLBytes: Int) {
        self.gate = gate
        self.maxHeaderBytes = maxHeaderBytes
        self.maxURLBytes = maxURLBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: gate.requestBegan()
        case .end: gate.requestRead()
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError, error == .headerOverflow {
            // The decoder counts the URL against the header field limit: a request line over it is the URL's.
            overflow =
                gate.longestRequestLine > maxHeaderBytes
                ? (.uriTooLong, "the request target is over \(maxHeaderBytes) bytes; at most \(maxURLBytes) are accepted")
                : (
                    .requestHeaderFieldsTooLarge,
                    "the request's header is over \(maxHeaderBytes) bytes or 100 fields, the most accepted"
                )
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        // The server's own answer to a request it cannot parse: 400, no body, the connection closed.
        case .head(var head)
        where head.status == .badRequest && overflow != nil && head.headers["Content-Length"] == ["0"]:
            let (status, detail) = overflow!
            overflow = nil
            let body = ProblemText.json(status: status, detail: detail)
            head.status = status
            head.headers.replaceOrAdd(name: "Content-Type", value: "application/problem+json")
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        case .end:
            context.write(data, promise: promise)
            gate.answerWritten()
        default:
            context.write(data, promise: promise)
        }
    }
}

/// The problem+json of an answer written below the router (no request to name as its instance).
enum ProblemText {
    static func json(status: HTTPResponseStatus, detail: String) -> ByteBuffer {
        let title =
            switch status {
            case .uriTooLong: "URI too long"
            case .requestHeaderFieldsTooLarge: "Request header fields too large"
            default: status.reasonPhrase
            }
        return Problem(status: .init(code: Int(status.code)), title: title, detail: detail).json(instance: "")
    }
}

/// What the pipelining gates hold, over all connections, for the tests (not yet exported on `/metrics`).
public final class PipelineStatistics: Sendable {
    private struct Counts {
        var heldBytes = 0
        var largestHeldByOneConnection = 0
        var mostRequestsWaitingOnOneConnection = 0
        var closed = 0
    }
    private let counts = Mutex(Counts())

    public init() {}

    /// Raw request bytes read and not yet decoded, on all connections now.
    public var heldBytes: Int { counts.withLock { $0.heldBytes } }
    /// The most raw bytes one connection held at once.
    public var largestHeldByOneConnection: Int { counts.withLock { $0.largestHeldByOneConnection } }
    /// The most decoded requests one connection had waiting for their answers at once.
    public var mostRequestsWaitingOnOneConnection: Int { counts.withLock { $0.mostRequestsWaitingOnOneConnection } }
    /// Connections closed because their client closed its side with more than 64 KiB of requests unanswered.
    public var closedConnections: Int { counts.withLock { $0.closed } }

    func hold(_ bytes: Int, connectionHolds: Int) {
        counts.withLock {
            $0.heldBytes += bytes
            $0.largestHeldByOneConnection = max($0.largestHeldByOneConnection, connectionHolds)
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        counts.withLock { $0.heldBytes -= bytes }
    }

    func noteWaiting(_ requests: Int) {
        counts.withLock { $0.mostRequestsWaitingOnOneConnection = max($0.mostRequestsWaitingOnOneConnection, requests) }
    }

    func recordClose() { counts.withLock { $0.closed += 1 } }
}
