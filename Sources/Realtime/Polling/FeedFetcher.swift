import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Why a feed could not be fetched. The previous data stays in use until freshness retires it.
public enum FeedFetchError: Error, Equatable, CustomStringConvertible {
    case httpStatus(code: Int, url: String)
    case tooLarge(limit: Int, url: String)
    case timedOut(seconds: Int, url: String)
    case transport(reason: String, url: String)
    case unreadableFile(path: String, reason: String)

    public var description: String {
        switch self {
        case let .httpStatus(code, url): return "\(url) answered HTTP \(code)"
        case let .tooLarge(limit, url): return "\(url) sent more than \(limit) bytes (the feed size limit)"
        case let .timedOut(seconds, url): return "\(url) did not answer within \(seconds) s"
        case let .transport(reason, url): return "cannot fetch \(url): \(reason)"
        case let .unreadableFile(path, reason): return "cannot read \(path): \(reason)"
        }
    }
}

/// Fetches one feed source — a local file or an http(s):// URL — the way a poller should: a conditional GET
/// (If-None-Match / If-Modified-Since from the last answer), configured request headers (API keys), a
/// timeout and a size cap. A file counts as unchanged while its modification time is.
public actor FeedFetcher {
    public enum Outcome: Sendable, Equatable {
        case body(Data)
        /// 304 Not Modified, or a file whose modification time has not changed.
        case notModified
    }

    public let source: String
    public let headers: [String: String]
    public let timeoutSeconds: Int
    public let sizeLimit: Int
    private let client: HTTPClient
    private var entityTag: String?
    private var lastModified: String?
    private var fileModification: Date?

    public init(
        source: String, headers: [String: String] = [:], timeoutSeconds: Int = 10,
        sizeLimit: Int = RealtimeFeed.defaultSizeLimit,
        client: HTTPClient = .shared
    ) {
        self.source = source
        self.headers = headers
        self.timeoutSeconds = timeoutSeconds
        self.sizeLimit = sizeLimit
        self.client = client
    }

    public var isHTTP: Bool { Self.isHTTP(source) }

    /// Whether a source names an http(s):// URL (anything else is a file path).
    public static func isHTTP(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    public func fetch() async throws(FeedFetchError) -> Outcome {
        isHTTP ? try await fetchHTTP() : try readFile()
    }

    private func readFile() throws(FeedFetchError) -> Outcome {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: source)
            let modified = attributes[.modificationDate] as? Date
            if let modified, modified == fileModification { return .notModified }
            if let size = attributes[.size] as? Int, size > sizeLimit {
                throw FeedFetchError.tooLarge(limit: sizeLimit, url: source)
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            fileModification = modified
            return .body(data)
        } catch let error as FeedFetchError {
            throw error
        } catch {
            throw .unreadableFile(path: source, reason: error.localizedDescription)
        }
    }

    /// The whole exchange — connection, head and body — within `timeoutSeconds`: a server that answers its head
    /// at once and then trickles the body (or never sends it) is cut off too, not only one slow to start.
    private func fetchHTTP() async throws(FeedFetchError) -> Outcome {
        let seconds = timeoutSeconds
        let source = self.source
        let result = await withTaskGroup(of: Result<Outcome, FeedFetchError>?.self) { group in
            group.addTask { await self.exchange() }
            group.addTask {
                // A second past the client's own deadline, so its errors (with their cause: a refused connection
                // is retried until the deadline) come first; this one catches a body that never ends.
                try? await Task.sleep(for: .seconds(seconds + 1))
                return Task.isCancelled ? nil : .failure(.timedOut(seconds: seconds, url: source))
            }
            var first: Result<Outcome, FeedFetchError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(.timedOut(seconds: seconds, url: source))
        }
        return try result.get()
    }

    private func exchange() async -> Result<Outcome, FeedFetchError> {
        do throws(FeedFetchError) { return .success(try await exchangeUnbounded()) } catch { return .failure(error) }
    }

    private func exchangeUnbounded() async throws(FeedFetchError) -> Outcome {
        var request = HTTPClientRequest(url: source)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/x-protobuf, application/octet-stream;q=0.9, */*;q=0.1")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let entityTag { request.headers.replaceOrAdd(name: "If-None-Match", value: entityTag) }
        if let lastModified { request.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified) }
        let deadline = NIODeadline.now() + .seconds(Int64(timeoutSeconds))
        do {
            let response = try await client.execute(request, deadline: deadline)
            if response.status == .notModified { return .notModified }
            guard response.status == .ok else {
                throw FeedFetchError.httpStatus(code: Int(response.status.code), url: source)
            }
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > sizeLimit {
                throw FeedFetchError.tooLarge(limit: sizeLimit, url: source)
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: sizeLimit)
            } catch is NIOTooManyBytesError {
                throw FeedFetchError.tooLarge(limit: sizeLimit, url: source)
            }
            entityTag = response.headers.first(name: "ETag")
            lastModified = response.headers.first(name: "Last-Modified")
            return .body(Data(body.readableBytesView))
        } catch let error as FeedFetchError {
            throw error
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw .timedOut(seconds: timeoutSeconds, url: source)
        } catch {
            throw .transport(reason: "\(error)", url: source)
        }
    }
}
