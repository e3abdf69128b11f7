import AnswerAudio
import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// §8.2: a server_vad turn with real speech (espeak-ng), S6, S7, S10, S11.
@Suite struct ServerVADTurnTests {
    static let turn = TurnContent(transcript: "What is the weather like today?", answer: "It is sunny and warm today.")

    /// Runs the padded speech fixture through a configured audio-profile session (server VAD
    /// unless `session` says otherwise: the audio profile's omitted `turn_detection` is
    /// push-to-talk, SEED-003).
    static func spokenTurn(
        model: String = "qwen-audio-3.0-realtime-plus", rate: Int = 16000,
        session: JSONObject = [:], answerAudio: AnswerAudioCache = .inline
    ) throws -> QwenHarness {
        let harness = QwenHarness(scenario: QwenHarness.scenario([turn]), model: model, answerAudio: answerAudio)
        var session = session
        if session["turn_detection"] == nil { session["turn_detection"] = ["type": "server_vad"] }
        harness.send("session.update", ["session": .object(session)])
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech(), rate: rate)
        harness.appendSilence(ms: 6000, rate: rate)
        return harness
    }

    @Test func serverVADTurnFollowsTheSpecOrder() throws {
        let harness = try Self.spokenTurn()
        let types = harness.compactTypes()
        let expected = [
            "session.created", "session.updated", "input_audio_buffer.speech_started",
            "conversation.item.input_audio_transcription.delta", "input_audio_buffer.speech_stopped",
            "input_audio_buffer.committed", "conversation.item.created",
            "conversation.item.input_audio_transcription.completed", "response.created", "response.output_item.added",
            "conversation.item.created", "response.content_part.added", "response.audio_transcript.done",
            "response.audio.done", "response.content_part.done", "response.output_item.done", "response.done",
        ]
        // Several transcription deltas may come while the user speaks: collapse repeats.
        let collapsed = types.enumerated().filter { $0.offset == 0 || $0.element != types[$0.offset - 1] }.map(
            \.element)
        #expect(collapsed == expected)
        #expect(harness.violations.isEmpty)
    }

    @Test func speechBoundariesComeFromTheAudio() throws {
        let harness = try Self.spokenTurn()
        let started = try #require(harness.events("input_audio_buffer.speech_started").first)
        let stopped = try #require(harness.events("input_audio_buffer.speech_stopped").first)
        let start = try #require(started["audio_start_ms"]?.intValue)
        let end = try #require(stopped["audio_end_ms"]?.intValue)
        // Reference: speech 1004–2733 ms (sox); start is reported with 300 ms prefix padding.
        #expect(abs(start - (1004 - 300)) <= 60)
        #expect(abs(end - 2733) <= 60)
        #expect(started["item_id"] == stopped["item_id"])
        let committed = try #require(harness.events("input_audio_buffer.committed").first)
        #expect(committed["item_id"] == started["item_id"])
        #expect(committed["previous_item_id"] == .null)
    }

    @Test func transcriptDeltasConcatenateToTheDoneText() throws {
        let harness = try Self.spokenTurn()
        let deltas = harness.events("response.audio_transcript.delta").compactMap { $0["delta"]?.stringValue }
        #expect(deltas.count > 1)
        let done = try #require(harness.events("response.audio_transcript.done").first?["transcript"]?.stringValue)
        #expect(deltas.joined() == done)
        #expect(done == Self.turn.answer)
        let input = try #require(harness.events("conversation.item.input_audio_transcription.completed").first)
        #expect(input["transcript"]?.stringValue == Self.turn.transcript)
        let partial = try #require(harness.events("conversation.item.input_audio_transcription.delta").last)
        #expect((partial["text"]?.stringValue ?? "") + (partial["stash"]?.stringValue ?? "") == Self.turn.transcript)
    }

    @Test func audioDeltasAddUpToTheSynthesizedAnswer() throws {
        let harness = try Self.spokenTurn()
        let chunks = harness.events("response.audio.delta").compactMap { $0["delta"]?.stringValue }
        let pcm = chunks.compactMap(Base64.decode).flatMap { $0 }
        // The scenario's seed voices every answer (one rendering shared by all sessions).
        let expected = VoiceSynthesizer(sampleRate: 24000, seed: 7).synthesize(Self.turn.answer)
        #expect(pcm == expected.littleEndianBytes)
        for chunk in chunks.compactMap(Base64.decode).dropLast() {
            #expect(chunk.count == 24000 * 2 * 40 / 1000)  // 40 ms at 24 kHz (default cadence)
        }
        // Paced no slower than real time: the last delta goes out before the audio would end.
        let audioEvents = harness.received.filter { $0.type == "response.audio.delta" }
        let span = try #require(audioEvents.last).atMicros - (try #require(audioEvents.first)).atMicros
        #expect(span < Int64(expected.duration * 1_000_000))
    }

    @Test func responseEventsShareOneResponseAndUsage() throws {
        let harness = try Self.spokenTurn()
        let created = try #require(harness.events("response.created").first?["response"])
        let id = try #require(created["id"]?.stringValue)
        #expect(id.hasPrefix("resp_"))
        for type in [
            "response.output_item.added", "response.audio.delta", "response.audio.done", "response.output_item.done",
        ] {
            #expect(harness.events(type).allSatisfy { $0["response_id"]?.stringValue == id })
        }
        let done = try #require(harness.events("response.done").first?["response"])
        #expect(done["status"] == "completed")
        #expect(done["usage"]?["output_tokens_details"]?["audio_tokens"]?.intValue ?? 0 > 0)
        #expect(done["output"]?[0]?["content"]?[0]?["transcript"]?.stringValue == Self.turn.answer)
        let ids = harness.received.compactMap { $0.json["event_id"]?.stringValue }
        #expect(Set(ids).count == ids.count && ids.allSatisfy { $0.hasPrefix("event_") })
    }

    @Test func omniHonoursTheConfiguredInputRate() throws {
        let format: JSONObject = ["input": ["format": ["type": "pcm", "sample_rate": 24000]]]
        let harness = try Self.spokenTurn(
            model: "qwen3-omni-flash-realtime", rate: 24000, session: ["audio": .object(format)])
        let start = try #require(harness.events("input_audio_buffer.speech_started").first?["audio_start_ms"]?.intValue)
        #expect(abs(start - 704) <= 60)
        #expect(harness.events("response.done").count == 1)
    }
}
