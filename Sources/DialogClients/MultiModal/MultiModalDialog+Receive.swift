import ProtocolModel
import Synchronization
import WireJSON
import WireSocket

extension MultiModalDialog {
    /// Reads the connection until it closes, handling each frame in order.
    func runReceiveLoop(_ connection: ClientConnection) {
        Task { [self] in
            while true {
                guard let event = await connection.next(timeoutMillis: 1000) else { continue }
                switch event {
                case .message(.text(let bytes)):
                    handleText(bytes)
                case .message(.binary(let bytes)):
                    handleAudio(bytes)
                case .closed(let code, let reason):
                    handleClosed(code: Int(code?.rawValue ?? 1006), reason: reason)
                    return
                }
            }
        }
    }

    private func handleText(_ bytes: [UInt8]) {
        guard let json = try? JSONValue.decode(bytes), let header = DashScopeEnvelope.header(of: json) else { return }
        let now = Clock.nowMicros()
        state.withLock { s in
            s.lastReceivedAt = now
            switch header["event"]?.stringValue.flatMap(DashScopeEnvelope.Event.init(rawValue:)) {
            case .resultGenerated:
                guard let output = DashScopeEnvelope.output(of: json) else { return }
                handleOutput(&s, output, now: now)
            case .taskFailed:
                let error = DialogError(
                    code: header["error_code"]?.stringValue ?? "TaskFailed",
                    message: header["error_message"]?.stringValue ?? "", isFatal: true)
                // C24: terminal; nothing more is sent.
                s.finishSent = true
                emit(s) { $0.onErrorReceived?(error) }
                if s.phase == .awaitingStarted { failStart(&s, error) }
            case .taskStarted, .taskFinished, nil:
                break  // tolerated (C24)
            }
        }
    }

    private func handleOutput(_ s: inout DialogSessionState, _ output: JSONObject, now: Int64) {
        let name = output["event"]?.stringValue ?? ""
        emit(s) { $0.onMessageReceived?(output) }
        switch name {
        case "Started":
            let dialogID = output["dialog_id"]?.stringValue ?? ""
            s.dialogID = dialogID
            s.phase = .started
            emit(s) { $0.onConversationStarted?(dialogID) }
            let waiter = s.startWaiter
            s.startWaiter = nil
            waiter?.resume(returning: .success(dialogID))
        case "DialogStateChanged":
            guard let value = output["state"]?.stringValue, let next = DialogState(rawValue: value) else { return }
            s.dialogState = next
            if next == .listening {
                s.listeningSeen = true
                s.tapPaused = false
            }
            emit(s) { $0.onConversationStateChanged?(next) }
            if next == .listening { flushPending(&s) }
        case "SpeechStarted":
            emit(s) { $0.onConversationEvent?(.speechStarted, output) }
            if s.mode == .duplex, s.round.respondingStarted, !s.round.localEndedSent { stopRound(&s, now: now) }
        case "SpeechEnded":
            if s.mode == .tap2talk { s.tapPaused = true }
            emit(s) { $0.onConversationEvent?(.speechEnded, output) }
        case "RespondingStarted":
            s.round = .init(respondingStarted: true)
            emit(s) { $0.onConversationEvent?(.respondingStarted, output) }
            if options.builtInPlayer, s.player.begin(atMicros: now) {
                s.round.localStartedSent = true
                sendDirective(&s, .localRespondingStarted)
                emit(s) { $0.onPlaybackStarted?() }
            }
        case "RespondingEnded":
            emit(s) { $0.onConversationEvent?(.respondingEnded, output) }
            if options.builtInPlayer, s.player.isPlaying {
                schedulePlaybackEnd(at: s.player.endInput(atMicros: now), generation: s.player.generation)
            }
        case "RequestAccepted":
            emit(s) { $0.onConversationEvent?(.requestAccepted, output) }
            if s.round.respondingStarted { stopRound(&s, now: now) }
            // The round is dropped; audio is allowed again only after Listening (+ SendSpeech).
            s.pushToTalkOpen = false
        case DashScopeEnvelope.errorEvent:
            let error = DialogError(
                code: output["error_name"]?.stringValue ?? "Error",
                message: output["error_message"]?.stringValue ?? "", isFatal: false)
            emit(s) { $0.onErrorReceived?(error) }
        case "Stopped":
            s.phase = .finishing
        default:
            break  // SpeechContent, RespondingContent, HeartBeat, unknown: onMessageReceived only
        }
    }

    /// Interrupt or barge-in: flush playback at once and end the round (C19, C25).
    private func stopRound(_ s: inout DialogSessionState, now: Int64) {
        s.round.interrupted = true
        if s.player.flush(atMicros: now) { emit(s) { $0.onPlaybackEnded?() } }
        if options.builtInPlayer { localRespondingEnded(&s) }
    }

    private func handleAudio(_ bytes: [UInt8]) {
        let now = Clock.nowMicros()
        state.withLock { s in
            s.lastReceivedAt = now
            guard !s.round.interrupted else { return }
            emit(s) { $0.onSynthesizedData?(bytes) }
            let micros = AudioDuration.micros(
                byteCount: bytes.count, format: s.downstreamFormat,
                sampleRate: s.downstreamRate, bitRateKbps: s.downstreamBitRate)
            s.player.enqueue(durationMicros: micros, atMicros: now)
        }
    }

    /// Ends the built-in player's track when its audio has been played.
    private func schedulePlaybackEnd(at micros: Int64, generation: Int) {
        PlaybackModel.wake(atMicros: micros, generation: generation) { [weak self] in self?.playbackDue(generation: $0)
        }
    }

    private func playbackDue(generation: Int) {
        state.withLock { s in
            switch s.player.checkEnd(generation: generation, atMicros: Clock.nowMicros()) {
            case .ended:
                emit(s) { $0.onPlaybackEnded?() }
                localRespondingEnded(&s)
            case .later(let micros): schedulePlaybackEnd(at: micros, generation: generation)
            case .stale: break
            }
        }
    }

    private func failStart(_ s: inout DialogSessionState, _ error: DialogError) {
        let waiter = s.startWaiter
        s.startWaiter = nil
        waiter?.resume(returning: .failure(error))
    }

    private func handleClosed(code: Int, reason: String) {
        state.withLock { s in
            let wasOpen = s.phase != .closed
            s.phase = .closed
            s.connection = nil
            s.dialogState = .idle
            if s.player.flush(atMicros: Clock.nowMicros()) { emit(s) { $0.onPlaybackEnded?() } }
            failStart(&s, DialogError(code: "Closed", message: "connection closed (\(code)) \(reason)", isFatal: true))
            if wasOpen { emit(s) { $0.onWebsocketClosed?(code, reason) } }
            for waiter in s.endWaiters { waiter.resume() }
            s.endWaiters = []
            let socket = s.socket
            s.socket = nil
            Task.detached { socket?.shutdown() }
        }
    }
}
