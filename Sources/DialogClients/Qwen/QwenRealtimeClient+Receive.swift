import ProtocolModel
import Synchronization
import WireJSON
import WireSocket

extension QwenRealtimeClient {
    /// Reads the connection until it closes, handling each event in order.
    func runReceiveLoop(_ connection: ClientConnection) {
        Task { [self] in
            while true {
                guard let event = await connection.next(timeoutMillis: 1000) else { continue }
                switch event {
                case .message(let message):
                    guard message.isText, let json = try? JSONValue.decode(message.bytes), let object = json.objectValue
                    else { continue }
                    handle(object)
                case .closed(let code, let reason):
                    handleClosed(code: Int(code?.rawValue ?? 1006), reason: reason)
                    return
                }
            }
        }
    }

    private func handle(_ event: JSONObject) {
        let type = event["type"]?.stringValue ?? ""
        var resolution: (QwenServerEvent?, Result<JSONObject, QwenRealtimeError>)?
        state.withLock { s in
            emit(s) { $0.onEvent?(type, event) }
            let itemID = event["item_id"]?.stringValue ?? ""
            let responseID = event["response_id"]?.stringValue ?? event["response"]?["id"]?.stringValue ?? ""
            let known = QwenServerEvent(rawValue: type)
            switch known {
            case .sessionCreated?, .sessionUpdated?:
                let session = event["session"]?.objectValue ?? [:]
                adopt(&s, session)
                if known == .sessionUpdated {
                    emit(s) { $0.onSessionUpdated?(session) }
                    if s.phase == .configuring { release(&s) }
                }
                resolution = (known, .success(session))
            case .error?:
                let body = event["error"]?.objectValue ?? [:]
                let error = QwenRealtimeError(
                    type: body["type"]?.stringValue ?? "server_error", code: body["code"]?.stringValue ?? "",
                    message: body["message"]?.stringValue ?? "", param: body["param"]?.stringValue)
                if error.param == QwenClientEvent.responseCreate.rawValue { s.createSent = false }
                emit(s) { $0.onError?(error) }
                let terminal = (error.isFatal && !s.faults.ignoreFatalErrors) || s.faults.everyErrorTerminal
                if terminal {
                    // C19: terminal. Nothing more is sent, nothing is awaited, and the socket is
                    // closed unless the server does it first (it closes with 1011, S21).
                    terminate(&s)
                    resolution = (s.waiter?.kind, .failure(error))
                    closeSoon(after: 1_000)
                } else if let kind = s.waiter?.kind, kind != .sessionFinished {
                    resolution = (kind, .failure(error))
                }
            case .inputAudioBufferSpeechStarted?:
                s.inTurn = true
                stopPlaybackOnBargeIn(&s)  // C20: VAD barge-in
                emit(s) { $0.onSpeechStarted?(itemID) }
            case .inputAudioBufferSpeechStopped?:
                if event["reason"]?.stringValue == "turn_invalid" { s.inTurn = false }
                emit(s) { $0.onSpeechStopped?(itemID) }
            case .inputAudioBufferCommitted?:
                s.bufferedMicros = 0
            case .conversationItemInputAudioTranscriptionDelta?:
                let text = (event["text"]?.stringValue ?? "") + (event["stash"]?.stringValue ?? "")
                emit(s) { $0.onInputTranscript?(itemID, text, false) }
            case .conversationItemInputAudioTranscriptionCompleted?:
                let text = event["transcript"]?.stringValue ?? ""
                emit(s) { $0.onInputTranscript?(itemID, text, true) }
            case .responseCreated?:
                s.createSent = false
                s.responseInProgress = responseID
                s.calls = [:]
                emit(s) { $0.onResponseCreated?(responseID) }
            case .responseAudioDelta?:
                audioDelta(&s, responseID, event["delta"]?.stringValue ?? "")
            case .responseAudioTranscriptDone?, .responseTextDone?:
                let text = event["transcript"]?.stringValue ?? event["text"]?.stringValue ?? ""
                emit(s) { $0.onResponseText?(responseID, text) }
            case .responseAudioDone?:
                endPlaybackInput(&s, responseID)
            case .responseFunctionCallArgumentsDone?:
                let callID = event["call_id"]?.stringValue ?? ""
                let name = event["name"]?.stringValue ?? ""
                let arguments = event["arguments"]?.stringValue ?? ""
                if s.calls[callID] == nil { s.calls[callID] = false }
                emit(s) { $0.onFunctionCall?(callID, name, arguments) }
            case .responseDone?:
                responseDone(&s, responseID, status: event["response"]?["status"]?.stringValue ?? "completed")
            case .sessionFinished?:
                s.finished = true
                resolution = (.sessionFinished, .success([:]))
            default:
                break  // C21: unknown events and extra fields are tolerated
            }
        }
        if let (kind, result) = resolution { resolveWaiter(kind: kind, result) }
    }

