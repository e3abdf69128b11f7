import Foundation
import MockServer
import ProtocolModel
import Testing

/// `dashscope.audio.qwen_omni.OmniRealtimeConversation` (dashscope 2.0.2, unmodified) against
/// the mock's Qwen realtime route.
@Suite("dashscope OmniRealtimeConversation against the mock")
struct OmniRealtimeSDKTests {
    static let model = "qwen3-omni-flash-realtime"

    private func run(
        _ flow: String, scenario: String? = nil, model: String = Self.model
    ) async throws -> (events: [String], extra: [String: Any]) {
        let server = try SDKProcess.startMock(scenario: scenario)
        defer { server.stop() }
        let result = try await SDKProcess.flow(
            "omni_realtime_flows.py",
            [flow, "\(server.baseURL)/api-ws/v1/realtime", model, SDKProcess.speech])
        // Every frame the mock sent is valid against the server schemas of conformance/protocols.
        #expect(
            try ServerFrameSchemas.problems(
                journal: await server.journal(session: "s1") ?? "", protocolName: "qwen-realtime") == [])
        return (result["events"] as? [String] ?? [], result["extra"] as? [String: Any] ?? [:])
    }

    @Test func serverVADWithRealSpeech() async throws {
        let (events, extra) = try await run("vad")
        let order = [
            "session.created", "session.updated", "input_audio_buffer.speech_started",
            "input_audio_buffer.speech_stopped",
            "input_audio_buffer.committed", "conversation.item.input_audio_transcription.completed", "response.created",
            "response.audio.delta", "response.audio.done", "response.done",
        ]
        var cursor = events.startIndex
        for expected in order {
            guard let found = events[cursor...].firstIndex(of: expected) else {
                Issue.record("missing \(expected) after index \(cursor) in \(events)")
                return
            }
            cursor = found
        }
        #expect((extra["audio_bytes"] as? Int ?? 0) > 24_000)  // > 0.5 s of 24 kHz s16le
        #expect(extra["transcript_matches_done"] as? Bool == true)
    }

    @Test func pushToTalkCommitAndResponse() async throws {
        let (events, _) = try await run("ptt")
        #expect(!events.contains("input_audio_buffer.speech_started"))
        #expect(events.contains("input_audio_buffer.committed"))
        #expect(events.last == "response.done")
    }

    @Test func toolRoundTrip() async throws {
        let (events, extra) = try await run("tool", scenario: "qwen-tool.json")
        let call = extra["call"] as? [String: Any]
        #expect(call?["name"] as? String == "get_weather")
        #expect((call?["arguments"] as? [String: Any])?["city"] as? String == "Paris")
        #expect(events.filter { $0 == "response.done" }.count == 2)
        #expect(events.contains("response.text.delta"))
    }

    /// Issue 12 item 1: on the default scenario (no scripted call) the session calls the declared
    /// tool that fits what the user asked, with arguments valid against its parameters, and the
    /// answer after the output reports it.
    @Test func aDeclaredToolIsCalledWithoutAScript() async throws {
        let (events, extra) = try await run("declared-tool")
        let call = extra["call"] as? [String: Any]
        #expect(call?["name"] as? String == "get_weather")
        let arguments = call?["arguments"] as? [String: Any]
        #expect((arguments?["city"] as? String ?? "").count >= 2, "\(arguments ?? [:])")
        #expect((1...7).contains(arguments?["days"] as? Int ?? 0), "\(arguments ?? [:])")
        #expect(events.filter { $0 == "response.done" }.count == 2)
        #expect((extra["answer"] as? String ?? "").contains("get_weather returned"), "\(extra["answer"] ?? "")")
    }

    @Test func cancelStopsTheResponse() async throws {
        let (events, extra) = try await run("cancel")
        #expect(extra["status"] as? String == "cancelled")
        #expect(events.last == "response.done")
    }

    /// Issue 40 row 7: an answer the scenario makes not interruptible gets the SDK's
    /// `cancel_response()` an `error` at once (of the two documented replies, the one that does not
    /// claim the answer stopped), and the answer completes.
    @Test func cancelOfAnAnswerThatIsNotInterruptibleIsRefused() async throws {
        let (events, extra) = try await run("cancel", scenario: "qwen-not-interruptible.json")
        #expect(extra["status"] as? String == "completed", "\(extra)")
        let errors = extra["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1 && errors.first?["param"] as? String == "response.cancel", "\(errors)")
        #expect(events.firstIndex(of: "error") ?? .max < events.lastIndex(of: "response.done") ?? -1)
    }

    @Test func finishEndsTheSession() async throws {
        let (events, extra) = try await run("finish")
        #expect(events.last == "session.finished")
        #expect(extra["closed"] as? Bool == true)
    }

    /// Issue 12 item 5: `qwen3-asr-flash-realtime` with the SDK's TranscriptionParams: server
    /// VAD, then manual commits with the rest recognised on session.finish; never an answer.
    @Test(arguments: ["asr-vad", "asr-manual"])
    func transcriptionOnlyModel(flow: String) async throws {
        let (events, extra) = try await run(flow, model: "qwen3-asr-flash-realtime")
        #expect(events.allSatisfy { !$0.hasPrefix("response.") }, "\(events)")
        #expect(events.last == "session.finished")
        #expect(extra["closed"] as? Bool == true)
        let completed = extra["completed"] as? [[String: Any]] ?? []
        #expect(completed.count == (flow == "asr-vad" ? 1 : 2), "\(completed)")
        #expect(completed.allSatisfy { $0["language"] as? String == "en" && $0["emotion"] as? String != nil })
        #expect(completed.allSatisfy { !($0["transcript"] as? String ?? "").isEmpty })
        if flow == "asr-vad" {
            #expect(events.contains("input_audio_buffer.speech_started"))
            let partials = extra["partials"] as? [String] ?? []
            #expect(!partials.isEmpty && partials.last == completed.first?["transcript"] as? String, "\(partials)")
        } else {
            #expect(!events.contains("input_audio_buffer.speech_started"))
        }
    }

    /// Issue 12 item 4 (omni): with the SDK's AudioFormatConfig(type: wav) both ways, a WAV
    /// stream is heard and every answer starts with a WAV header; enable_search is a usage
    /// plugin entry; turn_detection idle_timeout_ms 5000 makes the model speak first.
    @Test func wavSearchAndIdleTimeout() async throws {
        let (events, extra) = try await run("omni-settings")
        #expect(events.contains("input_audio_buffer.speech_started"))
        #expect(extra["first_chunk_magic"] as? [String] == ["RIFF", "RIFF"], "\(extra)")
        let plugins = extra["plugins"] as? [Any] ?? []
        #expect(plugins.count == 2)
        #expect(plugins.allSatisfy { (($0 as? [String: Any])?["search"] as? [String: Any])?["count"] as? Int == 1 })
        let after = extra["model_spoke_after_s"] as? Double ?? 0
        #expect(after >= 4.5 && after < 9, "\(after)")
        #expect(extra["user_items"] as? Int == 1)
    }
}
