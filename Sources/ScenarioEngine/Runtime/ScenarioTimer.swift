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
