import Dispatch
import Foundation
import Hummingbird
import Prometheus
@_spi(CustomByteBufferAllocator) import NIOCore
import Synchronization
import SystemSupport
import TransitStore

#if canImport(Glibc)
import Glibc
#endif

/// Answers for "now", shared for the minute they are valid, and rendered ahead for the next minute.
///
/// A request without `at` is answered for the current minute (`QueryParameters.instant`), so during that minute
/// every such request for the same URL and language gets the same bytes: the first one renders, the others are
/// served from here until the minute or the database changes. Only `200` answers are kept, and only when no live
/// data is configured (live data moves within a minute). Bounded: past `byteLimit` (this minute's answers and the
/// next minute's together, counted as stored) nothing more is kept.
///
/// Answers are kept compressed (`Gzip`, when their type is compressible and they are not tiny): a stop view's JSON
/// shrinks about tenfold, so the "now" stop views of a 10,000-stop city fit in the bound. Clients that accept gzip
/// (every browser, and nginx's `gzip` when asked) get the stored bytes as they are; the rare identity client gets
/// them inflated (`sharedNow`), which costs a fraction of rendering them again.
///
/// Without more, every answer would expire at the same instant and the first seconds of each minute would render
/// them all again while requests wait. So in the minute's last seconds the answers asked for during it are rendered
/// for the next minute, one at a time off the request path; at the turn of the minute they take over. A server
/// nobody asks renders nothing, and an answer not ready in time is rendered on demand as before.
final class NowCache: Sendable {
    /// Renders the answer for the minute starting at the given date.
    typealias Render = @Sendable (Date) throws -> Answer

    private struct Entry {
        var answer: Answer
        var render: Render
    }

    private struct Minute {
        var number: Int64
        var feedHash: String
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private struct State {
        var current = Minute(number: .min, feedHash: "")
        /// The next minute's answers, while they are rendered ahead.
        var next: Minute?
        /// Seconds before the end of a minute when rendering ahead starts: `leadSeconds`, doubled (up to
        /// `maxLeadSeconds`) after a minute whose answers were not all rendered ahead before it turned.
        var lead: Double
    }

    private let state: Mutex<State>
    /// The earliest rendering ahead starts (a city of 10,000 stops on a busy machine needs more than 20 s).
    static let maxLeadSeconds = 50.0
    let byteLimit: Int
    /// Seconds before the end of a minute when rendering ahead starts.
    let leadSeconds: Double
    private let queue = DispatchQueue(label: "stopkiosk.web.now-ahead")

    init(byteLimit: Int = 128 << 20, leadSeconds: Double = 20) {
        self.byteLimit = byteLimit
        self.leadSeconds = leadSeconds
        self.state = Mutex(State(lead: leadSeconds))
    }

    var count: Int { state.withLock { $0.current.entries.count } }
    /// The bytes kept, this minute's and the next one's: what `byteLimit` bounds (bodies as stored).
    var bytes: Int { state.withLock { $0.current.bytes + ($0.next?.bytes ?? 0) } }
    var renderedAheadCount: Int { state.withLock { $0.next?.entries.count ?? 0 } }

    /// Returns once the rendering ahead started so far has finished (tests).
    func waitForRenderingAhead() { queue.sync {} }

    /// The answer kept for `key` in `minute`, as stored: gzip (`Content-Encoding: gzip`) unless `stored` left it
    /// as it was.
    func answer(_ key: String, minute: Int64, feedHash: String) -> Answer? {
        let (answer, expired) = state.withLock { state in
            let expired = Self.turn(&state, to: minute, feedHash: feedHash)
            return (state.current.number == minute ? state.current.entries[key]?.answer : nil, expired)
        }
        if let expired { Self.release(expired) }
        return answer
    }

    /// Keeps `answer` (when it is a `200`, the minute is current and the bound allows) in the form it is stored in,
    /// which is returned (nil for an answer not worth keeping): compressed when its type is compressible and it
    /// is not tiny, in memory of exactly its size.
    @discardableResult
    func keep(_ answer: Answer, for key: String, minute: Int64, feedHash: String, render: @escaping Render) -> Answer? {
        guard answer.status == .ok else { return nil }
        let answer = Self.stored(answer)
        let size = answer.body.readableBytes
        let expired = state.withLock { state in
            let expired = Self.turn(&state, to: minute, feedHash: feedHash)
            if state.current.number == minute, state.current.entries[key] == nil,
                state.current.bytes + (state.next?.bytes ?? 0) + size <= byteLimit
            {
                state.current.entries[key] = Entry(answer: answer, render: render)
                state.current.bytes += size
            }
            return expired
        }
        if let expired { Self.release(expired) }
        return answer
    }

    /// The form an answer is kept in: gzip (`Content-Encoding: gzip`, the identity `ETag` kept: the middleware names
    /// the variant) when `Gzip` would compress it for a client, else as it is; in memory of its own size.
    static func stored(_ answer: Answer) -> Answer {
        var stored = answer
        let size = answer.body.readableBytes
        if answer.headers[.contentEncoding] == nil, Gzip.compressible(contentType: answer.headers[.contentType]),
            size >= Gzip.minimumBytes, size <= Gzip.maximumBytes
        {
            stored.body = Gzip.compress(answer.body)
            stored.headers[.contentEncoding] = "gzip"
        }
        return compact(stored)
    }

    /// Moves to `minute` of the database `feedHash`: the answers rendered ahead for it take over, anything older
    /// goes (returned, to be released outside the lock). A late request for an earlier minute changes nothing.
    private static func turn(_ state: inout State, to minute: Int64, feedHash: String) -> Minute? {
        if state.current.number == minute && state.current.feedHash == feedHash { return nil }
        if minute < state.current.number && state.current.feedHash == feedHash { return nil }
        let expired = state.current
        if let next = state.next, next.number == minute, next.feedHash == feedHash {
            state.current = next
        } else {
            state.current = Minute(number: minute, feedHash: feedHash)
        }
        state.next = nil
        return expired
    }

