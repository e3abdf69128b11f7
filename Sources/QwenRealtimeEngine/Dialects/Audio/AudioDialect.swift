package import ProtocolModel
package import SessionCore
package import WireJSON

extension QwenProfile {
    /// `qwen-audio-3.x-realtime-*` (the nuisdk of SEED-003).
    package static let audio = QwenProfile(rawValue: "audio")
}

/// Qwen-Audio-Realtime: server VAD or smart_turn with voiceprints, push-to-talk when the first
/// `session.update` omits `turn_detection` (policy), settings frozen once audio flows.
package struct AudioDialect: RealtimeAudioDialect {
    package init() {}

    package var profile: QwenProfile { .audio }
    package var servedModels: String { "qwen-audio-3.x-realtime…" }

    /// `qwen-audio-3.<digits>-realtime` optionally followed by `-<suffix>` (`-plus`, `-flash`,
    /// dated snapshots).
    package func serves(model name: String) -> Bool {
        let prefix = "qwen-audio-3."
        guard name.hasPrefix(prefix) else { return false }
        let rest = name.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return false }
        let tail = rest.dropFirst(digits.count)
        guard tail.hasPrefix("-realtime") else { return false }
        let suffix = tail.dropFirst("-realtime".count)
        return suffix.isEmpty || (suffix.hasPrefix("-") && suffix.count > 1)
    }

    package func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        let voice = model.lowercased().hasPrefix("qwen-audio-3.1") ? "longanqian_v3.1" : "longanqian"
        var object = SessionConfiguration.conversationDefaults(
            dialect: self, model: model, sessionID: sessionID, voice: voice, transcriptionModel: "fun-asr")
        object["enable_speech_emotion"] = true
        object["max_history_turns"] = 20
        return object
    }

    package var defaultTurnDetection: JSONObject {
        ["type": "server_vad", "threshold": 0.5, "silence_duration_ms": 800]
    }
    package var turnDetectionTypes: [String] { ["server_vad", "smart_turn"] }
    package func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? {
        nil
    }
    package var settingsFrozenByAudio: Set<String> { ["turn_detection", "input_audio_format"] }
    package var ignoresVoiceAfterFirstUpdate: Bool { true }
    package var enrolsVoiceprints: Bool { true }
    package var searchesTheWeb: Bool { false }
    package func inputSampleRate(of session: JSONObject) -> Int {
        SessionConfiguration.nestedInputSampleRate(of: session)
    }

    package var clientEventTypes: Set<QwenClientEvent> { QwenClientEvent.answeringCore }

    package func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        session.dispatchConversation(known, type, event)
    }

    /// Omni's `session.finish` and `input_image_buffer.append` are refused by name (C17).
    package func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? {
        switch known {
        case .sessionFinish, .inputImageBufferAppend:
            let type = known.rawValue
            return session.reject(.unknownEvent(type), "qrt.C17", "\(type) is not defined for the audio profile")
        default:
            return nil
        }
    }

    package var answers: Bool { true }
    package var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionDelta }
    package var deltasReportRecognition: Bool { false }
    package var completionReportsRecognition: Bool { false }
    package var commitInVADMode: VADBufferEventRule { .ignored }
    package var clearInVADMode: VADBufferEventRule { .ignored }
    package var omittedTurnDetectionMayMeanPushToTalk: Bool { true }
    package var hasConversationID: Bool { false }
    package var speaksFirstAfterIdleTimeout: Bool { false }
    package var announcesScriptedEnd: Bool { false }
    package var recognisesUncommittedAudioOnFinish: Bool { false }
}
