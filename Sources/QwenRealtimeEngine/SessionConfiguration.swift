package import WireJSON

/// The effective session configuration: the full `session` object echoed in
/// `session.created` / `session.updated` (§3.5), with typed readers for what the engine uses.
package struct SessionConfiguration: Sendable, Hashable {
    /// The profile whose defaults and rules apply.
    package let profile: QwenProfile
    /// The full session object in echo order.
    package internal(set) var object: JSONObject
    /// The server VAD's silence when a `turn_detection` sets none (scenario `endOfTurnSilenceMs`).
    package internal(set) var endOfTurnSilenceMs: Int?

    /// The profile defaults of S2 for `model`.
    package init(profile: QwenProfile, model: String, sessionID: String) {
        self.profile = profile
        guard profile != .speechSynthesis else {
            object = Self.speechSynthesisDefaults(model: model, sessionID: sessionID)
            return
        }
        guard profile != .transcription else {
            // Qwen-ASR-Realtime: text out only, top-level sample_rate, server VAD by default.
            object = [
                "id": .string(sessionID), "object": "realtime.session", "model": .string(model),
                "modalities": ["text"], "input_audio_format": "pcm", "sample_rate": 16000,
                "input_audio_transcription": [:],
                "turn_detection": .object(TurnDetection.defaultObject(profile: profile)),
            ]
            return
        }
        var object: JSONObject = [
            "id": .string(sessionID), "object": "realtime.session", "model": .string(model),
            "modalities": ["text", "audio"],
            "voice": .string(QwenProfile.defaultVoice(model: model, profile: profile)),
            "instructions": "", "input_audio_format": "pcm", "output_audio_format": "pcm",
            "input_audio_transcription": ["model": .string(profile.transcriptionModel)],
            "turn_detection": .object(TurnDetection.defaultObject(profile: profile)),
            "tools": [],
        ]
        switch profile {
        case .audio:
            object["enable_speech_emotion"] = true
            object["max_history_turns"] = 20
        case .transcription, .speechSynthesis:
            break
        case .omni:
            object["enable_search"] = false
            object["search_options"] = ["enable_source": false]
            object["temperature"] = 0.9
            object["top_p"] = 1.0
            object["top_k"] = 50
            object["max_tokens"] = 16384
            object["repetition_penalty"] = 1.05
            object["presence_penalty"] = 0.0
        }
        self.object = object
    }

    /// The session as a JSON value.
    package var json: JSONValue { .object(object) }

    /// Output modalities (`["text"]` or audio + text).
    package var modalities: [String] {
        object["modalities"]?.arrayValue?.compactMap(\.stringValue) ?? ["text", "audio"]
    }

    /// Whether answers carry audio.
    package var hasAudioOutput: Bool { modalities.contains("audio") }

    /// The voice; omni 3.8's `audio.output.voice` wins over `voice`.
    package var voice: String {
        object["audio"]?["output"]?["voice"]?.stringValue ?? object["voice"]?.stringValue ?? ""
    }

    /// The system instructions.
    package var instructions: String { object["instructions"]?.stringValue ?? "" }

    /// Turn detection, `nil` for push-to-talk (`turn_detection: null`).
    package var turnDetection: TurnDetection? {
        guard case .object(let detection) = object["turn_detection"] else { return nil }
        return TurnDetection(detection)
    }

    /// Names of the declared function tools.
    package var toolNames: [String] {
        (object["tools"]?.arrayValue ?? []).compactMap { $0["function"]?["name"]?.stringValue }
    }

    /// The declared function tools (validated when `session.update` set them).
    package var tools: [ToolDefinition] {
        guard let list = object["tools"], case .success(let tools) = ToolDefinition.validate(list) else { return [] }
        return tools
    }

    /// Input PCM sample rate: 16 kHz, or omni `audio.input.format.sample_rate`.
    package var inputSampleRate: Int {
        if profile == .transcription { return Int(object["sample_rate"]?.intValue ?? 16000) }
        return Int(object["audio"]?["input"]?["format"]?["sample_rate"]?.intValue ?? 16000)
    }

    /// Input channels (omni 3.8 `audio.input.format.channels`; otherwise mono).
    package var inputChannels: Int {
        Int(object["audio"]?["input"]?["format"]?["channels"]?.intValue ?? 1)
    }

    /// Output PCM sample rate: 24 kHz, or omni `audio.output.format.sample_rate`, or TTS `sample_rate`.
    package var outputSampleRate: Int {
        if profile == .speechSynthesis { return Int(object["sample_rate"]?.intValue ?? 24000) }
        return Int(object["audio"]?["output"]?["format"]?["sample_rate"]?.intValue ?? 24000)
    }

    /// Q/A turns of history per inference (audio `max_history_turns`, 20 by default).
    package var maxHistoryTurns: Int {
        Int(object["max_history_turns"]?.intValue ?? 20)
    }

    /// `input_audio_transcription.language`, when the client declared one.
    package var transcriptionLanguage: String? {
        object["input_audio_transcription"]?["language"]?.stringValue
    }

    /// The web search an answer makes when omni `enable_search` is on (for `usage.plugins`).
    var searchUse: Usage.SearchUse? {
        guard profile == .omni, object["enable_search"]?.boolValue == true else { return nil }
        return Usage.SearchUse(strategy: object["search_options"]?["search_strategy"]?.stringValue ?? "turbo")
    }

    /// Omni `audio.input.format.type` / `audio.output.format.type` is `wav` (a RIFF header before
    /// the samples) rather than raw `pcm`.
    package var inputIsWAV: Bool { object["audio"]?["input"]?["format"]?["type"]?.stringValue == "wav" }
    package var outputIsWAV: Bool { object["audio"]?["output"]?["format"]?["type"]?.stringValue == "wav" }

    /// The `input_audio_format` value.
    package var inputAudioFormat: String { object["input_audio_format"]?.stringValue ?? "pcm" }
}
