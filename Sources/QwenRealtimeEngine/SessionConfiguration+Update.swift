package import WireJSON

/// Why a `session.update` was refused: the error to send and the obligation broken.
package struct SessionUpdateFailure: Error, Sendable, Hashable {
    /// The `error` event's object.
    package var error: QwenError
    /// `qrt.C5`, `qrt.C6` or `qrt.C7`.
    package var obligation: String
}

/// What a successful `session.update` changed beyond the echoed object.
package struct SessionUpdateResult: Sendable, Hashable {
    /// Keys present in the patch but silently ignored (audio: later `voice`/voiceprints, C7).
    package var ignoredKeys: [String] = []
    /// Voiceprint URLs to enrol (audio smart_turn, first update) (S5).
    package var voiceprintURLs: [String] = []
}

extension SessionConfiguration {
    /// Validates `patch` (C5–C7) by the dialect's rules and, if every value is valid, merges it
    /// key by key (S4); on failure the configuration is unchanged.
    /// - Parameters:
    ///   - isFirstUpdate: Whether this is the session's first `session.update`.
    ///   - audioStarted: Whether an `input_audio_buffer.append` was received (some dialects
    ///     freeze settings then, ``QwenDialect/settingsFrozenByAudio``).
    package mutating func apply(
        _ patch: JSONObject, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        let dialect = self.dialect
        return dialect.apply(patch, to: &self, isFirstUpdate: isFirstUpdate, audioStarted: audioStarted)
    }

    /// The realtime session's `session.update` (audio in): the top-level keys of §3.5.
    mutating func applyRealtimeSession(
        _ patch: JSONObject, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        if let marker = Self.openAIGAShapeMarker(in: patch) {
            // Accepted and echoed as unknown keys, a GA session would run on defaults in silence.
            return fail(
                .invalidValue(
                    "session.\(marker)",
                    "session.\(marker) belongs to the OpenAI GA session shape "
                        + "(type \"realtime\", output_modalities, MIME audio formats such as \"audio/pcm\"); this service speaks the beta events: "
                        + "set modalities, input_audio_format, output_audio_format, voice and turn_detection at the top level of session."
                ),
                "qrt.C5")
        }
        var merged = object
        var result = SessionUpdateResult()
        for (key, value) in patch {
            switch key {
            case "id", "object", "model":
                continue  // fixed by the server / the URL
            case "voice" where value.isNull:
                continue  // the Python SDK sends `voice: null` when none is chosen: keep the current voice
            case "voice" where dialect.ignoresVoiceAfterFirstUpdate && !isFirstUpdate:
                result.ignoredKeys.append(key)
                continue
            default:
                break
            }
            let frozen = audioStarted && dialect.settingsFrozenByAudio.contains(key)
            if frozen, !Self.sameSetting(value, object[key]) {
                return fail(
                    .invalidState(
                        "session.\(key)", "\(key) cannot be changed after audio has been appended."), "qrt.C7")
            }
            switch validate(key: key, value: value) {
            case .failure(let failure): return .failure(failure)
            case .success(var accepted):
                if key == "turn_detection", dialect.enrolsVoiceprints, case .object(var detection) = accepted,
                    let urls = detection["voiceprint_audio_urls"]
                {
                    if isFirstUpdate {
                        result.voiceprintURLs = urls.arrayValue?.compactMap(\.stringValue) ?? []
                    } else {
                        detection["voiceprint_audio_urls"] = nil
                        accepted = .object(detection)
                        result.ignoredKeys.append("turn_detection.voiceprint_audio_urls")
                    }
                }
                merged[key] = accepted
            }
        }
        if merged["enable_search"]?.boolValue == true, !(merged["tools"]?.arrayValue ?? []).isEmpty {
            return fail(
                .invalidValue("session.enable_search", "enable_search cannot be combined with tools."), "qrt.C5")
        }
        // Kept for the session's life: without the spare capacity the merge grew it with.
        object = merged.compacted()
        return .success(result)
    }

    /// Whether a re-sent frozen setting leaves it unchanged (objects compared on the keys sent).
    private static func sameSetting(_ new: JSONValue, _ old: JSONValue?) -> Bool {
        guard case .object(let patch) = new, case .object(let current)? = old else { return new == old }
        return patch.allSatisfy { current[$0.key] == $0.value }
    }

    /// The first key of `patch` that only the OpenAI GA `session.update` has (`type`,
    /// `output_modalities`, an `audio.input` / `audio.output` format whose type is a MIME type
    /// such as `audio/pcm`), or nil. Qwen omni's own `audio.input.format` (`type: "pcm"`,
    /// `sample_rate`) and `audio.output.voice` are not markers.
    static func openAIGAShapeMarker(in patch: JSONObject) -> String? {
        if patch["type"] != nil { return "type" }
        if patch["output_modalities"] != nil { return "output_modalities" }
        for side in ["input", "output"] {
            if let type = patch["audio"]?[side]?["format"]?["type"]?.stringValue, type.hasPrefix("audio/") {
                return "audio.\(side).format.type"
            }
        }
        return nil
    }

