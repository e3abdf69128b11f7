import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

extension QwenRealtimeSession {
    /// A boundary found by the detector in the appended audio (S7, S8, S13).
    func handleVAD(_ event: VADEvent) -> [SessionCommand] {
        let streamMs = input.detectorOffsetMs + event.atMs
        switch event {
        case .speechStarted: return speechStarted(atMs: streamMs)
        case .speechStopped: return speechStopped(atMs: streamMs)
        }
    }

    private var isSmartTurn: Bool { configuration.turnDetection?.isSmartTurn ?? false }

    private func speechStarted(atMs startMs: Int) -> [SessionCommand] {
        let content = scenario.runtime.nextTurn()
        let intent = isSmartTurn ? content.intent : .valid
        let turn = UserTurn(
            intent: intent, itemID: scenario.runtime.ids.id(prefix: "item_"), content: content, startMs: startMs)
        // A filler opens no smart_turn turn: nothing is reported for it.
        turns.speechStarted(turn, smartTurn: isSmartTurn && intent != .filler)
        var commands = intent == .valid ? userActed() : []
        guard intent != .filler else { return [.journal(.info("smart_turn: filler segment at \(startMs) ms"))] }
        commands += emit(
            .inputAudioBufferSpeechStarted,
            ["audio_start_ms": .int(Int64(startMs)), "item_id": .string(turn.itemID)],
            delay: delay(before: .inputAudioBufferSpeechStarted))
        let interrupts = configuration.turnDetection?.interruptResponse ?? true
        if intent == .valid, response != nil, scenario.runtime.isInterruptible, interrupts {
            commands += cancel(reason: "turn_detected")
        }
        return commands + enter(.speaking)
    }

    private func speechStopped(atMs endMs: Int) -> [SessionCommand] {
        guard let turn = turns.speechEnded() else { return [] }
        if turn.intent == .valid {
            scenario.runtime.report.userSpeechMicros += Int64(max(0, endMs - turn.startMs)) * 1000
        }
        let fields: JSONObject = ["audio_end_ms": .int(Int64(endMs)), "item_id": .string(turn.itemID)]
        let stopDelay = delay(before: .inputAudioBufferSpeechStopped)
        switch turn.intent {
        case .filler:
            return ambientTranscription(turn)
        case .invalid:
            turns.invalidTurnEnded()
            var invalid = fields
            invalid["reason"] = "turn_invalid"
            return emit(.inputAudioBufferSpeechStopped, invalid, delay: stopDelay)
                + enter(response == nil ? .listening : .responding)
        case .valid:
            var commands =
                turn.deltasSent == 0 ? transcriptionDelta(turn, confirmed: max(0, turn.tokens.count - 1)) : []
            commands += emit(.inputAudioBufferSpeechStopped, fields, delay: stopDelay)
            commands += commitUserAudio(itemID: turn.itemID, content: turn.content)
            guard dialect.answers else { return commands + enter(.listening) }
            guard configuration.turnDetection?.createResponse ?? true, !isFinishing else {
                turns.waitForResponse(turn.content)
                return commands + enter(.committed)
            }
            return commands + startResponse(turn.content, delay: delay(before: .responseCreated))
        }
    }

    /// While the user speaks: one `…input_audio_transcription.delta` per 500 ms of speech, the
    /// confirmed `text` growing token by token and the next token as `stash`.
    func transcriptionProgress() -> [SessionCommand] {
        // Called for every appended chunk: read the turn in place (a copy retains all its members).
        guard turns.speaking?.intent == .valid, let startMs = turns.speaking?.startMs,
            let sent = turns.speaking?.deltasSent, input.totalMs - startMs >= (sent + 1) * 500,
            sent + 1 < turns.speaking?.tokens.count ?? 0, let turn = turns.speaking
        else { return [] }
        return transcriptionDelta(turn, confirmed: sent + 1)
    }

    /// An input transcription delta with `confirmed` tokens as `text` and the rest as `stash`.
    private func transcriptionDelta(_ turn: UserTurn, confirmed: Int) -> [SessionCommand] {
        let tokens = turn.tokens
        let count = min(confirmed, tokens.count)
        turns.speaking?.deltasSent += 1
        var fields: JSONObject = [
            "item_id": .string(turn.itemID), "content_index": 0,
            "text": .string(tokens[..<count].joined()), "stash": .string(tokens[count...].joined()),
        ]
        if dialect.deltasReportRecognition { for (key, value) in recognition(turn.content) { fields[key] = value } }
        return emit(dialect.transcriptionDeltaEvent, fields)
    }

    /// A smart_turn filler: ambient transcription with a temporary item id only (S8).
    private func ambientTranscription(_ turn: UserTurn) -> [SessionCommand] {
        let tokens = turn.tokens
        let confirmed = max(0, tokens.count - 1)
        let id = JSONValue.string(turn.itemID)
        return emit(
            .conversationItemAmbientAudioTranscriptionDelta,
            [
                "item_id": id, "content_index": 0, "text": .string(tokens[..<confirmed].joined()),
                "stash": .string(tokens[confirmed...].joined()),
            ],
            delay: delay(before: .conversationItemAmbientAudioTranscriptionDelta))
            + emit(
                .conversationItemAmbientAudioTranscriptionCompleted,
                ["item_id": id, "content_index": 0, "transcript": .string(turn.content.transcript)])
    }

    /// session.finish / session end while the user speaks: close the segment as a committed
    /// item with its final transcript, without answering.
    func flushSpeech() -> [SessionCommand] {
        guard let turn = turns.speechEnded() else { return [] }
        guard turn.intent == .valid else { return [] }
        return emit(
            .inputAudioBufferSpeechStopped,
            ["audio_end_ms": .int(Int64(input.totalMs)), "item_id": .string(turn.itemID)])
            + commitUserAudio(itemID: turn.itemID, content: turn.content)
    }
}

extension QwenRealtimeSession {
    /// The language the recogniser reports for `content`: the turn's scripted `language`, else
    /// the session's `input_audio_transcription.language`, else `zh`.
    func recognisedLanguage(_ content: TurnContent) -> String {
        content.language ?? configuration.transcriptionLanguage ?? "zh"
    }

    /// The `language` and `emotion` members of a transcription event.
    func recognition(_ content: TurnContent) -> JSONObject {
        ["language": .string(recognisedLanguage(content)), "emotion": .string(content.emotion ?? "neutral")]
    }
}
