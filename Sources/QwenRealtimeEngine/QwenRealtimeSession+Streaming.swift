import AnswerAudio
import ProtocolModel
import ScenarioEngine
package import SessionCore
import WireAudio
import WireJSON

extension QwenRealtimeSession {
    /// The engine timer that streams the response in progress.
    static var responseTimer: String { "response" }

    package func engineTimerFired(_ name: String) -> [SessionCommand] {
        if name == Self.speakFirstTimer, !isClosed { return idleSilenceElapsed() }
        guard !isClosed else { return [] }
        guard name == Self.responseTimer else { return dialect.engineTimerFired(name, in: self) }
        timeline.timerFired()
        var commands: [SessionCommand] = []
        while !isClosed, let next = timeline.next(now: now) {
            switch next {
            case .awaitAudio(let handle):
                // Still rendering on a worker: the driver fires this timer when it is ready.
                return commands + timeline.awaitAudio(handle)
            case .run(let step):
                if case .awaitAudio(let handle) = step.action, let rendered = handle.rendered {
                    commands += planRenderedAnswer(rendered)
                } else {
                    commands += perform(step.action)
                }
            }
        }
        return commands + timeline.retime()
    }

    /// Makes `active` the response in progress and puts its plan's steps on the timeline, each
    /// at the response start plus its offset.
    func begin(_ active: ActiveResponse, plan: ResponsePlan) -> [SessionCommand] {
        response = active
        schedule(plan)
        return timeline.retime()
    }

    /// The answer audio the response waited for is rendered: its message plan replaces the wait.
    private func planRenderedAnswer(_ rendered: RenderedAnswer) -> [SessionCommand] {
        guard let active = response else { return [] }
        response?.pendingText = []
        schedule(.message(text: active.pendingText, audio: rendered))
        return rendered.problem.map { [.journal(.info($0))] } ?? []
    }

    private func schedule(_ plan: ResponsePlan) {
        guard let active = response else { return }
        response?.audioBytes = plan.audioBytes
        response?.audioDurationMicros = plan.audioDurationMicros
        for timed in plan.steps {
            timeline.add(timed.step, at: active.startMicros + timed.offsetMicros, group: active.group)
        }
    }

    /// Ends the response in progress on the wire's side: nothing more of it is streamed.
    func endResponse() -> [SessionCommand] {
        guard let active = response else { return [] }
        response = nil
        timeline.drop(group: active.group)
        return timeline.retime()
    }

    private func perform(_ step: ResponsePlan.Step) -> [SessionCommand] {
        dialect.perform(step, in: self)
    }

    /// Sends one step of an answer: items, text, audio, function calls.
    func performAnswerStep(_ step: ResponsePlan.Step) -> [SessionCommand] {
        guard let active = response else { return [] }
        var base: JSONObject { ["response_id": .string(active.id)] }
        switch step {
        case .created:
            response?.createdSent = true
            return emit(
                .responseCreated, ["response": active.json(status: "in_progress", conversationID: conversationID)])
        case .messageAdded:
            return addMessage(active)
        case .textDelta(let text):
            response?.textSent += text
            let event: QwenServerEvent = active.hasAudio ? .responseAudioTranscriptDelta : .responseTextDelta
            return emit(event, partFields(active, ["delta": .string(text)]))
        case .audioDelta(let bytes, let level):
            response?.audioBytesSent += bytes.count
            // wav output: the answer's first chunk starts with the header of the whole answer.
            let payload =
                active.audioBytesSent == 0 && configuration.outputIsWAV
                ? WAVFile.streamHeader(sampleRate: configuration.outputSampleRate, dataBytes: active.audioBytes) + bytes
                : bytes
            return emit(
                .responseAudioDelta, partFields(active, ["delta": .string(Base64.encode(payload))]), audioLevel: level)
        case .messageDone:
            return closeMessage(status: "completed")
        case .callAdded(let index):
            let call = active.calls[index]
            let item = callItem(call, status: "in_progress", arguments: "")
            let previous = conversation.lastItemID.map(JSONValue.string) ?? .null
            conversation.insert(item, after: nil)
            response?.openCall = index
            return emit(
                .responseOutputItemAdded, base.merging(["output_index": .int(Int64(index)), "item": .object(item)]))
                + emit(.conversationItemCreated, ["previous_item_id": previous, "item": .object(item)])
        case .argumentsDelta(let index, let piece):
            let call = active.calls[index]
            response?.calls[index].argumentsSent += piece
            return emit(
                .responseFunctionCallArgumentsDelta,
                base.merging([
                    "item_id": .string(call.itemID), "output_index": .int(Int64(index)),
                    "call_id": .string(call.callID),
                    "delta": .string(piece),
                ]))
        case .callDone(let index):
            let call = active.calls[index]
            let item = callItem(call, status: "completed", arguments: call.arguments)
            conversation.update(item)
            response?.openCall = nil
            response?.output.append(.object(item))
            tools.callSent(ToolCallLedger.Call(callID: call.callID, name: call.name))
            return emit(
                .responseFunctionCallArgumentsDone,
                base.merging([
                    "item_id": .string(call.itemID), "output_index": .int(Int64(index)),
                    "call_id": .string(call.callID),
                    "name": .string(call.name), "arguments": .string(call.arguments),
                ]))
                + emit(
                    .responseOutputItemDone,
                    base.merging(["output_index": .int(Int64(index)), "item": .object(item)]))
        case .done:
            return finishResponse()
        case .awaitAudio:
            return []
        }
    }

