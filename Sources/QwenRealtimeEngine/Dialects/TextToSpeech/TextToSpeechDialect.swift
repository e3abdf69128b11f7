package import ProtocolModel
package import ScenarioEngine
package import SessionCore
package import WireAudio
package import WireJSON

extension QwenProfile {
    /// `qwen-tts-realtime*`, `qwen3-tts-flash-realtime*`, `qwen3-tts-instruct-flash-realtime*`:
    /// text in (`input_text_buffer.*`), audio out (``SpeechSynthesisModel``).
    package static let speechSynthesis = QwenProfile(rawValue: "speechSynthesis")
}

/// Qwen-TTS-Realtime (§8.12): its own session object and `session.update`, its own client
/// events (``QwenRealtimeSession/dispatchSpeech(_:_:_:)``) and response steps; no audio input,
/// and text may follow `session.update` before `session.updated` (the SDK does so).
package struct TextToSpeechDialect: QwenDialect {
    package init() {}

    package var profile: QwenProfile { .speechSynthesis }
    package var servedModels: String {
        "qwen-tts-realtime…, qwen3-tts-flash-realtime…, qwen3-tts-instruct-flash-realtime…"
    }
    package func serves(model name: String) -> Bool { SpeechSynthesisModel(model: name) != nil }

    package func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        SessionConfiguration.speechSynthesisDefaults(model: model, sessionID: sessionID)
    }

    /// No turn detection: text comes in, and the audio-input answers below are never asked.
    package var defaultTurnDetection: JSONObject { [:] }
    package var turnDetectionTypes: [String] { [] }
    package func apply(
        _ patch: JSONObject, to configuration: inout SessionConfiguration, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        configuration.applySpeechSynthesis(patch)
    }
    package func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? {
        nil
    }
    package var settingsFrozenByAudio: Set<String> { [] }
    package var ignoresVoiceAfterFirstUpdate: Bool { false }
    package var enrolsVoiceprints: Bool { false }
    package var searchesTheWeb: Bool { false }
    package func inputSampleRate(of session: JSONObject) -> Int {
        SessionConfiguration.nestedInputSampleRate(of: session)
    }
    package func outputSampleRate(of session: JSONObject) -> Int { Int(session["sample_rate"]?.intValue ?? 24000) }
    package func sendsPCMAudio(_ configuration: SessionConfiguration) -> Bool { configuration.speechFormat == "pcm" }

    package var clientEventTypes: Set<QwenClientEvent> {
        [
            .sessionUpdate, .inputTextBufferAppend, .inputTextBufferCommit, .inputTextBufferClear, .responseCancel,
            .sessionFinish,
        ]
    }
    package var takesInputAudio: Bool { false }
    package var awaitsFirstSessionUpdated: Bool { false }
    package var wire: DialectWire { .realtime }
    /// Never asked: the dialect takes no audio.
    package func refuseAudio<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? { nil }
    package func heard<Clock>(_ events: [VADEvent], in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        []
    }
    package func opened<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand] { [] }
    package func engineTimerFired<Clock>(_ name: String, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        []
    }
    package func end<Clock>(_ reason: SessionEnd, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? { nil }

    package func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        session.dispatchSpeech(known, type, event)
    }

    /// Every event goes through ``dispatch(_:_:_:in:)``; the conversational core is never asked.
    package func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? {
        nil
    }

    package func perform<Clock>(_ step: ResponsePlan.Step, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.performSpeechStep(step)
    }

    package var answers: Bool { true }
    package var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionDelta }
    package var deltasReportRecognition: Bool { true }
    package var completionReportsRecognition: Bool { false }
    package var commitInVADMode: VADBufferEventRule { .honoured }
    package var clearInVADMode: VADBufferEventRule { .honoured }
    package var omittedTurnDetectionMayMeanPushToTalk: Bool { false }
    package var hasConversationID: Bool { false }
    package var speaksFirstAfterIdleTimeout: Bool { false }
    package var announcesScriptedEnd: Bool { false }
    package var recognisesUncommittedAudioOnFinish: Bool { false }
}
