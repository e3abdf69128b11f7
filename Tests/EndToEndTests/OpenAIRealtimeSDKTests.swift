import Foundation
import MockServer
import ProtocolModel
import Testing

/// The `openai` SDK's realtime client (openai 3.51.0, unmodified) against the mock's Qwen
/// realtime route. It reaches the route (`websocket_base_url` + `/realtime?model=`), sends its
/// events and reads every server event. Qwen keeps the beta event names (`response.text.delta`,
/// `response.audio.delta`, …), which the SDK's GA types call `response.output_text.delta` etc.;
/// the SDK parses those frames with its lenient fallback type, so their fields stay readable —
/// this test pins that down.
@Suite("openai realtime client against the mock", .serialized)
struct OpenAIRealtimeSDKTests {
    @Test func textTurnThroughTheOpenAIClient() async throws {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "openai_realtime_flow.py", ["\(server.baseURL)/api-ws/v1", "qwen3-omni-flash-realtime"])
        let events = result["events"] as? [String] ?? []
        #expect(events.first == "session.created")
        #expect(events.contains("session.updated"))
        #expect(events.last == "response.done")
        #expect(!(result["text"] as? String ?? "").isEmpty)
        let parsed = result["parsed"] as? [String: String] ?? [:]
        #expect(parsed["response.done"] == "ResponseDoneEvent")
        #expect(parsed["session.created"] == "SessionCreatedEvent")
        #expect(
            try ServerFrameSchemas.problems(
                journal: await server.journal(session: "s1") ?? "", protocolName: "qwen-realtime") == [])
    }
}
