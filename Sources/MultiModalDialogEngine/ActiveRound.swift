/// The bookkeeping of one answer round between its start (Thinking, or Responding for a
/// transcript) and the return to Listening.
struct ActiveRound: Sendable, Hashable {
    /// The session-local round number (tags its timeline steps).
    var number: Int
    /// Length of the answer audio in microseconds.
    var audioDurationMicros: Int64 = 0
    /// When `RespondingStarted` went out.
    var respondingStartedAt: Int64?
    /// Whether `RespondingEnded` went out.
    var respondingEnded = false
    /// Whether the client sent `LocalRespondingStarted` for this round.
    var localStarted = false
    /// Whether the client sent `LocalRespondingEnded` for this round.
    var localEnded = false
    /// Video mode to switch to when this round returns to Listening (S13), if any.
    var videoModeAfter: Bool?
    /// Command names attached to the round (`visual_qa`, `open_videochat`, …).
    var commandNames: [String] = []
}
