import Dispatch
import Foundation
import Hummingbird
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
/// next minute's together) nothing more is kept.
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
    }

    private let state = Mutex(State())
    let byteLimit: Int
    /// Seconds before the end of a minute when rendering ahead starts.
    let leadSeconds: Double
    private let queue = DispatchQueue(label: "stopkiosk.web.now-ahead")

    init(byteLimit: Int = 128 << 20, leadSeconds: Double = 20) {
        self.byteLimit = byteLimit
        self.leadSeconds = leadSeconds
    }

    var count: Int { state.withLock { $0.current.entries.count } }
    var renderedAheadCount: Int { state.withLock { $0.next?.entries.count ?? 0 } }

    /// Returns once the rendering ahead started so far has finished (tests).
    func waitForRenderingAhead() { queue.sync {} }

    func answer(_ key: String, minute: Int64, feedHash: String) -> Answer? {
        let (answer, expired) = state.withLock { state in
            let expired = Self.turn(&state, to: minute, feedHash: feedHash)
            return (state.current.number == minute ? state.current.entries[key]?.answer : nil, expired)
        }
        if let expired { Self.release(expired) }
        return answer
    }

    func keep(_ answer: Answer, for key: String, minute: Int64, feedHash: String, render: @escaping Render) {
        guard answer.status == .ok else { return }
        let answer = Self.compact(answer)
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

    /// Starts rendering the next minute's answers when `now` is within `leadSeconds` of the end of `minute`
    /// (once per minute). `stillCurrent` says whether the database is still the one in service.
    func renderAheadIfDue(now: Date, minute: Int64, feedHash: String, stillCurrent: @escaping @Sendable () -> Bool) {
        let secondsLeft = Double(minute + 1) * 60 - now.timeIntervalSince1970
        guard secondsLeft > 0, secondsLeft <= leadSeconds else { return }
        let work: [(String, Render)]? = state.withLock { state in
            guard state.current.number == minute, state.current.feedHash == feedHash, state.next == nil else {
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
                let answer = Self.compact(rendered)
                let size = answer.body.readableBytes
                let stop = state.withLock { state -> Bool in
                    // Too late (the minute turned without it) or the database changed: stop here.
                    guard var next = state.next, next.number == minute + 1 else { return true }
                    if state.current.bytes + next.bytes + size <= byteLimit {
                        next.entries[key] = Entry(answer: answer, render: render)
                        next.bytes += size
                        state.next = next
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
        if let shared = nowCache.answer(key, minute: minute, feedHash: feedHash) {
            hit()
            return shared.response
        }
        let answer = try render(at.date)
        nowCache.keep(answer, for: key, minute: minute, feedHash: feedHash, render: render)
        return answer.response
    }
}
