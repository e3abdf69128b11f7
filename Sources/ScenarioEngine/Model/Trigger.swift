import ProtocolModel
package import WireJSON

/// A rule "when X happens, do Y": arms or disarms faults, injects a fault inline, sends a
/// frame, or ends the session.
package struct Trigger: Sendable, Hashable {
    /// What makes the trigger fire.
    package enum Condition: Sendable, Hashable {
        /// A client message of this type (multimodal directive name or Qwen `type`), optionally
        /// with a JSON-pointer match on the message.
        case message(type: String, match: EventMatcher?)
        /// `ms` (scaled by the time scale) after session start, or after trigger `from` fired;
        /// with a repeating limit, every `ms` after that.
        case afterTime(ms: Double, from: String?)
        /// Every `count` client audio frames (cumulative since session start).
        case audioFrames(count: Int)
        /// Every `ms` of client audio received (cumulative since session start).
        case audioMs(ms: Double)
        /// The protocol engine reported entering this dialog state.
        case stateEntered(String)
    }

    /// What the trigger does.
    package enum Action: Sendable, Hashable {
        /// Arm the fault with this id.
        case arm(faultId: String)
        /// Disarm the fault with this id.
        case disarm(faultId: String)
        /// Arm this inline fault.
        case fault(FaultSpec)
        /// Send this JSON frame as is, after `delayMs`.
        case send(frame: JSONValue, delayMs: Double)
        /// End the session (the engine renders its protocol's normal end).
        case endSession(reason: String)
    }

    /// Name used by other triggers' `from`, and in journal notes.
    package var id: String?
    /// What makes it fire.
    package var condition: Condition
    /// Chance that a firing happens once the condition holds (seeded).
    package var probability: Double
    /// How many firings at most.
    package var limit: RepeatLimit
    /// What it does, in order.
    package var actions: [Action]

    /// Creates a trigger.
    package init(
        id: String? = nil, condition: Condition, probability: Double = 1, limit: RepeatLimit = .once, actions: [Action]
    ) {
        self.id = id
        self.condition = condition
        self.probability = probability
        self.limit = limit
        self.actions = actions
    }
}
