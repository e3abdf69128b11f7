import ProtocolModel
import Testing

@testable import MultiModalDialogEngine

@Suite("DialogRounds: the rounds' transitions (S5, S8–S11, S21, C17, C19)")
struct DialogRoundsTests {
    /// Rounds with round 1 tracked as it was planned: Thinking first, `commands` attached.
    private func planned(commands: [String] = []) -> DialogRounds {
        var rounds = DialogRounds()
        _ = rounds.announce(.listening)
        let number = rounds.numberNextRound()
        rounds.startAnswer(thinksFirst: true)
        rounds.track(ActiveRound(number: number, commandNames: commands))
        return rounds
    }

    @Test("S5: a state is announced once; Thinking and Responding move the conversation, Listening does not")
    func announcementsAreDeduplicated() {
        var rounds = DialogRounds()
        #expect(rounds.announcedState == nil)
        var announced: [Bool] = []
        for state in [DialogState.listening, .listening, .thinking] { announced.append(rounds.announce(state)) }
        #expect(announced == [true, false, true])
        #expect(rounds.announcedState == .thinking)
        #expect(rounds.conversation == .thinking)
        announced = [rounds.announce(.thinking), rounds.announce(.responding)]
        #expect(announced == [false, true])
        #expect(rounds.conversation == .responding)
        let listening = rounds.announce(.listening)
        #expect(listening)
        // Listening is the round's end, not the announcement's: the session calls returnToListening.
        #expect(rounds.conversation == .responding)
        #expect(rounds.isOpen)
        let finished = rounds.returnToListening()
        #expect(finished == nil)
        #expect(!rounds.isOpen)
    }

    @Test("Round numbers start at 1 and never repeat; turns count from a resumed dialog's (S21)")
    func numbersAndTurns() {
        var rounds = DialogRounds()
        let numbers = [rounds.numberNextRound(), rounds.numberNextRound(), rounds.numberNextRound()]
        #expect(numbers == [1, 2, 3])
        let turns = [rounds.takeTurn(), rounds.takeTurn()]
        #expect(turns == [0, 1])
        #expect(rounds.turnIndex == 2)
        rounds.resume(atTurn: 7)
        let resumed = rounds.takeTurn()
        #expect(resumed == 7)
        #expect(rounds.turnIndex == 8)
        let next = rounds.numberNextRound()
        #expect(next == 4)
    }

    @Test("A transcript or video round goes straight to Responding; a scripted one thinks first")
    func answerPhases() {
        var rounds = DialogRounds()
        rounds.startAnswer(thinksFirst: false)
        #expect(rounds.conversation == .responding)
        rounds.startAnswer(thinksFirst: true)
        #expect(rounds.conversation == .thinking)
        #expect(rounds.current == nil)
        #expect(rounds.isOpen)
    }

    @Test("S8/S9: a round from planning to Listening, with its follow-up command pending afterwards (C17)")
    func roundLifecycle() throws {
        var rounds = planned(commands: ["send_video_stream", "visual_qa"])
        #expect(rounds.unansweredFollowUp == "visual_qa")
        rounds.setAnswerAudio(durationMicros: 9, round: 2)
        #expect(rounds.current?.audioDurationMicros == 0)
        rounds.setAnswerAudio(durationMicros: 1_500_000, round: 1)
        #expect(rounds.current?.audioDurationMicros == 1_500_000)
        rounds.respondingStarted(at: 40)
        #expect(rounds.current?.respondingStartedAt == 40)
        #expect(!rounds.awaitsLocalPlaybackEnd)
        let respondingEnded = rounds.respondingEnded()
        let ended = try #require(respondingEnded)
        #expect(ended.respondingEnded && !ended.localEnded)
        #expect(rounds.conversation == .awaitingPlayback)
        #expect(rounds.awaitsLocalPlaybackEnd)
        let playbackEnded = rounds.localPlaybackEnded()
        let current = try #require(rounds.current)
        #expect(playbackEnded == .recorded(current))
        #expect(current.localEnded)
        #expect(!rounds.awaitsLocalPlaybackEnd)
        let returned = rounds.returnToListening()
        let finished = try #require(returned)
        #expect(finished.number == 1)
        #expect(rounds.current == nil && rounds.conversation == .listening && !rounds.isOpen)
        #expect(rounds.unansweredFollowUp == nil)
        let pending = [rounds.takePendingCommand(), rounds.takePendingCommand()]
        #expect(pending == ["visual_qa", nil])
    }

