import ProtocolModel
import Synchronization
import WireJSON
import WireSocket

extension QwenAudioLiveClient {
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
        var resolution: (QwenAudioLiveServerEvent, Result<JSONObject, QwenAudioLiveError>)?
        var answers: [@Sendable () async -> Void] = []
        state.withLock { s in
            emit(s) { $0.onEvent?(type, event) }
            let known = QwenAudioLiveServerEvent(rawValue: type)
            if let known, Self.isOutput(known) { s.lastOutputMicros = Clock.nowMicros() }
            switch known {
            case .sessionCreated?:
                let session = event["session"]?.objectValue ?? [:]
                adopt(&s, session)
                emit(s) { $0.onSessionCreated?(session) }
                resolution = (.sessionCreated, .success(session))
            case .sessionUpdated?:
                let session = event["session"]?.objectValue ?? [:]
                adopt(&s, session)
                emit(s) { $0.onSessionUpdated?(session) }
                if s.phase == .configuring { release(&s) }
                if Self.answers(s.waiter, event) { resolution = (.sessionUpdated, .success(session)) }
            case .error?:
                let body = event["error"]?.objectValue ?? [:]
                let error = QwenAudioLiveError(
                    code: body["code"]?.stringValue ?? "", message: body["message"]?.stringValue ?? "",
                    clientEventId: body["client_event_id"]?.stringValue ?? event["client_event_id"]?.stringValue)
                emit(s) { $0.onError?(error) }
                // A refused update: its waiter fails (an error naming another event does not).
                if let waiter = s.waiter, waiter.kind == .sessionUpdated,
                    error.clientEventId == nil || error.clientEventId == waiter.eventID
                {
                    resolution = (.sessionUpdated, .failure(error))
                }
            case .inputTranscriptDelta?:
                let delta = event["delta"]?.stringValue ?? ""
                stopPlaybackOnBargeIn(&s)
                emit(s) { $0.onInputTranscript?(delta) }
            case .outputTranscriptDelta?:
                let delta = event["delta"]?.stringValue ?? ""
                emit(s) { $0.onOutputTranscript?(delta) }
            case .outputAudioDelta?:
                audioDelta(&s, event["delta"]?.stringValue ?? "")
            case .sessionEvent?:
                if let call = Self.functionCall(in: event), s.calls[call.callId] == nil {
                    s.calls[call.callId] = false
                    emit(s) { $0.onFunctionCall?(call) }
                    if let handler = s.callbacks.answerFunctionCall {
                        answers.append { [weak self] in
                            guard let output = await handler(call) else { return }
                            self?.sendFunctionCallOutput(callId: call.callId, output: output)
                        }
                    }
                }
            case .delegationCreated?:
                let body = event["delegation"]
                let id = body?["id"]?.stringValue ?? event["delegation_id"]?.stringValue ?? ""
                let delegation = QwenAudioLiveDelegation(id: id, target: body?["target"]?.stringValue ?? "client")
                emit(s) { $0.onDelegation?(delegation) }
                if delegation.target == "client", !id.isEmpty, s.delegations[id] == nil {
                    s.delegations[id] = false
                    if let handler = s.callbacks.answerDelegation {
                        answers.append { [weak self] in
                            guard let content = await handler(delegation) else { return }
                            self?.appendCommentary(delegationId: delegation.id, content: content)
                        }
                    }
                }
            case .responseEvent?:
                let id = event["delegation_id"]?.stringValue ?? ""
                let inner = event["event"]?.objectValue ?? [:]
                emit(s) { $0.onResponseEvent?(id, inner) }
            case .inputAudioMuted?, .inputAudioUnmuted?:
                let muted = known == .inputAudioMuted
                emit(s) { $0.onMuted?(muted) }
            case .usageUpdated?:
                let seconds = event["usage"]?["seconds"]?.doubleValue ?? 0
                emit(s) { $0.onUsage?(seconds) }
            case .sessionClosed?:
                let reason = event["reason"]?.stringValue ?? ""
                s.sessionClosed = true
                s.closeReason = reason
                s.held = []
                stopPlayback(&s, .closed)
                emit(s) { $0.onSessionClosed?(reason) }
                resolution = (.sessionClosed, .success(event))
            case .commentaryAppended?, .thinkingAppended?, .instructionsAppended?, nil:
                break  // acknowledgements; unknown events and extra fields are tolerated
            }
        }
        if let (kind, result) = resolution { resolveWaiter(kind: kind, result) }
        for answer in answers { Task { await answer() } }
    }

    /// Whether an event carries the model's output (a quiet spell without any ends an answer).
    private static func isOutput(_ event: QwenAudioLiveServerEvent) -> Bool {
        switch event {
        case .outputAudioDelta, .outputTranscriptDelta, .sessionEvent, .delegationCreated, .responseEvent: true
        default: false
        }
    }

    /// Whether `event` (a `session.updated`) answers the waiting update: its `client_event_id`
    /// when it has one.
    private static func answers(
        _ waiter: (
            kind: QwenAudioLiveServerEvent, eventID: String?,
            continuation: CheckedContinuation<Result<JSONObject, QwenAudioLiveError>, Never>
        )?, _ event: JSONObject
    ) -> Bool {
        guard let waiter, waiter.kind == .sessionUpdated else { return false }
        guard let echoed = event["client_event_id"]?.stringValue, let sent = waiter.eventID else { return true }
        return echoed == sent
    }

    /// The function call of a `session.event` (`event.item{type: function_call, call_id, name,
    /// arguments}`; arguments given as an object are encoded).
    static func functionCall(in event: JSONObject) -> QwenAudioLiveFunctionCall? {
        guard let item = event["event"]?["item"] ?? event["item"],
            item["type"]?.stringValue == "function_call", let callId = item["call_id"]?.stringValue
        else { return nil }
        let arguments = item["arguments"]
        return QwenAudioLiveFunctionCall(
            callId: callId, name: item["name"]?.stringValue ?? "",
            arguments: arguments?.stringValue ?? arguments.map { $0.encodedString() } ?? "{}")
    }

    /// Reads the effective turn detection and transport from a session object.
    private func adopt(_ s: inout QwenAudioLiveSessionState, _ session: JSONObject) {
        s.session = session
        if let detection = session["turn_detection"], !detection.isNull {
            s.turnDetection = detection["type"]?.stringValue ?? "server_vad"
            s.interruptResponse = detection["interrupt_response"]?.boolValue ?? true
        }
        if let transport = session["transport"]?["type"]?.stringValue { s.transport = transport }
    }

    /// The first `session.updated` arrived: the held events may go out now (qal.C4).
    private func release(_ s: inout QwenAudioLiveSessionState) {
        s.phase = .ready
        let held = s.held
        s.held = []
        for text in held where !s.closeSent && !s.sessionClosed { s.connection?.send(text: text) }
    }

    private func handleClosed(code: Int, reason: String) {
        state.withLock { s in
            s.phase = .closed
            s.connection = nil
            s.sessionClosed = true
            s.held = []
            stopPlayback(&s, .closed)
            emit(s) { $0.onClosed?(code, reason) }
            let socket = s.socket
            s.socket = nil
            Task.detached { socket?.shutdown() }
        }
        resolveWaiter(
            kind: nil,
            .failure(
                QwenAudioLiveError(
                    code: "closed", message: "connection closed (\(code)) \(reason)", isClientSide: true)))
    }
}
