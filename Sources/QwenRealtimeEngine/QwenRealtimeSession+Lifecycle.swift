import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireAudio
import WireJSON

extension QwenRealtimeSession {
    /// `session.finish` (S19, omni and transcription): cancel a running answer, flush the pending input
    /// transcription, send `session.finished`, close with 1000; later events are ignored.
    func finishSession() -> [SessionCommand] {
        lifecycle.finish()
        scenario.runtime.report.ended("clientStop")
        var commands = enter(.finishing)
        commands += cancel(reason: "client_cancelled")
        commands += flushSpeech()
        if dialect.recognisesUncommittedAudioOnFinish, configuration.turnDetection == nil, input.bufferedBytes > 0 {
            // Manual mode: the audio not yet committed is recognised before the session ends.
            let itemID = scenario.runtime.ids.id(prefix: "item_")
            commands += commitUserAudio(itemID: itemID, content: scenario.runtime.nextTurn())
        }
        commands += emit(.sessionFinished, delay: delay(before: .sessionFinished))
        return commands + closeConnection(code: 1000, reason: "session finished")
    }

    package func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        guard !isClosed else { return [] }
        if let own = dialect.end(reason, in: self) { return own }
        var commands = cancelStreaming()
        switch reason {
        case .sessionExpiry:
            commands += serverError("session_expired", "Session exceeded its maximum duration.")
            return commands + closeConnection(code: 1000, reason: "session expired")
        case .trigger, .idle:
            // Ended the way a finished session ends (omni `session.finished`); the service
            // documents no idle end, and the AIBuds auto-end is the app's (SEED-004).
            if dialect.announcesScriptedEnd {
                commands += flushSpeech()
                commands += emit(.sessionFinished)
            }
            let text = if case .trigger(let reason) = reason { reason } else { "idle timeout" }
            return commands + closeConnection(code: 1000, reason: text)
        case .serverSilence, .audioGap:
            return commands + closeConnection(code: 1000, reason: "session ended")
        }
    }

    private func serverError(_ code: String, _ message: String) -> [SessionCommand] {
        terminate()
        return emit(
            .error, ["error": wire.errorObject(QwenError(type: "server_error", code: code, message: message), nil)])
    }

    package func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] {
        let eventID = JSONValue.string(scenario.runtime.ids.id(prefix: "event_"))
        let json: JSONValue
        switch request {
        case .unknownEvent(let type, let template):
            var object = template?.objectValue ?? [:]
            if object["event_id"] == nil { object["event_id"] = eventID }
            if object["type"] == nil { object["type"] = .string(type) }
            json = .object(object)
        case .injectError(let spec):
            json = [
                "event_id": eventID, "type": .string(QwenServerEvent.error.rawValue),
                "error": wire.errorObject(qwenError(spec), nil),
            ]
        }
        return [
            OutboundFrame(
                eventType: json["type"]?.stringValue, isText: true, bytes: json.encoded(), dueAtMicros: atMicros,
                json: json)
        ]
    }

    package func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? {
        switch frame {
        case .json(let json):
            return OutboundFrame(
                eventType: json["type"]?.stringValue, isText: true, bytes: json.encoded(), dueAtMicros: atMicros,
                json: json)
        case .text(let text):
            let json = try? JSONValue.decode(text)
            return OutboundFrame(
                eventType: json?["type"]?.stringValue, isText: true, bytes: Array(text.utf8), dueAtMicros: atMicros,
                json: json)
        case .synthesizedAudio(let length, _):
            // Qwen never sends binary frames; a replayed one is reproduced as recorded.
            let rate = configuration.outputSampleRate
            let seconds = Double(length / 2) / Double(rate)
            var samples = VoiceSynthesizer(sampleRate: rate).synthesize(
                String(repeating: "la ", count: max(1, Int(seconds * 4)))
            ).littleEndianBytes
            samples += [UInt8](repeating: 0, count: max(0, length - samples.count))
            return OutboundFrame(
                eventType: nil, isText: false, bytes: Array(samples.prefix(length)), dueAtMicros: atMicros)
        case .close:
            return nil
        }
    }
}
