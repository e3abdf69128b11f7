/// Where the conversation is, as decided by the engine (announcements may still be pending on
/// the timeline).
enum ConversationPhase: Sendable, Hashable {
    /// Waiting for the user.
    case listening
    /// The user's turn is closed; the answer is being prepared.
    case thinking
    /// The answer is streaming.
    case responding
    /// `RespondingEnded` went out; waiting for `LocalRespondingEnded`.
    case awaitingPlayback
}
