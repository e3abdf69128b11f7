import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

/// Qwen-Audio-Live's turns: audio admission (qal.C4, qal.C7, mute), the VAD's segments with
/// `session.input_transcript.delta`, duplex answers while the user speaks, barge-in, and the
/// answer streamed as `session.output_transcript.delta` + `session.output_audio.delta` (no
/// `response.*`); function calls as `session.event`, delegations.
extension QwenRealtimeSession {
    // MARK: - Audio and turns

    /// The commands answering an append whose audio is not heard, or nil to hear it.
    func refuseLiveAudio() -> [SessionCommand]? {
        let state = live
        if state.declaredAOQ {
            // Documented (DOC-QAL-AOQ): with AOQ media the uplink goes over AOQ, never the WebSocket.
            let error = QwenError(
                code: "audio_requires_aoq_media",
                message: "transport aoq was declared: send the audio over the AOQ media connection.")
            let note =
                lifecycle.firstReport("C7") ? violation("qal.C7", "session.input_audio.append after transport aoq") : []
            return note + self.error(error)
        }
        if !state.configured {
            guard lifecycle.firstReport("C4-early") else { return [] }
            return reject(
                .invalidState(wire.audioAppendEvent, "Send session.update and wait for session.updated first."),
                "qal.C4", "audio appended before the first session.updated (ignored)")
        }
        return state.muted ? [] : nil
    }

