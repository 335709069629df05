import TOMLKit

/// `[metrics]`: where `kiosk run` answers Prometheus's `GET /metrics` (off unless `listen` is set).
public struct MetricsSettings: Sendable, Equatable {
    /// `host:port` to listen on, e.g. `127.0.0.1:9464` (loopback: a Prometheus agent on the kiosk) or the kiosk's
    /// VPN address for a central Prometheus; nil: no listener.
    public var listen: (host: String, port: Int)? {
        get { listenHost.map { ($0, listenPort) } }
        set {
            listenHost = newValue?.host
            listenPort = newValue?.port ?? 0
        }
    }
    private var listenHost: String?
    private var listenPort = 0

    public init() {}

    /// `host:port` or `[v6]:port`, the host an IP address or `localhost`, the port 1-65535 (0 picks a free one,
    /// for tests: the kiosk logs the port it got).
    static func parseListen(_ text: String) -> (host: String, port: Int)? {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            let isIPv4 = parts.count == 4 && parts.allSatisfy { UInt8($0) != nil && !$0.isEmpty }
            guard isIPv4 || host == "localhost" else { return nil }
        }
        guard let number = Int(port), (0...65535).contains(number), port.allSatisfy(\.isASCII) else { return nil }
        return (String(host), number)
    }
}

extension KioskConfigFile {
    static func readMetrics(_ table: TOMLTable, _ reader: Reader) throws(KioskConfigError) -> MetricsSettings {
        var settings = MetricsSettings()
        if let value = try reader.string(table, "listen", prefix: "metrics.") {
            guard let listen = MetricsSettings.parseListen(value) else {
                throw reader.error(
                    "metrics.listen",
                    "must be an IP address and port such as \"127.0.0.1:9464\" or \"[::1]:9464\", not \"\(String(value.prefix(80)))\""
                )
            }
            settings.listen = listen
        }
        return settings
    }
}
