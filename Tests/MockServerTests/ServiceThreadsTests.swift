import Foundation
import ProtocolModel
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Several service threads on one port: sessions spread over them, and the control API,
/// journals, metrics and faults see every session whichever thread it lives on.
@Suite("Service threads")
struct ServiceThreadsTests {
    @Test func sessionsOnEveryThreadShareOneControlAPI() async throws {
        var configuration = MockServer.Configuration()
        configuration.threads = 3
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let path = "/api-ws/v1/realtime?model=qwen-omni-turbo-realtime&test_id=many"
        var connections: [ClientConnection] = []
        for _ in 0..<24 {
            connections.append(
                try await client.connect(server.baseURL + path, headers: [("Authorization", "Bearer k")]))
        }
        for connection in connections { #expect(await connection.nextJSON()?["type"] == "session.created") }
        // The kernel spread the connections over the threads' listening sockets.
        #expect(Set(server.sessionThreads()).count > 1)
        let list = try JSONValue.decode(Control.request(server, "GET", "/_mock/sessions").body)
        #expect(list["sessions"]?.arrayValue?.count == 24)
        #expect(Set(list["sessions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []).count == 24)
        // A fault armed by test id reaches every session, on its own thread.
        let armed = Control.request(
            server, "POST", "/_mock/faults",
            body: #"{"testId": "many", "fault": {"kind": "close", "code": 4321, "reason": "armed"}}"#)
        #expect(armed.status == 200)
        #expect(armed.body.contains(#""openSessions":24"#))
        for connection in connections {
            #expect(await connection.collect().last == .closed(code: CloseCode(4321), reason: "armed"))
        }
        for index in 1...24 {
            #expect((await server.journal(session: "s\(index)") ?? "").contains(#""code":4321"#))
        }
        #expect(Control.request(server, "GET", "/_mock/metrics").body.contains("dialogmock_sessions_total 24"))
        #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/health").body)["threads"] == 3)
    }
}
