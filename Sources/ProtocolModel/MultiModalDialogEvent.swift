/// The multimodal dialog events the server sends in `payload.output.event` of a
/// `result-generated` frame (§5 of the protocol reference), spelled as on the wire.
package enum MultiModalDialogEvent: String, Sendable, Hashable, CaseIterable {
    /// The dialog is set up (after `Start`).
    case started = "Started"
    /// The dialog ended (after `Stop`).
    case stopped = "Stopped"
    /// The dialog state changed: `output.state` is a ``DialogState``.
    case dialogStateChanged = "DialogStateChanged"
    /// The server heard the user start speaking.
    case speechStarted = "SpeechStarted"
    /// The user's speech ended.
    case speechEnded = "SpeechEnded"
    /// The transcript of the user's speech so far.
    case speechContent = "SpeechContent"
    /// An answer begins.
    case respondingStarted = "RespondingStarted"
    /// The answer's content is all sent.
    case respondingEnded = "RespondingEnded"
    /// Text of the answer.
    case respondingContent = "RespondingContent"
    /// A `RequestToSpeak` or `RequestToRespond` was accepted.
    case requestAccepted = "RequestAccepted"
    /// A dialog error; the service closes the connection after it.
    case error = "Error"
}
