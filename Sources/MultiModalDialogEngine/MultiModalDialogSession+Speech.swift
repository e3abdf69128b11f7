import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension MultiModalDialogSession {
    /// A binary frame: C8 gating, decoding (C9), then speech detection per mode (S6, S7).
    func receiveAudio(_ bytes: [UInt8]) -> [SessionCommand] {
        switch lifecycle {
        case .awaitingStart:
            var commands = handle(scenario.runtime.clientAudio(byteCount: bytes.count, durationMicros: 0))
            commands.append(.journal(.must("mmd.C8", "binary frame before Start")))
            commands += failTask(
                code: "InvalidParameter",
                message: "the first frame must be a run-task text frame with Start, got binary audio",
                violation: ParameterProblem("mmd.C2", "first frame is binary"))
            return commands
        case .finished:
            _ = scenario.runtime.clientAudio(byteCount: bytes.count, durationMicros: 0)
            return reportOnce("afterFinish", "mmd.C22", "frame after finish-task or the end of the task (ignored)")
        case .active:
            break
        }
        guard let config, let decoder = uplink?.decoder else { return [] }
        let decoded = decoder.decode(bytes)
        if decoded.problem == nil {
            receivedAudioLevel = decoded.pcm.samples.withUnsafeBufferPointer { AudioLevel(samples: $0) }
        }
        let durationMicros = Int64(decoded.pcm.count) * 1_000_000 / Int64(max(1, decoded.pcm.sampleRate))
        var commands = handle(scenario.runtime.clientAudio(byteCount: bytes.count, durationMicros: durationMicros))
        let formatObligation = DialogProtocol.multimodalDialog.audioFormatObligation
        if let problem = decoded.problem {
            commands.append(.journal(.must(formatObligation, problem)))
        }
        if config.uplinkFormat == .pcm,
            let mislabel = uplink?.rate.add(
                ms: Double(now) / 1000, durationMs: Double(durationMicros) / 1000, declaredRate: config.uplinkSampleRate
            )
        {
            commands.append(.journal(.must(formatObligation, mislabel.summary)))
        }
        guard rounds.announcedState != nil else {
            commands.append(.journal(.must("mmd.C8", "binary frame before DialogStateChanged{Listening}")))
            return commands
        }
        switch config.mode {
        case .pushToTalk:
            guard uplink?.pushToTalkOpen == true, uplink?.utterance != nil else {
                commands += reportOnce(
                    "pushToTalkOutsideBracket", "mmd.C10", "audio outside SendSpeech…StopSpeech (ignored)")
                return commands
            }
            let bracketMs = uplink?.addBracketAudio(ms: decoded.pcm.durationMs) ?? 0
            commands += revealTranscript(speechMs: bracketMs)
        case .tapToTalk:
            guard rounds.conversation == .listening else {
                let inFlight = uplink?.speechEndedSentAt.map { now - $0 <= options.tapToTalkStopGraceMicros } ?? false
                if rounds.announcedState != .listening, !inFlight {
                    commands += reportOnce(
                        "tap2talkOutsideListening", "mmd.C11", level: .should,
                        "audio while not Listening in tap2talk after SpeechEnded (stop uploading until the next Listening; ignored)"
                    )
                }
                return commands
            }
            commands += detectSpeech(decoded.pcm)
        case .duplex:
            commands += detectSpeech(decoded.pcm)
        }
        return commands
    }

    /// Feeds the VAD and acts on its events: start (or duplex barge-in), partials, end.
    private func detectSpeech(_ pcm: PCMBuffer) -> [SessionCommand] {
        // Fed and read in place: a copy of the detector would retain its buffers on every chunk.
        // Its position and voice state are taken after this chunk, before any event acts.
        guard let events = uplink?.detector.feed(pcm), let processedMs = uplink?.detector.processedMs,
            let isSpeaking = uplink?.detector.isSpeaking
        else { return [] }
        var commands: [SessionCommand] = []
        for event in events {
            let lagMicros = Int64(max(0, processedMs - event.atMs)) * 1000
            switch event {
            case .speechStarted(let atMs):
                commands += speechStarted(atMs: atMs, lagMicros: lagMicros)
            case .speechStopped:
                guard uplink?.utterance != nil else { continue }
                let due =
                    now
                    + max(
                        0, scenario.runtime.delayMicros(before: MultiModalDialogEvent.speechEnded.rawValue) - lagMicros)
                commands += closeUtterance(at: lane(due))
            }
        }
        if isSpeaking, let startMs = uplink?.utterance?.startMs {
            commands += revealTranscript(speechMs: processedMs - startMs)
        }
        return commands
    }

    private func speechStarted(atMs: Int, lagMicros: Int64) -> [SessionCommand] {
        var commands = userInput()
        var due =
            now + max(0, scenario.runtime.delayMicros(before: MultiModalDialogEvent.speechStarted.rawValue) - lagMicros)
        if rounds.conversation != .listening {
            // Duplex voice barge-in (S10, §9.4): stop the answer at once, then listen.
            guard let current = rounds.current, scenario.runtime.isInterruptible else { return [] }
            commands += interrupt(current)
            commands.append(.journal(.info("round \(current.number) interrupted by voice (duplex barge-in)")))
            due = now
            timeline.add(.event(MultiModalDialogEvent.speechStarted.rawValue, [:]), at: lane(due))
            timeline.add(.enter(.listening), at: lane(due))
            rounds.bargeIn()
            beginUtterance(startMs: atMs)
            return commands
        }
        beginUtterance(startMs: atMs)
        if let open = uplink?.utterance {
            timeline.add(.event(MultiModalDialogEvent.speechStarted.rawValue, [:]), at: lane(due), group: open.round)
        }
        return commands
    }

    /// Speech of an open utterance so far (VAD modes), in ms of audio.
    private func speechSoFarMs(of utterance: Utterance) -> Int {
        max(0, (uplink?.detector.processedMs ?? utterance.startMs) - utterance.startMs)
    }

    /// User input (speech began, a push2talk bracket opened, a RequestToRespond): the idle-end
    /// clock restarts and is held until the answer has played (SEED-004 "Configuration").
    func userInput() -> [SessionCommand] {
        handle(scenario.runtime.userInput()) + handle(scenario.runtime.holdIdleEnd(true))
    }

    /// Holds the idle-end clock while a round or an utterance is open; Listening with no
    /// utterance (after the client's LocalRespondingEnded or the playback fallback) releases it.
    func updateIdleHold() -> [SessionCommand] {
        handle(scenario.runtime.holdIdleEnd(rounds.announcedState != .listening || uplink?.utterance != nil))
    }

    /// Starts recognising an utterance whose transcript is the next scripted turn.
    func beginUtterance(startMs: Int) {
        let number = rounds.numberNextRound()
        let scripted = scenario.runtime.scenario.turn(at: rounds.turnIndex, variables: scenario.runtime.variables)
            .transcript
        let transcript = recognised(scripted)
        uplink?.begin(Utterance(round: number, startMs: startMs, tokens: Tokenizer.tokens(of: transcript, rule: .auto)))
    }

    /// Partial SpeechContent (cumulative) as speech time accumulates, never the whole text.
    private func revealTranscript(speechMs: Int) -> [SessionCommand] {
        guard config?.downlink.transcriptPartials == true,
            let (text, round) = uplink?.reveal(speechMs: speechMs, tokenMs: options.transcriptTokenMs)
        else { return [] }
        timeline.add(
            .event(MultiModalDialogEvent.speechContent.rawValue, ["text": .string(text), "finished": false]),
            at: lane(now), group: round)
        return []
    }

    /// A scripted transcript as the recogniser reports it: `replace_words` applied.
    func recognised(_ transcript: String) -> String {
        config?.replaceWords.applied(to: transcript) ?? transcript
    }

    /// Ends the utterance: SpeechEnded, final SpeechContent, Thinking, then the answer round.
    func closeUtterance(at time: Int64) -> [SessionCommand] {
        let speechMs = uplink?.utterance.map { $0.bracketAudioMs > 0 ? $0.bracketAudioMs : speechSoFarMs(of: $0) } ?? 0
        guard let open = uplink?.close() else { return [] }
        scenario.runtime.report.turns += 1
        scenario.runtime.report.userSpeechMicros += Int64(speechMs) * 1000
        let (index, turn) = consumeTurn(user: nil, variables: scenario.runtime.variables)
        timeline.add(.event(MultiModalDialogEvent.speechEnded.rawValue, [:]), at: time, group: open.round)
        timeline.add(
            .event(
                MultiModalDialogEvent.speechContent.rawValue,
                ["text": .string(recognised(turn.transcript)), "finished": true]), at: time,
            group: open.round)
        timeline.add(.enter(.thinking), at: time, group: open.round)
        planRound(number: open.round, content: .scripted(turn), from: time)
        return [.journal(.info("utterance closed → scripted turn \(index)"))]
    }
}
