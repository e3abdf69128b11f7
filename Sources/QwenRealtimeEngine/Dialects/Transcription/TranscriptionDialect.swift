package import ProtocolModel
package import SessionCore
package import WireJSON

extension QwenProfile {
    /// `qwen3-asr-flash-realtime*`: speech in, transcripts out, no answers.
    package static let transcription = QwenProfile(rawValue: "transcription")
}

/// Qwen-ASR-Realtime: speech in, transcripts out (`…input_audio_transcription.text` deltas,
/// language and emotion on every event), no answers; a top-level `sample_rate`; commit only in
/// push-to-talk; the answering dialects' events are refused by name.
package struct TranscriptionDialect: RealtimeAudioDialect {
    package init() {}

    package var profile: QwenProfile { .transcription }
    package var servedModels: String { "qwen3-asr-flash-realtime…" }

    /// A `qwen…` name containing `-asr-` and then `realtime`.
    package func serves(model name: String) -> Bool {
        guard name.hasPrefix("qwen"), let asr = name.firstRange(of: "-asr-") else { return false }
        return name[asr.upperBound...].contains("realtime")
    }

    /// Text out only, top-level `sample_rate`, server VAD by default.
    package func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        [
            "id": .string(sessionID), "object": "realtime.session", "model": .string(model),
            "modalities": ["text"], "input_audio_format": "pcm", "sample_rate": 16000,
            "input_audio_transcription": [:],
            "turn_detection": .object(defaultTurnDetection),
        ]
    }

    package var defaultTurnDetection: JSONObject {
        ["type": "server_vad", "threshold": 0.2, "silence_duration_ms": 800]
    }
    package var turnDetectionTypes: [String] { ["server_vad"] }

    /// Opus input is not emulated; `sample_rate` is 8 or 16 kHz.
    package func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? {
        func bad(_ message: String) -> Result<JSONValue, SessionUpdateFailure> {
            .failure(SessionUpdateFailure(error: .invalidValue("session.\(key)", message), obligation: "qrt.C5"))
        }
        switch key {
        case "input_audio_format" where value.stringValue == "opus":
            return bad("input_audio_format opus is not emulated by the mock; send pcm (16-bit mono).")
        case "sample_rate":
            return [8000, 16000].contains(value.intValue ?? 0) && value.typeName == "integer"
                ? .success(value) : bad("sample_rate must be 8000 or 16000.")
        default:
            return nil
        }
    }
    package var settingsFrozenByAudio: Set<String> { ["input_audio_format", "sample_rate"] }
    package var ignoresVoiceAfterFirstUpdate: Bool { false }
    package var enrolsVoiceprints: Bool { false }
    package var searchesTheWeb: Bool { false }
    package func inputSampleRate(of session: JSONObject) -> Int {
        Int(session["sample_rate"]?.intValue ?? 16000)
    }

    package var clientEventTypes: Set<QwenClientEvent> {
        [.sessionUpdate, .inputAudioBufferAppend, .inputAudioBufferCommit, .inputAudioBufferClear, .sessionFinish]
    }

    /// Events of the answering dialects are refused by name (C17) before anything else.
    package func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        if let known, !clientEventTypes.contains(known), OmniDialect().clientEventTypes.contains(known) {
            return session.reject(
                .unknownEvent(type), "qrt.C17",
                "\(type) is not part of the transcription model's API (\(session.model) only transcribes)")
        }
        return session.dispatchConversation(known, type, event)
    }

    package func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? {
        known == .sessionFinish ? session.finishSession() : nil
    }

    package var answers: Bool { false }
    package var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionText }
    package var deltasReportRecognition: Bool { true }
    package var completionReportsRecognition: Bool { true }
    package var commitInVADMode: VADBufferEventRule { .refused }
    package var clearInVADMode: VADBufferEventRule { .honoured }
    package var omittedTurnDetectionMayMeanPushToTalk: Bool { false }
    package var hasConversationID: Bool { false }
    package var speaksFirstAfterIdleTimeout: Bool { false }
    package var announcesScriptedEnd: Bool { false }
    package var recognisesUncommittedAudioOnFinish: Bool { true }
}
