package import ProtocolModel

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
