import HTTPTypes
import NIOCore
import NIOHTTP1

/// What the HTTP server's own loop does not do, at the HTTP/1 level where the request's version is still known:
///
/// - A request that does not ask for a persistent connection (HTTP/1.0 without `Connection: keep-alive`, or any
///   `Connection: close` however it is spelled) is marked `Connection: close`, the one spelling Hummingbird's loop
///   checks, so the connection is closed after the answer instead of waiting for a request that never comes.
/// - An answer the server writes itself, outside the router (400 for a request it cannot parse), gets the same
///   security headers as every routed answer (`SecurityHeadersMiddleware`).
///
/// Hummingbird adds `additionalChannelHandlers` after its HTTP/1 ↔ HTTP types codec, where the version is gone:
/// the installer added there puts this handler right after NIO's request decoder, before the codec.
final class ConnectionPersistenceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head(var head) = unwrapOutboundIn(data), !head.headers.contains(name: "Content-Security-Policy") {
            var fields = HTTPFields()
            SecurityHeadersMiddleware.apply(to: &fields)
            for field in fields where !head.headers.contains(name: field.name.rawName) {
                head.headers.add(name: field.name.rawName, value: field.value)
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }

    /// Added through `HTTP1Channel.Configuration.additionalChannelHandlers`: puts a `ConnectionPersistenceHandler`
    /// after the request decoder when it joins the pipeline, and passes everything through itself.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else {
                preconditionFailure("the HTTP/1 pipeline has no request decoder to put the connection handler after")
            }
            do {
                try pipeline.addHandler(ConnectionPersistenceHandler(), position: .after(decoder))
            } catch {
                preconditionFailure("cannot add the connection handler to the HTTP/1 pipeline: \(error)")
            }
        }
    }
}
