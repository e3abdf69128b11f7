import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

/// Qwen-Audio-Live's client events (DOC-QAL-CE): `session.update`, mute, items, delegation
/// appends and `session.close`; audio goes through the core's append (``refuseLiveAudio()``).
extension QwenRealtimeSession {
    // MARK: - State and dispatch

    /// The dialect's state, created the first time it is asked for (asked for every appended
    /// chunk: only this dialect sets a session's state, so the cast is not checked).
    var live: AudioLiveState {
        if let state = dialectState { return unsafeDowncast(state, to: AudioLiveState.self) }
        let state = AudioLiveState()
        dialectState = state
        return state
    }

    /// One client event of the dialect (its type already checked by the core: qal.C2).
    func receiveLive(_ event: QwenAudioLiveClientEvent, _ json: JSONObject) -> [SessionCommand] {
        if event == .inputAudioAppend { return appendAudio(json) }
        var commands = userActed()
        if event != .sessionUpdate { commands += checkOptionalEventID(json["event_id"]) }
        if event != .sessionUpdate, event != .sessionClose, !live.configured {
            return commands + earlyEvent(event.rawValue)
        }
        switch event {
        case .sessionUpdate: return commands + liveSessionUpdate(json)
        case .inputAudioAppend: return commands
        case .inputAudioMute, .inputAudioUnmute:
            live.muted = event == .inputAudioMute
            return commands + acknowledge(event == .inputAudioMute ? .inputAudioMuted : .inputAudioUnmuted)
        case .itemCreate: return commands + createLiveItem(json)
        case .commentaryAppend: return commands + appendCommentary(json)
        case .thinkingAppend: return commands + acknowledge(.thinkingAppended)
        case .instructionsAppend, .instructionAppend: return commands + appendInstructions(json)
        case .sessionClose:
            scenario.runtime.report.ended("clientStop")
            return commands + closeLive(.closeRequested, code: 1000, reason: "session closed")
        }
    }

    /// Sends a server event of the dialect.
    func emitLive(
        _ event: QwenAudioLiveServerEvent, _ fields: JSONObject = [:], audioLevel: AudioLevel? = nil
    ) -> [SessionCommand] {
        emit(
            type: event.rawValue, fields, delay: scenario.runtime.delayMicros(before: event.rawValue),
            audioLevel: audioLevel)
    }

    /// An acknowledgement echoing the request's `event_id` as `client_event_id`.
    private func acknowledge(_ event: QwenAudioLiveServerEvent) -> [SessionCommand] {
        emitLive(event, ["client_event_id": lifecycle.currentEventID.map(JSONValue.string) ?? .null])
    }

    /// qal.C3's SHOULD half (inferred, OA-LIVE): an `event_id`, when present, is a non-empty
    /// string of at most 128 characters.
    private func checkOptionalEventID(_ value: JSONValue?) -> [SessionCommand] {
        guard let id = value?.stringValue, id.isEmpty || id.count > QwenAudioLive.maxEventIDLength else { return [] }
        return violationOnce(
            "C3-shape", "qal.C3", "event_id of \(id.count) characters (1–\(QwenAudioLive.maxEventIDLength) expected)")
    }

    /// qal.C4: an event before the first `session.updated` is not answered; the error goes out once.
    private func earlyEvent(_ type: String) -> [SessionCommand] {
        guard lifecycle.firstReport("C4-early") else { return [] }
        return reject(
            .invalidState(type, "Send session.update and wait for session.updated first."), "qal.C4",
            "\(type) sent before the first session.updated (ignored)")
    }

    // MARK: - Configuration

