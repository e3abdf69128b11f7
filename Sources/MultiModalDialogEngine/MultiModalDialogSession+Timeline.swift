import AnswerAudio
import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension MultiModalDialogSession {
    /// Plans a dialog event on the lane: at `time` or after the last planned one.
    func lane(_ time: Int64) -> Int64 {
        timeline.lane(time)
    }

    /// Plans an immediate reply that does not wait for the lane (HeartBeat, Error, …).
    func reply(_ action: DialogAction) {
        timeline.add(action, at: now)
    }

    /// Emits every step due now, in order, and moves the timeline timer to the next one.
    func drain() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        while lifecycle != .finished, let next = timeline.next(now: now) {
            switch next {
            case .run(let step):
                commands += execute(step)
            case .awaitAudio(let handle):
                // Still rendering: wait here (no timer) until the driver says it is ready.
                return commands + timeline.awaitAudio(handle)
            }
        }
        if lifecycle == .finished { timeline.removeAll() }
        return commands + timeline.retime()
    }

    private func execute(_ step: OutboundTimeline<DialogAction>.Step) -> [SessionCommand] {
        let time = step.dueAt
        switch step.action {
        case .event(let name, let fields):
            if name == MultiModalDialogEvent.speechEnded.rawValue { uplink?.speechEndedSentAt = max(time, now) }
            return send(frames.event(name, dialogID: dialogID, fields: fields, at: time))
        case .taskStarted:
            return send(frames.taskStarted(at: time))
        case .audio(let bytes, let level):
            return send(frames.audio(bytes, level: level, at: time))
        case .enter(let state):
            return enter(state, at: time)
        case .error(let error):
            return send(frames.error(error, dialogID: dialogID, at: time))
        case .fatal(let code, let message):
            var commands = send(frames.taskFailed(code: code, message: message, at: time))
            commands += teardown(journal: "task-failed \(code): \(message)")
            return commands
        case .milestone(let milestone):
            return reach(milestone, at: time)
        case .answerAudio(let handle, let tail):
            if let rendered = handle.rendered {
                planAnswerAudio(rendered, tail, respondingAt: time, round: step.group ?? 0)
            }
            return []
        }
    }

    /// Turns the audio-gap watch (S18) on or off for `state` in the configured mode.
    func watchAudioGap(in state: DialogState) -> [SessionCommand] {
        guard let mode = config?.mode else { return [] }
        return handle(
            scenario.runtime.watchAudioGap(
                mode.watchesAudioGap(in: state, duplexInEveryState: scenario.runtime.duplexAudioGapInEveryState)))
    }

    /// Announces `state` if it differs from the last one (S5) and applies its side effects:
    /// journal, scenario state triggers, the audio-gap watch, and round bookkeeping.
    func enter(_ state: DialogState, at time: Int64) -> [SessionCommand] {
        guard rounds.announce(state) else {
            // Listening never left the wire (say, the round was interrupted before its Thinking
            // went out): the round still ends.
            return state == .listening && rounds.isOpen ? roundReturnedToListening() : []
        }
        var commands = send(
            frames.event(
                MultiModalDialogEvent.dialogStateChanged.rawValue, dialogID: dialogID,
                fields: ["state": .string(state.rawValue)], at: time)
        )
        commands.append(.journal(.state(state.rawValue)))
        commands += handle(scenario.runtime.stateEntered(state.rawValue))
        commands += watchAudioGap(in: state)
        if state == .listening { commands += roundReturnedToListening() }
        commands += updateIdleHold()
        return commands
    }

    /// Listening again: the round is over; apply its video-mode change, restart speech
    /// detection (tap2talk/push2talk start a fresh utterance stream) and reopen stretches.
    func roundReturnedToListening() -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if let finished = rounds.returnToListening() {
            if let video = finished.videoModeAfter {
                self.video.switchTo(video)
                commands.append(.journal(.info(video ? "video mode on" : "video mode off")))
            }
            commands.append(.cancelTimer(.engine(Self.playbackFallbackTimer)))
        }
        if config?.mode != .duplex { uplink?.restartDetection() }
        endStretch("tap2talkOutsideListening")
        return commands
    }

    private func reach(_ milestone: RoundMilestone, at time: Int64) -> [SessionCommand] {
        switch milestone {
        case .respondingStarted:
            rounds.respondingStarted(at: time)
            return []
        case .respondingEnded:
            guard let current = rounds.respondingEnded() else { return [] }
            if current.localEnded {
                return enter(.listening, at: time)
            }
            let started = current.respondingStartedAt ?? time
            let fallback = max(time, started + current.audioDurationMicros + options.playbackGraceMicros)
            return [.scheduleTimer(.engine(Self.playbackFallbackTimer), atMicros: fallback)]
        }
    }

    /// S9 fallback: no LocalRespondingEnded within audio length + grace.
    func playbackGraceExpired() -> [SessionCommand] {
        guard rounds.awaitsLocalPlaybackEnd, lifecycle == .active else { return [] }
        var commands: [SessionCommand] = [
            .journal(.must("mmd.C19", "no LocalRespondingEnded within the playback grace after RespondingEnded"))
        ]
        commands += enter(.listening, at: now)
        return commands
    }
}
