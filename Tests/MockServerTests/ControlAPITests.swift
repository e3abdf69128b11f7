import Foundation
import MockControl
import MockSessions
import Testing
import WireJSON
import WireSocket

@testable import MockServer

@Suite("Control API")
struct ControlAPITests {
    @Test func healthReportsVersionAndLibraryVersions() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let response = router.respond(
            to: HTTPRequest(head: HTTPRequestHead(method: "GET", path: "/_mock/health", headers: [:]), body: []))
        #expect(response.status == 200)
        let body = try JSONValue.decode(response.body)
        #expect(body["status"] == "ok")
        #expect(body["version"] == .string(MockServer.version))
        #expect(body["libraries"]?["libwebsockets"]?.stringValue?.hasPrefix("4.") == true)
        // A distro build's empty build hash leaves no dangling separator ("4.1.6-").
        #expect(body["libraries"]?["libwebsockets"]?.stringValue?.hasSuffix("-") == false)
        #expect(LibWebSocketsVersion.display("4.1.6-") == "4.1.6")
        #expect(LibWebSocketsVersion.display("4.3.2-v4.3.2-12-gabc") == "4.3.2-v4.3.2-12-gabc")
        #expect(LibWebSocketsVersion.display("-") == "-")
        #expect(body["libraries"]?["jansson"]?.stringValue?.hasPrefix("2.") == true)
        #expect(body["libraries"]?["opus"]?.stringValue?.hasPrefix("libopus 1.") == true)
    }

    @Test func wrongMethodAndUnknownRoutesAreJSONErrors() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let post = router.respond(
            to: HTTPRequest(head: HTTPRequestHead(method: "POST", path: "/_mock/health", headers: [:]), body: []))
        #expect(post.status == 405)
        #expect(post.headers.contains { $0.0 == "Allow" && $0.1 == "GET" })
        let missing = router.respond(
            to: HTTPRequest(head: HTTPRequestHead(method: "GET", path: "/nowhere", headers: [:]), body: []))
        #expect(missing.status == 404)
        #expect(try JSONValue.decode(missing.body)["code"] == "NotFound")
    }

    @Test func unknownWebSocketPathIsRefusedWith404() throws {
        let router = try Router(configuration: MockServer.Configuration())
        guard case .reject(let response) = router.upgrade(HTTPRequestHead(method: "GET", path: "/nope", headers: [:]))
        else {
            Issue.record("expected a refusal")
            return
        }
        #expect(response.status == 404)
    }

    @Test func inProcessServerServesEchoOnAFreePort() async throws {
        let server = try MockServer()
        let port = try server.start()
        #expect(server.baseURL == "ws://127.0.0.1:\(port)")
        let client = WebSocketClient()
        let connection = try await client.connect("\(server.baseURL)/_mock/echo")
        connection.send(.binary([1, 2, 3]))
        #expect(await connection.nextMessage() == .binary([1, 2, 3]))
        client.shutdown()
        server.stop()
    }

    private func get(
        _ router: Router, _ path: String, _ method: String = "GET", query: [(String, String)] = []
    ) -> HTTPResponse {
        let items = query.map { HTTPRequestHead.QueryItem(name: $0.0, value: $0.1) }
        return router.respond(
            to: HTTPRequest(
                head: HTTPRequestHead(method: method, path: path, queryItems: items, headers: [:]), body: []))
    }

    @Test func indexListsEveryRouteAndTheOpenAPIDocumentDescribesThem() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let index = try JSONValue.decode(get(router, "/_mock/").body)
        let listed =
            index["routes"]?.arrayValue?.map { "\($0["method"]?.stringValue ?? "") \($0["path"]?.stringValue ?? "")" }
            ?? []
        #expect(listed.contains("DELETE /_mock/faults/{id}"))
        #expect(listed.contains("POST /_mock/reset"))
        #expect(listed.count == ControlRoute.allCases.count)
        let document = try JSONValue.decode(get(router, "/_mock/openapi.json").body)
        #expect(document["openapi"] == "3.1.0")
        for route in ControlRoute.allCases {
            #expect(
                document["paths"]?[route.path]?[route.method.lowercased()]?["operationId"] == .string(route.rawValue),
                "\(route)")
        }
        #expect(get(router, "/_mock/").status == 200)
        #expect(get(router, "/_mock/faults", "PATCH").status == 405)
        #expect(
            get(router, "/_mock/faults", "PATCH").headers.contains { $0.0 == "Allow" && $0.1 == "GET, POST, DELETE" })
    }

    /// mock-server/openapi.json is the document the server serves, so users can read it offline.
    @Test func committedOpenAPIDocumentIsTheServedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let committed = try JSONValue.decode(
            Array(Data(contentsOf: root.appendingPathComponent("mock-server/openapi.json"))))
        #expect(
            committed == ControlAPIDocument.document,
            "regenerate: curl -s localhost:8765/_mock/openapi.json | python3 -m json.tool > mock-server/openapi.json")
    }

    @Test func plainRequestsOnWebSocketRoutesGet426() throws {
        let router = try Router(configuration: MockServer.Configuration())
        for path in [
            "/api-ws/v1/inference", "/api-ws/v1/realtime", "/_mock/echo", "/case/qrt.x.001/api-ws/v1/realtime",
        ] {
            let response = get(router, path)
            #expect(response.status == 426, "\(path)")
            #expect(response.headers.contains { $0.0 == "Upgrade" && $0.1 == "websocket" })
        }
    }

    /// A case route to a case this server was not given (a mistyped id, or a `repeat-2` variant
    /// that was never configured) is refused with 404 naming the case, and opens no session;
    /// the configured case beside it is served.
    @Test func aCaseRouteToAnUnknownCaseIsRefusedWith404() throws {
        var configuration = MockServer.Configuration()
        configuration.caseScenarios = ["qrt.session.001": ("quick.json", Array(#"{"name": "quick"}"#.utf8))]
        let router = try Router(configuration: configuration)
        let auth = ["authorization": "Bearer test-key"]
        let model = [HTTPRequestHead.QueryItem(name: "model", value: "qwen-omni-turbo-realtime")]
        let served = router.upgrade(
            HTTPRequestHead(
                method: "GET", path: "/case/qrt.session.001/api-ws/v1/realtime",
                queryItems: model, headers: auth))
        guard case .accept = served else {
            Issue.record("the configured case is served")
            return
        }
        #expect(router.sessions.openCount == 1)
        for (path, caseID) in [
            ("/case/qrt.sesion.001/api-ws/v1/realtime", "qrt.sesion.001"),
            ("/case/qrt.session.001/repeat-2/api-ws/v1/realtime", "qrt.session.001/repeat-2"),
            ("/case/mmd.audio.002/api-ws/v1/inference", "mmd.audio.002"),
        ] {
            guard
                case .reject(let response) = router.upgrade(
                    HTTPRequestHead(
                        method: "GET", path: path, queryItems: model,
                        headers: auth))
            else {
                Issue.record("\(path) is refused")
                continue
            }
            #expect(response.status == 404, "\(path)")
            let body = try JSONValue.decode(response.body)
            #expect(body["code"] == "NotFound")
            #expect(body["message"] == .string("no conformance case \(caseID) on this server"), "\(path)")
        }
        #expect(router.sessions.openCount == 1, "a refused case route opens no session")
    }

    @Test func sessionQueryFiltersAreValidated() throws {
        let router = try Router(configuration: MockServer.Configuration())
        #expect(get(router, "/_mock/sessions", query: [("open", "maybe")]).status == 400)
        #expect(try JSONValue.decode(get(router, "/_mock/sessions", query: [("testId", "t1")]).body)["sessions"] == [])
    }
}
