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
@Suite("openai realtime client against the mock")
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

    /// Issue 40 row 3: on the audio profile, the SDK's session.update without turn_detection
    /// gets push-to-talk (SEED-003), while session.created still shows server VAD.
    @Test func audioProfileUpdateWithoutTurnDetectionIsPushToTalk() async throws {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "openai_service_rules.py",
            ["omitted-turn-detection", "\(server.baseURL)/api-ws/v1", "qwen-audio-3.0-realtime-flash"])
        #expect((result["created_turn_detection"] as? [String: Any])?["type"] as? String == "server_vad", "\(result)")
        #expect(result["updated_turn_detection"] is NSNull, "\(result)")
    }

    /// Issue 40 row 4: response.create before any user message gets the service's refusal, and
    /// the session goes on.
    @Test func responseCreateWithoutAUserMessageIsRefused() async throws {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "openai_service_rules.py", ["no-user-message", "\(server.baseURL)/api-ws/v1", "qwen3-omni-flash-realtime"])
        let error = result["error"] as? [String: Any]
        #expect(error?["code"] as? String == "InvalidParameter", "\(result)")
        let message = error?["message"] as? String
        #expect(message?.contains("role of user") == true, "\(result)")
        #expect(result["status"] as? String == "completed", "\(result)")
    }
}