    /// Frees a minute's answers and gives the memory back to the system: a minute's answers are many buffers of
    /// a few kilobytes, freed together, which the allocator would otherwise keep as the process's own.
    private static func release(_ minute: consuming Minute) {
        let had = minute.bytes
        _ = consume minute
        if had > 1 << 20 { FreeMemory.returnToSystem() }
    }

    /// The answer with its body in memory of exactly its size: NIO rounds a buffer's capacity up to a power of two,
    /// which for answers kept by the thousand would waste a third of the memory.
    private static func compact(_ answer: Answer) -> Answer {
        let size = answer.body.readableBytes
        guard size > 0, answer.body.capacity > size, let memory = malloc(size) else { return answer }
        answer.body.withUnsafeReadableBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: size) }
        var compact = answer
        compact.body = ByteBuffer(
            takingOwnershipOf: UnsafeMutableRawBufferPointer(start: memory, count: size),
            allocator: ByteBufferAllocator())
        return compact
    }

    /// Seconds before the end of a minute when rendering ahead starts now.
    var currentLeadSeconds: Double { state.withLock { $0.lead } }

    /// Starts rendering the next minute's answers when `now` is within the lead (`leadSeconds`, more after a
    /// minute that turned before they were all rendered) of the end of `minute` (once per minute). `stillCurrent`
    /// says whether the database is still the one in service.
    func renderAheadIfDue(now: Date, minute: Int64, feedHash: String, stillCurrent: @escaping @Sendable () -> Bool) {
        let secondsLeft = Double(minute + 1) * 60 - now.timeIntervalSince1970
        guard secondsLeft > 0 else { return }
        let work: [(String, Render)]? = state.withLock { state in
            guard secondsLeft <= state.lead, state.current.number == minute, state.current.feedHash == feedHash,
                state.next == nil
            else {
                return nil
            }
            state.next = Minute(number: minute + 1, feedHash: feedHash)
            return state.current.entries.map { ($0.key, $0.value.render) }
        }
        guard let work else { return }
        let nextStart = Date(timeIntervalSince1970: Double(minute + 1) * 60)
        queue.async { [self] in
            for (key, render) in work {
                guard stillCurrent(), let rendered = try? render(nextStart), rendered.status == .ok else { continue }
                let answer = Self.stored(rendered)
                let size = answer.body.readableBytes
                let stop = state.withLock { state -> Bool in
                    // Too late (the minute turned without it) or the database changed: stop here, and start
                    // earlier next time if it was the minute that turned.
                    guard state.next?.number == minute + 1 else {
                        if state.current.number == minute + 1 && state.current.feedHash == feedHash {
                            state.lead = min(Self.maxLeadSeconds, state.lead * 2)
                        }
                        return true
                    }
                    // In place: a copy of the minute taken out and put back would copy its table per answer.
                    if state.current.bytes + state.next!.bytes + size <= byteLimit {
                        state.next!.entries[key] = Entry(answer: answer, render: render)
                        state.next!.bytes += size
                    }
                    return false
                }
                if stop { return }
            }
        }
    }
}

extension WebService {
    /// The answer for `request`, rendered by `render` (for the instant given) or shared with the requests of the
    /// same minute (see `NowCache`). `key` names everything besides the URL the answer depends on (the language).
    func sharedNow(
        _ request: Request, key: String, database: RouteDatabase, at: (date: Date, given: Bool),
        hit: () -> Void = {}, render: @escaping NowCache.Render
    ) throws -> Response {
        guard !at.given, live == nil else { return try render(at.date).response }
        let key = key + " " + request.uri.description
        let minute = Int64((at.date.timeIntervalSince1970 / 60).rounded(.down))
        let feedHash = database.feedHash
        defer {
            nowCache.renderAheadIfDue(now: now(), minute: minute, feedHash: feedHash) { [databases] in
                databases.current().feedHash == feedHash
            }
        }
        let gzip = Gzip.accepted(request)
        if let shared = nowCache.answer(key, minute: minute, feedHash: feedHash) {
            hit()
            return Self.variant(of: shared, gzip: gzip).response
        }
        let answer = try render(at.date)
        let stored = nowCache.keep(answer, for: key, minute: minute, feedHash: feedHash, render: render)
        metrics.updateNowCache(bytes: nowCache.bytes, answers: nowCache.count)
        return (gzip ? stored ?? answer : answer).response
    }

    /// A kept answer as the client takes it: the stored gzip bytes for a client that accepts them, else inflated
    /// back to the identity bytes (the answer as rendered).
    static func variant(of stored: Answer, gzip: Bool) -> Answer {
        guard !gzip, stored.headers[.contentEncoding] != nil, let body = Gzip.inflate(stored.body) else { return stored }
        var identity = stored
        identity.headers[.contentEncoding] = nil
        identity.body = body
        return identity
    }
}

extension WebMetrics {
    /// `stopkiosk_now_cache_bytes` and `stopkiosk_now_cache_answers`: what the shared "now" answers hold (bodies as
    /// stored, gzip for most), set when an answer is kept.
    func updateNowCache(bytes: Int, answers: Int) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "now_cache", unitName: "bytes",
                helpText: "Bytes of the shared \"now\" answers kept (this minute's and the next one's, as stored)")
        ).set(Double(bytes))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "now_cache_answers", unitName: "",
                helpText: "Shared \"now\" answers kept for the current minute")
        ).set(Double(answers))
    }
}
