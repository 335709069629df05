import Foundation
import Hummingbird
import TransitModel
import TransitStore

/// An error answer (RFC 9457): `application/problem+json` on the API, an HTML page in the reader's language on
/// the phone pages. `detail` says what was wrong and what to do instead; it may quote the request, never trusted.
struct Problem: Error, Sendable {
    var status: HTTPResponse.Status
    var title: String
    var detail: String
    /// Stops the reader may have meant (404 for a stop).
    var suggestions: [StopInfo] = []
    /// For 405: the methods the resource answers.
    var allow: String? = nil
    /// For 503: when to ask again, in seconds (`Retry-After`); a 503 without one gets `defaultRetryAfter`.
    var retryAfter: Int? = nil

    /// A 503 says when to come back: a minute unless the cause knows better.
    static let defaultRetryAfter = 60

    static func badRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, title: "Bad request", detail: detail)
    }

    static func notFound(_ detail: String, suggestions: [StopInfo] = []) -> Problem {
        Problem(status: .notFound, title: "Not found", detail: detail, suggestions: suggestions)
    }

    /// A store error as the answer it deserves: an unknown stop is 404, bad input 400, a broken database 503.
    static func from(_ error: LookupError, atGiven: Bool = true) -> Problem {
        switch error {
        case .noSuchStop(_, let suggestions):
            return .notFound(error.description, suggestions: suggestions)
        case .invalidQuery, .invalidTime, .nonexistentLocalTime:
            return .badRequest(error.description)
        case .outsideServiceRange:
            return atGiven
                ? .badRequest(error.description)
                : Problem(
                    status: .serviceUnavailable, title: "Timetable out of date", detail: error.description,
                    retryAfter: 3600)
        case .databaseMissing, .notARouteDatabase:
            return Problem(
                status: .serviceUnavailable, title: "Timetables unavailable",
                detail: "the route database cannot be read; the operator has to re-import the feed", retryAfter: 300)
        }
    }

    struct Body: Encodable {
        struct Suggestion: Encodable {
            var id: String
            var code: String?
            var name: String
        }
        var type = "about:blank"
        var title: String
        var status: Int
        var detail: String
        var instance: String
        var suggestions: [Suggestion]?
    }

    func json(instance: String) -> ByteBuffer {
        let body = Body(
            title: title, status: Int(status.code), detail: detail, instance: instance,
            suggestions: suggestions.isEmpty ? nil : suggestions.map { .init(id: $0.id, code: $0.code, name: $0.name) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return ByteBuffer(string: JSONText.escapingInvisibleControls(String(decoding: data, as: UTF8.self)) + "\n")
    }
}
