import Foundation
import MockServer
import ProtocolModel
import Testing

/// Issue 12 item 5: `dashscope.audio.qwen_tts_realtime.QwenTtsRealtime` (dashscope 2.0.2,
/// unmodified) against the mock's text-to-speech profile of the realtime route.
@Suite("dashscope QwenTtsRealtime against the mock")
struct TTSRealtimeSDKTests {
    /// The events of one response, deltas collapsed.
    static let response = [
        "response.created", "response.output_item.added", "response.content_part.added", "response.audio.delta",
        "response.audio.done", "response.content_part.done", "response.output_item.done", "response.done",
    ]

    private func run(_ flow: String, model: String) async throws -> (events: [String], extra: [String: Any]) {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "tts_realtime_flows.py", [flow, "\(server.baseURL)/api-ws/v1/realtime", model])
        let journal = await server.journal(session: "s1") ?? ""
        // Every frame the mock sent is valid against the server schemas, and the SDK broke no rule.
        #expect(try ServerFrameSchemas.problems(journal: journal, protocolName: "qwen-realtime") == [])
        let violations = try JournalEntry.decodeLines(journal).compactMap(\.violation).map(\.obligation)
        #expect(violations.isEmpty, "\(violations)")
        return (result["events"] as? [String] ?? [], result["extra"] as? [String: Any] ?? [:])
    }

    /// Types with consecutive repeats collapsed (one `response.audio.delta` per run).
    static func collapsed(_ types: [String]) -> [String] {
        types.enumerated().filter { $0.offset == 0 || $0.element != types[$0.offset - 1] }.map(\.element)
    }

    @Test func commitModeSpeaksOnCommitAndFinishSpeaksTheRest() async throws {
        let (events, extra) = try await run("commit", model: "qwen3-tts-flash-realtime")
        #expect(extra["before_commit"] as? [String] == ["session.created", "session.updated"])
        #expect(
            Self.collapsed(events)
                == ["session.created", "session.updated", "input_text_buffer.committed"] + Self.response
                + Self.response + ["session.finished"])
        #expect((extra["session_id"] as? String)?.hasPrefix("sess_") == true)
        #expect(extra["status"] as? [String] == ["completed", "completed"])
        let usage = extra["usage"] as? [[String: Any]] ?? []
        #expect(usage.map { $0["characters"] as? Int } == [31, 8])  // "Hello there. How are you today?", "Goodbye."
        let seconds = extra["seconds"] as? [Double] ?? []
        #expect(seconds.count == 2 && seconds[0] > 1 && seconds[0] > seconds[1] && seconds[1] > 0.3, "\(seconds)")
        #expect(extra["first_audio_delay_ms"] as? Double != nil)
        #expect(extra["closed"] as? Bool == true)
        #expect(extra["close_code"] as? Int == 1000)
    }

    @Test func serverCommitSpeaksEachSentence() async throws {
        let (events, extra) = try await run("server-commit", model: "qwen3-tts-flash-realtime-2025-11-27")
        #expect(!events.contains("input_text_buffer.committed"))
        #expect(
            Self.collapsed(events) == ["session.created", "session.updated"] + Self.response + Self.response
                + Self.response + ["session.finished"])
        let usage = extra["usage"] as? [[String: Any]] ?? []
        // "The first sentence ends here.", " The second one is a question?", then " And the rest" at finish.
        #expect(usage.map { $0["characters"] as? Int } == [29, 30, 13])
        let seconds = extra["seconds"] as? [Double] ?? []
        #expect(seconds.count == 3 && seconds.allSatisfy { $0 > 0.3 } && seconds[2] < seconds[0], "\(seconds)")
        #expect(extra["close_code"] as? Int == 1000)
    }

    @Test func qwenTTSRealtimeReportsTokenUsage() async throws {
        let (_, extra) = try await run("commit", model: "qwen-tts-realtime")
        let usage = extra["usage"] as? [[String: Any]] ?? []
        #expect(usage.count == 2 && usage.allSatisfy { ($0["output_tokens"] as? Int ?? 0) >= 50 }, "\(usage)")
        #expect(usage.allSatisfy { $0["characters"] == nil })
    }
}
