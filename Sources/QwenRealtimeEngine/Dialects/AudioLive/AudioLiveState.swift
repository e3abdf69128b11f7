import ScenarioEngine

/// What a Qwen-Audio-Live session keeps beyond the core's state (the session's
/// ``QwenRealtimeSession/dialectState``): whether it is configured, muted or asked for AOQ
/// media, its delegations, the answers waiting for the one being spoken, duplex and usage
/// bookkeeping.
final class AudioLiveState {
    /// A `session.updated` went out: audio is heard and events are answered (qal.C4).
    var configured = false
    /// The client asked for AOQ media (`transport.type: aoq`, refused by the mock): audio on the
    /// WebSocket breaks qal.C7 until an update sets `websocket`.
    var declaredAOQ = false
    /// `session.input_audio.mute` is in effect: audio is accepted and not heard.
    var muted = false
    /// Client delegations waiting for their `session.commentary.append` (qal.C9).
    var pendingDelegations: Set<String> = []
    /// The tool names of the calls sent, by `call_id` (the answer reports their output).
    var callNames: [String: String] = [:]
    /// Answers to speak after the one in progress (a commentary during the filler, …).
    var queued: [TurnContent] = []
    /// Duplex: the answer to the current speech segment started while the user still spoke.
    var answeredDuringSpeech = false
    /// `session.usage.updated` events sent.
    var usageReports = 0

    /// The engine timer of the next `session.usage.updated`.
    static let usageTimer = "liveUsage"
    /// The engine timer of a duplex answer while the user speaks.
    static let interjectTimer = "liveInterject"
    /// What the model says while a client delegation runs (the mock's words).
    static let delegationFiller = "One moment, I am looking into that."
}