    /// The VAD's boundaries in one chunk, then the input transcript's progress.
    func hearLiveTurns(_ events: [VADEvent]) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        for event in events {
            let streamMs = input.detectorOffsetMs + event.atMs
            switch event {
            case .speechStarted: commands += liveSpeechStarted(atMs: streamMs)
            case .speechStopped: commands += liveSpeechStopped(atMs: streamMs)
            }
        }
        return commands + liveTranscriptProgress()
    }

    private var isDuplex: Bool { configuration.turnDetection?.type == "duplex" }

    /// Speech starts: a new turn; an answer in progress stops (barge-in, `interrupt_response`);
    /// in duplex the model may answer before the user ends.
    private func liveSpeechStarted(atMs startMs: Int) -> [SessionCommand] {
        let turn = UserTurn(
            intent: .valid, itemID: scenario.runtime.ids.id(prefix: "item_"), content: scenario.runtime.nextTurn(),
            startMs: startMs)
        turns.speechStarted(turn, smartTurn: false)
        live.answeredDuringSpeech = false
        var commands = userActed()
        let interrupts = configuration.turnDetection?.interruptResponse ?? true
        if let active = response, interrupts, scenario.runtime.isInterruptible {
            live.queued = []
            commands.append(.journal(.info("barge-in: the user spoke over the answer, which stops")))
            commands += responseCancelled(active)
        }
        if isDuplex, let interjectMs = scenario.runtime.scenario.policies.duplexInterjectMs {
            let due = now + scenario.runtime.scenario.scaledMicros(interjectMs)
            commands.append(.scheduleTimer(.engine(AudioLiveState.interjectTimer), atMicros: due))
        }
        return commands + enter(.speaking)
    }

    /// Speech ends: the rest of the transcript, then the answer (unless it started already in
    /// duplex, or `create_response` is off).
    private func liveSpeechStopped(atMs endMs: Int) -> [SessionCommand] {
        guard let turn = turns.speechEnded() else { return [] }
        scenario.runtime.report.userSpeechMicros += Int64(max(0, endMs - turn.startMs)) * 1000
        scenario.runtime.report.turns += 1
        var commands = isDuplex ? [SessionCommand.cancelTimer(.engine(AudioLiveState.interjectTimer))] : []
        let rest = turn.tokens[min(turn.deltasSent, turn.tokens.count)...].joined()
        if !rest.isEmpty { commands += emitLive(.inputTranscriptDelta, ["delta": .string(rest)]) }
        if live.answeredDuringSpeech {
            live.answeredDuringSpeech = false
            return commands + enter(response == nil ? .listening : .responding)
        }
        guard configuration.turnDetection?.createResponse ?? true else {
            turns.waitForResponse(turn.content)
            return commands + enter(.committed)
        }
        return commands + answer(turn.content)
    }

    /// While the user speaks: one transcript token per 500 ms of speech, the last kept for the end.
    private func liveTranscriptProgress() -> [SessionCommand] {
        // Called for every appended chunk: read the turn in place (a copy retains all its members).
        guard let startMs = turns.speaking?.startMs, let sent = turns.speaking?.deltasSent,
            input.totalMs - startMs >= (sent + 1) * 500, sent + 1 < turns.speaking?.tokens.count ?? 0,
            let token = turns.speaking?.tokens[sent]
        else { return [] }
        turns.speaking?.deltasSent += 1
        return emitLive(.inputTranscriptDelta, ["delta": .string(token)])
    }

    /// Duplex: the user has spoken for the scenario's `duplexInterjectMs` and the model answers now; the
    /// continuing speech does not cut that answer, only a new segment does.
    private func interject() -> [SessionCommand] {
        guard let content = turns.speaking?.content, response == nil, !live.answeredDuringSpeech,
            configuration.turnDetection?.createResponse ?? true
        else { return [] }
        live.answeredDuringSpeech = true
        return [.journal(.info("duplex: the model answers while the user still speaks"))] + answer(content)
    }

    /// The engine timers of the dialect: usage reports and duplex answers.
    func liveTimerFired(_ name: String) -> [SessionCommand] {
        switch name {
        case AudioLiveState.usageTimer: return reportUsage()
        case AudioLiveState.interjectTimer: return interject()
        default: return []
        }
    }

    // MARK: - Answers

    /// Answers a turn: a scripted call of no declared tool under a delegation mode is delegated
    /// (the mock's trigger: the frontend hands what it has no tool for to the client or the
    /// backend); otherwise the answer, its declared function calls first.
    func answer(_ content: TurnContent) -> [SessionCommand] {
        let declared = Set(configuration.toolNames)
        if !content.functionCalls.isEmpty, !content.functionCalls.contains(where: { declared.contains($0.name) }),
            let mode = configuration.delegationType
        {
            return delegate(content, target: mode)
        }
        return speak(content)
    }

    /// Speaks `content` now, or after the answer in progress.
    func speak(_ content: TurnContent) -> [SessionCommand] {
        guard response == nil else {
            live.queued.append(content)
            return []
        }
        return startResponse(content, delay: 0)
    }

    /// `session.delegation.created`, then for a client delegation a filler while the client
    /// works (its `session.commentary.append` is spoken), for a Responses delegation the
    /// backend's `response.event`s and its result spoken.
    private func delegate(_ content: TurnContent, target: String) -> [SessionCommand] {
        let id = scenario.runtime.ids.id(prefix: "dlg_")
        var commands = emitLive(
            .delegationCreated,
            [
                "offset_ms": .int(scenario.runtime.elapsedMicros / 1000),
                "delegation": ["id": .string(id), "target": .string(target)],
            ])
        var result = content
        result.functionCalls = []
        guard target == "responses" else {
            live.pendingDelegations.insert(id)
            return commands + speak(TurnContent(answer: AudioLiveState.delegationFiller))
        }
        let responseID = JSONValue.string(scenario.runtime.ids.id(prefix: "resp_"))
        let wrap = { (event: JSONObject) -> JSONObject in ["delegation_id": .string(id), "event": .object(event)] }
        commands += emitLive(
            .responseEvent,
            wrap(["type": "response.created", "response": ["id": responseID, "status": "in_progress"]]))
        for piece in ResponsePlan.split(result.answer) where !piece.isEmpty {
            commands += emitLive(
                .responseEvent,
                wrap(["type": "response.output_text.delta", "response_id": responseID, "delta": .string(piece)]))
        }
        commands += emitLive(
            .responseEvent,
            wrap(["type": "response.completed", "response": ["id": responseID, "status": "completed"]]))
        return commands + speak(result)
    }

    // MARK: - Streaming

    /// One step of the answer in progress, on the dialect's wire.
    func performLiveStep(_ step: ResponsePlan.Step) -> [SessionCommand] {
        guard let active = response else { return [] }
        switch step {
        case .created:
            response?.createdSent = true
            return []
        case .messageAdded, .messageDone, .awaitAudio:
            return []
        case .textDelta(let text):
            response?.textSent += text
            return emitLive(.outputTranscriptDelta, ["delta": .string(text)])
        case .audioDelta(let bytes, let level):
            response?.audioBytesSent += bytes.count
            return emitLive(.outputAudioDelta, ["delta": .string(Base64.encode(bytes))], audioLevel: level)
        case .callAdded(let index):
            response?.openCall = index
            return []
        case .argumentsDelta(let index, let piece):
            response?.calls[index].argumentsSent += piece
            return []
        case .callDone(let index):
            let call = active.calls[index]
            response?.openCall = nil
            tools.callSent(ToolCallLedger.Call(callID: call.callID, name: call.name))
            live.callNames[call.callID] = call.name
            let item: JSONValue = [
                "type": "function_call", "call_id": .string(call.callID), "name": .string(call.name),
                "arguments": .string(call.arguments),
            ]
            return emitLive(.sessionEvent, ["event": ["item": item]])
        case .done:
            var commands: [SessionCommand] = []
            if let failure = active.failure, !failure.fatal {
                commands += emit(.error, ["error": wire.errorObject(qwenError(failure), nil)])
            }
            commands += responseFinished(active)
            guard !isClosed, response == nil, !live.queued.isEmpty else { return commands }
            return commands + speak(live.queued.removeFirst())
        }
    }
}
