/// Something the protocol engine must do because of the scenario, returned by every
/// ``ScenarioRuntime`` input method in the order it must be done.
package enum ScenarioAction: Sendable, Hashable {
    /// Call ``ScenarioRuntime/timerFired(_:)`` with this timer at this time (replaces an
    /// earlier schedule of the same timer).
    case scheduleTimer(ScenarioTimer, atMicros: Int64)
    /// A fault-stage emission: send a frame, act on the socket, or render a requested frame.
    case emit(OutboundEmission)
    /// Send a scenario-given frame (trigger `send`, replay) at this time; pass it through
    /// ``ScenarioRuntime/outbound(_:)`` like any other frame.
    case send(ScriptedFrame, atMicros: Int64)
    /// End the session the protocol's way for this reason.
    case endSession(SessionEnd)
    /// Record this in the journal (fault applications, trigger firings, arming).
    case note(FaultNote)
}

/// The timers a runtime asks the engine to run.
package enum ScenarioTimer: Sendable, Hashable {
    /// The idle-end policy.
    case idleEnd
    /// The multimodal 60 s server-silence rule.
    case serverSilence
    /// The multimodal 20 s audio-gap rule.
    case audioGap
    /// The Qwen session cap.
    case sessionCap
    /// A `sessionExpiry` fault (index in arming order).
    case sessionExpiry(Int)
    /// A time trigger (index in the scenario's trigger list).
    case trigger(Int)
    /// The fault stage's reorder hold deadline.
    case faultStage
}

/// Why the scenario ends a session; the protocol engine renders it.
///
/// Suggested rendering — multimodal: `idle` → `Stopped` + `task-finished` + close 1000;
/// `serverSilence` → `task-failed{ResponseTimeout}` + close; `audioGap` →
/// `Error{40000, AudioTimeout}` + `task-failed` + close; `sessionExpiry` →
/// `task-failed{SessionExpired}` + close. Qwen: `error{server_error, session_expired}` or
/// `idle_timeout`, then close 1000/1011.
package enum SessionEnd: Sendable, Hashable {
    /// No client input for the idle-end duration.
    case idle
    /// The server sent nothing for the silence timeout.
    case serverSilence
    /// No upstream audio for the audio-gap timeout while watched.
    case audioGap
    /// The session cap or a `sessionExpiry` fault expired.
    case sessionExpiry
    /// A trigger's `endSession` action, with its reason text.
    case trigger(reason: String)
}
