import ProtocolModel
import Synchronization
public import WireJSON

extension MultiModalDialog {
    /// push2talk "button pressed" (`SendSpeech`). Outside Listening it waits for the next
    /// Listening, and so does everything sent after it (C10).
    public func startSpeech() {
        state.withLock { s in
            // Before the first Listening (awaiting Started, or Started without Listening yet) the
            // call waits for it; it was dropped when it fell between Started and Listening.
            guard s.listeningSeen || s.phase == .awaitingStarted || s.phase == .started, !s.finishSent else { return }
            if s.canActInListening, s.listeningSeen {
                if sendDirective(&s, .sendSpeech) { s.pushToTalkOpen = true }
            } else {
                s.pending.append(.sendSpeech)
            }
        }
    }

    /// Uploads audio in the declared format. Audio the protocol does not allow right now is
    /// dropped (before Listening C8; push2talk outside SendSpeech…StopSpeech C10; tap2talk after
    /// SpeechEnded until Listening C11) or, behind a waiting `startSpeech`, queued.
    /// - Returns: whether the audio was sent or queued.
    @discardableResult
    public func sendAudioData(_ bytes: [UInt8]) -> Bool {
        state.withLock { s in
            guard s.phase == .started, s.listeningSeen, !s.finishSent else { return false }
            switch s.mode {
            case .push2talk:
                if !s.pending.isEmpty {
                    s.pending.append(.audio(bytes))
                    return true
                }
                guard s.pushToTalkOpen else { return false }
            case .tap2talk:
                guard s.dialogState == .listening, !s.tapPaused else { return false }
            case .duplex:
                break
            }
            sendBinary(&s, bytes)
            return true
        }
    }

    /// Uploads PCM in 100 ms frames, paced in real time when `realtime` (C9).
    public func sendAudio(pcm: [UInt8], realtime: Bool = true) async {
        let (rate, format) = state.withLock { ($0.upstreamRate, $0.upstreamFormat) }
        let frameBytes = format == "pcm" ? rate / 5 : max(1, pcm.count)
        let start = Clock.nowMicros()
        var played: Int64 = 0
        for range in AudioChunker.ranges(count: pcm.count, chunkBytes: frameBytes) {
            sendAudioData(Array(pcm[range]))
            played += format == "pcm" ? AudioDuration.pcmMicros(byteCount: range.count, sampleRate: rate) : 100_000
            if realtime { await Clock.sleep(untilMicros: start + played) }
        }
    }

    /// push2talk "button released" (`StopSpeech`).
    public func stopSpeech() {
        state.withLock { s in
            if !s.pending.isEmpty {
                s.pending.append(.stopSpeech)
            } else if s.pushToTalkOpen {
                sendDirective(&s, .stopSpeech)
                s.pushToTalkOpen = false
                s.tapPaused = true
            }
        }
    }

    /// Aborts the speech input (`CancelSpeech`); a SendSpeech still waiting for Listening is
    /// dropped with everything queued behind it.
    public func cancelSpeech() {
        state.withLock { s in
            if let index = s.pending.lastIndex(where: { if case .sendSpeech = $0 { true } else { false } }) {
                s.pending.removeSubrange(index...)
            } else if s.pushToTalkOpen {
                sendDirective(&s, .cancelSpeech)
                s.pushToTalkOpen = false
            }
        }
    }

    /// Interrupts the bot (`RequestToSpeak`); only sent while Thinking or Responding (C20).
    public func interrupt() {
        state.withLock { s in
            guard s.dialogState == .thinking || s.dialogState == .responding else { return }
            sendDirective(&s, .requestToSpeak)
        }
    }

    /// `RequestToRespond` (C13): sent in Listening, otherwise at the next Listening.
    /// - Parameters:
    ///   - type: `transcript` (speak `text`) or `prompt` (ask the LLM).
    ///   - params: `parameters` (images, biz_params).
    public func requestToRespond(type: String, text: String, params: JSONObject = [:]) {
        state.withLock { s in
            guard !s.finishSent, s.phase == .started || s.phase == .awaitingStarted else { return }
            if s.canActInListening {
                sendDirective(
                    &s, .requestToRespond, input: ["type": .string(type), "text": .string(text)], parameters: params)
                s.tapPaused = true  // the server leaves Listening: tap2talk upload pauses (C11)
            } else {
                s.pending.append(.requestToRespond(type: type, text: text, parameters: params))
            }
        }
    }

    /// `UpdateInfo` with `parameters` (images, client_info.status, biz_params).
    public func updateInfo(params: JSONObject) {
        state.withLock { s in _ = sendDirective(&s, .updateInfo, parameters: params) }
    }

    /// `HeartBeat`, unless one was sent less than 5 s ago (C21).
    public func sendHeartBeat() {
        state.withLock { s in
            guard Clock.nowMicros() - s.lastHeartbeatAt >= 5_000_000 else { return }
            sendDirective(&s, .heartBeat)
        }
    }

    /// `LocalRespondingStarted` — for apps that play audio themselves (built-in player off).
    public func sendLocalRespondingStarted() {
        state.withLock { s in
            guard s.round.respondingStarted, !s.round.localStartedSent else { return }
            s.round.localStartedSent = true
            sendDirective(&s, .localRespondingStarted)
        }
    }

    /// `LocalRespondingEnded`, at most once per round (C19).
    public func sendLocalRespondingEnded() {
        state.withLock { s in localRespondingEnded(&s) }
    }

    func localRespondingEnded(_ s: inout DialogSessionState) {
        guard s.round.respondingStarted, !s.round.localEndedSent, !s.faults.skipLocalRespondingEnded else { return }
        s.round.localEndedSent = true
        sendDirective(&s, .localRespondingEnded)
        if s.faults.doubleLocalRespondingEnded { sendDirective(&s, .localRespondingEnded) }
    }

    /// Sends the operations that waited for Listening, in order.
    func flushPending(_ s: inout DialogSessionState) {
        var queued = s.pending[...]
        s.pending = []
        while let operation = queued.popFirst() {
            switch operation {
            case .sendSpeech:
                if sendDirective(&s, .sendSpeech) { s.pushToTalkOpen = true }
            case .audio(let bytes):
                if s.pushToTalkOpen || s.mode != .push2talk { sendBinary(&s, bytes) }
            case .stopSpeech:
                if s.pushToTalkOpen { sendDirective(&s, .stopSpeech) }
                s.pushToTalkOpen = false
                s.tapPaused = true
                // The utterance is over: the state leaves Listening, so the rest waits again.
                s.pending = Array(queued)
                return
            case .cancelSpeech:
                if s.pushToTalkOpen { sendDirective(&s, .cancelSpeech) }
                s.pushToTalkOpen = false
            case .requestToRespond(let type, let text, let parameters):
                sendDirective(
                    &s, .requestToRespond, input: ["type": .string(type), "text": .string(text)],
                    parameters: parameters)
                s.tapPaused = true
                s.pending = Array(queued)
                return
            }
        }
    }
}
