import ProtocolModel

/// The dialog's rounds as the engine keeps them (S5, S8–S11, S21): the state last announced,
/// where the conversation is, the next scripted turn, the round numbering, the current round,
/// the command the client must follow up and the interrupted round whose playback end is still
/// welcome. A value with its own transitions; planning frames and what they mean on the wire is
/// the session's business.
///
/// The announced state and the conversation differ on purpose: the engine decides a phase when
/// it plans it (``startAnswer(thinksFirst:)``, ``bargeIn()``), while `DialogStateChanged` goes
/// out when the timeline reaches it (``announce(_:)``).
struct DialogRounds: Sendable, Hashable {
    /// A command the client follows up with a RequestToRespond once the round is back in Listening (C17).
    static let followUpCommands: Set<String> = ["visual_qa", "open_videochat", "quit_videochat"]

    /// The state last announced in DialogStateChanged (nil before the first one).
    private(set) var announcedState: DialogState?
    /// Where the conversation is, as decided by the engine.
    private(set) var conversation = ConversationPhase.listening
    /// The next scripted turn (also the number of turns used, counting a resumed dialog's).
    private(set) var turnIndex = 0
    /// The round planned last, or being recognised: not yet back in Listening.
    private(set) var current: ActiveRound?
    /// The last round number handed out; numbers start at 1 and are never reused.
    private var roundCounter = 0
    /// A command of the last finished round the client must follow up after Listening (C17).
    private var pendingCommand: String?
    /// The last round was interrupted after RespondingStarted; its LocalRespondingEnded is welcome.
    private var interruptedRoundPending = false

    /// Something of a round is not finished: a current round, or a conversation not in Listening.
    /// A repeated Listening (not announced again) still ends it.
    var isOpen: Bool { current != nil || conversation != .listening }

    /// The current round went out to its RespondingEnded and the client has not reported the end
    /// of its playback (the S9 fallback applies).
    var awaitsLocalPlaybackEnd: Bool {
        guard let current else { return false }
        return current.respondingEnded && !current.localEnded
    }

    /// A follow-up command of the current round (C17: its RequestToRespond is early until Listening).
    var unansweredFollowUp: String? {
        current?.commandNames.first { Self.followUpCommands.contains($0) }
    }

    // MARK: - Announcements and phases

    /// Records `state` as announced; false when it already was (S5: a state is announced once).
    /// Thinking and Responding move the conversation there; Listening is
    /// ``returnToListening()``, which also ends the round.
    mutating func announce(_ state: DialogState) -> Bool {
        guard state != announcedState else { return false }
        announcedState = state
        switch state {
        case .listening: break
        case .thinking: conversation = .thinking
        case .responding: conversation = .responding
        }
        return true
    }

    /// An answer round is being planned: Thinking first for a scripted turn, else straight to
    /// Responding (transcripts, video phrases).
    mutating func startAnswer(thinksFirst: Bool) {
        conversation = thinksFirst ? .thinking : .responding
    }

    /// `round` is the current round from now on (its steps are on the timeline).
    mutating func track(_ round: ActiveRound) {
        current = round
    }

    /// Duplex barge-in (S10): the user speaks over the answer, so the conversation is Listening at
    /// once. The round itself stays current until Listening is announced (``returnToListening()``).
    mutating func bargeIn() {
        conversation = .listening
    }

    /// Listening again: the round is over. Returns the finished round (nil when there was none);
    /// its follow-up command, if any, becomes the pending one (kept as it was without a round).
    mutating func returnToListening() -> ActiveRound? {
        let finished = current
        if let finished {
            pendingCommand = finished.commandNames.first { Self.followUpCommands.contains($0) }
        }
        current = nil
        conversation = .listening
        return finished
    }

    /// The pending follow-up command (C17), cleared: a RequestToRespond answers it.
    mutating func takePendingCommand() -> String? {
        defer { pendingCommand = nil }
        return pendingCommand
    }

    // MARK: - Turns and numbers

    /// A resumed dialog (S21) goes on at scripted turn `index`.
    mutating func resume(atTurn index: Int) {
        turnIndex = index
    }

    /// Uses the next scripted turn; returns its index (``turnIndex`` is the one after it).
    mutating func takeTurn() -> Int {
        defer { turnIndex += 1 }
        return turnIndex
    }

    /// A new round number (it tags the round's timeline steps).
    ///
    /// It does not clear the interrupted round: after a duplex barge-in the next utterance
    /// starts at once, and the client's LocalRespondingEnded for the flushed round is still
    /// welcome (cleared at the next RespondingStarted).
    mutating func numberNextRound() -> Int {
        roundCounter += 1
        return roundCounter
    }

    // MARK: - The current round

    /// The answer audio of round `number` lasts `micros` (if that round is still current).
    mutating func setAnswerAudio(durationMicros micros: Int64, round number: Int) {
        if current?.number == number { current?.audioDurationMicros = micros }
    }

    /// RespondingStarted went out at `time`: the interrupted round before it is forgotten.
    /// Nothing happens without a current round.
    mutating func respondingStarted(at time: Int64) {
        guard current != nil else { return }
        interruptedRoundPending = false
        current?.respondingStartedAt = time
    }

    /// RespondingEnded went out: the conversation awaits the client's playback end. Returns the
    /// updated round (nil, and nothing changes, without a current round).
    mutating func respondingEnded() -> ActiveRound? {
        guard current != nil else { return nil }
        current?.respondingEnded = true
        conversation = .awaitingPlayback
        return current
    }

    /// The current round stops before its end (RequestToSpeak, duplex barge-in); the client's
    /// LocalRespondingEnded for it stays welcome when its RespondingStarted went out.
    mutating func interrupt() {
        interruptedRoundPending = current?.respondingStartedAt != nil
    }

    /// What the client's LocalRespondingStarted/Ended did to the rounds (C19).
    enum LocalPlayback: Sendable, Hashable {
        /// Recorded for this round (as it is now).
        case recorded(ActiveRound)
        /// The round already had one.
        case repeated(round: Int)
        /// LocalRespondingEnded for the interrupted round: welcome once.
        case interruptedRound
        /// No round has sent RespondingStarted.
        case noRespondingRound
    }

    /// LocalRespondingStarted: once per round, after its RespondingStarted (C19).
    mutating func localPlaybackStarted() -> LocalPlayback {
        guard let round = current, round.respondingStartedAt != nil else { return .noRespondingRound }
        guard !round.localStarted else { return .repeated(round: round.number) }
        current?.localStarted = true
        return .recorded(current ?? round)
    }

    /// LocalRespondingEnded: once per round, after its RespondingStarted (C19), or once for the
    /// round interrupted before.
    mutating func localPlaybackEnded() -> LocalPlayback {
        guard let round = current, round.respondingStartedAt != nil else {
            guard interruptedRoundPending else { return .noRespondingRound }
            interruptedRoundPending = false
            return .interruptedRound
        }
        guard !round.localEnded else { return .repeated(round: round.number) }
        current?.localEnded = true
        return .recorded(current ?? round)
    }
}
