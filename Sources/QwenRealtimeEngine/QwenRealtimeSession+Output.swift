package import ProtocolModel
import ScenarioEngine
package import SessionCore
package import WireJSON

extension QwenRealtimeSession {
    /// Sends a server event `{event_id, type, …fields}` (S3) no earlier than `delay` from now
    /// and never before the previous frame, through the fault stage.
    package func emit(
        _ event: QwenServerEvent, _ fields: JSONObject = [:], delay: Int64 = 0, audioLevel: AudioLevel? = nil
    ) -> [SessionCommand] {
        emit(type: event.rawValue, fields, delay: delay, audioLevel: audioLevel)
    }

    /// Sends a server event of a dialect's own `type` (see ``emit(_:_:delay:)``).
    package func emit(
        type: String, _ fields: JSONObject = [:], delay: Int64 = 0, audioLevel: AudioLevel? = nil
    ) -> [SessionCommand] {
        guard !isClosed else { return [] }
        var object = JSONObject()
        object.reserveCapacity(2 + fields.count)
        object["event_id"] = .string(scenario.runtime.ids.id(prefix: "event_"))
        object["type"] = .string(type)
        for (key, value) in fields { object[key] = value }
        let due = timeline.lane(now + delay)
        let json = JSONValue.object(object)
        return send(
            OutboundFrame(
                eventType: type, isText: true, bytes: json.encoded(), dueAtMicros: due, json: json,
                audioLevel: audioLevel))
    }

    /// The scenario's delay before a server event.
    func delay(before event: QwenServerEvent) -> Int64 {
        scenario.runtime.delayMicros(before: event.rawValue)
    }

    /// Sends an `error` event echoing the current client `event_id`.
    func error(_ error: QwenError) -> [SessionCommand] {
        emit(.error, ["error": wire.errorObject(error, lifecycle.currentEventID)], delay: delay(before: .error))
    }

    /// Sends an error and journals the client obligation that caused it.
    package func reject(_ error: QwenError, _ obligation: String, _ message: String? = nil) -> [SessionCommand] {
        violation(obligation, message ?? "\(error.code) (\(error.param ?? "-")): \(error.message)") + self.error(error)
    }

    /// Journals a broken MUST of the client (`qrt.Cn`).
    func violation(_ obligation: String, _ message: String) -> [SessionCommand] {
        [.journal(.must(obligation, message))]
    }

    /// Journals a SHOULD-level violation only the first time `key` is seen.
    func violationOnce(_ key: String, _ obligation: String, _ message: String) -> [SessionCommand] {
        guard lifecycle.firstReport(key) else { return [] }
        return [.journal(.should(obligation, message))]
    }

    /// Enters an engine state: journals it and tells the scenario.
    func enter(_ newState: QwenSessionState) -> [SessionCommand] {
        guard newState != phase else { return [] }
        phase = newState
        return [.journal(.state(newState.rawValue))] + handle(scenario.runtime.stateEntered(newState.rawValue))
            + updateIdleHold()
    }

    /// The idle-end clock is held while the user speaks and while an answer runs; released, it
    /// restarts when the client's playback of the last answer ends (SEED-004 "Configuration").
    func updateIdleHold() -> [SessionCommand] {
        let held = response != nil || turns.speaking != nil
        return handle(scenario.runtime.holdIdleEnd(held, restartAt: answerPlaybackEndMicros))
    }

    /// Closes the connection after the frames already emitted; the session ends.
    func closeConnection(code: Int, reason: String) -> [SessionCommand] {
        guard !isClosed else { return [] }
        var commands: [SessionCommand] = []
        if let report = scenario.runtime.finalReport(endReason: "serverError") {
            commands.append(.journal(.report(report)))
        }
        commands += handle(scenario.runtime.close())
        commands += enter(.closed)
        commands.append(.transport(.close(code: code, reason: reason), atMicros: max(now, timeline.laneTime)))
        _ = lifecycle.close()
        return commands
    }

    /// A scenario error as the Qwen `error` object (ErrorSpec rendering rules).
    func qwenError(_ spec: ErrorSpec) -> QwenError {
        QwenError(
            type: spec.type ?? (spec.fatal ? "server_error" : "invalid_request_error"), code: spec.code,
            message: spec.message, param: spec.param)
    }

    /// Sends a scripted error; a fatal one (or any `server_error`) ends the session with 1011 (S21).
    func scriptedError(_ spec: ErrorSpec) -> [SessionCommand] {
        let error = qwenError(spec)
        var commands = emit(.error, ["error": wire.errorObject(error, nil)], delay: delay(before: .error))
        if spec.fatal || error.isTerminal {
            terminate()
            commands += cancelStreaming()
            commands += closeConnection(code: 1011, reason: error.message)
        }
        return commands
    }

    /// Whether a turn error describes an input transcription failure rather than an answer
    /// failure (sent as `…input_audio_transcription.failed`).
    func isTranscriptionError(_ spec: ErrorSpec) -> Bool {
        spec.type == "transcription_error" || spec.code == "transcription_failed"
    }
}

extension QwenRealtimeSession {
    /// The dialect's append event's `audio` (`input_audio_buffer.append`; input rate and channels)
    /// and its audio delta's `delta` (`response.audio.delta`; output rate) carry base64 PCM.
    package func audioSummary(ofText json: JSONValue, eventType: String?, inbound: Bool) -> AudioSummary? {
        let field: String
        let rate: Int
        var channels = 1
        if inbound, eventType == wire.audioAppendEvent {
            field = "audio"
            rate = configuration.inputSampleRate
            channels = configuration.inputChannels
        } else if !inbound, eventType == wire.audioDeltaEvent {
            guard dialect.sendsPCMAudio(configuration) else { return nil }
            field = "delta"
            rate = configuration.outputSampleRate
        } else {
            return nil
        }
        guard let text = json[field]?.stringValue, let bytes = Base64.decodedCount(ofEncoded: text) else { return nil }
        return PCMPayload.summary(bytes: bytes, sampleRate: rate, channels: channels)
    }
}
