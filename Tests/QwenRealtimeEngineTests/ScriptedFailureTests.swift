import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireJSON

/// S21: scriptable failures — fatal server_error, failed responses, transcription failures —
/// and fault-stage rendering.
@Suite struct ScriptedFailureTests {
    static func run(_ turn: TurnContent) -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "hi"]]]
            ])
        harness.send("response.create")
        harness.advance(ms: 10_000)
        return harness
    }

    @Test func fatalErrorClosesWith1011() throws {
        let harness = Self.run(
            TurnContent(answer: "x", errors: [ErrorSpec(code: "500", message: "model down", fatal: true)]))
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "server_error")
        #expect(harness.closes.map(\.code) == [1011])
        #expect(harness.events("response.created").isEmpty)
    }

    @Test func insteadOfAnswerFailsTheResponse() throws {
        let spec = ErrorSpec(code: "internal_error", message: "TTS failed", placement: .insteadOfAnswer)
        let harness = Self.run(TurnContent(answer: "x", errors: [spec]))
        #expect(harness.compactTypes().suffix(2) == ["response.created", "response.done"])
        let response = try #require(harness.events("response.done").first?["response"])
        #expect(response["status"] == "failed")
        #expect(response["status_details"]?["error"]?["code"] == "internal_error")
        #expect(harness.closes.isEmpty)
    }

    @Test func afterAnswerErrorFollowsResponseDone() throws {
        let spec = ErrorSpec(code: "invalid_value", message: "late", placement: .afterAnswer)
        let harness = Self.run(TurnContent(answer: "Fine.", errors: [spec]))
        #expect(harness.types.suffix(2) == ["response.done", "error"])
    }

    @Test func transcriptionFailureReplacesCompleted() throws {
        let spec = ErrorSpec(code: "transcription_failed", message: "ASR failed", type: "transcription_error")
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([TurnContent(transcript: "x", answer: "y", errors: [spec])]))
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        #expect(harness.types.last == "conversation.item.input_audio_transcription.failed")
        #expect(
            harness.events("conversation.item.input_audio_transcription.failed").first?["error"]?["code"]
                == "transcription_failed")
    }

    @Test func faultRequestsRenderQwenEnvelopes() throws {
        let harness = QwenHarness()
        let unknown = harness.session.render(.unknownEvent(eventType: "mock.surprise", template: nil), atMicros: 5)
        let json = try JSONValue.decode(try #require(unknown.first).bytes)
        #expect(json["type"] == "mock.surprise")
        #expect(json["event_id"]?.stringValue?.hasPrefix("event_") == true)
        let injected = harness.session.render(
            .injectError(ErrorSpec(code: "invalid_value", message: "boom", param: "x")), atMicros: 5)
        let error = try JSONValue.decode(try #require(injected.first).bytes)
        #expect(error["error"]?["type"] == "invalid_request_error")
        #expect(error["error"]?["param"] == "x")
    }
}

/// C19 as the protocol reference words it: nothing may follow a `server_error` except frames
/// already in flight (300 ms grace).
@Suite struct ServerErrorInFlightTests {
    @Test func framesWithinTheGraceAreNotABreachLaterOnesAre() throws {
        let turn = TurnContent(answer: "x", errors: [ErrorSpec(code: "500", message: "model down", fatal: true)])
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.send(
            "conversation.item.create",
            [
                "item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "hi"]]]
            ])
        harness.send("response.create")
        for _ in 0..<2_000 where harness.events("error").isEmpty { harness.advance(ms: 1) }
        #expect(harness.events("error").first?["error"]?["type"] == "server_error")
        harness.send("response.create")  // sent before the client could read the error
        harness.advance(ms: 250)
        harness.send("input_audio_buffer.clear")
        #expect(!harness.violations.contains { $0.contains("qrt.C19") }, "\(harness.violations)")
        harness.advance(ms: 100)
        harness.send("response.create")
        #expect(harness.violations.filter { $0.contains("qrt.C19") }.count == 1, "\(harness.violations)")
    }
}
