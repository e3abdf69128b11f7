import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// §8.9: ending a session (S19) and scenario session ends.
@Suite struct EndingTests {
    @Test func omniFinishFlushesTranscriptionThenFinishesAndCloses() throws {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario([TurnContent(transcript: "Goodbye now", answer: "Bye.")]),
            model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["turn_detection": ["type": "server_vad"]]])
        harness.appendAudio(try Fixtures.paddedSpeech().slice(fromMs: 0, toMs: 2300))  // still speaking
        let before = harness.types.count
        harness.send("session.finish")
        harness.advance(ms: 100)
        #expect(
            harness.types(since: before) == [
                "input_audio_buffer.speech_stopped", "input_audio_buffer.committed", "conversation.item.created",
                "conversation.item.input_audio_transcription.completed", "session.finished",
            ])
        #expect(harness.closes.map(\.code) == [1000])
        let finishedAt = try #require(harness.received.last).atMicros
        #expect(try #require(harness.closes.first).atMicros >= finishedAt)
        harness.send("input_audio_buffer.append", ["audio": "AAAA"])
        #expect(harness.types.count == before + 5)
    }

    @Test func eventsAfterFinishAreJournaled() throws {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": [:]])
        harness.send("session.finish")
        // A frame in flight before the close is still delivered: journaled, not answered.
        let before = harness.types.count
        harness.send("response.create")
        #expect(harness.types.count == before)
        #expect(harness.violations.contains("qrt.C18"))
    }

    @Test func audioProfileHasNoFinish() throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": [:]])
        harness.send("session.finish")
        #expect(harness.events("error").first?["error"]?["code"] == "unknown_event")
        #expect(!harness.types.contains("session.finished"))
        #expect(harness.closes.isEmpty)
    }

    @Test func sessionCapEndsWithServerError() throws {
        var scenario = QwenHarness.scenario()
        scenario.timeScale = 0.000_01  // 120 min → 72 ms
        let harness = QwenHarness(scenario: scenario)
        harness.advance(ms: 100)
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "server_error")
        #expect(error["code"] == "session_expired")
        #expect(harness.closes.count == 1)
    }

    @Test func triggerEndFinishesOmniSessions() throws {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.apply(harness.session.endSession(.trigger(reason: "scripted end")))
        #expect(harness.types.last == "session.finished")
        #expect(harness.closes.first?.reason == "scripted end")
    }
}
