import ArgumentParser
import Foundation

/// The HTTP stack against an outside peer in the same run (issue 41): Debian's nginx, one worker, on loopback,
/// answering (a) a trivial `return 200 "ok"` and (b) a static file holding exactly the bytes `kiosk serve` sends
/// for a cached "now" stop view; wrk alternately against nginx and `kiosk serve` (`/health`; the stop view, one URL
/// again and again), several rounds, and the ratios kiosk/nginx (min/median). Every middleware of the server is on,
/// and nginx keeps its access log (a line per request, as the server's access log).
extension ServeBench {
    struct StackRow {
        var name: String
        var kiosk: [Double] = []
        var nginx: [Double] = []
        /// CPU microseconds per answer, the server's (all its threads) and nginx's (its worker): on a machine
        /// shared with other work these say more than the rates, which depend on the CPU each got.
        var kioskCPU: [Double] = []
        var nginxCPU: [Double] = []
    }

    func stackAgainstNginx(
        wrk: String, server: ServerProcess, stopPath: String, work: URL, target: (health: Double, stop: Double)
    ) throws {
        let encodingHeader = acceptEncoding.isEmpty ? [] : ["-H", "Accept-Encoding: \(acceptEncoding)"]
        // The stop view's bytes as sent (gzip when asked: curl without --compressed keeps them as they came).
        let bodyPath = work.appendingPathComponent("nginx/stop-view.json").path
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("nginx"), withIntermediateDirectories: true)
        _ = server.fetch(stopPath, headers: encodingHeader)  // rendered once, then shared within its minute
        _ = server.fetch(stopPath, headers: encodingHeader + ["-o", bodyPath])
        let size = (try? FileManager.default.attributesOfItem(atPath: bodyPath)[.size] as? Int) ?? 0
        guard size > 0 else { throw ValidationError("kiosk serve gave no body for \(stopPath)") }
        let nginx = try NginxPeer(prefix: work.appendingPathComponent("nginx"), staticFile: "stop-view.json")
        defer { nginx.stop() }
        print(
            "stack against nginx (one worker, access log on): wrk -t\(threads) -c\(connections) -d\(seconds)s, "
                + "\(runs) rounds after a warm-up round; stop view \(stopPath): \(size) bytes as sent")
        var rows = [StackRow(name: "/health vs return 200"), StackRow(name: "stop view vs static file")]
        let pairs: [(kiosk: String, nginx: String)] = [
            (server.base + "/health", nginx.base + "/ok"), (server.base + stopPath, nginx.base + "/stop-view.json"),
        ]
        for round in 0...runs {
            for (index, pair) in pairs.enumerated() {
                let kioskStart = ProcessCPU.seconds(of: server.process.processIdentifier)
                let kiosk = try wrkPlain(wrk, url: pair.kiosk, headers: encodingHeader)
                let kioskCPU = ProcessCPU.seconds(of: server.process.processIdentifier) - kioskStart
                let nginxStart = ProcessCPU.seconds(of: nginx.process.processIdentifier)
                let peer = try wrkPlain(wrk, url: pair.nginx, headers: encodingHeader)
                let nginxCPU = ProcessCPU.seconds(of: nginx.process.processIdentifier) - nginxStart
                guard round > 0 else { continue }
                rows[index].kiosk.append(kiosk.requestsPerSecond)
                rows[index].nginx.append(peer.requestsPerSecond)
                rows[index].kioskCPU.append(kioskCPU * 1e6 / Double(max(1, kiosk.requests)))
                rows[index].nginxCPU.append(nginxCPU * 1e6 / Double(max(1, peer.requests)))
                print(
                    "  round \(round) \(rows[index].name): kiosk \(String(format: "%.0f", kiosk.requestsPerSecond)) "
                        + "req/s (p99 \(String(format: "%.2f", kiosk.p99Milliseconds)) ms, errors \(kiosk.errors)), "
                        + "nginx \(String(format: "%.0f", peer.requestsPerSecond)) req/s (errors \(peer.errors)): "
                        + String(format: "%.2f", kiosk.requestsPerSecond / peer.requestsPerSecond)
                        + String(
                            format: "; CPU per answer %.1f µs vs %.1f µs", rows[index].kioskCPU.last!,
                            rows[index].nginxCPU.last!))
            }
        }
        print("stack against nginx, \(runs) rounds (min / median):")
        for (row, goal) in zip(rows, [target.health, target.stop]) {
            let ratios = zip(row.kiosk, row.nginx).map { $0 / $1 }
            print(
                "  \(row.name): kiosk \(Self.minMedian(row.kiosk, "%.0f")) req/s, nginx "
                    + "\(Self.minMedian(row.nginx, "%.0f")) req/s, ratio \(Self.minMedian(ratios, "%.2f"))"
                    + String(format: " (target ≥ %.2f)", goal))
            print(
                "    CPU per answer: kiosk \(Self.minMedian(row.kioskCPU, "%.1f")) µs, nginx "
                    + "\(Self.minMedian(row.nginxCPU, "%.1f")) µs (nginx/kiosk "
                    + "\(Self.minMedian(zip(row.nginxCPU, row.kioskCPU).map { $0 / $1 }, "%.2f")))")
        }
    }

    /// Each middleware's (and connection handler's) share of a `/health` answer: servers started without one each
    /// (`STOPKIOSK_BENCH_WITHOUT`), measured in turn with the server that has them all, `runs` rounds.
    func shares(wrk: String, kiosk: String, at: String, work: URL) throws {
        let parts = [
            "access-log", "metrics", "compression", "rate-limits", "problems", "limits", "security-headers", "cors",
            "persistence", "slow-readers", "pipelining-gate",
        ]
        let variants = [""] + parts + [parts.joined(separator: ",")]
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.stop() } }
        for (index, without) in variants.enumerated() {
            let folder = work.appendingPathComponent("share-\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            servers.append(
                try ServerProcess(
                    kiosk: kiosk, db: db, at: at, work: folder, environment: ["STOPKIOSK_BENCH_WITHOUT": without]))
        }
        print("middleware shares of /health: wrk -t\(threads) -c\(connections) -d\(seconds)s, \(runs) rounds")
        var rates = [[Double]](repeating: [], count: variants.count)
        var cpu = [[Double]](repeating: [], count: variants.count)
        for round in 0...runs {
            for (index, server) in servers.enumerated() {
                let start = ProcessCPU.seconds(of: server.process.processIdentifier)
                let result = try wrkPlain(wrk, url: server.base + "/health", headers: [])
                let used = ProcessCPU.seconds(of: server.process.processIdentifier) - start
                guard round > 0 else { continue }
                rates[index].append(result.requestsPerSecond)
                cpu[index].append(used * 1e6 / Double(max(1, result.requests)))
            }
        }
        let all = Measure.median(cpu[0])
        for (index, without) in variants.enumerated() {
            let name = index == 0 ? "all on" : index == variants.count - 1 ? "all off" : "without " + without
            let saved = index == 0 ? "" : String(format: ", share %.0f %%", (all - Measure.median(cpu[index])) / all * 100)
            print(
                "  \(name): \(Self.minMedian(rates[index], "%.0f")) req/s, CPU per answer "
                    + "\(Self.minMedian(cpu[index], "%.1f")) µs\(saved)")
        }
    }

    /// wrk on one URL (no script), with `headers` (`-H` pairs).
    func wrkPlain(_ wrk: String, url: String, headers: [String]) throws -> WrkResult {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-wrk-\(getpid())").path
        defer { unlink(output) }
        let run = try Measure.spawn(
            wrk,
            ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "--latency"] + headers + [url],
            stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard run.status == 0, let result = Self.parse(text) else {
            throw ValidationError("wrk failed (status \(run.status)): \(text.prefix(500))")
        }
        return result
    }
}

