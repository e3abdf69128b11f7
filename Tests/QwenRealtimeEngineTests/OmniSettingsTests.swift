import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireAudio
import WireJSON

/// Issue 12 item 4 (omni): settings that used to be echoed and nothing else — web search shows
/// in usage, `idle_timeout_ms` makes the model speak first, and `wav` is real WAV both ways.
@Suite struct OmniSettingsTests {
    static let model = "qwen3-omni-flash-realtime"
    static let turns = [
        TurnContent(transcript: "What is new today?", answer: "Here are today's headlines."),
        TurnContent(transcript: "", answer: "Are you still there?"),
    ]

    /// A push-to-talk text question answered once.
    private static func askByText(_ harness: QwenHarness) {
        harness.send(
            "conversation.item.create",
            ["item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "news?"]]]])
        harness.send("response.create")
        harness.advance(ms: 20_000)
    }

    @Test func webSearchIsAUsagePluginEntry() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario(Self.turns), model: Self.model)
        harness.send(
            "session.update",
            [
                "session": [
                    "modalities": ["text"], "turn_detection": .null, "enable_search": true,
                    "search_options": ["enable_source": true, "search_strategy": "max"],
                ]
            ])
        Self.askByText(harness)
        let usage = try #require(harness.events("response.done").last?["response"]?["usage"])
        #expect(usage["plugins"]?["search"]?["count"]?.intValue == 1)
        #expect(usage["plugins"]?["search"]?["strategy"]?.stringValue == "max")
        #expect((usage["total_tokens"]?.intValue ?? 0) > 0)
        let plain = QwenHarness(scenario: QwenHarness.scenario(Self.turns), model: Self.model)
        plain.send("session.update", ["session": ["modalities": ["text"], "turn_detection": .null]])
        Self.askByText(plain)
        #expect(plain.events("response.done").last?["response"]?["usage"]?["plugins"] == nil)
    }

    @Test(arguments: [
        ["enable_source": "yes"] as JSONValue, ["search_strategy": "deep"] as JSONValue, "on" as JSONValue,
    ])
    func badSearchOptionsAreRefused(options: JSONValue) throws {
        let harness = QwenHarness(model: Self.model)
        harness.send("session.update", ["session": ["search_options": options]])
        #expect(harness.events("error").first?["error"]?["param"]?.stringValue == "session.search_options")
        #expect(harness.events("session.updated").isEmpty)
    }

    @Test func afterTheIdleTimeoutTheModelSpeaksFirst() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario(Self.turns), model: Self.model)
        harness.send(
            "session.update",
            [
                "session": [
                    "modalities": ["text", "audio"], "turn_detection": ["type": "server_vad", "idle_timeout_ms": 5000],
                ]
            ]
        )
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 2000)
        while harness.events("response.done").isEmpty { harness.advance(ms: 100) }
        let firstDone = try #require(harness.received.last { $0.type == "response.done" }).atMicros
        harness.advance(ms: 10_000)  // the user says nothing
        #expect(harness.events("response.done").count == 2)
        let second = try #require(harness.received.last { $0.type == "response.created" })
        // Playback ended at response.done (audio is streamed in real time); then 5 s of silence.
        #expect((5_000_000...6_000_000).contains(second.atMicros - firstDone), "\(second.atMicros - firstDone)")
        #expect(harness.events("response.audio_transcript.done").last?["transcript"] == "Are you still there?")
        harness.advance(ms: 30_000)  // once per silence: the model waits for the user again
        #expect(harness.events("response.done").count == 2)
        // No user item came before the model's own turn.
        #expect(harness.events("conversation.item.input_audio_transcription.completed").count == 1)
    }

    @Test func speakingBeforeTheIdleTimeoutKeepsTheModelQuiet() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario(Self.turns), model: Self.model)
        harness.send(
            "session.update", ["session": ["turn_detection": ["type": "server_vad", "idle_timeout_ms": 30000]]])
        harness.advance(ms: 10)
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: 2000)
        harness.advance(ms: 15_000)
        harness.send(
            "conversation.item.create",
            ["item": ["type": "message", "role": "user", "content": [["type": "input_text", "text": "hi"]]]])
        harness.advance(ms: 40_000)
        #expect(harness.events("response.done").count == 1)
    }

    @Test func wavInputHeadersAreTheContainerAndWavOutputStartsWithOne() throws {
        let harness = QwenHarness(scenario: QwenHarness.scenario(Self.turns), model: Self.model)
        harness.send(
            "session.update",
            [
                "session": [
                    "audio": [
                        "input": ["format": ["type": "wav", "sample_rate": 16000]],
                        "output": ["format": ["type": "wav", "sample_rate": 24000]],
                    ]
                ]
            ])
        harness.advance(ms: 10)
        // The client streams a WAV file: its header arrives in the first chunk.
        let speech = try Fixtures.paddedSpeech()
        let file = WAVFile.encode(speech)
        var offset = 0
        while offset < file.count {
            let end = min(offset + 3244, file.count)  // 44-byte header + 100 ms, then 100 ms chunks
            harness.send("input_audio_buffer.append", ["audio": .string(Base64.encode(Array(file[offset..<end])))])
            harness.advance(ms: 100)
            offset = end
        }
        harness.appendSilence(ms: 2000)
        harness.advance(ms: 15_000)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
        #expect(harness.events("input_audio_buffer.speech_started").count == 1)
        let deltas = harness.events("response.audio.delta").compactMap { $0["delta"]?.stringValue }.compactMap {
            Base64.decode($0)
        }
        let joined = deltas.flatMap { $0 }
        let header = try #require(WAVFile.streamHeader(joined))
        #expect(header.sampleRate == 24000 && header.channels == 1 && header.dataOffset == 44)
        let decoded = try WAVFile.decode(joined)
        #expect(decoded.count == (joined.count - 44) / 2)  // the header's data size is the whole answer
        #expect(deltas.dropFirst().allSatisfy { WAVFile.streamHeader($0) == nil })
    }

    @Test func aPCMDeclaredStreamWithAWAVHeaderIsStillAViolation() throws {
        let harness = QwenHarness(model: Self.model)
        harness.send("session.update", ["session": [:]])
        harness.advance(ms: 10)
        let file = WAVFile.encode(PCMBuffer.silence(milliseconds: 100, sampleRate: 16000))
        harness.send("input_audio_buffer.append", ["audio": .string(Base64.encode(Array(file.prefix(3244))))])
        #expect(harness.violations.contains("qrt.C8"))
    }
}
