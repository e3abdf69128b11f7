import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import WireJSON

extension QwenProfile {
    /// The test-only dialect of ``LiveTestDialect``.
    static let liveTest = QwenProfile(rawValue: "liveTest")
}

/// A dialect declared outside the engine, as the next one (Qwen-Audio-Live) will be declared in
/// its own folder: the realtime audio core plus its own model names, defaults, rules and one
/// event of its own (`live.ping`, answered with the current session).
struct LiveTestDialect: RealtimeAudioDialect {
    static let model = "qwen-live-test-realtime"
    static let pingEvent = "live.ping"

    var profile: QwenProfile { .liveTest }
    var servedModels: String { "qwen-live-test-realtime…" }
    func serves(model name: String) -> Bool { name.hasPrefix(Self.model) }

    func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        SessionConfiguration.conversationDefaults(
            dialect: self, model: model, sessionID: sessionID, voice: "LiveVoice", transcriptionModel: "live-asr")
    }
    var defaultTurnDetection: JSONObject { ["type": "server_vad", "threshold": 0.3, "silence_duration_ms": 600] }
    var turnDetectionTypes: [String] { ["server_vad"] }
    func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? { nil }
    var settingsFrozenByAudio: Set<String> { ["input_audio_format"] }
    var ignoresVoiceAfterFirstUpdate: Bool { false }
    var enrolsVoiceprints: Bool { false }
    var searchesTheWeb: Bool { false }
    func inputSampleRate(of session: JSONObject) -> Int { SessionConfiguration.nestedInputSampleRate(of: session) }

    var clientEventTypes: Set<QwenClientEvent> {
        [.sessionUpdate, .inputAudioBufferAppend, .inputAudioBufferCommit, .inputAudioBufferClear, .responseCancel]
    }

    func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        guard known == nil, type == Self.pingEvent else { return session.dispatchConversation(known, type, event) }
        return [.journal(.info("\(type) answered by the live dialect"))]
            + session.emit(.sessionUpdated, ["session": session.configuration.json])
    }

    func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? { nil }

    var answers: Bool { true }
    var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionDelta }
    var deltasReportRecognition: Bool { false }
    var completionReportsRecognition: Bool { false }
    var commitInVADMode: VADBufferEventRule { .refused }
    var clearInVADMode: VADBufferEventRule { .refused }
    var omittedTurnDetectionMayMeanPushToTalk: Bool { false }
    var hasConversationID: Bool { false }
    var speaksFirstAfterIdleTimeout: Bool { false }
    var announcesScriptedEnd: Bool { false }
    var recognisesUncommittedAudioOnFinish: Bool { false }
}
