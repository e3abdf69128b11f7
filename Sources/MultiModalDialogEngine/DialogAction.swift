import AnswerAudio
import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// What the session does when a step of its ``OutboundTimeline`` comes due.
enum DialogAction: TimelineAction, Hashable {
    /// Send a dialog event (`result-generated`) with these output fields (dialog_id added).
    case event(String, JSONObject)
    /// Send the header-level `task-started`.
    case taskStarted
    /// Send a binary audio frame (with its level, measured when the answer was rendered).
    case audio([UInt8], AudioLevel?)
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

    var awaitedAudio: AnswerAudioHandle? {
        if case .answerAudio(let handle, _) = self { return handle }
        return nil
    }
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
