package import WireJSON

/// The effective session configuration: the full `session` object echoed in
/// `session.created` / `session.updated` (§3.5), with typed readers for what the engine uses.
package struct SessionConfiguration: Sendable {
    /// The dialect whose defaults and rules apply.
    package let dialect: any QwenDialect
    /// The full session object in echo order.
    package internal(set) var object: JSONObject
    /// The server VAD's silence when a `turn_detection` sets none (scenario `endOfTurnSilenceMs`).
    package internal(set) var endOfTurnSilenceMs: Int?

    /// The dialect's defaults of S2 for `model`.
    package init(dialect: any QwenDialect, model: String, sessionID: String) {
        self.dialect = dialect
        object = dialect.sessionDefaults(model: model, sessionID: sessionID).compacted()
    }

    /// The name of the dialect.
    package var profile: QwenProfile { dialect.profile }

    /// The session object of the conversational dialects (audio in, answers out) before each
    /// adds its own keys.
    package static func conversationDefaults(
        dialect: any QwenDialect, model: String, sessionID: String, voice: String, transcriptionModel: String
    ) -> JSONObject {
        [
            "id": .string(sessionID), "object": "realtime.session", "model": .string(model),
            "modalities": ["text", "audio"], "voice": .string(voice),
            "instructions": "", "input_audio_format": "pcm", "output_audio_format": "pcm",
            "input_audio_transcription": ["model": .string(transcriptionModel)],
            "turn_detection": .object(dialect.defaultTurnDetection),
            "tools": [],
        ]
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
    package var toolNames: [String] { tools.map(\.name) }

    /// The declared function tools (validated, in the dialect's form, when `session.update` set them).
    package var tools: [ToolDefinition] {
        (object["tools"]?.arrayValue ?? []).compactMap(ToolDefinition.init(declared:))
    }

    /// Input PCM sample rate (the dialect says where its session object sets it).
    package var inputSampleRate: Int { dialect.inputSampleRate(of: object) }

    /// Input channels (omni 3.8 `audio.input.format.channels`; otherwise mono).
    package var inputChannels: Int {
        Int(object["audio"]?["input"]?["format"]?["channels"]?.intValue ?? 1)
    }

    /// Output PCM sample rate (the dialect says where its session object sets it).
    package var outputSampleRate: Int { dialect.outputSampleRate(of: object) }

    /// 16 kHz, or `audio.input.format.sample_rate` (omni 3.8's nested format).
    package static func nestedInputSampleRate(of session: JSONObject) -> Int {
        Int(session["audio"]?["input"]?["format"]?["sample_rate"]?.intValue ?? 16000)
    }

    /// 24 kHz, or `audio.output.format.sample_rate` (omni 3.8's nested format).
    package static func nestedOutputSampleRate(of session: JSONObject) -> Int {
        Int(session["audio"]?["output"]?["format"]?["sample_rate"]?.intValue ?? 24000)
    }

    /// Q/A turns of history per inference (audio `max_history_turns`, 20 by default).
    package var maxHistoryTurns: Int {
        Int(object["max_history_turns"]?.intValue ?? 20)
    }

    /// `input_audio_transcription.language`, when the client declared one.
    package var transcriptionLanguage: String? {
        object["input_audio_transcription"]?["language"]?.stringValue
    }

    /// The web search an answer makes when omni `enable_search` is on (for `usage.plugins`;
    /// only omni's `session.update` accepts the key with a meaning).
    var searchUse: Usage.SearchUse? {
        guard dialect.searchesTheWeb, object["enable_search"]?.boolValue == true else { return nil }
        return Usage.SearchUse(strategy: object["search_options"]?["search_strategy"]?.stringValue ?? "turbo")
    }

    /// Omni `audio.input.format.type` / `audio.output.format.type` is `wav` (a RIFF header before
    /// the samples) rather than raw `pcm`.
    package var inputIsWAV: Bool { object["audio"]?["input"]?["format"]?["type"]?.stringValue == "wav" }
    package var outputIsWAV: Bool { object["audio"]?["output"]?["format"]?["type"]?.stringValue == "wav" }

    /// The `input_audio_format` value.
    package var inputAudioFormat: String { object["input_audio_format"]?.stringValue ?? "pcm" }
}
