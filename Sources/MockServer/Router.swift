import ScenarioEngine
import WireJSON
import WireSocket

/// Routes every request of the mock's single port. Runs on the service thread.
final class Router: WebSocketServerDelegate {
    let configuration: MockServer.Configuration
    let controlAPI: ControlAPI
    let sessions = SessionRegistry()
    let metrics = ServerMetrics()
    let scenarios: ScenarioStore

    init(configuration: MockServer.Configuration) throws(ScenarioFileError) {
        self.configuration = configuration
        let source = configuration.scenarioSource ?? ("default", Array(EmbeddedScenarios.files["default"]!.utf8))
        do {
            scenarios = ScenarioStore(initial: try Scenario.load(bytes: source.bytes, file: source.name),
                                      timeScaleOverride: configuration.timeScale)
        } catch {
            throw ScenarioFileError(description: error.description)
        }
        controlAPI = ControlAPI(configuration: configuration, sessions: sessions, metrics: metrics, scenarios: scenarios)
    }

    func upgrade(_ request: HTTPRequestHead) -> UpgradeDecision {
        configuration.logger(.debug, "upgrade \(request.path) from \(request.peer)")
        switch request.path {
        case "/_mock/echo":
            return .accept(EchoHandler(), maxMessageBytes: nil)
        default:
            return .reject(.json(status: 404, ["code": "NotFound", "message": .string("no WebSocket route at \(request.path)")]))
        }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        configuration.logger(.debug, "\(request.head.method) \(request.head.path)")
        if request.head.path.hasPrefix("/_mock/") || request.head.path == "/_mock" {
            return controlAPI.respond(to: request)
        }
        return .json(status: 404, ["code": "NotFound", "message": .string("no route \(request.head.method) \(request.head.path)")])
    }
}

extension HTTPResponse {
    /// A JSON response from a value.
    static func json(status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: value.encoded())
    }
}
