import QwenRealtimeEngine
import ScenarioEngine
import Testing
import WireJSON

/// §8.1: session.created defaults, session.update merge / errors, voiceprints (S2, S4, S5, C5, C7).
@Suite struct SessionConfigurationTests {
    @Test func sessionCreatedCarriesProfileDefaults() throws {
        let audio = QwenHarness(model: "qwen-audio-3.1-realtime-plus")
        let session = try #require(audio.events("session.created").first?["session"])
        #expect(audio.types == ["session.created"])
        #expect(session["id"]?.stringValue?.hasPrefix("sess_") == true)
        #expect(session["object"] == "realtime.session")
        #expect(session["model"] == "qwen-audio-3.1-realtime-plus")
        #expect(session["modalities"] == ["text", "audio"])
        #expect(session["voice"] == "longanqian_v3.1")
        #expect(session["input_audio_transcription"] == ["model": "fun-asr"])
        #expect(session["turn_detection"] == ["type": "server_vad", "threshold": 0.5, "silence_duration_ms": 800])
        let omni = try #require(
            QwenHarness(model: "qwen3.5-omni-flash-realtime").events("session.created").first?["session"])
        #expect(omni["voice"] == "Tina")
        #expect(omni["input_audio_transcription"] == ["model": "qwen3-asr-flash-realtime"])
        #expect(omni["enable_search"] == false)
    }

    @Test func updateIsAPatchEchoedInFull() throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": ["instructions": "Be brief.", "x_custom": 1]])
        harness.send("session.update", ["session": ["modalities": ["text"]]])
        let updated = try #require(harness.events("session.updated").last?["session"])
        #expect(updated["instructions"] == "Be brief.")
        #expect(updated["modalities"] == ["text"])
        #expect(updated["x_custom"] == 1)
        #expect(updated["voice"] == "longanqian")
        #expect(harness.violations.isEmpty)
    }

    @Test(arguments: [
        (["modalities": ["audio"]] as JSONObject, "session.modalities"),
        (["turn_detection": ["type": "semantic_vad"]] as JSONObject, "session.turn_detection.type"),
        (
            ["turn_detection": ["type": "server_vad", "threshold": 1.5]] as JSONObject,
            "session.turn_detection.threshold"
        ),
        (
            ["turn_detection": ["type": "server_vad", "silence_duration_ms": 100]] as JSONObject,
            "session.turn_detection.silence_duration_ms"
        ),
        (["max_history_turns": 51] as JSONObject, "session.max_history_turns"),
        (
            ["turn_detection": ["type": "server_vad", "voiceprint_audio_urls": ["https://a/x.wav"]]] as JSONObject,
            "session.turn_detection.voiceprint_audio_urls"
        ),
    ])
    func invalidValuesAreRefusedAndTheOldConfigKept(patch: JSONObject, param: String) throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": .object(patch)], eventID: "event_bad")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"] == "invalid_request_error")
        #expect(error["code"] == "invalid_value")
        #expect(error["param"]?.stringValue == param)
        #expect(error["event_id"] == "event_bad")
        #expect(harness.violations == ["qrt.C5"])
        #expect(harness.session.configuration.modalities == ["text", "audio"])
        #expect(harness.session.configuration.turnDetection?.type == "server_vad")
    }

    /// An OpenAI GA client's session.update is refused with an error that says what it is,
    /// instead of being echoed and silently running on defaults.
    @Test(arguments: [
        (["type": "realtime", "instructions": "x"] as JSONObject, "session.type"),
        (["output_modalities": ["audio"]] as JSONObject, "session.output_modalities"),
        (
            ["audio": ["input": ["format": ["type": "audio/pcm", "rate": 24000]]]] as JSONObject,
            "session.audio.input.format.type"
        ),
    ])
    func openAIGAShapedUpdateIsNamedAsSuch(patch: JSONObject, param: String) throws {
        let harness = QwenHarness()
        harness.send("session.update", ["session": .object(patch)], eventID: "event_ga")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["code"] == "invalid_value")
        #expect(error["param"]?.stringValue == param)
        let message = error["message"]?.stringValue ?? ""
        #expect(message.contains("OpenAI GA session shape") && message.contains("input_audio_format"), "\(message)")
        #expect(harness.violations == ["qrt.C5"])
        #expect(harness.events("session.updated").isEmpty)
        #expect(harness.session.configuration.modalities == ["text", "audio"])
    }

    /// Qwen omni's own nested audio settings are not the GA shape.
    @Test func omniAudioFormatAndVoiceAreAccepted() throws {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send(
            "session.update",
            [
                "session": [
                    "audio": [
                        "input": ["format": ["type": "pcm", "sample_rate": 24000]],
                        "output": ["voice": "Cherry"],
                    ]
                ]
            ])
        #expect(harness.events("error").isEmpty, "\(harness.events("error"))")
        #expect(harness.session.configuration.inputSampleRate == 24000)
    }

    @Test func omniSearchAndToolsAreExclusive() throws {
        let harness = QwenHarness(model: "qwen3-omni-flash-realtime")
        harness.send("session.update", ["session": ["enable_search": true, "tools": [FunctionCallTests.tool]]])
        #expect(harness.events("error").first?["error"]?["param"] == "session.enable_search")
    }

    @Test func voiceprintEventsBracketSessionUpdated() throws {
        let harness = QwenHarness()
        harness.send(
            "session.update",
            [
                "session": [
                    "turn_detection": ["type": "smart_turn", "voiceprint_audio_urls": ["https://example.com/me.wav"]]
                ]
            ])
        #expect(
            harness.types.dropFirst() == [
                "voiceprint_audio_list.in_progress", "session.updated", "voiceprint_audio_list.completed",
            ])
        let id = harness.events("voiceprint_audio_list.in_progress").first?["item_id"]?.stringValue
        #expect(id?.hasPrefix("vp_") == true)
        #expect(harness.events("voiceprint_audio_list.completed").first?["item_id"]?.stringValue == id)
        let failing = QwenHarness()
        failing.send(
            "session.update",
            ["session": ["turn_detection": ["type": "smart_turn", "voiceprint_audio_urls": ["ftp://x"]]]])
        #expect(failing.types.last == "voiceprint_audio_list.failed")
    }

    @Test func audioProfileFreezesVoiceAndTurnDetection() throws {
        let harness = QwenHarness()
        harness.send(
            "session.update", ["session": ["voice": "longanlingxi", "turn_detection": ["type": "server_vad"]]])
        harness.send("session.update", ["session": ["voice": "longanxiaoxin"]])
        #expect(harness.session.configuration.voice == "longanlingxi")
        #expect(harness.violations == ["qrt.C7"])
        harness.appendSilence(ms: 200)
        harness.send("session.update", ["session": ["turn_detection": .null]])
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["code"] == "invalid_state")
        #expect(harness.violations == ["qrt.C7", "qrt.C7"])
        harness.send("session.update", ["session": ["turn_detection": ["type": "server_vad"]]])
        #expect(harness.events("error").count == 1)  // unchanged value is fine
    }

    @Test func eventsBeforeSessionUpdatedAreJournaled() throws {
        var scenario = QwenHarness.scenario()
        scenario.timing.events["session.updated"] = DelayDistribution(.fixed(ms: 50))
        let harness = QwenHarness(scenario: scenario)
        harness.send("session.update", ["session": [:]])
        harness.send("response.create")
        #expect(harness.violations.first == "qrt.C4")
    }
}
