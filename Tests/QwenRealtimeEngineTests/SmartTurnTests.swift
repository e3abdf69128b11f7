import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// §8.4: smart_turn classification per segment (S8), and response.create inside a turn (C11).
@Suite struct SmartTurnTests {
    static func run(_ intent: TurnContent.Intent) throws -> QwenHarness {
        let turn = TurnContent(transcript: "嗯", answer: "在的。", intent: intent)
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]))
        harness.send("session.update", ["session": ["turn_detection": ["type": "smart_turn"]]])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 5000)
        return harness
    }

    @Test func validSegmentIsATurn() throws {
        let harness = try Self.run(.valid)
        #expect(harness.events("input_audio_buffer.committed").count == 1)
        #expect(harness.events("response.done").count == 1)
        #expect(harness.events("conversation.item.ambient_audio_transcription.delta").isEmpty)
    }

    @Test func fillerSendsOnlyAmbientTranscription() throws {
        let harness = try Self.run(.filler)
        #expect(
            harness.types(since: 2) == [
                "conversation.item.ambient_audio_transcription.delta",
                "conversation.item.ambient_audio_transcription.completed",
            ])
        let completed = try #require(harness.events("conversation.item.ambient_audio_transcription.completed").first)
        #expect(completed["transcript"] == "嗯")
        let id = try #require(completed["item_id"]?.stringValue)
        #expect(!harness.session.conversation.contains(id))
    }

    @Test func invalidSegmentEndsWithTurnInvalid() throws {
        let harness = try Self.run(.invalid)
        #expect(harness.types(since: 2) == ["input_audio_buffer.speech_started", "input_audio_buffer.speech_stopped"])
        let stopped = try #require(harness.events("input_audio_buffer.speech_stopped").first)
        #expect(stopped["reason"] == "turn_invalid")
    }

    @Test func responseCreateInsideATurnIsRefused() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario([TurnContent(transcript: "Hi", answer: "Hello.")]))
        harness.send("session.update", ["session": ["turn_detection": ["type": "smart_turn"]]])
        harness.appendAudio(try Fixtures.paddedSpeech().slice(fromMs: 0, toMs: 2000))
        let id = harness.send("response.create")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["param"] == "response.create")
        #expect(error["code"] == "invalid_value")
        #expect(error["event_id"]?.stringValue == id)
        #expect(harness.violations.contains("qrt.C11"))
    }

    @Test func manualAnswerIsAllowedBetweenTurns() throws {
        let harness = try Self.run(.valid)
        harness.send("response.create")
        harness.advance(ms: 8000)
        #expect(harness.events("response.done").count == 2)
        #expect(harness.events("error").isEmpty)
    }
}
