import Foundation
import MockSessions
import ScenarioEngine
import Testing
import WireJSON
import WireSocket

@testable import MockServer

/// Issue 43 item 6: a scenario armed for one test id through the control API serves that test's
/// later sessions; a case route keeps its case's, every other session the global one.
@Suite("Per-test scenarios")
struct TestScenarioRouteTests {
    static let qwenPath = "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
    static let auth = ("Authorization", "Bearer k")

    /// A fast scenario whose every answer is `answer`, text only.
    static func scenario(_ name: String, answer: String) -> String {
        #"{"name": "\#(name)", "policies": {"responsePauseMs": 0}, "turns": {"list": [], "default": {"transcript": "x", "answer": "\#(answer)", "audio": {"none": true}}}, "timing": {"events": {"*": {"kind": "fixed", "ms": 1}}, "jitterMs": 0, "text": {"timeToFirstTokenMs": 1, "tokensPerSecond": 1000}}}"#
    }

    private func withServer(
        limits: ScenarioStore.TestLimits = ScenarioStore.TestLimits(), timeScale: Double? = nil,
        _ body: (MockServer, WebSocketClient) async throws -> Void
    ) async throws {
        var configuration = MockServer.Configuration()
        configuration.scenarioSource = ("global.json", Array(Self.scenario("global", answer: "Globalanswer").utf8))
        configuration.caseScenarios["qrt.x.001"] = (
            "case.json", Array(Self.scenario("case", answer: "Caseanswer").utf8)
        )
        configuration.testScenarioLimits = limits
        configuration.timeScale = timeScale
        let server = try MockServer(configuration: configuration)
        try server.start()
        let client = WebSocketClient()
        try await body(server, client)
        client.shutdown()
        server.stop()
    }

    /// Runs one text turn on a Qwen session at `path` (with `headers`) and returns every frame the
    /// server sent, as text, up to `response.done`.
    private func answerFrames(
        _ server: MockServer, _ client: WebSocketClient, path: String = Self.qwenPath,
        headers: [(String, String)] = []
    ) async throws -> String {
        let connection = try await client.connect(server.baseURL + path, headers: [Self.auth] + headers)
        defer { connection.close() }
        #expect(await connection.nextJSON()?["type"] == "session.created")
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"]}}"#)
        connection.send(
            text:
                #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#
        )
        connection.send(text: #"{"type":"response.create"}"#)
        var frames: [String] = []
        while let event = await connection.next(timeoutMillis: 3000), let text = event.text {
            frames.append(text)
            if text.contains(#""type":"response.done""#) { break }
        }
        return frames.joined(separator: "\n")
    }

    private func put(_ server: MockServer, _ testID: String, _ body: String) -> (status: Int, body: String) {
        Control.request(server, "PUT", "/_mock/tests/\(testID)/scenario", body: body)
    }

    /// The `code` of an error body.
    private func code(_ body: String) -> String? { (try? JSONValue.decode(body))?["code"]?.stringValue }

    @Test func aTestsSessionsGetItsScenarioOthersTheGlobalOneCaseRoutesTheCases() async throws {
        try await withServer { server, client in
            // Nothing armed: everyone gets the global scenario.
            #expect(
                try await answerFrames(server, client, path: Self.qwenPath + "&test_id=t1").contains("Globalanswer"))
            #expect(Control.request(server, "GET", "/_mock/tests/t1/scenario").status == 404)
            #expect(Control.request(server, "DELETE", "/_mock/tests/t1/scenario").status == 404)

            let armed = put(server, "t1", Self.scenario("mine", answer: "Pertestanswer"))
            #expect(armed.status == 200, "\(armed.body)")
            let armedBody = try JSONValue.decode(armed.body)
            #expect(armedBody["testId"] == "t1")
            #expect(armedBody["scenario"]?["name"] == "mine")
            #expect(
                try JSONValue.decode(Control.request(server, "GET", "/_mock/tests/t1/scenario").body)["name"] == "mine")
            // The global scenario is unchanged.
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/scenario").body)["name"] == "global")

            // By query and by header the test's sessions get its answer.
            #expect(
                try await answerFrames(server, client, path: Self.qwenPath + "&test_id=t1").contains("Pertestanswer"))
            #expect(try await answerFrames(server, client, headers: [("X-Test-Id", "t1")]).contains("Pertestanswer"))
            // Another test id and no test id: the global one.
            #expect(
                try await answerFrames(server, client, path: Self.qwenPath + "&test_id=t2").contains("Globalanswer"))
            #expect(try await answerFrames(server, client).contains("Globalanswer"))
            // A case route keeps its case's scenario.
            let onCase = try await answerFrames(
                server, client, path: "/case/qrt.x.001" + Self.qwenPath + "&test_id=t1")
            #expect(onCase.contains("Caseanswer"))
            #expect(!onCase.contains("Pertestanswer"))

