import ProtocolModel
import ScenarioEngine
package import SessionCore
import WireJSON

extension QwenRealtimeSession {
    package func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        // Frames still in flight when the engine closed after a finish or a server_error are
        // journaled (C18, C19); otherwise nothing is read after the close.
        guard !isClosed || isFinishing || isTerminated else { return [] }
        if isTerminated {
            let event = classification.eventType ?? "frame"
            // Sent before the client could have read the error: in flight, not a breach.
            if let terminatedAt, now - terminatedAt <= Self.serverErrorInFlightMicros {
                let grace = Self.serverErrorInFlightMicros / 1000
                return [
                    .journal(
                        .info(
                            "\(event) arrived within the \(grace) ms in-flight grace after the server_error (not judged)"
                        ))
                ]
            }
            return violation("qrt.C19", "\(event) sent after a server_error ended the session")
        }
        if isFinishing {
            return violation("qrt.C18", "\(classification.eventType ?? "frame") sent after session.finish (ignored)")
        }
        currentEventID = nil
        clientEvents += 1
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
        if type != Self.appendType {
            commands += handle(scenario.runtime.clientMessage(type: type, json: json))
        }
        commands += checkOrdering(type)
        if isReplay {
            if type == Self.appendType, let audio = event["audio"]?.stringValue {
                let count = Base64.decode(audio)?.count ?? 0
                commands += handle(
                    scenario.runtime.clientAudio(
                        byteCount: count, durationMicros: input.durationMicros(ofBytes: count)))
            }
            return commands
        }
        return commands + dispatch(type, event)
    }

    /// An `input_audio_buffer.append` read in place: the same checks as the JSON path, with the
    /// audio decoded straight from the frame's bytes.
    private func receiveAppend(_ bytes: [UInt8], _ append: InPlaceAudioEvent) -> [SessionCommand] {
        var commands = checkEventID(append.eventID.map(JSONValue.string))
        commands += checkOrdering(Self.appendType)
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
        currentEventID = nil
        clientEvents += 1
        let error = QwenError.invalidJSON("Binary frames are not supported; send JSON text events.")
        return reject(error, "qrt.C2", "binary frame of \(bytes.count) bytes")
    }

    private func dispatch(_ type: String, _ event: JSONObject) -> [SessionCommand] {
        if profile == .speechSynthesis { return dispatchSpeech(type, event) }
        if profile == .transcription, !profile.clientEventTypes.contains(type),
            QwenProfile.omni.clientEventTypes.contains(type)
        {
            return reject(
                .unknownEvent(type), "qrt.C17",
                "\(type) is not part of the transcription model's API (\(model) only transcribes)")
        }
        let acted = type == Self.appendType || type == "session.update" ? [] : userActed()
        return acted + dispatchKnown(type, event)
    }

    private func dispatchKnown(_ type: String, _ event: JSONObject) -> [SessionCommand] {
        switch type {
        case "session.update": return sessionUpdate(event)
        case "input_audio_buffer.append": return appendAudio(event)
        case "input_audio_buffer.commit": return commitAudio()
        case "input_audio_buffer.clear": return clearAudio()
        case "input_image_buffer.append" where profile == .omni: return appendImage(event)
        case "conversation.item.create": return createItem(event)
        case "conversation.item.retrieve", "conversation.item.delete":
            var commands: [SessionCommand] = []
            if profile == .omni {
                commands += violationOnce("C17-\(type)", "qrt.C17", "\(type) is not documented for the omni profile")
            }
            return commands + (type == "conversation.item.retrieve" ? retrieveItem(event) : deleteItem(event))
        case "response.create": return createResponse(event)
        case "response.cancel": return cancelResponse()
        case "session.finish" where profile.clientEventTypes.contains(type): return finishSession()
        case "session.finish", "input_image_buffer.append":
            return reject(.unknownEvent(type), "qrt.C17", "\(type) is not defined for the audio profile")
        default:
            return reject(.unknownEvent(type), "qrt.C2", "unknown client event type \(type)")
        }
    }

    /// C3: `event_id` is a string and unique; remembered for error echoes.
    private func checkEventID(_ value: JSONValue?) -> [SessionCommand] {
        guard let value else { return [] }
        guard let id = value.stringValue else {
            return violation("qrt.C3", "event_id must be a string, got \(value.typeName)")
        }
        currentEventID = id
        guard seenEventIDs.insert(id).inserted else {
            return violation("qrt.C3", "event_id \(id) was used before in this session")
        }
        return []
    }

    /// C4: `session.update` first; nothing else before its `session.updated` went out.
    private func checkOrdering(_ type: String) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        if clientEvents == 1, type != "session.update" {
            commands += violation("qrt.C4", "first client event is \(type), not session.update")
        }
        // TTS clients append text right after session.update (the SDK does): no rule forbids it.
        if type != "session.update", profile != .speechSynthesis, let due = firstUpdatedDueMicros, now < due {
            commands += violation("qrt.C4", "\(type) sent before session.updated for the first session.update")
        }
        return commands
    }
}
