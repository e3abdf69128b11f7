package import ProtocolModel
package import SessionCore
package import WireJSON

extension QwenProfile {
    /// `*omni*realtime*` (image input, search, sampling knobs, `session.finish`).
    package static let omni = QwenProfile(rawValue: "omni")
}

/// Qwen-Omni-Realtime: image input, web search, sampling knobs, nested `audio` formats,
/// `session.finish`, a `conversation_id`, and the model speaking first after an idle timeout.
package struct OmniDialect: RealtimeAudioDialect {
    package init() {}

    package var profile: QwenProfile { .omni }
    package var servedModels: String { "qwen…omni…realtime…" }

    /// A `qwen…` name containing `omni` and then `realtime`.
    package func serves(model name: String) -> Bool {
        guard name.hasPrefix("qwen"), let omni = name.firstRange(of: "omni") else { return false }
        return name[omni.upperBound...].contains("realtime")
    }

    package func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        var object = SessionConfiguration.conversationDefaults(
            dialect: self, model: model, sessionID: sessionID, voice: Self.defaultVoice(model: model),
            transcriptionModel: "qwen3-asr-flash-realtime")
        object["enable_search"] = false
        object["search_options"] = ["enable_source": false]
        object["temperature"] = 0.9
        object["top_p"] = 1.0
        object["top_k"] = 50
        object["max_tokens"] = 16384
        object["repetition_penalty"] = 1.05
        object["presence_penalty"] = 0.0
        return object
    }

    /// The default voice of an omni model (§3.1).
    private static func defaultVoice(model: String) -> String {
        let name = model.lowercased()
        if name.hasPrefix("qwen3.5") || name.hasPrefix("qwen3.8") { return "Tina" }
        if name.hasPrefix("qwen-omni-turbo") { return "Chelsie" }
        return "Cherry"
    }

    package var defaultTurnDetection: JSONObject {
        [
            "type": "server_vad", "threshold": 0.5, "prefix_padding_ms": 300, "silence_duration_ms": 800,
            "create_response": true, "interrupt_response": true,
        ]
    }
    package var turnDetectionTypes: [String] { ["server_vad", "semantic_vad"] }

    /// Omni 3.8's nested `audio` input / output formats.
    package func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? {
        guard key == "audio" else { return nil }
        return AudioFormatSettings.validate(value).mapError { SessionUpdateFailure(error: $0, obligation: "qrt.C5") }
    }
    package var settingsFrozenByAudio: Set<String> { [] }
    package var ignoresVoiceAfterFirstUpdate: Bool { false }
    package var enrolsVoiceprints: Bool { false }
    package var searchesTheWeb: Bool { true }
    package func inputSampleRate(of session: JSONObject) -> Int {
        SessionConfiguration.nestedInputSampleRate(of: session)
    }

    package var clientEventTypes: Set<QwenClientEvent> {
        QwenClientEvent.answeringCore.union([.inputImageBufferAppend, .sessionFinish])
    }

    package func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        session.dispatchConversation(known, type, event)
    }

    /// Images, `session.finish`, and the item retrieve / delete the omni docs leave out (served,
    /// journaled as C17).
    package func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? {
        switch known {
        case .inputImageBufferAppend: return session.appendImage(event)
        case .sessionFinish: return session.finishSession()
        case .conversationItemRetrieve, .conversationItemDelete:
            let type = known.rawValue
            let note = session.violationOnce(
                "C17-\(type)", "qrt.C17", "\(type) is not documented for the omni profile")
            return note + (known == .conversationItemRetrieve ? session.retrieveItem(event) : session.deleteItem(event))
        default:
            return nil
        }
    }

    package var answers: Bool { true }
    package var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionDelta }
    package var deltasReportRecognition: Bool { true }
    package var completionReportsRecognition: Bool { false }
    package var commitInVADMode: VADBufferEventRule { .honoured }
    package var clearInVADMode: VADBufferEventRule { .honoured }
    package var omittedTurnDetectionMayMeanPushToTalk: Bool { false }
    package var hasConversationID: Bool { true }
    package var speaksFirstAfterIdleTimeout: Bool { true }
    package var announcesScriptedEnd: Bool { true }
    package var recognisesUncommittedAudioOnFinish: Bool { false }
}
