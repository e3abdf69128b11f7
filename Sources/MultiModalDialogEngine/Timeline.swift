import AnswerAudio
import ProtocolModel
import ScenarioEngine
import WireJSON

/// What the session does when a timeline step comes due.
enum TimelineAction: Sendable, Hashable {
    /// Send a dialog event (`result-generated`) with these output fields (dialog_id added).
    case event(String, JSONObject)
    /// Send the header-level `task-started`.
    case taskStarted
    /// Send a binary audio frame.
    case audio([UInt8])
    /// Announce a dialog state (sent only on change, S5).
    case enter(DialogState)
    /// Send a non-fatal `Error` event.
    case error(DialogErrorEvent)
    /// Send `task-failed` with this code and message, then close.
    case fatal(code: String, message: String)
    /// A point in an answer round that changes the session's bookkeeping.
    case milestone(RoundMilestone)
    /// The answer's audio frames and what follows them, planned once its audio is rendered
    /// (the timeline waits here until it is).
    case answerAudio(AnswerAudioHandle, AnswerTail)
}

/// What an answer round sends after its audio: the final RespondingContent and the errors
/// placed after the answer.
struct AnswerTail: Sendable, Hashable {
    /// Output fields of the final RespondingContent.
    var final: JSONObject
    var errorsAfter: [ErrorSpec]
    /// The latest time planned so far in the round (partials, RespondingStarted).
    var latest: Int64
    /// When the round started and its first text went out, for `extra_info.timestamps`
    /// (`policies.roundTimestamps`); nil when the policy is off or the turn scripts its own.
    var timestampsFrom: RoundTimes?

    struct RoundTimes: Sendable, Hashable {
        var roundStart: Int64
        var firstText: Int64
    }
}

/// Points in an answer round the session must act on when they are reached.
enum RoundMilestone: Sendable, Hashable {
    /// `RespondingStarted` went out.
    case respondingStarted
    /// `RespondingEnded` went out: wait for `LocalRespondingEnded` (S9).
    case respondingEnded
}

/// The session's outbound schedule: every frame the engine wants to send later, in due order.
///
/// Nothing is handed to the driver before it is due: the session runs one engine timer at the
/// earliest step and emits steps as they come due, so an interrupt or a Stop can drop the
/// rest of a round exactly (S10, S19) — no already-scheduled frame can leak out afterwards.
struct Timeline: Sendable {
    /// One scheduled step.
    struct Step: Sendable, Hashable {
        /// When it is due, in microseconds on the session clock.
        var dueAt: Int64
        /// Insertion order (ties at the same time keep it).
        var order: Int
        /// The round (or utterance) it belongs to, for dropping; nil for session-level steps.
        var round: Int?
        /// What to do.
        var action: TimelineAction
    }

    private(set) var steps: [Step] = []
    private var nextOrder = 0

    /// Adds a step.
    mutating func add(_ action: TimelineAction, at dueAt: Int64, round: Int? = nil) {
        let step = Step(dueAt: dueAt, order: nextOrder, round: round, action: action)
        nextOrder += 1
        let index = steps.firstIndex { ($0.dueAt, $0.order) > (dueAt, step.order) } ?? steps.count
        steps.insert(step, at: index)
    }

    /// Puts a step back at the front (it could not run yet).
    mutating func putBack(_ step: Step) {
        steps.insert(step, at: 0)
    }

    /// Removes and returns the earliest step due at or before `now`.
    mutating func popDue(now: Int64) -> Step? {
        guard let first = steps.first, first.dueAt <= now else { return nil }
        return steps.removeFirst()
    }

    /// Drops every pending step of `round`; returns the dropped steps.
    @discardableResult
    mutating func drop(round: Int) -> [Step] {
        let dropped = steps.filter { $0.round == round }
        steps.removeAll { $0.round == round }
        return dropped
    }

    /// Drops everything.
    mutating func removeAll() {
        steps.removeAll()
    }

    /// When the earliest step is due, or nil when nothing is pending.
    var nextDue: Int64? { steps.first?.dueAt }

    /// Pending audio frames of `round` (for the journal when an interrupt drops them).
    func pendingAudioCount(round: Int) -> Int {
        steps.filter { step in
            guard step.round == round, case .audio = step.action else { return false }
            return true
        }.count
    }
}