    @Test("C17: Listening without a round keeps the pending command; a round without one clears it")
    func pendingCommandSurvivesAnEmptyListening() {
        var rounds = planned(commands: ["open_videochat"])
        _ = rounds.returnToListening()
        _ = rounds.returnToListening()
        let kept = rounds.takePendingCommand()
        #expect(kept == "open_videochat")
        rounds = planned(commands: ["quit_videochat"])
        _ = rounds.returnToListening()
        rounds.track(ActiveRound(number: rounds.numberNextRound(), commandNames: ["send_video_stream"]))
        _ = rounds.returnToListening()
        let cleared = rounds.takePendingCommand()
        #expect(cleared == nil)
    }

    @Test("Milestones without a current round change nothing")
    func milestonesWithoutARound() {
        var rounds = DialogRounds()
        rounds.startAnswer(thinksFirst: true)
        rounds.respondingStarted(at: 5)
        let ended = rounds.respondingEnded()
        #expect(ended == nil)
        #expect(rounds.conversation == .thinking)
        #expect(rounds.current == nil)
        #expect(!rounds.awaitsLocalPlaybackEnd)
    }

    @Test("C19: LocalRespondingStarted/Ended come after RespondingStarted and once per round")
    func localPlaybackOncePerRound() throws {
        var rounds = planned()
        let early = [rounds.localPlaybackStarted(), rounds.localPlaybackEnded()]
        #expect(early == [.noRespondingRound, .noRespondingRound])
        rounds.respondingStarted(at: 10)
        guard case .recorded(let started) = rounds.localPlaybackStarted() else {
            Issue.record("LocalRespondingStarted not recorded")
            return
        }
        #expect(started.localStarted && !started.localEnded)
        let startedAgain = rounds.localPlaybackStarted()
        #expect(startedAgain == .repeated(round: 1))
        guard case .recorded(let ended) = rounds.localPlaybackEnded() else {
            Issue.record("LocalRespondingEnded not recorded")
            return
        }
        // Before RespondingEnded: the session waits for it before Listening.
        #expect(ended.localEnded && !ended.respondingEnded)
        let endedAgain = rounds.localPlaybackEnded()
        #expect(endedAgain == .repeated(round: 1))
        let respondingEnded = rounds.respondingEnded()
        #expect(respondingEnded?.localEnded == true)
    }

    @Test("S10: an interrupted round's LocalRespondingEnded is welcome once, through a barge-in and the next number")
    func interruptedRoundPlaybackEnd() {
        var rounds = planned()
        rounds.respondingStarted(at: 10)
        rounds.interrupt()
        rounds.bargeIn()
        // Listening at once, but the round ends only when Listening is announced.
        #expect(rounds.conversation == .listening)
        #expect(rounds.current?.number == 1 && rounds.isOpen)
        let finished = rounds.returnToListening()
        #expect(finished?.number == 1)
        let next = rounds.numberNextRound()
        #expect(next == 2)
        let reports = [rounds.localPlaybackEnded(), rounds.localPlaybackEnded()]
        #expect(reports == [.interruptedRound, .noRespondingRound])
    }

    @Test("S10: the next round's RespondingStarted forgets the interrupted round; one interrupted early is not welcome")
    func interruptedRoundForgotten() {
        var rounds = planned()
        rounds.respondingStarted(at: 10)
        rounds.interrupt()
        _ = rounds.returnToListening()
        rounds.startAnswer(thinksFirst: false)
        rounds.track(ActiveRound(number: rounds.numberNextRound()))
        rounds.respondingStarted(at: 20)
        _ = rounds.returnToListening()
        let afterNextRound = rounds.localPlaybackEnded()
        #expect(afterNextRound == .noRespondingRound)

        var early = planned()
        early.interrupt()
        _ = early.returnToListening()
        let beforeRespondingStarted = early.localPlaybackEnded()
        #expect(beforeRespondingStarted == .noRespondingRound)
    }
}
