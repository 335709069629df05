import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Why a static GTFS feed could not be downloaded. The previous database stays in use.
public enum StaticFeedDownloadError: Error, Equatable, CustomStringConvertible {
    case httpStatus(code: Int, url: String)
    case cut(received: Int, expected: Int?, url: String, reason: String)
    case tooLarge(limit: Int, url: String)
    case timedOut(seconds: Int, url: String)
    case transport(reason: String, url: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .httpStatus(code, url): return "\(url) answered HTTP \(code)"
        case let .cut(received, expected, url, reason):
            let of = expected.map { " of \($0)" } ?? ""
            return "the download from \(url) was cut after \(received)\(of) bytes (\(reason))"
        case let .tooLarge(limit, url): return "\(url) sent more than \(limit) bytes (the download size limit)"
        case let .timedOut(seconds, url): return "\(url) did not finish within \(seconds) s"
        case let .transport(reason, url): return "cannot fetch \(url): \(reason)"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        }
    }
}

/// Downloads a static GTFS feed (`kiosk update`) to a file, with a conditional GET: the validators of the last
/// download (`ETag`, `Last-Modified`) are sent back, and a 304 means there is nothing to import.
public enum StaticFeedDownload {
    /// What the last successful download's server said, remembered beside the database.
    public struct Validators: Sendable, Codable, Equatable {
        public var url: String
        public var entityTag: String?
        public var lastModified: String?

        public init(url: String, entityTag: String?, lastModified: String?) {
            self.url = url
            self.entityTag = entityTag
            self.lastModified = lastModified
        }
    }

    public enum Outcome: Sendable, Equatable {
        case notModified
        /// The feed is at the path given, this many bytes; `validators` to remember once it is imported.
        case downloaded(bytes: Int, validators: Validators)
    }

    /// A real feed is tens of megabytes; a few hundred for the largest networks.
    public static let defaultSizeLimit = 2 << 30

    /// Fetches `url` into `path` (created or truncated). `previous` validators are used only when they are for
    /// the same URL. The whole download must finish within `timeoutSeconds`. `progress` hears the bytes received
    /// after each chunk, with the size the server announced (nil when it did not).
    public static func fetch(
        url: String, headers: [String: String] = [:], previous: Validators?, to path: String,
        timeoutSeconds: Int = 600, sizeLimit: Int = defaultSizeLimit, client: HTTPClient = .shared,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) async throws(StaticFeedDownloadError) -> Outcome {
        let result = await withTaskGroup(of: Result<Outcome, StaticFeedDownloadError>?.self) { group in
            group.addTask {
                do throws(StaticFeedDownloadError) {
                    return .success(
                        try await exchange(
                            url: url, headers: headers, previous: previous, to: path, timeoutSeconds: timeoutSeconds,
                            sizeLimit: sizeLimit, client: client, progress: progress))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
                return Task.isCancelled ? nil : .failure(.timedOut(seconds: timeoutSeconds, url: url))
            }
            var first: Result<Outcome, StaticFeedDownloadError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(.timedOut(seconds: timeoutSeconds, url: url))
        }
        return try result.get()
    }

    private static func exchange(
        url: String, headers: [String: String], previous: Validators?, to path: String, timeoutSeconds: Int,
        sizeLimit: Int, client: HTTPClient, progress: (@Sendable (Int, Int?) -> Void)?
    ) async throws(StaticFeedDownloadError) -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let previous, previous.url == url {
            if let tag = previous.entityTag { request.headers.replaceOrAdd(name: "If-None-Match", value: tag) }
            if let date = previous.lastModified {
                request.headers.replaceOrAdd(name: "If-Modified-Since", value: date)
            }
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .now() + .seconds(Int64(timeoutSeconds)))
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw .timedOut(seconds: timeoutSeconds, url: url)
        } catch {
            throw .transport(reason: "\(error)", url: url)
        }
        if response.status == .notModified { return .notModified }
        guard response.status == .ok else { throw .httpStatus(code: Int(response.status.code), url: url) }
        let expected = response.headers.first(name: "Content-Length").flatMap(Int.init)
        if let expected, expected > sizeLimit { throw .tooLarge(limit: sizeLimit, url: url) }

        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        var received = 0
        do {
            for try await chunk in response.body {
                received += chunk.readableBytes
                if received > sizeLimit { throw StaticFeedDownloadError.tooLarge(limit: sizeLimit, url: url) }
                do {
                    try handle.write(contentsOf: Data(chunk.readableBytesView))
                } catch {
                    throw StaticFeedDownloadError.cannotWrite(path: path, reason: "\(error)")
                }
                progress?(received, expected)
            }
            try handle.synchronize()
        } catch let error as StaticFeedDownloadError {
            throw error
        } catch {
            throw .cut(received: received, expected: expected, url: url, reason: "\(error)")
        }
        if let expected, received != expected {
            throw .cut(received: received, expected: expected, url: url, reason: "the connection closed early")
        }
        return .downloaded(
            bytes: received,
            validators: Validators(
                url: url, entityTag: response.headers.first(name: "ETag"),
                lastModified: response.headers.first(name: "Last-Modified")))
    }
}
