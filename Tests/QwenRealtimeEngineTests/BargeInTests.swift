import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// §8.3: speech during an answer cancels it with `turn_detected` (S13).
@Suite struct BargeInTests {
    static let long = TurnContent(
        transcript: "Tell me a story.",
        answer: "Once upon a time there was a small robot who wanted to learn every song in the whole wide world.")

    static func interrupted(smartTurn: Bool = false, second: TurnContent.Intent = .valid) throws -> QwenHarness {
        var secondTurn = TurnContent(transcript: "Stop.", answer: "Okay.")
        secondTurn.intent = second
        let harness = QwenHarness(scenario: QwenHarness.scenario([long, secondTurn]))
        let detection: JSONValue =
            smartTurn ? ["type": "smart_turn"] : ["type": "server_vad", "silence_duration_ms": 500]
        harness.send("session.update", ["session": ["turn_detection": detection]])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 1200)  // the answer is streaming now
        #expect(!harness.events("response.audio.delta").isEmpty)
        #expect(harness.events("response.done").isEmpty)
        harness.appendAudio(try Fixtures.speech())
        harness.appendSilence(ms: 6000)
        return harness
    }

    @Test func speechDuringAnAnswerCancelsItWithTurnDetected() throws {
        let harness = try Self.interrupted()
        let dones = harness.events("response.done")
        #expect(dones.count == 2)
        let first = try #require(dones.first?["response"])
        #expect(first["status"] == "cancelled")
        #expect(first["status_details"] == ["type": "cancelled", "reason": "turn_detected"])
        #expect(first["usage"] == .null)
        #expect(dones.last?["response"]?["status"] == "completed")
        // speech_started comes before the cancellation events; no delta of R1 after it.
        let types = harness.types
        let secondStart = try #require(types.indices.filter { types[$0] == "input_audio_buffer.speech_started" }.last)
        let firstDone = try #require(types.firstIndex(of: "response.done"))
        #expect(secondStart < firstDone)
        let r1 = try #require(first["id"]?.stringValue)
        let afterStart = harness.received.dropFirst(secondStart)
        #expect(!afterStart.contains { $0.type == "response.audio.delta" && $0.json["response_id"]?.stringValue == r1 })
        #expect(
            Array(harness.compactTypes(since: secondStart).prefix(6)) == [
                "input_audio_buffer.speech_started", "response.audio_transcript.done", "response.audio.done",
                "response.content_part.done", "response.output_item.done", "response.done",
            ])
        let item = try #require(harness.events("response.output_item.done").first?["item"])
        #expect(item["status"] == "incomplete")
    }

    @Test func partialTranscriptIsKeptInTheCancelledItem() throws {
        let harness = try Self.interrupted()
        let done = try #require(harness.events("response.audio_transcript.done").first?["transcript"]?.stringValue)
        #expect(!done.isEmpty && done != Self.long.answer)
        #expect(Self.long.answer.hasPrefix(done))
    }

    @Test func smartTurnFillerDoesNotInterrupt() throws {
        let harness = try Self.interrupted(smartTurn: true, second: .filler)
        let dones = harness.events("response.done")
        #expect(dones.count == 1)
        #expect(dones.first?["response"]?["status"] == "completed")
        #expect(harness.events("conversation.item.ambient_audio_transcription.completed").count == 1)
    }

    @Test func notInterruptibleScenarioKeepsTalking() throws {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([Self.long], policies: SessionPolicies(interruptible: false)))
        harness.send("session.update", ["session": ["turn_detection": ["type": "server_vad"]]])
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 1200)
        harness.appendAudio(try Fixtures.speech())
        harness.appendSilence(ms: 8000)
        #expect(harness.events("response.done").first?["response"]?["status"] == "completed")
    }
}
