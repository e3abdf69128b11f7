package import ProtocolModel
package import ScenarioEngine
package import SessionCore
package import WireAudio
package import WireJSON

/// One Qwen realtime dialect (a model family on the realtime route): what it adds to or
/// overrides in the shared session core. A new dialect is a folder under `Dialects/` with a
/// type conforming to this protocol plus one line in ``QwenDialects/standard``; the compiler
/// then asks for every requirement below.
package protocol QwenDialect: Sendable {
    /// The dialect's name (``QwenProfile``), as acceptances and faults name it.
    var profile: QwenProfile { get }
    /// The model families served, for refusals (`qwen…omni…realtime…`).
    var servedModels: String { get }
    /// Whether the lower-cased model name belongs to this dialect.
    func serves(model name: String) -> Bool

    /// The session object of `session.created` (S2).
    func sessionDefaults(model: String, sessionID: String) -> JSONObject
    /// The default `turn_detection` object echoed in `session.created` (S2).
    var defaultTurnDetection: JSONObject { get }
    /// The `turn_detection.type` values this dialect accepts (C5).
    var turnDetectionTypes: [String] { get }
    /// Validates `patch` (C5–C7) and merges it into `configuration` (S4).
    func apply(
        _ patch: JSONObject, to configuration: inout SessionConfiguration, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure>
    /// A check of one `session.update` key this dialect reads its own way, or nil to leave the
    /// key to the core's validation.
    func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>?
    /// Keys that may not change once audio was appended (C7).
    var settingsFrozenByAudio: Set<String> { get }
    /// Whether a `voice` after the first `session.update` is ignored (C7's SHOULD half).
    var ignoresVoiceAfterFirstUpdate: Bool { get }
    /// Whether smart_turn's `voiceprint_audio_urls` are enrolled (S5).
    var enrolsVoiceprints: Bool { get }
    /// Whether `enable_search` makes answers search the web (`usage.plugins`).
    var searchesTheWeb: Bool { get }
    /// The input PCM sample rate the session object sets.
    func inputSampleRate(of session: JSONObject) -> Int
    /// The output PCM sample rate the session object sets.
    func outputSampleRate(of session: JSONObject) -> Int
    /// Whether `response.audio.delta` carries raw PCM (summarised in the journal).
    func sendsPCMAudio(_ configuration: SessionConfiguration) -> Bool

    /// Client event types of §4.0 this dialect defines.
    var clientEventTypes: Set<QwenClientEvent> { get }
    /// Whether the dialect takes input audio (its ``DialectWire/audioAppendEvent``, read in place
    /// on the hot path).
    var takesInputAudio: Bool { get }
    /// The obligation ids, audio events and error object of the core's shared checks.
    var wire: DialectWire { get }
    /// The commands answering an append whose audio is not heard now (not yet configured, muted,
    /// media declared on another transport), or nil to hear it.
    func refuseAudio<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand]?
    /// What the VAD found in one appended chunk (`events` may be empty: progress while the user
    /// speaks is reported per chunk).
    func heard<Clock>(_ events: [VADEvent], in session: QwenRealtimeSession<Clock>) -> [SessionCommand]
    /// What the dialect sends or arms once `session.created` is out.
    func opened<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand]
    /// An engine timer the core does not own fired.
    func engineTimerFired<Clock>(_ name: String, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]
    /// How the dialect ends a session the scenario ends, or nil for the core's way.
    func end<Clock>(_ reason: SessionEnd, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]?
    /// Whether events before the first `session.updated` break C4.
    var awaitsFirstSessionUpdated: Bool { get }
    /// Routes one client event (`known` is nil for a type outside §4.0).
    func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]
    /// Handles an event only this dialect treats its own way, or nil to leave it to the core
    /// (called by ``QwenRealtimeSession/dispatchConversation(_:_:_:)``).
    func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]?
    /// Sends one planned step of the response in progress.
    func perform<Clock>(_ step: ResponsePlan.Step, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]

    /// Whether the model answers (responses) or only transcribes.
    var answers: Bool { get }
    /// The input transcription delta event.
    var transcriptionDeltaEvent: QwenServerEvent { get }
    /// Whether transcription deltas report `language` and `emotion`.
    var deltasReportRecognition: Bool { get }
    /// Whether `…input_audio_transcription.completed` reports `language` and `emotion`.
    var completionReportsRecognition: Bool { get }
    /// What `input_audio_buffer.commit` does in a VAD mode.
    var commitInVADMode: VADBufferEventRule { get }
    /// What `input_audio_buffer.clear` does in a VAD mode.
    var clearInVADMode: VADBufferEventRule { get }
    /// Whether a first `session.update` without `turn_detection` may mean push-to-talk (the
    /// scenario policy `omittedTurnDetectionIsPushToTalk` decides).
    var omittedTurnDetectionMayMeanPushToTalk: Bool { get }

    /// Whether sessions carry a `conversation_id`.
    var hasConversationID: Bool { get }
    /// Whether `turn_detection.idle_timeout_ms` makes the model speak first.
    var speaksFirstAfterIdleTimeout: Bool { get }
    /// Whether a session ended by a trigger or idleness says `session.finished` first.
    var announcesScriptedEnd: Bool { get }
    /// Whether `session.finish` in push-to-talk recognises the audio not yet committed.
    var recognisesUncommittedAudioOnFinish: Bool { get }
}

/// What an `input_audio_buffer` commit or clear does while server VAD decides the turns (C9).
package enum VADBufferEventRule: Sendable, Hashable {
    /// Refused with an `error` (transcription commit).
    case refused
    /// Noted as a C9 breach and otherwise ignored (audio).
    case ignored
    /// Noted as a C9 breach and then carried out (omni).
    case honoured
}
