import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// §8.5: push-to-talk commit / response.create / cancel / clear (S9, S12, S14).
@Suite struct PushToTalkTests {
    static let turn = TurnContent(
        transcript: "What time is it?", answer: "It is half past three in the afternoon right now.")

    static func manual(model: String = "qwen-audio-3.0-realtime-plus") -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn, turn]), model: model)
        harness.send("session.update", ["session": ["turn_detection": .null]])
        harness.advance(ms: 10)
        return harness
    }

    @Test func commitCreatesTheUserItemWithoutAResponse() throws {
        let harness = Self.manual()
        harness.appendAudio(try Fixtures.speech())
        let before = harness.types.count
        harness.send("input_audio_buffer.commit")
        harness.advance(ms: 3000)
        #expect(
            harness.types(since: before) == [
                "input_audio_buffer.committed", "conversation.item.created",
                "conversation.item.input_audio_transcription.completed",
            ])
        #expect(harness.events("input_audio_buffer.speech_started").isEmpty)
        let created = try #require(harness.events("conversation.item.created").first?["item"])
        #expect(created["role"] == "user")
        #expect(created["content"]?[0]?["type"] == "input_audio")
    }

    @Test func responseCreateAnswersTheCommittedTurn() throws {
        let harness = Self.manual()
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        let before = harness.types.count
        harness.send("response.create", ["response": ["modalities": ["text", "audio"]]])
        harness.advance(ms: 10_000)
        let types = harness.compactTypes(since: before)
        #expect(types.first == "response.created")
        #expect(types.last == "response.done")
        #expect(harness.events("response.audio_transcript.done").first?["transcript"]?.stringValue == Self.turn.answer)
        #expect(harness.violations.isEmpty)
    }

    @Test func cancelStopsTheAnswerWithClientCancelled() throws {
        let harness = Self.manual()
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        harness.send("response.create")
        harness.advance(ms: 800)
        let deltas = harness.events("response.audio.delta").count
        #expect(deltas > 0)
        harness.send("response.cancel")
        harness.advance(ms: 5000)
        #expect(harness.events("response.audio.delta").count == deltas)
        let done = try #require(harness.events("response.done").first?["response"])
        #expect(done["status"] == "cancelled")
        #expect(done["status_details"]?["reason"] == "client_cancelled")
        harness.send("response.cancel")
        #expect(harness.events("error").count == 1)
        #expect(harness.violations == ["qrt.C12"])
    }

    @Test func secondResponseCreateIsRefused() throws {
        let harness = Self.manual()
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        harness.send("response.create")
        harness.advance(ms: 500)
        harness.send("response.create", eventID: "event_second")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error == QwenError.responseInProgress.json(eventID: "event_second"))
        #expect(harness.violations == ["qrt.C11"])
    }

    @Test func responseCreateWithNothingNewIsInvalidState() throws {
        // Nothing new since the last response (with no user message at all the service's own
        // refusal comes first: SourcedServiceRulesTests).
        let harness = Self.manual()
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.commit")
        harness.send("response.create")
        harness.advance(ms: 20_000)
        #expect(harness.events("response.done").count == 1)
        harness.send("response.create")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["code"] == "invalid_state")
        #expect(harness.violations == ["qrt.C10"])
    }

    @Test func clearDiscardsTheBuffer() throws {
        let harness = Self.manual(model: "qwen3-omni-flash-realtime")
        harness.appendAudio(try Fixtures.speech())
        harness.send("input_audio_buffer.clear")
        harness.advance(ms: 10)
        #expect(harness.types.last == "input_audio_buffer.cleared")
        harness.send("input_audio_buffer.commit")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "invalid_request_error")
        #expect(harness.violations == ["qrt.C10"])
    }

    @Test func audioProfileIgnoresCommitAndClearInVADModes() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario([Self.turn]))
        harness.send("session.update", ["session": ["turn_detection": ["type": "server_vad"]]])
        harness.appendSilence(ms: 300)
        let before = harness.types.count
        harness.send("input_audio_buffer.commit")
        harness.send("input_audio_buffer.clear")
        harness.advance(ms: 100)
        #expect(harness.types.count == before)
        #expect(harness.violations == ["qrt.C9", "qrt.C9"])
    }
}