    /// `input_audio_transcription`: an object or null; `model` and `language` strings, `corpus`
    /// an object whose `text` is a string.
    private static func validateTranscription(_ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure> {
        func bad(_ field: String, _ message: String) -> Result<JSONValue, SessionUpdateFailure> {
            .failure(
                SessionUpdateFailure(
                    error: .invalidValue("session.input_audio_transcription\(field)", message), obligation: "qrt.C5"))
        }
        if value.isNull { return .success(value) }
        guard value.objectValue != nil else { return bad("", "input_audio_transcription must be an object or null.") }
        for key in ["model", "language"] {
            if let member = value[key], !member.isNull, member.stringValue == nil {
                return bad(".\(key)", "\(key) must be a string.")
            }
        }
        if let language = value["language"]?.stringValue,
            language.isEmpty || language.count > 16
                || !language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") })
        {
            return bad(".language", "language must be a language code such as 'zh' or 'en'.")
        }
        if let corpus = value["corpus"], !corpus.isNull {
            guard corpus.objectValue != nil else { return bad(".corpus", "corpus must be an object.") }
            if let text = corpus["text"], !text.isNull, text.stringValue == nil {
                return bad(".corpus.text", "corpus.text must be a string.")
            }
        }
        return .success(value)
    }

    private func fail(_ error: QwenError, _ obligation: String) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        .failure(SessionUpdateFailure(error: error, obligation: obligation))
    }

    /// Validates one top-level key; returns the value to store.
    private func validate(key: String, value: JSONValue) -> Result<JSONValue, SessionUpdateFailure> {
        func bad(_ message: String, _ obligation: String = "qrt.C5") -> Result<JSONValue, SessionUpdateFailure> {
            .failure(SessionUpdateFailure(error: .invalidValue("session.\(key)", message), obligation: obligation))
        }
        func number(in range: ClosedRange<Double>, open: Bool = false) -> Result<JSONValue, SessionUpdateFailure> {
            guard let number = value.doubleValue, range.contains(number),
                !open || (number != range.lowerBound && number != range.upperBound)
            else { return bad("\(key) is out of range.") }
            return .success(value)
        }
        if let own = dialect.validateOwnSetting(key, value) { return own }
        switch key {
        case "modalities":
            let list = value.arrayValue?.compactMap(\.stringValue) ?? []
            let valid = [["text"], ["audio", "text"], ["text", "audio"]]
            return valid.contains(list) && list.count == value.arrayValue?.count
                ? .success(value) : bad("modalities must be [\"text\"] or [\"text\",\"audio\"].")
        case "voice", "instructions":
            return value.stringValue != nil || (key == "instructions" && value.isNull)
                ? .success(value.isNull ? "" : value) : bad("\(key) must be a string.")
        case "input_audio_format":
            return ["pcm", "pcm16"].contains(value.stringValue ?? "")
                ? .success(value) : bad("Unsupported input_audio_format.")
        case "output_audio_format":
            return ["pcm", "pcm16", "pcm24"].contains(value.stringValue ?? "")
                ? .success(value) : bad("Unsupported output_audio_format.")
        case "turn_detection":
            if value.isNull { return .success(.null) }
            return TurnDetection.validate(value, dialect: dialect, silenceDurationMs: endOfTurnSilenceMs)
                .map(JSONValue.object)
                .mapError { SessionUpdateFailure(error: $0, obligation: "qrt.C5") }
        case "tools":
            return ToolDefinition.validate(value).map { _ in value }
                .mapError { SessionUpdateFailure(error: $0, obligation: "qrt.C6") }
        case "max_history_turns":
            return (value.intValue.map { (1...50).contains($0) } ?? false) && value.typeName == "integer"
                ? .success(value) : bad("max_history_turns must be an integer in [1, 50].")
        case "search_options":
            guard let options = value.objectValue else { return bad("search_options must be an object.") }
            for flag in ["enable_source", "enable_citation", "forced_search"] {
                if let member = options[flag], member.boolValue == nil {
                    return bad("search_options.\(flag) must be a boolean.")
                }
            }
            if let strategy = options["search_strategy"],
                !["turbo", "max", "agent"].contains(strategy.stringValue ?? "")
            {
                return bad("search_options.search_strategy must be turbo, max or agent.")
            }
            return .success(value)
        case "enable_speech_emotion", "enable_search":
            return value.boolValue != nil ? .success(value) : bad("\(key) must be a boolean.")
        case "smooth_output":
            return value.boolValue != nil || value.isNull
                ? .success(value) : bad("smooth_output must be a boolean or null.")
        case "input_audio_transcription":
            return Self.validateTranscription(value)
        case "temperature":
            return (value.doubleValue.map { $0 >= 0 && $0 < 2 } ?? false)
                ? .success(value) : bad("temperature must be in [0, 2).")
        case "top_p":
            return (value.doubleValue.map { $0 > 0 && $0 <= 1 } ?? false)
                ? .success(value) : bad("top_p must be in (0, 1].")
        case "top_k": return number(in: 0...1_000_000)
        case "presence_penalty": return number(in: -2...2)
        case "repetition_penalty": return number(in: 0...1_000, open: true)
        case "max_tokens": return number(in: 1...1_000_000)
        case "seed":
            return value.intValue.map { (0...2_147_483_647).contains($0) } ?? false
                ? .success(value) : bad("seed must be in [0, 2^31-1].")
        default:
            return .success(value)  // unknown keys are accepted and echoed (S4)
        }
    }
}
