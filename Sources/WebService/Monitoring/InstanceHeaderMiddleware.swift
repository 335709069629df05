import HTTPTypes
import Hummingbird

/// `X-Served-By: NAME` on every answer (`kiosk serve --instance NAME`): which of several instances behind a load
/// balancer answered, for the operator reading a response and for the nginx test that checks both are used. A
/// cache in front keeps the header of the instance that rendered the cached answer.
struct InstanceHeaderMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let name: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.xServedBy] = name
        return response
    }
}

extension HTTPField.Name {
    static let xServedBy = HTTPField.Name("X-Served-By")!
}