            // Removed: back to the global one.
            let removed = Control.request(server, "DELETE", "/_mock/tests/t1/scenario")
            #expect(removed.status == 200)
            #expect(try JSONValue.decode(removed.body)["status"] == "removed")
            #expect(
                try await answerFrames(server, client, path: Self.qwenPath + "&test_id=t1").contains("Globalanswer"))
        }
    }

    @Test func aBadScenarioIsRefusedWithItsPosition() async throws {
        try await withServer { server, _ in
            let empty = put(server, "t1", "")
            #expect(empty.status == 400, "\(empty.body)")
            #expect(try JSONValue.decode(empty.body)["code"] == "InvalidScenario")
            let bad = put(server, "t1", "{\n  \"name\": \"x\",\n  \"faults\": [{\"kind\": \"drip\"}]}")
            #expect(bad.status == 400)
            let message = try JSONValue.decode(bad.body)["message"]?.stringValue ?? ""
            #expect(message.hasPrefix("request body:3:"), "\(message)")
            #expect(message.contains("drip"))
            let notJSON = put(server, "t1", "{")
            #expect(notJSON.status == 400)
            #expect(try JSONValue.decode(notJSON.body)["message"]?.stringValue?.hasPrefix("request body:1:") == true)
            // Nothing was armed by the refusals.
            #expect(Control.request(server, "GET", "/_mock/tests/t1/scenario").status == 404)
            // An empty test id: lws folds the double slash, so no route matches.
            #expect(
                Control.request(server, "PUT", "/_mock/tests//scenario", body: Self.scenario("a", answer: "b")).status
                    == 404)
            #expect(Control.request(server, "POST", "/_mock/tests/t1/scenario").status == 405)
            #expect(Control.request(server, "GET", "/_mock/tests/t1/scenario?testId=t1").status == 400)
        }
    }

    @Test func listingAndReset() async throws {
        try await withServer { server, client in
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/tests").body) == ["tests": []])
            #expect(put(server, "b", Self.scenario("for-b", answer: "Banswer")).status == 200)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"testId":"a","fault":{"kind":"drop","match":{"type":"x"}}}"#
                ).status == 200)
            #expect(
                Control.request(
                    server, "POST", "/_mock/faults",
                    body: #"{"testId":"b","fault":{"kind":"drop","match":{"type":"x"}}}"#
                ).status == 200)
            _ = try await answerFrames(server, client, path: Self.qwenPath + "&test_id=b")
            _ = try await answerFrames(server, client, path: Self.qwenPath + "&test_id=c")  // neither: not listed
            let listed = try JSONValue.decode(Control.request(server, "GET", "/_mock/tests").body)
            #expect(
                listed == [
                    "tests": [
                        ["testId": "a", "scenario": .null, "faults": 1, "sessions": 0],
                        ["testId": "b", "scenario": "for-b", "faults": 1, "sessions": 1],
                    ]
                ], "\(listed)")
            let reset = try JSONValue.decode(Control.request(server, "POST", "/_mock/reset").body)
            #expect(reset["testScenariosRemoved"] == 1)
            #expect(Control.request(server, "GET", "/_mock/tests/b/scenario").status == 404)
            #expect(try JSONValue.decode(Control.request(server, "GET", "/_mock/tests").body) == ["tests": []])
            #expect(try await answerFrames(server, client, path: Self.qwenPath + "&test_id=b").contains("Globalanswer"))
        }
    }

    @Test func theLimitsRefuseWithA4xxAndFreeUpOnRemoval() async throws {
        var limits = ScenarioStore.TestLimits()
        limits.count = 2
        limits.fileBytes = 2000
        limits.totalBytes = 3000
        try await withServer(limits: limits) { server, _ in
            let small = Self.scenario("s", answer: "a")
            #expect(put(server, "t1", small).status == 200)
            #expect(put(server, "t2", small).status == 200)
            let third = put(server, "t3", small)
            #expect(third.status == 409, "\(third.body)")
            #expect(code(third.body) == "TooManyTestScenarios")
            #expect(third.body.contains("at most 2"))
            // Replacing one's own scenario is no new one.
            #expect(put(server, "t2", small).status == 200)
            // One file too large: 413 before it is parsed.
            let padded = Self.scenario("big", answer: String(repeating: "x", count: 2100))
            let tooLarge = put(server, "t1", padded)
            #expect(tooLarge.status == 413, "\(tooLarge.body)")
            #expect(code(tooLarge.body) == "PayloadTooLarge")
            // Within one file's limit, over the total: 409.
            let large = Self.scenario("large", answer: String(repeating: "x", count: 1500))
            #expect(put(server, "t1", large).status == 200)
            #expect(put(server, "t2", large).status == 409)
            #expect(Control.request(server, "DELETE", "/_mock/tests/t1/scenario").status == 200)
            #expect(put(server, "t3", large).status == 200)
            #expect(code(Control.request(server, "GET", "/_mock/tests/t1/scenario").body) == "NotFound")
        }
    }

    @Test func theTimeScaleOverrideAppliesToPerTestScenarios() async throws {
        try await withServer(timeScale: 0.5) { server, _ in
            let armed = try JSONValue.decode(put(server, "t1", Self.scenario("s", answer: "a")).body)
            #expect(armed["scenario"]?["timeScale"] == 0.5)
            #expect(
                try JSONValue.decode(Control.request(server, "GET", "/_mock/tests/t1/scenario").body)["timeScale"]
                    == 0.5)
        }
    }
}