/// Debian's nginx in a prefix of its own (`-p PREFIX -c PREFIX/nginx.conf`, `daemon off`), one worker, on a free
/// loopback port; as `nobody` when run as root (as `kiosk/tests/deploy/nginx_check.py` runs it). `/ok` answers
/// `return 200 "ok"`, every other path is a file of the prefix's `html` folder.
final class NginxPeer {
    let process = Process()
    let base: String
    let prefix: URL

    init(prefix: URL, staticFile: String) throws {
        guard let nginx = Measure.which("nginx") ?? ["/usr/sbin/nginx"].first(where: FileManager.default.fileExists)
        else { throw ValidationError("nginx is not installed (kiosk/setup.sh installs Debian's nginx)") }
        self.prefix = prefix
        let html = prefix.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: html, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: prefix.appendingPathComponent(staticFile), to: html.appendingPathComponent(staticFile))
        let port = try Self.freePort()
        let p = prefix.path
        let conf = """
            daemon off;
            worker_processes 1;
            pid \(p)/nginx.pid;
            error_log \(p)/error.log warn;
            events { worker_connections 1024; }
            http {
                default_type application/json;
                access_log \(p)/access.log;
                keepalive_requests 1000000;
                client_body_temp_path \(p)/client_temp;
                proxy_temp_path \(p)/proxy_temp;
                fastcgi_temp_path \(p)/fastcgi_temp;
                uwsgi_temp_path \(p)/uwsgi_temp;
                scgi_temp_path \(p)/scgi_temp;
                server {
                    listen 127.0.0.1:\(port);
                    root \(html.path);
                    location = /ok { return 200 "ok"; }
                }
            }

            """
        try conf.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        var command = [nginx, "-p", p, "-c", p + "/nginx.conf", "-e", p + "/error.log"]
        if geteuid() == 0, let nobody = getpwnam("nobody") {
            // Never nginx as root: the prefix (and the folders above it) readable, its files nobody's.
            chmod(prefix.deletingLastPathComponent().path, 0o755)
            for path in [p, html.path] + ((try? FileManager.default.subpathsOfDirectory(atPath: p)) ?? []).map({
                p + "/" + $0
            }) {
                chown(path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            }
            command =
                ["/usr/bin/setpriv", "--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)",
                 "--clear-groups", "--"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        base = "http://127.0.0.1:\(port)"
        for _ in 0..<100 {
            if Self.answers(port: port) { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let log = (try? String(contentsOfFile: p + "/error.log", encoding: .utf8)) ?? ""
        stop()
        throw ValidationError("nginx did not start: \(log.suffix(500))")
    }

    /// Whether something accepts connections on the loopback port.
    static func answers(port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A loopback port nobody listens on now (bound to port 0, read, closed).
    static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw ValidationError("cannot find a free loopback port for nginx") }
        return UInt16(bigEndian: address.sin_port)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// CPU time used by a process and its children now (utime + stime of it and of every process whose parent it is,
/// from `/proc`): nginx answers in its worker, a child of the process started.
enum ProcessCPU {
    static func seconds(of pid: Int32) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        func fields(_ pid: String) -> [Substring]? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return nil }
            // After the command's ")": state is field 3, ppid 4, utime 14, stime 15 (from 1).
            return text[text.index(after: close)...].split(separator: " ")
        }
        var total = 0.0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where entry.first?.isNumber == true {
            guard let f = fields(entry), f.count > 12 else { continue }
            if entry == String(pid) || f[1] == String(pid) {
                total += ((Double(f[11]) ?? 0) + (Double(f[12]) ?? 0)) / ticks
            }
        }
        return total
    }
}
