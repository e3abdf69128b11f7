import WireJSON

/// The Qwen-TTS-Realtime session (protocol reference §8.12): defaults, `session.update`
/// validation and typed readers. Every refused value names its field (`session.<key>`, C5).
extension SessionConfiguration {
    /// The documented default session: voice Cherry, server_commit, pcm at 24 kHz.
    static func speechSynthesisDefaults(model: String, sessionID: String) -> JSONObject {
        [
            "id": .string(sessionID), "object": "realtime.session", "model": .string(model),
            "voice": .string(SpeechSynthesisModel.defaultVoice), "mode": "server_commit", "response_format": "pcm",
            "sample_rate": 24000,
        ]
    }

    /// Output encodings (`response_format`).
    package static let speechFormats = ["pcm", "wav", "mp3", "opus"]
    /// Output rates: the documented four plus 22050 and 44100, which the SDK also lists.
    package static let speechSampleRates: [Int64] = [8000, 16000, 22050, 24000, 44100, 48000]
    /// Rates an Opus stream can carry.
    static let opusSampleRates: Set<Int64> = [8000, 16000, 24000, 48000]
    /// `language_type` values (matched without regard to case).
    static let speechLanguages = [
        "Auto", "Chinese", "English", "German", "Italian", "Portuguese", "Spanish", "Japanese", "Korean", "French",
        "Russian",
    ]

    /// Validates `patch` and merges it key by key; on failure the configuration is unchanged.
    mutating func applySpeechSynthesis(_ patch: JSONObject) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        guard let model = SpeechSynthesisModel(model: object["model"]?.stringValue ?? "") else {
            return .success(SessionUpdateResult())
        }
        var merged = object
        for (key, value) in patch {
            if ["id", "object", "model"].contains(key) || (key == "voice" && value.isNull) { continue }
            if let problem = Self.speechProblem(key: key, value: value, model: model) {
                return .failure(
                    SessionUpdateFailure(error: .invalidValue("session.\(key)", problem), obligation: "qrt.C5"))
            }
            merged[key] = value
        }
        if merged["response_format"]?.stringValue == "opus",
            !Self.opusSampleRates.contains(merged["sample_rate"]?.intValue ?? 24000)
        {
            let key = patch["sample_rate"] != nil ? "sample_rate" : "response_format"
            return .failure(
                SessionUpdateFailure(
                    error: .invalidValue(
                        "session.\(key)", "opus output needs a sample_rate of 8000, 16000, 24000 or 48000."),
                    obligation: "qrt.C5"))
        }
        object = merged
        return .success(SessionUpdateResult())
    }

    /// Why `value` is not valid for `key` on `model`, or nil when it is (unknown keys are echoed).
    private static func speechProblem(key: String, value: JSONValue, model: SpeechSynthesisModel) -> String? {
        func within(_ range: ClosedRange<Double>, integer: Bool = false) -> String? {
            guard let number = value.doubleValue, range.contains(number), !integer || value.typeName == "integer" else {
                let bounds = integer ? "\(Int(range.lowerBound)) to \(Int(range.upperBound))" : "\(range)"
                return "\(key) must be \(integer ? "an integer" : "a number") in \(bounds)."
            }
            return nil
        }
        let qwenTTS = model.family == .qwenTTS
        switch key {
        case "voice":
            guard let voice = value.stringValue else { return "voice must be a string." }
            return model.voices.contains(voice) ? nil : "Voice '\(voice)' is not a system voice of \(model.name)."
        case "mode":
            return ["server_commit", "commit"].contains(value.stringValue ?? "")
                ? nil : "mode must be 'server_commit' or 'commit'."
        case "response_format" where qwenTTS:
            return value.stringValue == "pcm" ? nil : "\(model.name) only outputs pcm."
        case "response_format":
            return speechFormats.contains(value.stringValue ?? "")
                ? nil : "response_format must be pcm, wav, mp3 or opus."
        case "sample_rate" where qwenTTS:
            return value.intValue == 24000 && value.typeName == "integer" ? nil : "\(model.name) only outputs 24000 Hz."
        case "sample_rate":
            return speechSampleRates.contains(value.intValue ?? 0) && value.typeName == "integer"
                ? nil : "sample_rate must be 8000, 16000, 22050, 24000, 44100 or 48000."
        case "volume": return within(0...100, integer: true)
        case "speech_rate", "pitch_rate": return within(0.5...2)
        case "bit_rate": return within(6...510, integer: true)
        case "language_type":
            let name = value.stringValue?.lowercased()
            return speechLanguages.contains { $0.lowercased() == name }
                ? nil : "language_type must be one of \(speechLanguages.joined(separator: ", "))."
        case "instructions", "optimize_instructions":
            if value.isNull { return nil }
            guard model.acceptsInstructions else {
                return "\(key) is only supported by qwen3-tts-instruct-flash-realtime models."
            }
            if key == "optimize_instructions" { return value.boolValue != nil ? nil : "\(key) must be a boolean." }
            guard let text = value.stringValue else { return "instructions must be a string." }
            return Usage.textTokens(text) <= 1600 ? nil : "instructions must be at most 1600 tokens."
        case "enable_tn":
            return value.boolValue != nil || value.isNull ? nil : "enable_tn must be a boolean."
        default:
            return nil
        }
    }

    /// `mode`: whether the client commits (`commit`) or the server segments (`server_commit`).
    var clientCommits: Bool { object["mode"]?.stringValue == "commit" }
    /// `response_format`.
    var speechFormat: String { object["response_format"]?.stringValue ?? "pcm" }
    /// `volume` (0–100, 50 nominal).
    var speechVolume: Int { Int(object["volume"]?.intValue ?? 50) }
    /// `speech_rate` and `pitch_rate` in percent.
    var speechRatePercent: Int { Int(((object["speech_rate"]?.doubleValue ?? 1) * 100).rounded()) }
    var pitchRatePercent: Int { Int(((object["pitch_rate"]?.doubleValue ?? 1) * 100).rounded()) }
    /// `bit_rate` in kbps (opus and mp3; 128 by default).
    var speechBitRateKbps: Int { Int(object["bit_rate"]?.intValue ?? 128) }
}
