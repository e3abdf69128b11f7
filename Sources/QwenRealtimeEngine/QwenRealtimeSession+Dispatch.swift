package import ProtocolModel
import ScenarioEngine
package import SessionCore
package import WireJSON

extension QwenRealtimeSession {
    package func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        let event = classification.eventType ?? "frame"
        switch lifecycle.admission(atMicros: now) {
        case .drop:
            return []
        case .inFlightAfterServerError(let graceMs):
            // Sent before the client could have read the error: in flight, not a breach.
            return [
                .journal(
                    .info(
                        "\(event) arrived within the \(graceMs) ms in-flight grace after the server ended the session (not judged)"
                    )
                )
            ]
        case .afterServerError:
            return violation(wire.afterServerErrorObligation, "\(event) sent after a server_error ended the session")
        case .afterFinish:
            return violation(wire.afterFinishObligation, "\(event) sent after the session was ended (ignored)")
        case .handle:
            lifecycle.eventArrived()
        }
        if let append = classification.inPlaceAudio { return receiveAppend(bytes, append) }
        guard let json = classification.json else {
            return handle(scenario.runtime.clientMessage(type: "", json: nil))
                + reject(.invalidJSON("The frame is not valid JSON."), wire.frameObligation)
        }
        guard case .object(let event) = json else {
            return handle(scenario.runtime.clientMessage(type: "", json: json))
                + reject(.invalidJSON("A client event must be a JSON object."), wire.frameObligation)
        }
        var commands = checkEventID(event["event_id"])
        guard let type = event["type"]?.stringValue, !type.isEmpty else {
            commands += handle(scenario.runtime.clientMessage(type: "", json: json))
            return commands + reject(.invalidJSON("A client event needs a string 'type'."), wire.frameObligation)
        }
        let known = QwenClientEvent(rawValue: type)
        let isAppend = type == wire.audioAppendEvent
        if !isAppend {
            commands += handle(scenario.runtime.clientMessage(type: type, json: json))
        }
        commands += checkOrdering(type)
        if isReplay {
            if isAppend, let audio = event["audio"]?.stringValue {
                let count = Base64.decode(audio)?.count ?? 0
                commands += handle(
                    scenario.runtime.clientAudio(
                        byteCount: count, durationMicros: input.durationMicros(ofBytes: count)))
            }
            return commands
        }
        return commands + dispatch(known, type, event)
    }

    /// An `input_audio_buffer.append` read in place: the same checks as the JSON path, with the
    /// audio decoded straight from the frame's bytes.
    private func receiveAppend(_ bytes: [UInt8], _ append: InPlaceAudioEvent) -> [SessionCommand] {
        var commands = checkEventID(append.eventID.map(JSONValue.string))
        commands += checkOrdering(wire.audioAppendEvent)
        return bytes.withUnsafeBufferPointer { frame in
            let base64 = UnsafeBufferPointer(rebasing: frame[append.base64Payload])
            if isReplay {
                let count = Base64.decode(base64, into: &input.decodedChunk) ? input.decodedChunk.count : 0
                return commands
                    + handle(
                        scenario.runtime.clientAudio(
                            byteCount: count, durationMicros: input.durationMicros(ofBytes: count)))
            }
            return commands + appendAudio(base64: base64)
        }
    }

    package func receive(binary bytes: [UInt8]) -> [SessionCommand] {
        guard !isClosed else { return [] }
        lifecycle.eventArrived()
        let error = QwenError.invalidJSON("Binary frames are not supported; send JSON text events.")
        return reject(error, wire.frameObligation, "binary frame of \(bytes.count) bytes")
    }

    /// Dispatches a client event through the dialect; `known` is nil for a type outside §4.0.
    private func dispatch(_ known: QwenClientEvent?, _ type: String, _ event: JSONObject) -> [SessionCommand] {
        dialect.dispatch(known, type, event, in: self)
    }

    /// The conversational core's dispatch (audio in, answers out): the dialect first handles the
    /// events it treats its own way (``QwenDialect/handleOwn(_:_:in:)``).
    package func dispatchConversation(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject
    ) -> [SessionCommand] {
        let acted = known == .inputAudioBufferAppend || known == .sessionUpdate ? [] : userActed()
        guard let known else { return acted + rejectUnknown(type) }
        if let own = dialect.handleOwn(known, event, in: self) { return acted + own }
        return acted + dispatchKnown(known, event)
    }

    private func dispatchKnown(_ known: QwenClientEvent, _ event: JSONObject) -> [SessionCommand] {
        switch known {
        case .sessionUpdate: return sessionUpdate(event)
        case .inputAudioBufferAppend: return appendAudio(event)
        case .inputAudioBufferCommit: return commitAudio()
        case .inputAudioBufferClear: return clearAudio()
        case .conversationItemCreate: return createItem(event)
        case .conversationItemRetrieve: return retrieveItem(event)
        case .conversationItemDelete: return deleteItem(event)
        case .responseCreate: return createResponse(event)
        case .responseCancel: return cancelResponse()
        case .sessionFinish, .inputImageBufferAppend, .inputTextBufferAppend, .inputTextBufferCommit,
            .inputTextBufferClear:
            return rejectUnknown(known.rawValue)  // events of other dialects, unknown to this one
        }
    }

    /// C2: a type the engine does not know.
    func rejectUnknown(_ type: String) -> [SessionCommand] {
        reject(.unknownEvent(type), wire.frameObligation, "unknown client event type \(type)")
    }

    /// C3: `event_id` is a string and unique; remembered for error echoes.
    private func checkEventID(_ value: JSONValue?) -> [SessionCommand] {
        guard let value else { return [] }
        guard let id = value.stringValue else {
            let message = "event_id must be a string, got \(value.typeName)"
            return [.journal(.violation(wire.eventIDObligation, wire.nonStringEventIDLevel, message))]
        }
        guard lifecycle.record(eventID: id) else {
            // C3's uniqueness is a SHOULD: the docs call event_id the event's identifier (OA-BETA,
            // DOC-QA-CE) but no source says a repeat is refused.
            return [.journal(.should(wire.eventIDObligation, "event_id \(id) was used before in this session"))]
        }
        return []
    }

    /// C4: `session.update` first; nothing else before its `session.updated` went out.
    private func checkOrdering(_ type: String) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        let isUpdate = type == QwenClientEvent.sessionUpdate.rawValue
        if lifecycle.isFirstEvent, !isUpdate {
            commands += violation(wire.orderObligation, "first client event is \(type), not session.update")
        }
        if !isUpdate, dialect.awaitsFirstSessionUpdated, lifecycle.awaitsFirstUpdated(atMicros: now) {
            commands += violation(
                wire.orderObligation, "\(type) sent before session.updated for the first session.update")
        }
        return commands
    }
}
