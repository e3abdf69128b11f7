import ProtocolModel
import Synchronization
public import WireJSON

extension QwenAudioLiveClient {
    /// `session.input_audio.append` of PCM16LE 16 kHz mono as one chunk; a trailing odd byte is
    /// dropped (whole samples, qal.C6), and nothing goes while AOQ carries the media (qal.C7).
    public func appendAudio(_ pcm: [UInt8]) {
        guard pcm.count >= 2 else { return }
        let bytes = pcm.count % 2 == 0 ? pcm : Array(pcm.dropLast())
        state.withLock { s in
            guard !s.audioGoesOverAOQ || s.faults.audioOnWebSocketUnderAOQ else { return }
            send(&s, QwenAudioLiveClientEvent.inputAudioAppend.object(["audio": .string(Base64.encode(bytes))]))
        }
    }

    /// Appends PCM in `options.chunkMillis` chunks (1280 bytes at 40 ms; a tail under
    /// `minimumChunkMillis` goes with the chunk before it), paced in real time when `realtime`
    /// (qal.C6); stops when the session is over.
    public func appendAudio(pcm: [UInt8], realtime: Bool = true) async {
        let rate = QwenAudioLive.inputSampleRate
        let chunk = max(2, rate * 2 * options.chunkMillis / 1000)
        let shortest = rate * 2 * Self.minimumChunkMillis / 1000
        let start = Clock.nowMicros()
        var played: Int64 = 0
        for range in AudioChunker.ranges(count: pcm.count, chunkBytes: chunk, minimumBytes: shortest) {
            if isOver { return }
            appendAudio(Array(pcm[range]))
            played += AudioDuration.pcmMicros(byteCount: range.count, sampleRate: rate)
            if realtime { await Clock.sleep(untilMicros: start + played) }
        }
    }

    /// The shortest chunk the paced helper sends: the service family's pacing rule (20–200 ms
    /// chunks, qal.C6 SHOULD).
    static let minimumChunkMillis = 20

    /// `session.input_audio.mute`: the server ignores the uplink until `unmute`.
    public func mute() { sendEvent(.inputAudioMute) }

    /// `session.input_audio.unmute`.
    public func unmute() { sendEvent(.inputAudioUnmute) }

    /// `session.item.create` of a user text message.
    public func sendText(_ text: String) {
        createItem(["type": "message", "role": "user", "content": [["type": "input_text", "text": .string(text)]]])
    }

    /// `session.item.create` with `item` as given.
    public func createItem(_ item: JSONObject) { sendEvent(.itemCreate, ["item": .object(item)]) }

    /// The result of a function call: one `session.item.create{function_call_output}` carrying
    /// its `call_id` (qal.C8). - Returns: false for an unknown or already answered call.
    @discardableResult
    public func sendFunctionCallOutput(callId: String, output: String) -> Bool {
        state.withLock { s in
            guard s.calls[callId] == false else { return false }
            s.calls[callId] = true
            send(
                &s,
                QwenAudioLiveClientEvent.itemCreate.object([
                    "item": ["type": "function_call_output", "call_id": .string(callId), "output": .string(output)]
                ]))
            return true
        }
    }

    /// A client delegation's result: `session.commentary.append` carrying its `delegation_id`
    /// (qal.C9). - Returns: false for an unknown or already answered delegation.
    @discardableResult
    public func appendCommentary(delegationId: String, content: String) -> Bool {
        state.withLock { s in
            guard s.delegations[delegationId] == false else { return false }
            s.delegations[delegationId] = true
            send(
                &s,
                QwenAudioLiveClientEvent.commentaryAppend.object([
                    "delegation_id": .string(delegationId), "content": .string(content),
                ]))
            return true
        }
    }

    /// `session.commentary.append` of speakable context outside any delegation (`delegation_id` null).
    public func appendCommentary(_ content: String) {
        sendEvent(.commentaryAppend, ["delegation_id": .null, "content": .string(content)])
    }

    /// `session.thinking.append`: a delegation's progress, silent context.
    public func appendThinking(delegationId: String?, content: String) {
        sendEvent(
            .thinkingAppend,
            ["delegation_id": delegationId.map(JSONValue.string) ?? .null, "content": .string(content)])
    }

    /// `session.instructions.append`: instructions added during the session (for a delegation:
    /// ask the user for more).
    public func appendInstructions(_ content: String, delegationId: String? = nil) {
        var fields: JSONObject = ["content": .string(content)]
        if let delegationId { fields["delegation_id"] = .string(delegationId) }
        sendEvent(.instructionsAppend, fields)
    }

    private func sendEvent(_ type: QwenAudioLiveClientEvent, _ fields: JSONObject = [:]) {
        state.withLock { s in send(&s, type.object(fields)) }
    }
}
