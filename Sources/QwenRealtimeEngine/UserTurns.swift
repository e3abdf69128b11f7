import ScenarioEngine

/// The user's side of the conversation between the input buffer and a response: the speech
/// segment the VAD is following, a committed turn waiting for `response.create`, whether there
/// is input not yet answered (S12), whether a smart_turn turn is open (C11), and the input
/// audio duration of each user item (for usage).
struct UserTurns: Sendable {
    /// The speech segment in progress (VAD modes).
    var speaking: UserTurn?
    /// A committed turn waiting for `response.create` (push-to-talk, or VAD without `create_response`).
    private(set) var committed: TurnContent?
    /// Whether audio was committed or an item created since the last response started (S12).
    private(set) var hasNewInput = false
    /// smart_turn: between `speech_started` and the turn's `response.done` (C11).
    private(set) var inSmartTurn = false
    /// Input audio duration per user item id.
    private var audioMicrosByItem: [String: Int64] = [:]

    /// The VAD found speech: `turn` is followed until it stops.
    mutating func speechStarted(_ turn: UserTurn, smartTurn: Bool) {
        speaking = turn
        if smartTurn { inSmartTurn = true }
    }

    /// The segment in progress ends (stopped, flushed, committed by hand); nil when none was.
    mutating func speechEnded() -> UserTurn? {
        defer { speaking = nil }
        return speaking
    }

    /// A smart_turn segment was judged invalid: the turn closes without an answer.
    mutating func invalidTurnEnded() { inSmartTurn = false }

    /// A new turn-detection mode: the segment in progress and the smart_turn turn are dropped.
    mutating func detectionChanged() {
        speaking = nil
        inSmartTurn = false
    }

    /// `content` was committed and waits for `response.create`.
    mutating func waitForResponse(_ content: TurnContent) { committed = content }

    /// The committed turn, taken for the response that answers it.
    mutating func takeCommitted() -> TurnContent? {
        defer { committed = nil }
        return committed
    }

    /// A client-created item entered the conversation: new input to answer.
    mutating func itemAdded() { hasNewInput = true }

    /// Committed input audio of `audioMicros` entered the conversation as a user item.
    mutating func audioItemAdded(_ itemID: String, audioMicros: Int64) {
        audioMicrosByItem[itemID] = audioMicros
        hasNewInput = true
    }

    /// A conversation item was deleted.
    mutating func itemDeleted(_ itemID: String) { audioMicrosByItem[itemID] = nil }

    /// The input audio duration of a user item, if it had audio.
    func audioMicros(ofItem itemID: String) -> Int64? { audioMicrosByItem[itemID] }

    /// A response started: everything so far is being answered.
    mutating func responseStarted() { hasNewInput = false }

    /// A response finished (completed or failed): a smart_turn turn is over.
    mutating func responseFinished() { inSmartTurn = false }
}
