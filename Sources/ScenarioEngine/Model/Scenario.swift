import ProtocolModel
import WireJSON

/// A declarative server script shared by both protocols: what to say each turn, when to
/// say it, what to do when things happen, and what to break.
///
/// Built from a scenario file with ``parse(_:file:locate:)`` or from a recorded session
/// with ``replay(journal:timeScale:)``; executed per session by ``ScenarioRuntime``.
package struct Scenario: Sendable, Hashable {
    /// Short name (the file name without extension by convention).
    package var name: String
    /// What the scenario is for.
    package var description: String
    /// Seed of every random choice (delays, ids, probabilities, permutations).
    package var seed: UInt64
    /// Multiplier for policy timeouts, session expiry and trigger timers: 0.01 turns 60 s
    /// into 600 ms. Does not change per-event delays or streaming cadence.
    package var timeScale: Double
    /// Default values for `${name}` placeholders; client-supplied values win.
    package var variables: [String: String]
    /// Session policies.
    package var policies: SessionPolicies
    /// Turn contents.
    package var turns: TurnScript
    /// Delays and streaming cadence.
    package var timing: TimingModel
    /// Rules reacting to client input, time, audio and states.
    package var triggers: [Trigger]
    /// Faults (armed from the start or by triggers).
    package var faults: [FaultSpec]
    /// For replayed sessions: the recorded server frames; the protocol engine then sends
    /// only these (see ``ScenarioRuntime``) instead of generating answers.
    package var replay: [ReplayStep]?
    /// For replayed sessions: the recorded client frames' message names in order (`binary` for
    /// a binary frame); a live client that sends something else departs from the recording.
    package var replayClientFrames: [String]?

    /// Creates a scenario; the defaults are a plain, fault-free conversation.
    package init(
        name: String = "unnamed", description: String = "", seed: UInt64 = 0, timeScale: Double = 1,
        variables: [String: String] = [:], policies: SessionPolicies = SessionPolicies(),
        turns: TurnScript = TurnScript(), timing: TimingModel = TimingModel(), triggers: [Trigger] = [],
        faults: [FaultSpec] = [], replay: [ReplayStep]? = nil
    ) {
        self.name = name
        self.description = description
        self.seed = seed
        self.timeScale = timeScale
        self.variables = variables
        self.policies = policies
        self.turns = turns
        self.timing = timing
        self.triggers = triggers
        self.faults = faults
        self.replay = replay
    }

    /// The content of zero-based turn `index` with placeholders substituted from
    /// `variables` over the scenario's defaults.
    package func turn(at index: Int, variables: [String: String] = [:]) -> TurnContent {
        let merged = self.variables.merging(variables) { _, client in client }
        return turns.content(at: index).substituting(merged)
    }

    /// `ms` multiplied by the time scale, in microseconds.
    package func scaledMicros(_ ms: Double) -> Int64 {
        SessionPolicies.scaled(ms, timeScale: timeScale)
    }
}
