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

/// A user utterance being recognised (tap2talk/duplex VAD, or a push2talk bracket).
struct Utterance: Sendable, Hashable {
    /// The round number its answer will carry.
    var round: Int
    /// Where speech started in the uplink, in ms of audio.
    var startMs: Int
    /// The scripted transcript's tokens, revealed progressively in partial SpeechContent.
    var tokens: [String]
    /// How many tokens partials have revealed so far.
    var revealed = 0
    /// Audio received inside a push2talk bracket, in ms.
    var bracketAudioMs = 0
}

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
