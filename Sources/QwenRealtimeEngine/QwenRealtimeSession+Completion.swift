import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension QwenRealtimeSession {
    /// `response.done` at the end of the plan: `completed` with usage, or `failed` when the
    /// turn scripts an error instead of the answer (S10, S21); then the errors after the answer.
    func finishResponse() -> [SessionCommand] {
        guard let active = response else { return [] }
        var commands: [SessionCommand]
        if let failure = active.failure {
            let error: JSONValue = [
                "type": .string(qwenError(failure).type), "code": .string(failure.code),
                "message": .string(failure.message),
            ]
            commands = emit(
                .responseDone,
                [
                    "response": active.json(
                        status: "failed", details: ["type": "failed", "error": error], conversationID: conversationID)
                ])
        } else {
            let arguments = active.calls.map(\.arguments).joined()
            let audioMicros = Int64(active.audioBytesSent / 2) * 1_000_000 / Int64(configuration.outputSampleRate)
            let usage = Usage.json(
                inputText: active.promptTextTokens, inputAudio: active.promptAudioTokens,
                outputText: Usage.textTokens(active.textSent) + Usage.textTokens(arguments),
                outputAudio: Usage.outputAudioTokens(micros: audioMicros), search: configuration.searchUse)
            commands = emit(
                .responseDone,
                ["response": active.json(status: "completed", usage: usage, conversationID: conversationID)])
        }
        return commands + responseFinished(active)
    }

    /// The response `active` ran to its end (its last event is out): stop streaming it, send the
    /// errors scripted after it, and account for its answer. For a dialect without `response.done`.
    func responseFinished(_ active: ActiveResponse) -> [SessionCommand] {
        var commands = endResponse()
        turns.responseFinished()
        if let failure = active.failure, failure.fatal {
            return commands + scriptedError(failure)
        }
        for spec in active.errorsAfter {
            commands += scriptedError(spec)
            if isClosed { return commands }
        }
        tools.responseEnded()
        if active.failure == nil {
            let audioMicros = Int64(active.audioBytesSent / 2) * 1_000_000 / Int64(configuration.outputSampleRate)
            commands += watchIdleSilence(answerStartMicros: active.startMicros, audioMicros: audioMicros)
            answerPlaybackEndMicros = active.startMicros + audioMicros
            scenario.runtime.report.answers += 1
            scenario.runtime.report.answerAudioMicros += audioMicros
        }
        return commands + enter(tools.isAwaitingOutput ? .awaitingToolOutput : .listening)
    }

    /// Cancels the response in progress now: no further deltas, the open part and item are
    /// closed as `incomplete`, then `response.done{status:"cancelled"}` without usage (S13, S14).
    func cancel(reason: String) -> [SessionCommand] {
        guard let active = response else { return [] }
        var commands: [SessionCommand] = []
        if !active.createdSent {
            response?.createdSent = true
            commands += emit(
                .responseCreated, ["response": active.json(status: "in_progress", conversationID: conversationID)])
        }
        commands += closeOpenItems(status: "incomplete")
        guard let closed = response else { return commands }
        commands += emit(
            .responseDone,
            [
                "response": closed.json(
                    status: "cancelled", details: ["type": "cancelled", "reason": .string(reason)],
                    conversationID: conversationID)
            ])
        return commands + responseCancelled(closed)
    }

    /// The response `closed` was cut (its closing events, if any, are out): nothing more of it is
    /// streamed, and calls that did not finish are not awaited. For a dialect without `response.*`.
    func responseCancelled(_ closed: ActiveResponse) -> [SessionCommand] {
        // Calls that did not finish are not awaited; the answer they led to is dropped.
        let commands = endResponse()
        scenario.runtime.report.answers += 1
        scenario.runtime.report.interruptedAnswers += 1
        if !closed.calls.isEmpty { tools.responseEnded() }
        return commands + enter(turns.speaking != nil ? .speaking : .listening)
    }

    /// Stops streaming without any event (the connection is ending).
    func cancelStreaming() -> [SessionCommand] {
        endResponse()
    }

    private func closeOpenItems(status: String) -> [SessionCommand] {
        guard let active = response else { return [] }
        if active.messageOpen { return closeMessage(status: status) }
        guard let index = active.openCall else { return [] }
        let call = active.calls[index]
        let item: JSONObject = [
            "id": .string(call.itemID), "object": "realtime.item", "type": "function_call", "status": .string(status),
            "call_id": .string(call.callID), "name": .string(call.name), "arguments": .string(call.argumentsSent),
        ]
        conversation.update(item)
        response?.openCall = nil
        response?.output.append(.object(item))
        return emit(
            .responseOutputItemDone,
            ["response_id": .string(active.id), "output_index": .int(Int64(index)), "item": .object(item)])
    }
}
