/// The OpenAPI 3.1 document served at `/api/v1/openapi.json`.
enum OpenAPIDocument {
    static let json = "{}\n"
}
