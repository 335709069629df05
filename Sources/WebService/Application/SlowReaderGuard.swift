import NIOCore
import Synchronization

/// Closes a connection whose client does not take its answers: one that reads a byte a second would otherwise
/// keep its connection and the answer buffered for it for as long as it likes (400 such readers held 106 MB).
///
/// The bytes buffered per connection are bounded by NIO's write buffer water mark: above `highWaterMark` pending
/// bytes the channel turns unwritable and the server's writer waits before writing more, so a connection holds
/// at most the answer being written and the mark. While it is unwritable this handler looks every `stallLimit`:
/// if the client took none of the bytes in that time (the bytes written to the socket since the last look are
/// nothing), the connection is closed and counted (`stopkiosk_slow_readers_closed_total`). A slow but live client
/// (a phone on a poor link) drains a little in every period and keeps its connection.
///
/// It sits first in the pipeline, next to the socket, where it sees every byte written.
final class SlowReaderGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = IOData

    let stallLimit: TimeAmount
    let statistics: SlowReaderStatistics
    private var look: Scheduled<Void>?
    /// Bytes pending in the channel at the last look, and written into it since.
    private var pendingAtLook = 0
    private var writtenSinceLook = 0

    init(stallLimit: TimeAmount, statistics: SlowReaderStatistics) {
        self.stallLimit = stallLimit
        self.statistics = statistics
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writtenSinceLook += unwrapOutboundIn(data).readableBytes
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stopWatching()
        } else if look == nil {
            pendingAtLook = Self.pending(context)
            writtenSinceLook = 0
            scheduleLook(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopWatching()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopWatching() }

    private func stopWatching() {
        look?.cancel()
        look = nil
    }

    private func scheduleLook(_ context: ChannelHandlerContext) {
        look = context.eventLoop.assumeIsolated().scheduleTask(in: stallLimit) { [self] in
            look = nil
            guard context.channel.isActive, !context.channel.isWritable else { return }
            let pending = Self.pending(context)
            let taken = pendingAtLook + writtenSinceLook - pending
            guard taken <= 0 else {
                pendingAtLook = pending
                writtenSinceLook = 0
                scheduleLook(context)
                return
            }
            statistics.recordClose()
            context.close(promise: nil)
        }
    }

    /// Bytes written into the channel and not yet taken by the socket.
    private static func pending(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }

    /// Added through `HTTP1Channel.Configuration.additionalChannelHandlers`: sets the connection's write buffer
    /// water mark and puts a `SlowReaderGuard` first in its pipeline, next to the socket.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let stallLimit: TimeAmount
        let waterMark: ChannelOptions.Types.WriteBufferWaterMark
        let statistics: SlowReaderStatistics

        /// - Parameters:
        ///   - stallLimit: how long an unwritable connection may go without the client taking a byte.
        ///   - waterMark: pending bytes above `high` make the connection unwritable (the server waits before
        ///     writing more), below `low` writable again.
        init(
            stallLimit: TimeAmount,
            waterMark: ChannelOptions.Types.WriteBufferWaterMark = .init(low: 32768, high: 65536),
            statistics: SlowReaderStatistics
        ) {
            self.stallLimit = stallLimit
            self.waterMark = waterMark
            self.statistics = statistics
        }

        func handlerAdded(context: ChannelHandlerContext) {
            do {
                try context.channel.syncOptions?.setOption(.writeBufferWaterMark, value: waterMark)
                try context.pipeline.syncOperations.addHandler(
                    SlowReaderGuard(stallLimit: stallLimit, statistics: statistics), position: .first)
            } catch {
                preconditionFailure("cannot add the slow-reader guard to the HTTP/1 pipeline: \(error)")
            }
        }
    }
}

/// How many connections `SlowReaderGuard` closed, for `/metrics` and the tests.
public final class SlowReaderStatistics: Sendable {
    private let counts = Mutex((closed: 0, reported: 0))

    public init() {}

    /// Connections closed because their client took none of the answer buffered for it for `slow_reader_seconds`.
    public var closedConnections: Int { counts.withLock { $0.closed } }

    func recordClose() { counts.withLock { $0.closed += 1 } }

    /// Closes since the last call (what `/metrics` adds to its counter).
    func takeUnreported() -> Int {
        counts.withLock { counts in
            defer { counts.reported = counts.closed }
            return counts.closed - counts.reported
        }
    }
}
