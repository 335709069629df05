import Foundation
import Hummingbird
import Synchronization
import TransitStore

/// Answers for "now", shared for the minute they are valid.
///
/// A request without `at` is answered for the current minute (`QueryParameters.instant`), so during that minute
/// every such request for the same URL and language gets the same bytes: the first one renders, the others are
/// served from here until the minute or the database changes. Only `200` answers are kept, and only when no live
/// data is configured (live data moves within a minute). Bounded: past `byteLimit` nothing more is kept until the
/// next minute, which starts empty.
final class NowCache: Sendable {
    private struct State {
        var minute: Int64 = .min
        var feedHash = ""
        var entries: [String: Response] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())
    let byteLimit: Int

    init(byteLimit: Int = 128 << 20) { self.byteLimit = byteLimit }

    var count: Int { state.withLock { $0.entries.count } }

    func answer(_ key: String, minute: Int64, feedHash: String) -> Response? {
        state.withLock { state in
            state.minute == minute && state.feedHash == feedHash ? state.entries[key] : nil
        }
    }

    func keep(_ response: Response, for key: String, minute: Int64, feedHash: String) {
        guard response.status == .ok, let size = response.body.contentLength else { return }
        state.withLock { state in
            if state.minute != minute || state.feedHash != feedHash {
                // A new minute or a new database: everything kept so far is out of date.
                if minute < state.minute && state.feedHash == feedHash { return }
                state = State(minute: minute, feedHash: feedHash)
            }
            guard state.bytes + size <= byteLimit, state.entries[key] == nil else { return }
            state.entries[key] = response
            state.bytes += size
        }
    }
}

extension WebService {
    /// The answer for `request`, rendered by `render` or shared with the requests of the same minute (see
    /// `NowCache`). `key` names everything besides the URL the answer depends on (the language).
    func sharedNow(
        _ request: Request, key: String, database: RouteDatabase, at: (date: Date, given: Bool),
        hit: () -> Void = {}, render: () throws -> Response
    ) rethrows -> Response {
        guard !at.given, live == nil else { return try render() }
        let key = key + " " + request.uri.description
        let minute = Int64((at.date.timeIntervalSince1970 / 60).rounded(.down))
        if let shared = nowCache.answer(key, minute: minute, feedHash: database.feedHash) {
            hit()
            return shared
        }
        let response = try render()
        nowCache.keep(response, for: key, minute: minute, feedHash: database.feedHash)
        return response
    }
}
