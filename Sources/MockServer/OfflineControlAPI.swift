import ScenarioEngine
package import WireSocket

/// The control API of a mock without sockets or service threads: requests answered by the
/// same router a running server uses (the `control-api` fuzz target drives it).
package final class OfflineControlAPI {
    private let router: Router

    /// A router with `configuration` (the default scenario unless it names another).
    package init(configuration: MockServer.Configuration = MockServer.Configuration()) throws(ScenarioFileError) {
        router = try Router(configuration: configuration)
    }

    /// Answers one request as the server would on its port.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        router.respond(to: request)
    }
}
