import ProtocolModel
import WireJSON

extension SessionConfiguration {
    /// The transcription model `session.created` names (the pages give no name: the mock's).
    static let audioLiveTranscriptionModel = "qwen3-asr-flash-realtime"

    /// The session object of `session.created` (DOC-QAL-SE §7.1): the default frontend model
    /// (the one the quick start and the SDKs use), the default voice, server VAD, and
    /// `model_inference`.
    static func audioLiveDefaults(dialect: any QwenDialect, sessionID: String) -> JSONObject {
        [
            "id": .string(sessionID), "object": "realtime.session", "model": .string(QwenAudioLive.duplexModel),
            "modalities": ["text", "audio"], "voice": .string(QwenAudioLive.voices[0]), "instructions": "",
            "turn_detection": .object(dialect.defaultTurnDetection),
            "input_audio_transcription": ["model": .string(audioLiveTranscriptionModel)], "tools": [],
            "model_inference": true,
        ]
    }

    /// The `delegation.type` in effect (`client` or `responses`), nil before the first update.
    var delegationType: String? { object["delegation"]?["type"]?.stringValue }

    /// Qwen-Audio-Live's `session.update` (qal.C5): `model` (a frontend model) and
    /// `delegation.type` in every update, `turn_detection.type: duplex` only with the duplex
    /// model, any voice string, flat function tools, PCM formats. `transport` reaches here only
    /// as `websocket` (``QwenRealtimeSession/liveSessionUpdate(_:)`` refuses the others) and is
    /// echoed like the unknown keys.
    mutating func applyAudioLive(_ patch: JSONObject) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        func fail(_ param: String, _ message: String) -> Result<SessionUpdateResult, SessionUpdateFailure> {
            .failure(SessionUpdateFailure(error: .invalidValue("session.\(param)", message), obligation: "qal.C5"))
        }
        guard let model = patch["model"]?.stringValue, QwenAudioLive.frontendModels.contains(model) else {
            let models = QwenAudioLive.frontendModels.joined(separator: ", ")
            return fail("model", "session.model is required: one of \(models).")
        }
        guard let delegation = patch["delegation"]?.objectValue,
            let type = delegation["type"]?.stringValue, QwenAudioLive.delegationTypes.contains(type)
        else {
            let types = QwenAudioLive.delegationTypes.joined(separator: ", ")
            return fail("delegation", "session.delegation is required: an object whose type is one of \(types).")
        }
        var merged = object
        for (key, value) in patch {
            switch key {
            case "id", "object", "model_inference":
                continue  // the server's
            case "turn_detection":
                switch TurnDetection.validate(value, dialect: dialect, silenceDurationMs: endOfTurnSilenceMs) {
                case .failure(let error): return .failure(SessionUpdateFailure(error: error, obligation: "qal.C5"))
                case .success(let detection): merged[key] = .object(detection)
                }
            case "voice", "instructions":
                guard value.stringValue != nil else { return fail(key, "\(key) must be a string.") }
                merged[key] = value
            case "modalities":
                let list = value.arrayValue?.compactMap(\.stringValue) ?? []
                guard !list.isEmpty, list.allSatisfy({ $0 == "text" || $0 == "audio" }) else {
                    return fail(key, "modalities must be a non-empty list of \"text\" and \"audio\".")
                }
                merged[key] = value
            case "input_audio_format", "output_audio_format":
                guard value.stringValue == "pcm" else { return fail(key, "\(key) must be \"pcm\".") }
                merged[key] = value
            case "tools":
                if let problem = Self.audioLiveToolProblem(value) { return fail(key, problem) }
                merged[key] = value
            default:
                merged[key] = value
            }
        }
        // Checked on the merged session: a later update may change the model alone.
        if merged["turn_detection"]?["type"]?.stringValue == "duplex", model != QwenAudioLive.duplexModel {
            return fail("turn_detection.type", "turn_detection.type duplex needs model \(QwenAudioLive.duplexModel).")
        }
        object = merged
        return .success(SessionUpdateResult())
    }

    /// What is wrong with a `tools` list of flat function tools `{type:"function", name,
    /// description?, parameters?}`, or nil.
    private static func audioLiveToolProblem(_ value: JSONValue) -> String? {
        guard let list = value.arrayValue else { return "tools must be an array." }
        for (index, tool) in list.enumerated() {
            guard tool.objectValue != nil, tool["type"]?.stringValue == "function" else {
                return "tools[\(index)] must be an object with type \"function\"."
            }
            guard let name = tool["name"]?.stringValue, !name.isEmpty else {
                return "tools[\(index)].name must be a non-empty string."
            }
            if let parameters = tool["parameters"], parameters.objectValue == nil {
                return "tools[\(index)].parameters must be a JSON Schema object."
            }
        }
        return nil
    }
}
