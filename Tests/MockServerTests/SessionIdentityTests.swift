import Foundation
import MockSessions
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Issue 40 rows 1 and 12 on a real server: each session's ids are its own and reproducible per
/// (seed, session ordinal), counted per route key; `X-DashScope-WorkSpace` is accepted and journaled.
@Suite("Session ids per route key, workspace header")
struct SessionIdentityTests {
    static let start =
        #"{"header":{"action":"run-task","task_id":"t1","streaming":"duplex"},"payload":{"task_group":"aigc","task":"multimodal-generation","function":"generation","model":"multimodal-dialog","input":{"directive":"Start","workspace_id":"w","app_id":"a"},"parameters":{"upstream":{"type":"AudioOnly","mode":"push2talk"},"client_info":{"user_id":"u"}}}}"#
    static let auth = ("Authorization", "Bearer k")
    /// How long a frame may take: these tests check ids, not timing, and run among a thousand
    /// parallel tests on two cores (3 s once ran out there before a multimodal `Started`).
    static let patience = 15_000

    /// The `sess_…` id of a new Qwen session at `query` (after `?model=…`).
    private func qwenSessionID(
        _ server: MockServer, _ client: WebSocketClient, _ query: String = ""
    ) async throws
        -> String
    {
        let connection = try await client.connect(
            "\(server.baseURL)/api-ws/v1/realtime?model=qwen3-omni-flash-realtime\(query)", headers: [Self.auth])
        defer { connection.close() }
        let created = try #require(await connection.nextJSON(timeoutMillis: Self.patience))
        return try #require(created["session"]?["id"]?.stringValue)
    }

    /// The `dialog_id` of a new multimodal session.
    private func dialogID(
        _ server: MockServer, _ client: WebSocketClient, headers: [(String, String)] = []
    ) async throws -> String {
        let connection = try await client.connect(
            "\(server.baseURL)/api-ws/v1/inference", headers: [Self.auth] + headers)
        defer { connection.close() }
        connection.send(text: Self.start)
        while let frame = await connection.nextJSON(timeoutMillis: Self.patience) {
            if frame["payload"]?["output"]?["event"] == "Started" {
                return try #require(frame["payload"]?["output"]?["dialog_id"]?.stringValue)
            }
        }
        Issue.record("no Started")
        return ""
    }

    private func withServer(
        logs: LogLines? = nil, _ body: (MockServer, WebSocketClient) async throws -> Void
    ) async throws {
        var configuration = MockServer.Configuration()
        if let logs { configuration.logger = Logger(level: .debug) { logs.append($0) } }
        let server = try MockServer(configuration: configuration)
        try server.start()
        let client = WebSocketClient()
        try await body(server, client)
        client.shutdown()
        server.stop()
    }

    @Test func sessionsOnOneServerGetTheirOwnIdsAndAFreshServerTheSameOnes() async throws {
        var first: [String] = []
        try await withServer { server, client in
            first = [
                try await qwenSessionID(server, client), try await qwenSessionID(server, client),
                try await dialogID(server, client),
            ]
            #expect(Set(first).count == 3, "\(first)")
            // A test id counts on its own: its first session has the ordinal-0 ids.
            #expect(try await qwenSessionID(server, client, "&test_id=t-1") == first[0])
            #expect(try await qwenSessionID(server, client, "&test_id=t-1") == first[1])
        }
        try await withServer { server, client in
            let again = [
                try await qwenSessionID(server, client), try await qwenSessionID(server, client),
                try await dialogID(server, client),
            ]
            #expect(again == first)
        }
    }

    /// Row 12: the workspace header is accepted (the session starts) and noted in the session's log.
    @Test func theWorkspaceHeaderIsAcceptedAndNoted() async throws {
        let logs = LogLines()
        try await withServer(logs: logs) { server, client in
            let id = try await dialogID(server, client, headers: [("X-DashScope-WorkSpace", "ws-12345")])
            #expect(id.count == 36)
            #expect(
                logs.all.contains { $0.contains("session s1: X-DashScope-WorkSpace \"ws-12345\" accepted") },
                "\(logs.all)")
        }
    }

    /// Each key counts on its own; beyond the capacity the least recently used keys restart at 0.
    @Test func ordinalsCountPerKeyAndStayBounded() {
        let ordinals = SessionOrdinals(capacity: 10)
        #expect(SessionOrdinals.key(testID: "t", caseID: "c") == "test:t")
        #expect(SessionOrdinals.key(testID: nil, caseID: "c") == "case:c")
        #expect(SessionOrdinals.key(testID: nil, caseID: nil) == "")
        #expect([ordinals.next(""), ordinals.next(""), ordinals.next("case:a"), ordinals.next("")] == [0, 1, 0, 2])
        for index in 0..<10 { _ = ordinals.next("test:\(index)") }
        #expect(ordinals.next("") == 0, "the plain key was the least recently used: forgotten")
        #expect(ordinals.next("test:9") == 1)
    }
}
