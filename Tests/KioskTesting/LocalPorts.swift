import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1 for tests.
public enum LocalPorts {
    /// A port nothing listens on: bound with the kernel's choice, then closed (a "feed server that is down").
    public static func unused() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A scripted HTTP server on 127.0.0.1 for tests that need a real peer (feed servers that answer slowly, with
/// garbage, or not at all). `handler` is Python defining `class H(http.server.BaseHTTPRequestHandler)` and the
/// state it uses, reading its arguments from `sys.argv[1:]`; the server around it, the port hand-over and the
/// stop when the test process is gone (so it never outlives the tests, and never stops under a slow test on a
/// loaded machine, as a fixed 600 s did) are here, once.
public final class ScriptedHTTPServer: @unchecked Sendable {
    private let process = Process()
    /// The port it listens on (0 if it never started).
    public let port: Int

    public init(handler: String, arguments: [String] = []) throws {
        let script =
            "import http.server, sys, threading\n" + handler + "\n"
                + """
                import os as _os, time as _time
                server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
                print(server.server_address[1], flush=True)
                _parent = _os.getppid()
                def _stop_with_parent():
                    while _os.getppid() == _parent: _time.sleep(1)
                    server.shutdown()
                threading.Thread(target=_stop_with_parent, daemon=True).start()
                server.serve_forever()
                """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        port = Int(String(decoding: line, as: UTF8.self)) ?? 0
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        kill(process.processIdentifier, SIGKILL)  // our own child, by its id
        process.waitUntilExit()
    }
}
