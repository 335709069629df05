import HTTPTypes
import Hummingbird
import LibZ
import NIOCore

/// gzip for answers (`Content-Encoding: gzip`, RFC 1952 through the system's zlib): what a client accepts, which
/// answers are worth compressing, the compressed variant's `ETag`, and the bytes both ways.
///
/// The same bytes give the same compressed bytes (one zlib level, no file name or time in the header), so every
/// instance behind a load balancer gives the compressed variant the same tag, as it does the identity one.
enum Gzip {
    /// zlib's level: 6 is its default, most of level 9's gain at a third of its time.
    static let level: Int32 = 6
    /// Bodies smaller than this are sent as they are: the header and the CPU cost more than they save (nginx's
    /// `gzip_min_length` in `kiosk/deploy/nginx` is the same).
    static let minimumBytes = 256
    /// Bodies larger than this are not compressed in memory by the middleware (no answer of ours comes close).
    static let maximumBytes = 32 << 20

    /// Whether an `Accept-Encoding` value lets the answer be gzip: `gzip` (or `x-gzip`) or `*` with a non-zero
    /// q-value, and not ranked below `identity` (`gzip;q=0.5, identity` asks for identity). No header, an empty
    /// one, `identity` alone or `gzip;q=0` is no. Several `Accept-Encoding` lines count as one list.
    static func accepted(_ values: [String]) -> Bool {
        var gzip: Double?
        var star: Double?
        var identity: Double?
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";")
                guard let first = parts.first else { continue }
                let coding = first.trimmingSpaces().lowercased()
                var q = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "q" else {
                        continue
                    }
                    // A malformed q-value refuses the coding rather than guessing.
                    q = Double(pair[1].trimmingSpaces()).flatMap { (0...1).contains($0) ? $0 : nil }
                        ?? 0
                }
                switch coding {
                case "gzip", "x-gzip": gzip = max(gzip ?? 0, q)
                case "*": star = q
                case "identity": identity = q
                default: break
                }
            }
        }
        let q = gzip ?? star ?? 0
        return q > 0 && q >= (identity ?? 0)
    }

    static func accepted(_ request: Request) -> Bool {
        let values = request.headers[values: .acceptEncoding]
        // What nearly every client sends, answered without parsing it.
        if values.count == 1, let only = values.first,
            only == "gzip" || only == "gzip, deflate, br" || only == "gzip, deflate" || only == "gzip, deflate, br, zstd"
        {
            return true
        }
        return accepted(values)
    }

    /// Media types whose bodies are text and shrink: pages, JSON (problem+json too), SVG, CSS, scripts, plain text
    /// (`/metrics`). Not audio (already dense), not `text/event-stream` (a stream: each event must leave at once).
    static func compressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        // The types our handlers write, known without splitting and lowercasing them.
        switch contentType {
        case "application/json; charset=utf-8", "text/html; charset=utf-8", "application/problem+json",
            "text/plain; version=0.0.4; charset=utf-8", "image/svg+xml", "text/css; charset=utf-8",
            "text/javascript; charset=utf-8":
            return true
        case "audio/wav", "text/event-stream":
            return false
        default:
            break
        }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingSpaces().lowercased()
        }
        switch type {
        case "text/html", "text/plain", "text/css", "text/javascript", "application/javascript", "application/json",
            "application/problem+json", "image/svg+xml":
            return true
        default:
            return false
        }
    }

    /// The compressed variant's tag: the identity tag with `-gzip` inside its quotes (`"0123…"` → `"0123…-gzip"`;
    /// a weak tag stays weak), so a cache revalidating either variant names the one it holds.
    static func etag(_ identityTag: String) -> String {
        guard identityTag.hasSuffix("\""), identityTag.count >= 2 else { return identityTag }
        return String(identityTag.dropLast()) + "-gzip\""
    }

    /// Adds `Accept-Encoding` to `Vary` unless it is there.
    static func addVary(to headers: inout HTTPFields) {
        let values = headers[values: .vary]
        // Our answers' own `Vary` (`Answers.body`), known not to name it, without splitting and lowercasing it.
        if values.isEmpty || values == ["Accept-Language"] {
            headers.append(varyAcceptEncoding)
            return
        }
        let present = values.contains { value in
            value.split(separator: ",").contains { $0.trimmingSpaces().lowercased() == "accept-encoding" }
        }
        if !present { headers[values: .vary].append("Accept-Encoding") }
    }

    static let varyAcceptEncoding = HTTPField(name: .vary, value: "Accept-Encoding")

    /// The bytes compressed as one gzip member.
    static func compress(_ input: ByteBuffer) -> ByteBuffer {
        var stream = z_stream()
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.readableBytes)))
        var output = ByteBuffer()
        output.reserveCapacity(bound)
        input.withUnsafeReadableBytes { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(source.count)
            output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { target in
                stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(target.count)
                let result = deflate(&stream, Z_FINISH)
                // deflateBound is an upper bound for a single Z_FINISH: anything else is a zlib bug.
                precondition(result == Z_STREAM_END, "zlib deflate did not finish within deflateBound: \(result)")
                return target.count - Int(stream.avail_out)
            }
        }
        return output
    }

    /// What `compress` made, back as it was; nil for bytes that are not one whole gzip member (never ours) or
    /// that would inflate beyond `limit` bytes.
    static func inflate(_ input: ByteBuffer, limit: Int = maximumBytes) -> ByteBuffer? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output = ByteBuffer()
        var finished = false
        let ok = input.withUnsafeReadableBytes { source -> Bool in
            stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(source.count)
            while !finished {
                guard output.readableBytes < limit else { return false }
                var result: Int32 = Z_OK
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: max(4096, source.count * 4)) { target in
                    stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(target.count)
                    result = LibZ.inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                switch result {
                case Z_STREAM_END: finished = true
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in > 0: continue
                default: return false
                }
            }
            return stream.avail_in == 0
        }
        return ok && output.readableBytes <= limit ? output : nil
    }
}
