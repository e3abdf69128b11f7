import ProtocolModel
import ScenarioEngine
package import SessionCore
import WireJSON

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
                        "\(event) arrived within the \(graceMs) ms in-flight grace after the server_error (not judged)")
                )
            ]
        case .afterServerError:
            return violation("qrt.C19", "\(event) sent after a server_error ended the session")
        case .afterFinish:
            return violation("qrt.C18", "\(event) sent after session.finish (ignored)")
        case .handle:
            lifecycle.eventArrived()
        }
        if let append = classification.inPlaceAudio { return receiveAppend(bytes, append) }
        guard let json = classification.json else {
            return handle(scenario.runtime.clientMessage(type: "", json: nil))
                + reject(.invalidJSON("The frame is not valid JSON."), "qrt.C2")
        }
        guard case .object(let event) = json else {
            return handle(scenario.runtime.clientMessage(type: "", json: json))
                + reject(.invalidJSON("A client event must be a JSON object."), "qrt.C2")
        }
        var commands = checkEventID(event["event_id"])
        guard let type = event["type"]?.stringValue, !type.isEmpty else {
            commands += handle(scenario.runtime.clientMessage(type: "", json: json))
            return commands + reject(.invalidJSON("A client event needs a string 'type'."), "qrt.C2")
        }
        let known = QwenClientEvent(rawValue: type)
        if known != .inputAudioBufferAppend {
            commands += handle(scenario.runtime.clientMessage(type: type, json: json))
        }
        commands += checkOrdering(type)
        if isReplay {
            if known == .inputAudioBufferAppend, let audio = event["audio"]?.stringValue {
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
        commands += checkOrdering(QwenClientEvent.inputAudioBufferAppend.rawValue)
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
        return reject(error, "qrt.C2", "binary frame of \(bytes.count) bytes")
    }

    /// Dispatches a client event by profile; `known` is nil for a type outside §4.0.
    private func dispatch(_ known: QwenClientEvent?, _ type: String, _ event: JSONObject) -> [SessionCommand] {
        if profile == .speechSynthesis { return dispatchSpeech(known, type, event) }
        if profile == .transcription, let known, !profile.clientEventTypes.contains(known),
            QwenProfile.omni.clientEventTypes.contains(known)
        {
            return reject(
                .unknownEvent(type), "qrt.C17",
                "\(type) is not part of the transcription model's API (\(model) only transcribes)")
        }
        let acted = known == .inputAudioBufferAppend || known == .sessionUpdate ? [] : userActed()
        guard let known else { return acted + rejectUnknown(type) }
        return acted + dispatchKnown(known, event)
    }

    private func dispatchKnown(_ known: QwenClientEvent, _ event: JSONObject) -> [SessionCommand] {
        let type = known.rawValue
        switch known {
        case .sessionUpdate: return sessionUpdate(event)
        case .inputAudioBufferAppend: return appendAudio(event)
        case .inputAudioBufferCommit: return commitAudio()
        case .inputAudioBufferClear: return clearAudio()
        case .inputImageBufferAppend where profile == .omni: return appendImage(event)
        case .conversationItemCreate: return createItem(event)
        case .conversationItemRetrieve, .conversationItemDelete:
            var commands: [SessionCommand] = []
            if profile == .omni {
                commands += violationOnce("C17-\(type)", "qrt.C17", "\(type) is not documented for the omni profile")
            }
            return commands + (known == .conversationItemRetrieve ? retrieveItem(event) : deleteItem(event))
        case .responseCreate: return createResponse(event)
        case .responseCancel: return cancelResponse()
        case .sessionFinish where profile.clientEventTypes.contains(known): return finishSession()
        case .sessionFinish, .inputImageBufferAppend:
            return reject(.unknownEvent(type), "qrt.C17", "\(type) is not defined for the audio profile")
        case .inputTextBufferAppend, .inputTextBufferCommit, .inputTextBufferClear:
            return rejectUnknown(type)  // text-to-speech only: unknown to the other profiles
        }
    }

    /// C2: a type the engine does not know.
    func rejectUnknown(_ type: String) -> [SessionCommand] {
        reject(.unknownEvent(type), "qrt.C2", "unknown client event type \(type)")
    }

    /// C3: `event_id` is a string and unique; remembered for error echoes.
    private func checkEventID(_ value: JSONValue?) -> [SessionCommand] {
        guard let value else { return [] }
        guard let id = value.stringValue else {
            return violation("qrt.C3", "event_id must be a string, got \(value.typeName)")
        }
        guard lifecycle.record(eventID: id) else {
            // C3's uniqueness is a SHOULD: the docs call event_id the event's identifier (OA-BETA,
            // DOC-QA-CE) but no source says a repeat is refused.
            return [.journal(.should("qrt.C3", "event_id \(id) was used before in this session"))]
        }
        return []
    }

    /// C4: `session.update` first; nothing else before its `session.updated` went out.
    private func checkOrdering(_ type: String) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        let isUpdate = type == QwenClientEvent.sessionUpdate.rawValue
        if lifecycle.isFirstEvent, !isUpdate {
            commands += violation("qrt.C4", "first client event is \(type), not session.update")
        }
        // TTS clients append text right after session.update (the SDK does): no rule forbids it.
        if !isUpdate, profile != .speechSynthesis, lifecycle.awaitsFirstUpdated(atMicros: now) {
            commands += violation("qrt.C4", "\(type) sent before session.updated for the first session.update")
        }
        return commands
    }
}
