import ProtocolModel
import Synchronization
public import WireJSON

extension QwenRealtimeClient {
    /// `input_audio_buffer.append` of s16le mono PCM at the input rate, as one chunk (C8: a
    /// trailing odd byte is dropped so the chunk holds whole samples).
    public func appendAudio(_ pcm: [UInt8]) {
        guard pcm.count >= 2 else { return }
        let bytes = pcm.count % 2 == 0 ? pcm : Array(pcm.dropLast())
        state.withLock { s in
            send(&s, QwenClientEvent.inputAudioBufferAppend.object(["audio": .string(Base64.encode(bytes))]))
            s.audioAppended = true
            s.bufferedMicros += AudioDuration.pcmMicros(byteCount: bytes.count, sampleRate: s.inputRate)
        }
    }

    /// Appends PCM in `options.chunkMillis` chunks, paced in real time when `realtime` (C8).
    public func appendAudio(pcm: [UInt8], realtime: Bool = true) async {
        let rate = state.withLock { $0.inputRate }
        let chunk = max(2, rate * 2 * options.chunkMillis / 1000)
        let start = Clock.nowMicros()
        var played: Int64 = 0
        for range in AudioChunker.ranges(count: pcm.count, chunkBytes: chunk) {
            if isTerminated { return }  // C19: the session is over
            appendAudio(Array(pcm[range]))
            played += AudioDuration.pcmMicros(byteCount: range.count, sampleRate: rate)
            if realtime { await Clock.sleep(untilMicros: start + played) }
        }
    }

    /// Omni: `input_image_buffer.append` of a JPEG, only after some audio (C16, C17).
    /// - Returns: false when the profile or the order does not allow it.
    @discardableResult
    public func appendImage(jpeg: [UInt8]) -> Bool {
        state.withLock { s in
            guard profile.takesImages, s.audioAppended else { return false }
            send(&s, QwenClientEvent.inputImageBufferAppend.object(["image": .string(Base64.encode(jpeg))]))
            return true
        }
    }

    /// push-to-talk: `input_audio_buffer.commit`. Skipped in VAD modes (C9) and with less than
    /// 100 ms buffered (C10). - Returns: whether it was sent.
    @discardableResult
    public func commit() -> Bool {
        state.withLock { s in
            guard s.turnDetection == nil, s.bufferedMicros >= 100_000 else { return false }
            send(&s, QwenClientEvent.inputAudioBufferCommit.object())
            s.bufferedMicros = 0
            return true
        }
    }

    /// push-to-talk: `input_audio_buffer.clear` (skipped in VAD modes, C9).
    public func clearAudioBuffer() {
        state.withLock { s in
            guard s.turnDetection == nil else { return }
            send(&s, QwenClientEvent.inputAudioBufferClear.object())
            s.bufferedMicros = 0
        }
    }

    /// `response.create`, at once when no response is in progress, else after its
    /// `response.done` (C11); a request already sent or waiting absorbs this one.
    public func createResponse(_ response: JSONObject? = nil) {
        state.withLock { s in requestResponse(&s, response) }
    }

    func requestResponse(_ s: inout QwenSessionState, _ response: JSONObject?) {
        // A request already sent and not yet answered with response.created absorbs this one.
        if s.createSent { return }
        if s.responseInProgress != nil || (s.inTurn && s.turnDetection == "smart_turn") || s.deferredCreate != nil {
            if s.deferredCreate == nil { s.deferredCreate = response ?? [:] }
            return
        }
        var event = QwenClientEvent.responseCreate.object()
        if let response { event["response"] = .object(response) }
        send(&s, event)
        s.createSent = true
    }

    /// `response.cancel`, only while a response is in progress (C12); stops playback (C20).
    public func cancelResponse() {
        state.withLock { s in
            s.deferredCreate = nil
            guard let id = s.responseInProgress else { return }
            send(&s, QwenClientEvent.responseCancel.object())
            s.cancelled.insert(id)
            stopPlayback(&s)
        }
    }

    /// The result of a function call: one `conversation.item.create{function_call_output}` per
    /// `call_id` (C13), then — once every call of the response is answered — `response.create`
    /// after the response's `response.done`.
    /// - Returns: false for an unknown or already answered call id.
    @discardableResult
    public func sendFunctionCallOutput(callId: String, output: String, createResponse: Bool = true) -> Bool {
        state.withLock { s in
            guard s.calls[callId] == false else { return false }
            s.calls[callId] = true
            send(
                &s,
                QwenClientEvent.conversationItemCreate.object([
                    "item": ["type": "function_call_output", "call_id": .string(callId), "output": .string(output)]
                ]))
            if createResponse, s.calls.values.allSatisfy({ $0 }) { requestResponse(&s, nil) }
            return true
        }
    }

    /// `conversation.item.create` with a message item (text input, C15).
    public func createItem(_ item: JSONObject, previousItemId: String? = nil) {
        state.withLock { s in
            var event = QwenClientEvent.conversationItemCreate.object(["item": .object(item)])
            if let previousItemId { event["previous_item_id"] = .string(previousItemId) }
            send(&s, event)
        }
    }

    /// Flushes the player: playback stops now and the response's later deltas are dropped (C20).
    func stopPlayback(_ s: inout QwenSessionState) {
        guard let id = s.playingResponse else { return }
        s.cancelled.insert(id)
        if s.player.flush(atMicros: Clock.nowMicros()) { emit(s) { $0.onPlaybackEnded?(id) } }
        s.playingResponse = nil
    }
}
