import Foundation
import ScenarioEngine
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// `GET /_mock/sessions/<id>/report`: the final report a session of the `aibuds` profile
/// journals at its end (SEED-004 `onFinish`, "Called with the final session report").
@Suite("Session report route")
struct SessionReportRouteTests {
    @Test func theAIBudsProfileReportIsReadableOnceTheSessionEnds() async throws {
        let server = try MockServer(configuration: MockServer.Configuration())
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        // The profile with its 15 s idle end lengthened: a loaded machine must not end the
        // session before the test reads the report of the open one.
        let profile = try #require(EmbeddedScenarios.files["aibuds"])
            .replacingOccurrences(of: #""idleEndMs": 15000"#, with: #""idleEndMs": 3600000"#)
        #expect(profile.contains("3600000"))
        #expect(Control.request(server, "PUT", "/_mock/scenario", body: profile).status == 200)
        let path = "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
        let connection = try await client.connect(server.baseURL + path, headers: [("Authorization", "Bearer k")])
        #expect(await connection.nextJSON()?["type"] == "session.created")
        let open = Control.request(server, "GET", "/_mock/sessions/s1/report")
        #expect(open.status == 404)
        #expect(open.body.contains("still open"))
        connection.send(text: #"{"type":"session.finish","event_id":"e1"}"#)
        _ = await connection.collect()
        let response = Control.request(server, "GET", "/_mock/sessions/s1/report")
        #expect(response.status == 200)
        let report = try JSONValue.decode(response.body)
        #expect(report["profile"] == "aibuds")
        #expect(report["endReason"] == "clientStop")
        #expect(report["turns"] == 0)
        let journal = try #require(await server.journal(session: "s1"))
        #expect(journal.contains(#""kind":"report""#))
        #expect(Control.request(server, "GET", "/_mock/sessions/s9/report").status == 404)
    }

    @Test func aScenarioWithoutTheReportPolicyHasNone() async throws {
        let server = try MockServer(configuration: MockServer.Configuration())
        try server.start()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let path = "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
        let connection = try await client.connect(server.baseURL + path, headers: [("Authorization", "Bearer k")])
        #expect(await connection.nextJSON()?["type"] == "session.created")
        connection.send(text: #"{"type":"session.finish","event_id":"e1"}"#)
        _ = await connection.collect()
        let response = Control.request(server, "GET", "/_mock/sessions/s1/report")
        #expect(response.status == 404)
        #expect(response.body.contains("sessionReport"))
    }
}