    /// `session.update` (qal.C3, qal.C5): `event_id` required; a `transport` other than
    /// `websocket` is refused (`transport_unsupported`, a mock-only code: the mock serves media on
    /// the WebSocket only) with the configuration unchanged; else validate, merge, and answer
    /// `session.updated{client_event_id, session}`.
    func liveSessionUpdate(_ event: JSONObject) -> [SessionCommand] {
        _ = lifecycle.sessionUpdateArrived()
        guard let id = event["event_id"]?.stringValue, !id.isEmpty, id.count <= QwenAudioLive.maxEventIDLength else {
            return reject(
                .invalidValue(
                    "event_id",
                    "session.update needs an event_id: a non-empty string of at most \(QwenAudioLive.maxEventIDLength) characters."
                ), "qal.C3")
        }
        guard case .object(let patch)? = event["session"] else {
            return reject(.invalidValue("session", "session.update needs a 'session' object."), "qal.C5")
        }
        if let transport = patch["transport"], !transport.isNull {
            guard let type = transport["type"]?.stringValue, QwenAudioLive.transportTypes.contains(type) else {
                let types = QwenAudioLive.transportTypes.joined(separator: ", ")
                return reject(
                    .invalidValue("session.transport.type", "transport.type must be one of \(types)."), "qal.C5")
            }
            live.declaredAOQ = type == "aoq"
            if type != "websocket" {
                return [.journal(.info("transport \(type) refused: media on the WebSocket only"))]
                    + error(
                        QwenError(
                            code: "transport_unsupported",
                            message:
                                "The mock serves media on the WebSocket only; omit session.transport or use websocket.")
                    )
            }
        }
        let before = configuration
        switch configuration.apply(patch, isFirstUpdate: !live.configured, audioStarted: input.started) {
        case .failure(let failure):
            return reject(failure.error, failure.obligation)
        case .success:
            var commands = emitLive(.sessionUpdated, ["client_event_id": .string(id), "session": configuration.json])
            if !live.configured {
                live.configured = true
                lifecycle.firstUpdatedSent(atMicros: timeline.laneTime)
            }
            if before.turnDetection != configuration.turnDetection { commands += turnDetectionChanged() }
            return commands + enter(phase == .idle && input.started ? .listening : phase)
        }
    }

    /// `session.instructions.append`: the content extends the instructions; acknowledged.
    private func appendInstructions(_ event: JSONObject) -> [SessionCommand] {
        guard let content = event["content"]?.stringValue else {
            return error(.invalidValue("content", "content must be a string."))
        }
        let instructions = configuration.instructions
        configuration.object["instructions"] = .string(instructions.isEmpty ? content : instructions + "\n" + content)
        return acknowledge(.instructionsAppended)
    }

    // MARK: - Delegation and items

    /// `session.commentary.append`: acknowledged; for a pending client delegation the model
    /// speaks its content, otherwise it is context only.
    private func appendCommentary(_ event: JSONObject) -> [SessionCommand] {
        guard let content = event["content"]?.stringValue else {
            return error(.invalidValue("content", "content must be a string."))
        }
        var commands = acknowledge(.commentaryAppended)
        guard let id = event["delegation_id"]?.stringValue, live.pendingDelegations.remove(id) != nil else {
            return commands + [.journal(.info("commentary without a pending delegation: context only"))]
        }
        commands += speak(TurnContent(answer: content))
        return commands
    }

    /// `session.item.create`: a user text message is answered like a turn; a
    /// `function_call_output` must carry the `call_id` of a call waiting for it (qal.C8).
    private func createLiveItem(_ event: JSONObject) -> [SessionCommand] {
        guard let item = event["item"]?.objectValue, let type = item["type"]?.stringValue else {
            return error(.invalidValue("item", "session.item.create needs an item object with a type."))
        }
        switch type {
        case "function_call_output":
            guard let callID = item["call_id"]?.stringValue, tools.awaits(callID) else {
                let id = item["call_id"]?.stringValue ?? "(none)"
                return reject(
                    .invalidValue("item.call_id", "No function call with call_id '\(id)' is waiting for output."),
                    "qal.C8")
            }
            _ = tools.outputArrived(callID)
            conversation.insert(item, after: nil)
            guard !tools.isAwaitingOutput, let after = tools.takeAnswer() else { return [] }
            let call = ToolCallLedger.Call(callID: callID, name: live.callNames[callID] ?? "the tool")
            return enter(.listening) + speak(reportingOutput(of: call, before: after.answer))
        case "message":
            let text = (item["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
            guard item["role"]?.stringValue == "user", !text.isEmpty else {
                return error(.invalidValue("item", "A message item needs role user and input_text content."))
            }
            conversation.insert(item, after: nil)
            turns.itemAdded()
            scenario.runtime.report.turns += 1
            return answer(scenario.runtime.nextTurn())
        default:
            return error(.invalidValue("item.type", "item.type must be message or function_call_output."))
        }
    }
}
