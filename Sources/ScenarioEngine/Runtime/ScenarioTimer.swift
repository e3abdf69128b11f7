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

/// The session policies whose timers a protocol has (`SessionPolicies` parses them all from
/// scenario files; each engine says which it watches, so a Qwen session never runs the
/// multimodal audio-gap or server-silence timers).
package struct PolicyWatches: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `idleEndMs`: end a session without client input.
    package static let idleEnd = PolicyWatches(rawValue: 1 << 0)
    /// `serverSilenceTimeoutMs`: the multimodal 60 s server-silence rule.
    package static let serverSilence = PolicyWatches(rawValue: 1 << 1)
    /// `audioGapTimeoutMs`: the multimodal 20 s audio-gap rule (switched by ``ScenarioRuntime/watchAudioGap(_:)``).
    package static let audioGap = PolicyWatches(rawValue: 1 << 2)
    /// `sessionCapMs`: the service's cap on a session's length.
    package static let sessionCap = PolicyWatches(rawValue: 1 << 3)
}
