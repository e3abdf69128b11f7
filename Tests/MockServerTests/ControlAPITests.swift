import Testing
import WireJSON
import WireSocket
@testable import MockServer

@Suite("Control API")
struct ControlAPITests {
    @Test func healthReportsVersionAndLibraryVersions() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let response = router.respond(to: HTTPRequest(head: HTTPRequestHead(method: "GET", path: "/_mock/health", headers: [:]), body: []))
        #expect(response.status == 200)
        let body = try JSONValue.decode(response.body)
        #expect(body["status"] == "ok")
        #expect(body["version"] == .string(MockServer.version))
        #expect(body["libraries"]?["libwebsockets"]?.stringValue?.hasPrefix("4.") == true)
        #expect(body["libraries"]?["jansson"]?.stringValue?.hasPrefix("2.") == true)
        #expect(body["libraries"]?["opus"]?.stringValue?.hasPrefix("libopus 1.") == true)
    }

    @Test func wrongMethodAndUnknownRoutesAreJSONErrors() throws {
        let router = try Router(configuration: MockServer.Configuration())
        let post = router.respond(to: HTTPRequest(head: HTTPRequestHead(method: "POST", path: "/_mock/health", headers: [:]), body: []))
        #expect(post.status == 405)
        #expect(post.headers.contains { $0.0 == "Allow" && $0.1 == "GET" })
        let missing = router.respond(to: HTTPRequest(head: HTTPRequestHead(method: "GET", path: "/nowhere", headers: [:]), body: []))
        #expect(missing.status == 404)
        #expect(try JSONValue.decode(missing.body)["code"] == "NotFound")
    }

    @Test func unknownWebSocketPathIsRefusedWith404() throws {
        let router = try Router(configuration: MockServer.Configuration())
        guard case .reject(let response) = router.upgrade(HTTPRequestHead(method: "GET", path: "/nope", headers: [:])) else {
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
}
