/// The mock's version: `mock-server --version`, `GET /_mock/health`, the OpenAPI document, the reports.
package enum ServerVersion {
    package static let text = "0.1.0"
}