    /// The session is over (fatal error or close): no more sending, no response is awaited
    /// any longer, playback stops (so `finish` and `waitUntilIdle` return at once).
    func terminate(_ s: inout QwenSessionState) {
        s.finishSent = true
        s.terminated = true
        s.held = []
        s.createSent = false
        s.responseInProgress = nil
        s.deferredCreate = nil
        s.inTurn = false
        s.calls = [:]
        stopPlayback(&s)
    }

    /// Closes the socket after a terminal error if the server has not closed it by then.
    /// Stops playback at a barge-in or a cancelled response: at once, or late under the
    /// `bargeInDelayMillis` fault.
    private func stopPlaybackOnBargeIn(_ s: inout QwenSessionState) {
        let delay = s.faults.bargeInDelayMillis
        guard delay > 0 else { return stopPlayback(&s) }
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(delay))
            guard let self else { return }
            state.withLock { s in stopPlayback(&s) }
        }
    }

    private func closeSoon(after millis: Int) {
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(millis))
            guard let self else { return }
            let connection = state.withLock { s in s.phase == .closed ? nil : s.connection }
            connection?.close(code: .normal, reason: "terminal error")
        }
    }

    /// Reads the effective rates and turn detection from a session object.
    private func adopt(_ s: inout QwenSessionState, _ session: JSONObject) {
        s.session = session
        if let detection = session["turn_detection"] {
            s.turnDetection = detection.isNull ? nil : detection["type"]?.stringValue ?? "server_vad"
        }
        if let rate = session["audio"]?["input"]?["format"]?["sample_rate"]?.intValue { s.inputRate = Int(rate) }
        if let rate = session["audio"]?["output"]?["format"]?["sample_rate"]?.intValue { s.outputRate = Int(rate) }
    }

    /// The first `session.updated` arrived: the held events may go out now (C4).
    private func release(_ s: inout QwenSessionState) {
        s.phase = .ready
        let held = s.held
        s.held = []
        for text in held where !s.finishSent { s.connection?.send(text: text) }
    }

    private func audioDelta(_ s: inout QwenSessionState, _ responseID: String, _ base64: String) {
        guard !s.cancelled.contains(responseID), let pcm = Base64.decode(base64) else { return }
        let now = Clock.nowMicros()
        if s.playingResponse != responseID, s.player.begin(atMicros: now) {
            s.playingResponse = responseID
            emit(s) { $0.onPlaybackStarted?(responseID) }
        }
        emit(s) { $0.onAudio?(responseID, pcm) }
        s.player.enqueue(
            durationMicros: AudioDuration.pcmMicros(byteCount: pcm.count, sampleRate: s.outputRate), atMicros: now)
    }

    private func endPlaybackInput(_ s: inout QwenSessionState, _ responseID: String) {
        guard s.playingResponse == responseID, s.player.isPlaying, !s.player.inputEnded else { return }
        schedulePlaybackEnd(at: s.player.endInput(atMicros: Clock.nowMicros()), generation: s.player.generation)
    }

    private func responseDone(_ s: inout QwenSessionState, _ responseID: String, status: String) {
        endPlaybackInput(&s, responseID)
        if status != "completed" { stopPlaybackOnBargeIn(&s) }
        s.responseInProgress = nil
        s.createSent = false
        s.inTurn = false
        emit(s) { $0.onResponseDone?(responseID, status) }
        if let deferred = s.deferredCreate, s.calls.values.allSatisfy({ $0 }) {
            s.deferredCreate = nil
            requestResponse(&s, deferred.isEmpty ? nil : deferred)
        }
    }

    private func schedulePlaybackEnd(at micros: Int64, generation: Int) {
        PlaybackModel.wake(atMicros: micros, generation: generation) { [weak self] in self?.playbackDue(generation: $0)
        }
    }

    private func playbackDue(generation: Int) {
        state.withLock { s in
            guard let id = s.playingResponse else { return }
            switch s.player.checkEnd(generation: generation, atMicros: Clock.nowMicros()) {
            case .ended:
                s.playingResponse = nil
                emit(s) { $0.onPlaybackEnded?(id) }
            case .later(let micros): schedulePlaybackEnd(at: micros, generation: generation)
            case .stale: break
            }
        }
    }

    private func handleClosed(code: Int, reason: String) {
        state.withLock { s in
            s.phase = .closed
            s.connection = nil
            terminate(&s)
            emit(s) { $0.onClosed?(code, reason) }
            let socket = s.socket
            s.socket = nil
            Task.detached { socket?.shutdown() }
        }
        resolveWaiter(
            kind: nil,
            .failure(
                QwenRealtimeError(
                    type: "client_error", code: "closed", message: "connection closed (\(code)) \(reason)")))
    }
}
