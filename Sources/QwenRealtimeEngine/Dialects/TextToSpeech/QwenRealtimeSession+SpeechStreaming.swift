import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// The events of one Qwen-TTS-Realtime response (§8.12), step by step from the response plan:
/// `response.created` → `output_item.added` → `content_part.added` → `response.audio.delta`+ →
/// `response.audio.done` → `content_part.done` → `output_item.done` → `response.done`. No
/// conversation item and no transcript: the input was text.
extension QwenRealtimeSession {
    /// Sends one step of the TTS response in progress.
    func performSpeechStep(_ step: ResponsePlan.Step) -> [SessionCommand] {
        guard let active = response else { return [] }
        switch step {
        case .created:
            response?.createdSent = true
            return emit(.responseCreated, ["response": active.json(status: "in_progress", conversationID: "")])
        case .messageAdded:
            let itemID = scenario.runtime.ids.id(prefix: "item_")
            response?.messageItemID = itemID
            response?.messageOpen = true
            let item = Self.speechItem(itemID, status: "in_progress", content: [])
            return emit(
                .responseOutputItemAdded, ["response_id": .string(active.id), "output_index": 0, "item": item])
                + emit(.responseContentPartAdded, partFields(response ?? active, ["part": Self.audioPart]))
        case .audioDelta(let bytes, let level):
            response?.audioBytesSent += bytes.count
            return emit(
                .responseAudioDelta, partFields(active, ["delta": .string(Base64.encode(bytes))]), audioLevel: level)
        case .messageDone:
            return closeSpeechMessage(status: "completed")
        case .done:
            let usage = speechUsage(text: speech.speaking ?? "", audioMicros: active.audioDurationMicros)
            let commands = emit(
                .responseDone, ["response": active.json(status: "completed", usage: usage, conversationID: "")])
            speech.speaking = nil
            return commands + endResponse() + enter(.idle) + speakNextSegment()
        case .textDelta, .callAdded, .argumentsDelta, .callDone, .awaitAudio:
            return []
        }
    }

    /// The `.done` events of the open audio part and its item; `status` is `completed` or `incomplete`.
    func closeSpeechMessage(status: String) -> [SessionCommand] {
        guard let active = response, active.messageOpen, let itemID = active.messageItemID else { return [] }
        response?.messageOpen = false
        let item = Self.speechItem(itemID, status: status, content: [Self.audioPart])
        response?.output.append(item)
        return emit(.responseAudioDone, partFields(active, [:]))
            + emit(.responseContentPartDone, partFields(active, ["part": Self.audioPart]))
            + emit(.responseOutputItemDone, ["response_id": .string(active.id), "output_index": 0, "item": item])
    }

    /// `usage`: billable characters on the qwen3 models (a CJK character counts 2), tokens on
    /// qwen-tts-realtime (text tokens in; 50 audio tokens per second out, at least 50).
    func speechUsage(text: String, audioMicros: Int64) -> JSONValue {
        if SpeechSynthesisModel(model: model)?.billsCharacters ?? true {
            let characters = text.reduce(0) { $0 + (Tokenizer.isCJK($1) ? 2 : 1) }
            return ["characters": .int(Int64(characters))]
        }
        return Usage.json(
            inputText: Usage.textTokens(text), inputAudio: 0, outputText: 0,
            outputAudio: max(50, Int(audioMicros * 50 / 1_000_000)))
    }

    /// The audio part of a TTS item (the service leaves its text empty).
    private static var audioPart: JSONValue { ["type": "audio", "text": "", "transcript": ""] }

    private static func speechItem(_ id: String, status: String, content: [JSONValue]) -> JSONValue {
        [
            "id": .string(id), "object": "realtime.item", "type": "message", "status": .string(status),
            "role": "assistant", "content": .array(content),
        ]
    }
}
