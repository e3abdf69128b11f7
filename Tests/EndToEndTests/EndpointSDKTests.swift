import Foundation
import MockServer
import ProtocolModel
import Testing

/// Issue 40 rows 11 and 12 with the unmodified dashscope `OmniRealtimeConversation`: its
/// `workspace` (the `X-DashScope-WorkSpace` header) is accepted, and a realtime client pointed at
/// the multimodal path is told which path it meant.
@Suite("dashscope realtime client: workspace header, wrong path")
struct EndpointSDKTests {
    @Test func theWorkspaceHeaderIsAccepted() async throws {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "omni_realtime_flows.py",
            ["workspace", "\(server.baseURL)/api-ws/v1/realtime", OmniRealtimeSDKTests.model])
        let events = result["events"] as? [String] ?? []
        #expect(events.starts(with: ["session.created", "session.updated"]), "\(events)")
    }

    @Test func aRealtimeClientOnTheInferencePathIsToldTheRealtimePath() async throws {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "omni_realtime_flows.py",
            ["wrong-path", "\(server.baseURL)/api-ws/v1/inference", OmniRealtimeSDKTests.model])
        let extra = result["extra"] as? [String: Any] ?? [:]
        let messages = extra["messages"] as? [[String: Any]] ?? []
        let header = try #require(messages.first?["header"] as? [String: Any], "\(messages)")
        #expect(header["event"] as? String == "task-failed")
        let message = header["error_message"] as? String ?? ""
        #expect(message.contains("/api-ws/v1/realtime?model="), "\(message)")
        #expect(extra["closed"] as? Bool == true)
    }
}
