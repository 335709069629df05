/// The OpenAPI 3.1 document served at `/api/v1/openapi.json`: the API's contract, written by hand in
/// `Sources/WebService/API/openapi.json` and served byte for byte as that file is.
///
/// Hand-written rather than generated with swift-openapi-generator: its build plugin compiles the generator (and
/// swift-syntax) in every clean CI build, several minutes on the project's 2-core machines; and a generated server
/// re-encodes responses through its own Codable types, while the stop view and the plan must stay byte for byte
/// what `kiosk lookup --json` and `kiosk plan --json` print (one renderer, `KioskJSON`). The tests keep the document
/// honest instead: `openapi-spec-validator` checks it, and every endpoint's real responses (each documented status)
/// are validated against its schemas (`kiosk/tests/web/check_openapi.py`, run by `OpenAPIContractTests`).
///
/// The file is JSON, not YAML: it is served as it is (no YAML library, no conversion at build or start-up), and
/// what the tests validate is exactly what clients get. Parameters, error answers and schemas used by more than
/// one path live under `components` and are named by `$ref`; a reference may override the shared `description`
/// (OpenAPI 3.1 reference objects allow it), so each path still says what its own 400 or 404 means.
///
/// The file is embedded in the program (`.embedInCode` in Package.swift) rather than read from the target's
/// resource bundle: `Bundle.module` stops the process when the bundle is not beside the executable, and the
/// deployment copies `kiosk` alone to `/usr/local/bin`.
enum OpenAPIDocument {
    /// The document's text, exactly the file's bytes.
    static let json = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
