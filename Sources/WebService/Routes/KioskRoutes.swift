import Hummingbird

/// `/kiosk`: the browser kiosk and its event stream.
struct KioskRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {}
}

/// Hands scans from the server's scan service to every `/kiosk` page listening.
public final class ScanBroadcaster: Sendable {
    init() {}
}
