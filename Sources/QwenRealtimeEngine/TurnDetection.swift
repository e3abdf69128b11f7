package import WireJSON

/// The effective `turn_detection` settings (§3.3); `nil` in a configuration means push-to-talk.
package struct TurnDetection: Sendable, Hashable {
    /// `server_vad`, `smart_turn` (audio) or `semantic_vad` (omni).
    package var type: String
    /// VAD sensitivity −1…1 (lower = more sensitive).
    package var threshold: Double
    /// Silence that ends speech, 200…6000 ms.
    package var silenceDurationMs: Int
    /// Audio before the onset included in `audio_start_ms`.
    package var prefixPaddingMs: Int
    /// Omni `create_response`: answer automatically at the end of a turn.
    package var createResponse: Bool
    /// Omni `interrupt_response`: speech during a response cancels it.
    package var interruptResponse: Bool
    /// Audio smart_turn voiceprint URLs (first update only).
    package var voiceprintURLs: [String]
    /// Omni server_vad `idle_timeout_ms`: after an answer has played, this much user silence
    /// makes the model speak first.
    package var idleTimeoutMs: Int?

    /// Whether semantic turn-taking (filler / invalid classification) is on.
    package var isSmartTurn: Bool { type == "smart_turn" }

    /// Reads a validated `turn_detection` object (see ``validate(_:dialect:silenceDurationMs:)``).
    package init(_ object: JSONObject) {
        type = object["type"]?.stringValue ?? "server_vad"
        threshold = object["threshold"]?.doubleValue ?? 0.5
        silenceDurationMs = Int(object["silence_duration_ms"]?.intValue ?? 800)
        prefixPaddingMs = Int(object["prefix_padding_ms"]?.intValue ?? 300)
        createResponse = object["create_response"]?.boolValue ?? true
        interruptResponse = object["interrupt_response"]?.boolValue ?? true
        voiceprintURLs = object["voiceprint_audio_urls"]?.arrayValue?.compactMap(\.stringValue) ?? []
        idleTimeoutMs = object["idle_timeout_ms"]?.intValue.map { Int($0) }
    }

    /// Validates a client `turn_detection` object (C5) and returns it completed with defaults
    /// for the keys it lacks; unknown keys are kept (echoed).
    /// `silenceDurationMs` replaces the default `silence_duration_ms` (scenario `endOfTurnSilenceMs`).
    package static func validate(
        _ value: JSONValue, dialect: any QwenDialect, silenceDurationMs: Int? = nil
    ) -> Result<JSONObject, QwenError> {
        guard case .object(let given) = value else {
            return .failure(.invalidValue("session.turn_detection", "turn_detection must be an object or null."))
        }
        var object = dialect.defaultTurnDetection
        if let silenceDurationMs { object["silence_duration_ms"] = .int(Int64(silenceDurationMs)) }
        for (key, value) in given { object[key] = value }
        guard let type = object["type"]?.stringValue, dialect.turnDetectionTypes.contains(type) else {
            let allowed = dialect.turnDetectionTypes.joined(separator: ", ")
            return .failure(
                .invalidValue("session.turn_detection.type", "turn_detection.type must be one of: \(allowed)."))
        }
        guard let threshold = object["threshold"]?.doubleValue, (-1.0...1.0).contains(threshold) else {
            return .failure(
                .invalidValue("session.turn_detection.threshold", "threshold must be a number in [-1.0, 1.0]."))
        }
        guard let silence = object["silence_duration_ms"]?.intValue, (200...6000).contains(silence) else {
            return .failure(
                .invalidValue(
                    "session.turn_detection.silence_duration_ms",
                    "silence_duration_ms must be an integer in [200, 6000]."))
        }
        if let padding = object["prefix_padding_ms"], !(padding.intValue.map { (0...10_000).contains($0) } ?? false) {
            return .failure(
                .invalidValue(
                    "session.turn_detection.prefix_padding_ms", "prefix_padding_ms must be an integer in [0, 10000]."))
        }
        if let idle = object["idle_timeout_ms"], !idle.isNull,
            !(idle.intValue.map { (5000...30_000).contains($0) } ?? false)
        {
            return .failure(
                .invalidValue(
                    "session.turn_detection.idle_timeout_ms", "idle_timeout_ms must be an integer in [5000, 30000]."))
        }
        if let urls = object["voiceprint_audio_urls"] {
            guard dialect.enrolsVoiceprints, type == "smart_turn" else {
                return .failure(
                    .invalidValue(
                        "session.turn_detection.voiceprint_audio_urls",
                        "voiceprint_audio_urls is only allowed with smart_turn."))
            }
            guard let list = urls.arrayValue, list.count <= 5, list.allSatisfy({ $0.stringValue?.isEmpty == false })
            else {
                return .failure(
                    .invalidValue(
                        "session.turn_detection.voiceprint_audio_urls",
                        "voiceprint_audio_urls must be at most 5 URL strings."))
            }
        }
        return .success(object)
    }
}
