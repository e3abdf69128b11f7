import AnswerAudio
import ScenarioEngine
import WireAudio
import WireJSON
import WireSocket

/// The HTTP control API under `/_mock/` (documented in mock-server/README.md).
final class ControlAPI {
    let configuration: MockServer.Configuration
    let sessions: SessionRegistry
    let metrics: ServerMetrics
    let scenarios: ScenarioStore
    let answerAudio: AnswerAudioCache

    init(configuration: MockServer.Configuration, sessions: SessionRegistry, metrics: ServerMetrics, scenarios: ScenarioStore,
         answerAudio: AnswerAudioCache) {
        self.configuration = configuration
        self.answerAudio = answerAudio
        self.sessions = sessions
        self.metrics = metrics
        self.scenarios = scenarios
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let path = request.head.path
        let method = request.head.method
        let parts = path.split(separator: "/").map(String.init)  // ["_mock", …]
        switch parts.dropFirst().first {
        case "health":
            return method == "GET" ? .json(status: 200, health()) : methodNotAllowed(request, allowed: "GET")
        case "metrics":
            return method == "GET"
                ? HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4",
                               text: metrics.prometheusText + AnswerAudioMetrics.prometheusText(answerAudio.statistics))
                : methodNotAllowed(request, allowed: "GET")
        case "sessions" where parts.count == 2:
            return method == "GET" ? .json(status: 200, ["sessions": .array(sessions.all.map(\.summary))])
                : methodNotAllowed(request, allowed: "GET")
        case "sessions" where parts.count == 4 && parts[3] == "journal":
            guard method == "GET" else { return methodNotAllowed(request, allowed: "GET") }
            guard let journal = sessions.journal(parts[2]) else {
                return .error(404, "NotFound", "no session \(parts[2]); GET /_mock/sessions lists them")
            }
            return HTTPResponse(status: 200, contentType: "application/x-ndjson", text: journal.jsonLines)
        case "scenario" where parts.count == 2:
            switch method {
            case "GET": return .json(status: 200, scenarios.currentDescription)
            case "PUT": return putScenario(request.body)
            default: return methodNotAllowed(request, allowed: "GET, PUT")
            }
        case "faults" where parts.count == 2:
            return method == "POST" ? postFault(request.body) : methodNotAllowed(request, allowed: "POST")
        default:
            return .error(404, "NotFound", "no control route \(method) \(path)")
        }
    }

    private func health() -> JSONValue {
        [
            "status": "ok",
            "version": .string(MockServer.version),
            "libraries": [
                "libwebsockets": .string(LibWebSocketsVersion.string),
                "jansson": .string(JanssonVersion.string),
                "opus": .string(AudioLibraryVersions.opus),
                "lame": .string(AudioLibraryVersions.lame),
            ],
            "eventLoop": .string(configuration.eventLoop.rawValue),
            "threads": .int(Int64(max(1, configuration.threads))),
            "scenario": .string(scenarios.current.name),
        ]
    }

    /// `PUT /_mock/scenario`: the body is a scenario file; it serves every session opened after.
    private func putScenario(_ body: [UInt8]) -> HTTPResponse {
        do {
            let scenario = try Scenario.load(bytes: body, file: "request body")
            scenarios.replace(with: scenario)
            AnswerPrefetch.start(scenario, cache: answerAudio)
            return .json(status: 200, ["status": "ok", "scenario": .string(scenario.name)])
        } catch {
            return .error(400, "InvalidScenario", error.description)
        }
    }

    /// `POST /_mock/faults`: `{"session": ID | "testId": ID, "fault": {…}}`.
    private func postFault(_ body: [UInt8]) -> HTTPResponse {
        let request: JSONValue
        do {
            request = try JSONValue.decode(body)
        } catch {
            return .error(400, "InvalidJSON", "request body:\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let object) = request, let faultValue = object["fault"] else {
            return .error(400, "InvalidRequest", "expected {\"session\": ID or \"testId\": ID, \"fault\": {…}}")
        }
        let fault: FaultSpec
        do {
            fault = try FaultSpec.load(bytes: faultValue.encoded(), file: "fault")
        } catch {
            return .error(400, "InvalidFault", error.description)
        }
        switch (object["session"], object["testId"]) {
        case (.string(let id)?, nil):
            guard sessions.arm(fault, session: id) else {
                return .error(404, "NotFound", "no open session \(id)")
            }
            return .json(status: 200, ["status": "armed", "session": .string(id)])
        case (nil, .string(let testID)?):
            let count = sessions.arm(fault, testID: testID)
            return .json(status: 200, ["status": "armed", "testId": .string(testID), "openSessions": .int(Int64(count))])
        default:
            return .error(400, "InvalidRequest", "give exactly one of \"session\" (a session id) or \"testId\" (a string)")
        }
    }

    private func methodNotAllowed(_ request: HTTPRequest, allowed: String) -> HTTPResponse {
        var response = HTTPResponse.error(405, "MethodNotAllowed",
                                          "\(request.head.method) not allowed on \(request.head.path); use \(allowed)")
        response.headers.append(("Allow", allowed))
        return response
    }
}

extension HTTPResponse {
    /// A JSON error body `{"code", "message"}`.
    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        .json(status: status, ["code": .string(code), "message": .string(message)])
    }
}