    private func addMessage(_ active: ActiveResponse) -> [SessionCommand] {
        let itemID = scenario.runtime.ids.id(prefix: "item_")
        let item: JSONObject = [
            "id": .string(itemID), "object": "realtime.item", "type": "message", "status": "in_progress",
            "role": "assistant", "content": [],
        ]
        let previous = conversation.lastItemID.map(JSONValue.string) ?? .null
        conversation.insert(item, after: nil)
        response?.messageItemID = itemID
        response?.messageOpen = true
        let updated = response ?? active
        return emit(
            .responseOutputItemAdded, ["response_id": .string(active.id), "output_index": 0, "item": .object(item)])
            + emit(.conversationItemCreated, ["previous_item_id": previous, "item": .object(item)])
            + emit(.responseContentPartAdded, partFields(updated, ["part": part(updated, text: "")]))
    }

    /// The `.done` events of the open message part; `status` is `completed` or `incomplete`.
    func closeMessage(status: String) -> [SessionCommand] {
        guard let active = response, active.messageOpen, let itemID = active.messageItemID else { return [] }
        response?.messageOpen = false
        let text = JSONValue.string(active.textSent)
        var commands: [SessionCommand]
        if active.hasAudio {
            commands =
                emit(.responseAudioTranscriptDone, partFields(active, ["transcript": text]))
                + emit(.responseAudioDone, partFields(active, [:]))
        } else {
            commands = emit(.responseTextDone, partFields(active, ["text": text]))
        }
        commands += emit(
            .responseContentPartDone, partFields(active, ["part": part(active, text: active.textSent)]))
        let content: JSONValue =
            active.hasAudio ? ["type": "audio", "transcript": text] : ["type": "text", "text": text]
        let item: JSONObject = [
            "id": .string(itemID), "object": "realtime.item", "type": "message", "status": .string(status),
            "role": "assistant", "content": [content],
        ]
        conversation.update(item)
        response?.output.append(.object(item))
        return commands
            + emit(
                .responseOutputItemDone,
                ["response_id": .string(active.id), "output_index": 0, "item": .object(item)])
    }

    /// `response_id`, `item_id`, `output_index`, `content_index` plus `extra`.
    func partFields(_ active: ActiveResponse, _ extra: JSONObject) -> JSONObject {
        var fields = JSONObject()
        fields.reserveCapacity(4 + extra.count)
        fields["response_id"] = .string(active.id)
        fields["item_id"] = .string(active.messageItemID ?? "")
        fields["output_index"] = 0
        fields["content_index"] = 0
        for (key, value) in extra { fields[key] = value }
        return fields
    }

    /// The content part (`text` per spec; audio parts also carry OpenAI's `transcript`).
    private func part(_ active: ActiveResponse, text: String) -> JSONValue {
        active.hasAudio
            ? ["type": "audio", "text": .string(text), "transcript": .string(text)]
            : ["type": "text", "text": .string(text)]
    }

    private func callItem(_ call: ActiveResponse.Call, status: String, arguments: String) -> JSONObject {
        [
            "id": .string(call.itemID), "object": "realtime.item", "type": "function_call", "status": .string(status),
            "call_id": .string(call.callID), "name": .string(call.name), "arguments": .string(arguments),
        ]
    }
}

extension JSONObject {
    /// This object with the keys of `other` added or replaced.
    func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for (key, value) in other { result[key] = value }
        return result
    }
}
