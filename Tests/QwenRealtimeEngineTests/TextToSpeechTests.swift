import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

/// Issue 12 item 5: Qwen-TTS-Realtime (`qwen-tts-realtime`, `qwen3-tts-flash-realtime`,
/// `qwen3-tts-instruct-flash-realtime`) as the text-to-speech profile of the realtime route.
@Suite struct TextToSpeechTests {
    static let model = "qwen3-tts-flash-realtime"
    /// The events of one response, deltas collapsed.
    static let response = [
        "response.created", "response.output_item.added", "response.content_part.added", "response.audio.delta",
        "response.audio.done", "response.content_part.done", "response.output_item.done", "response.done",
    ]

    static func harness(_ model: String = model, _ session: JSONObject? = nil) -> QwenHarness {
        let harness = QwenHarness(model: model)
        if let session {
            harness.send("session.update", ["session": .object(session)])
            harness.advance(ms: 10)
        }
        return harness
    }

    /// Types with consecutive repeats collapsed (one `response.audio.delta` per run).
    static func collapsed(_ types: [String]) -> [String] {
        types.enumerated().filter { $0.offset == 0 || $0.element != types[$0.offset - 1] }.map(\.element)
    }

    /// The decoded audio of every `response.audio.delta`, per response id.
    static func audio(_ harness: QwenHarness) -> [String: [UInt8]] {
        harness.events("response.audio.delta").reduce(into: [:]) { result, delta in
            let bytes = Base64.decode(delta["delta"]?.stringValue ?? "") ?? []
            result[delta["response_id"]?.stringValue ?? "", default: []] += bytes
        }
    }

    @Test func modelNamesChooseTheProfile() {
        for name in [
            "qwen-tts-realtime", "qwen-tts-realtime-latest", "qwen-tts-realtime-2025-07-15", "qwen3-tts-flash-realtime",
            "qwen3-tts-flash-realtime-2025-09-18", "QWEN3-TTS-FLASH-REALTIME-2025-11-27",
            "qwen3-tts-instruct-flash-realtime", "qwen3-tts-instruct-flash-realtime-2026-01-22",
        ] {
            #expect(QwenProfile(model: name) == .speechSynthesis, "\(name)")
        }
        for name in ["qwen3-tts-flash", "qwen-tts", "qwen3-tts-vc-realtime-2026-01-15", "qwen-tts-realtime-"] {
            #expect(QwenProfile(model: name) == nil, "\(name)")
        }
    }

