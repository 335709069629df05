import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TestSupport {
    /// A page of a running `kiosk serve`, asked with an empty Accept-Language (so the server's own language
    /// choice is what the test sees); expects 200.
    static func page(_ url: String) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.setValue("", forHTTPHeaderField: "Accept-Language")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(url)")
        return String(decoding: data, as: UTF8.self)
    }
}
