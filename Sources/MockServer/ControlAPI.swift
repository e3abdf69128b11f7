import WireAudio
import WireJSON
import WireSocket

/// The HTTP control API under `/_mock/` (documented in mock-server/README.md).
final class ControlAPI {
    let configuration: MockServer.Configuration

    init(configuration: MockServer.Configuration) {
        self.configuration = configuration
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch (request.head.method, request.head.path) {
        case ("GET", "/_mock/health"):
            return .json(status: 200, health())
        case (_, "/_mock/health"):
            return methodNotAllowed(request, allowed: "GET")
        default:
            return .json(status: 404, ["code": "NotFound", "message": .string("no control route \(request.head.method) \(request.head.path)")])
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
        ]
    }

    private func methodNotAllowed(_ request: HTTPRequest, allowed: String) -> HTTPResponse {
        var response = HTTPResponse.json(status: 405, ["code": "MethodNotAllowed",
                                                       "message": .string("\(request.head.method) not allowed on \(request.head.path); use \(allowed)")])
        response.headers.append(("Allow", allowed))
        return response
    }
}