    @Test func voiceCloningAndDesignModelsAreRefusedByName() throws {
        for model in ["qwen3-tts-vc-realtime-2026-01-15", "qwen3-tts-vd-realtime-2025-12-16"] {
            let verdict = QwenUpgrade.check(
                path: "/api-ws/v1/realtime", queryModel: model, headers: ["authorization": "Bearer sk-test"],
                apiKeys: ["sk-test"])
            guard case .reject(status: 400, body: let json, obligation: _) = verdict else {
                Issue.record("\(model) not refused with 400: \(verdict)")
                continue
            }
            let message = try #require(json["message"]?.stringValue)
            #expect(
                message.contains(model) && message.contains("custom") && message.contains("qwen3-tts-flash-realtime"))
        }
    }

    @Test func sessionCreatedCarriesTheDocumentedDefaults() throws {
        let harness = Self.harness()
        let session = try #require(harness.events("session.created").first?["session"])
        #expect(session["object"]?.stringValue == "realtime.session")
        #expect(session["id"]?.stringValue?.hasPrefix("sess_") == true)
        #expect(session["model"]?.stringValue == Self.model)
        #expect(session["voice"]?.stringValue == "Cherry")
        #expect(session["mode"]?.stringValue == "server_commit")
        #expect(session["response_format"]?.stringValue == "pcm")
        #expect(session["sample_rate"]?.intValue == 24000)
        #expect(session["turn_detection"] == nil && session["modalities"] == nil)
    }

    @Test func sessionUpdateEchoesTheSettings() throws {
        let harness = Self.harness(
            "qwen3-tts-instruct-flash-realtime",
            [
                "voice": "Eldric Sage", "mode": "commit", "response_format": "mp3", "sample_rate": 44100, "volume": 80,
                "speech_rate": 1.2, "pitch_rate": 0.8, "bit_rate": 64, "language_type": "English", "enable_tn": true,
                "instructions": "Speak slowly and warmly.", "optimize_instructions": true,
            ])
        let session = try #require(harness.events("session.updated").first?["session"])
        #expect(session["voice"]?.stringValue == "Eldric Sage")
        #expect(session["mode"]?.stringValue == "commit")
        #expect(session["sample_rate"]?.intValue == 44100)
        #expect(session["instructions"]?.stringValue == "Speak slowly and warmly.")
        #expect(harness.events("error").isEmpty && harness.violations.isEmpty)
    }

    @Test(arguments: [
        (model, ["voice": 3] as JSONObject, "session.voice"),
        (model, ["voice": "longanqian"] as JSONObject, "session.voice"),
        ("qwen3-tts-flash-realtime-2025-09-18", ["voice": "Serena"] as JSONObject, "session.voice"),
        (model, ["mode": "manual"] as JSONObject, "session.mode"),
        (model, ["response_format": "flac"] as JSONObject, "session.response_format"),
        ("qwen-tts-realtime", ["response_format": "mp3"] as JSONObject, "session.response_format"),
        (model, ["sample_rate": 32000] as JSONObject, "session.sample_rate"),
        (model, ["sample_rate": "24000"] as JSONObject, "session.sample_rate"),
        ("qwen-tts-realtime-latest", ["sample_rate": 16000] as JSONObject, "session.sample_rate"),
        (model, ["response_format": "opus", "sample_rate": 22050] as JSONObject, "session.sample_rate"),
        (model, ["volume": 101] as JSONObject, "session.volume"),
        (model, ["volume": 50.5] as JSONObject, "session.volume"),
        (model, ["speech_rate": 2.5] as JSONObject, "session.speech_rate"),
        (model, ["pitch_rate": 0.4] as JSONObject, "session.pitch_rate"),
        (model, ["bit_rate": 5] as JSONObject, "session.bit_rate"),
        (model, ["language_type": "Klingon"] as JSONObject, "session.language_type"),
        (model, ["instructions": "Whisper."] as JSONObject, "session.instructions"),
        (model, ["optimize_instructions": true] as JSONObject, "session.optimize_instructions"),
        ("qwen3-tts-instruct-flash-realtime", ["instructions": 1] as JSONObject, "session.instructions"),
        (model, ["enable_tn": "yes"] as JSONObject, "session.enable_tn"),
    ])
    func badSettingsNameTheField(model: String, patch: JSONObject, param: String) throws {
        let harness = Self.harness(model)
        harness.send("session.update", ["session": .object(patch)], eventID: "event_bad")
        let error = try #require(harness.events("error").first?["error"])
        #expect(error["type"]?.stringValue == "invalid_request_error")
        #expect(error["code"]?.stringValue == "invalid_value")
        #expect(error["param"]?.stringValue == param)
        #expect(error["event_id"]?.stringValue == "event_bad")
        #expect(harness.events("session.updated").isEmpty)
        #expect(harness.violations == ["qrt.C5"])
    }

    @Test func commitModeSpeaksOnlyCommittedText() throws {
        let harness = Self.harness(Self.model, ["mode": "commit"])
        harness.send("input_text_buffer.append", ["text": "Hello there. "])
        harness.send("input_text_buffer.append", ["text": "How are you?"])
        harness.advance(ms: 2000)
        #expect(!harness.types.contains("response.created"))
        harness.send("input_text_buffer.commit")
        harness.advance(ms: 20_000)
        let types = Self.collapsed(harness.types)
        #expect(types == ["session.created", "session.updated", "input_text_buffer.committed"] + Self.response)
        let committed = try #require(harness.events("input_text_buffer.committed").first)
        #expect(committed["item_id"]?.stringValue == "")
        let done = try #require(harness.events("response.done").first?["response"])
        #expect(done["status"]?.stringValue == "completed")
        #expect(done["usage"]?["characters"]?.intValue == 25)
        #expect(done["output"]?[0]?["content"]?[0]?["type"]?.stringValue == "audio")
        // PCM at 24 kHz as long as the synthesized voice speaks the text.
        let pcm = try #require(Self.audio(harness).values.first)
        let seconds = VoiceSynthesizer.duration(forText: "Hello there. How are you?")
        #expect(abs(Double(pcm.count / 2) / 24000 - seconds) < 0.05, "\(pcm.count) bytes for \(seconds) s")
        #expect(harness.violations.isEmpty)
    }

    @Test func serverCommitSpeaksEachSentenceAsItCompletes() throws {
        let harness = Self.harness(Self.model, ["mode": "server_commit"])
        harness.send("input_text_buffer.append", ["text": "你好。How"])
        harness.advance(ms: 10)
        #expect(harness.events("response.created").count == 1)
        harness.send("input_text_buffer.append", ["text": " are you"])
        harness.advance(ms: 20_000)
        #expect(harness.events("response.done").count == 1)
        harness.send("input_text_buffer.append", ["text": " today?\nFine"])
        harness.advance(ms: 20_000)
        let done = harness.events("response.done").map { $0["response"]?["usage"]?["characters"]?.intValue }
        #expect(done == [6, 18])  // "你好。" (CJK counts 2) and "How are you today?" (the newline alone is blank)
        #expect(!harness.types.contains("input_text_buffer.committed"))
        let long = String(repeating: "word ", count: 30)
        harness.send("input_text_buffer.append", ["text": .string(long)])
        harness.advance(ms: 60_000)
        // "Fine" + 150 characters passes the 100-character cap: cut after the last space within it.
        #expect(harness.events("response.done").last?["response"]?["usage"]?["characters"]?.intValue == 99)
    }

    @Test func emptyCommitsAndClearedTextAreRefused() throws {
        let harness = Self.harness(Self.model, ["mode": "commit"])
        harness.send("input_text_buffer.commit", eventID: "event_empty")
        var error = try #require(harness.events("error").last?["error"])
        #expect(error["param"]?.stringValue == "input_text_buffer")
        #expect(error["event_id"]?.stringValue == "event_empty")
        harness.send("input_text_buffer.append", ["text": "Never spoken."])
        harness.send("input_text_buffer.clear")
        harness.send("input_text_buffer.commit")
        harness.advance(ms: 5000)
        #expect(harness.events("input_text_buffer.cleared").count == 1)
        #expect(harness.events("error").count == 2)
        #expect(!harness.types.contains("response.created"))
        harness.send("input_text_buffer.append", ["text": .int(5)], eventID: "event_number")
        error = try #require(harness.events("error").last?["error"])
        #expect(error["param"]?.stringValue == "text")
        #expect(harness.violations == ["qrt.C10", "qrt.C10", "qrt.C2"])
    }

    @Test func cancelEndsTheResponseAndDropsTheQueue() throws {
        let harness = Self.harness(Self.model, [:])
        harness.send("response.cancel", eventID: "event_nothing")
        #expect(harness.events("error").last?["error"]?["param"]?.stringValue == "response.cancel")
        harness.send("input_text_buffer.append", ["text": "First sentence is long enough. Second one. Third!"])
        harness.advance(ms: 400)
        #expect(!Self.audio(harness).isEmpty)
        harness.send("response.cancel")
        harness.advance(ms: 20_000)
        let done = harness.events("response.done")
        #expect(done.count == 1)
        #expect(done.first?["response"]?["status"]?.stringValue == "cancelled")
        #expect(done.first?["response"]?["status_details"]?["reason"]?.stringValue == "client_cancelled")
        let item = try #require(harness.events("response.output_item.done").first?["item"])
        #expect(item["status"]?.stringValue == "incomplete")
        #expect(harness.violations == ["qrt.C12"])
    }

    @Test func finishSpeaksTheRestThenEndsTheSession() throws {
        let harness = Self.harness(Self.model, ["mode": "commit"])
        harness.send("input_text_buffer.append", ["text": "One. "])
        harness.send("input_text_buffer.commit")
        harness.send("input_text_buffer.append", ["text": "Two, never committed"])
        harness.send("session.finish")
        harness.send("input_text_buffer.append", ["text": "late"])
        harness.advance(ms: 30_000)
        let types = Self.collapsed(harness.types)
        #expect(
            types == ["session.created", "session.updated", "input_text_buffer.committed"] + Self.response
                + Self.response + ["session.finished"])
        #expect(harness.closes.map(\.code) == [1000])
        let finished = try #require(harness.received.last { $0.type == "session.finished" })
        #expect(try #require(harness.closes.first).atMicros >= finished.atMicros)
        #expect(harness.violations == ["qrt.C18"])
    }

    @Test func finishWithNothingLeftEndsAtOnce() {
        let harness = Self.harness(Self.model, [:])
        harness.send("session.finish")
        harness.advance(ms: 100)
        #expect(harness.types.suffix(1) == ["session.finished"])
        #expect(harness.closes.map(\.code) == [1000])
    }

    @Test func sessionUpdateAfterSynthesisStartedIsRefused() throws {
        let harness = Self.harness(Self.model, ["voice": "Ethan"])
        harness.send("input_text_buffer.append", ["text": "Hi."])
        harness.advance(ms: 10)
        harness.send("session.update", ["session": ["voice": "Cherry"]], eventID: "event_late")
        let error = try #require(harness.events("error").last?["error"])
        #expect(error["code"]?.stringValue == "invalid_value")
        #expect(error["message"]?.stringValue == "Session update error: session already started or finished or failed.")
        #expect(error["event_id"]?.stringValue == "event_late")
        #expect(harness.events("session.updated").count == 1)
        #expect(harness.events("response.created").first?["response"]?["voice"]?.stringValue == "Ethan")
        #expect(harness.violations == ["qrt.C7"])
    }

    @Test func qwenTTSRealtimeReportsTokenUsage() throws {
        let harness = Self.harness("qwen-tts-realtime", ["voice": "Serena", "mode": "commit"])
        harness.send("input_text_buffer.append", ["text": "Good morning"])
        harness.send("input_text_buffer.commit")
        harness.advance(ms: 20_000)
        let usage = try #require(harness.events("response.done").first?["response"]?["usage"])
        let seconds = VoiceSynthesizer.duration(forText: "Good morning")
        #expect(usage["input_tokens"]?.intValue == 2)
        let tokens = try #require(usage["output_tokens_details"]?["audio_tokens"]?.intValue)
        #expect(abs(tokens - max(50, Int64(seconds * 50))) <= 1)
        #expect(usage["characters"] == nil)
    }

    @Test(arguments: [("pcm", 16000), ("wav", 8000), ("mp3", 22050), ("opus", 48000)])
    func audioComesInTheRequestedFormatAndRate(format: String, rate: Int) throws {
        let harness = Self.harness(
            Self.model, ["mode": "commit", "response_format": .string(format), "sample_rate": .int(Int64(rate))])
        harness.send("input_text_buffer.append", ["text": "Testing the output format."])
        harness.send("input_text_buffer.commit")
        harness.advance(ms: 20_000)
        let bytes = try #require(Self.audio(harness).values.first)
        let seconds = VoiceSynthesizer.duration(forText: "Testing the output format.")
        switch format {
        case "pcm":
            #expect(abs(Double(bytes.count / 2) / Double(rate) - seconds) < 0.05)
        case "wav":
            let decoded = try WAVFile.decode(bytes)
            #expect(decoded.sampleRate == rate)
            #expect(abs(Double(decoded.count) / Double(rate) - seconds) < 0.05)
        case "mp3":
            #expect(bytes.count > 100 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
        default:
            #expect(Array(bytes.prefix(4)) == Array("OggS".utf8))
        }
        #expect(Self.collapsed(harness.types).suffix(8) == ArraySlice(Self.response))
    }

    @Test func eventsOfTheOtherProfilesAreRefusedByName() throws {
        let harness = Self.harness(Self.model, [:])
        harness.sendText(#"{"type":"input_audio_buffer.append","audio":"AAAA"}"#)
        for type in ["response.create", "conversation.item.create", "input_audio_buffer.commit"] {
            harness.send(type, eventID: "event_\(type)")
            let error = try #require(harness.events("error").last?["error"])
            #expect(error["code"]?.stringValue == "unknown_event")
            #expect(error["message"]?.stringValue?.hasPrefix("\(type) is not part of") == true)
            #expect(error["event_id"]?.stringValue == "event_\(type)")
        }
        harness.send("input_text_buffer.flush")
        #expect(harness.events("error").count == 5)
        #expect(harness.violations == ["qrt.C17", "qrt.C17", "qrt.C17", "qrt.C17", "qrt.C2"])
        #expect(!harness.types.contains("response.created"))
    }
}
