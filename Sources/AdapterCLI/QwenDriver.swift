import DialogClients
import ProtocolModel
import Synchronization
import WireJSON

/// Drives a `QwenRealtimeClient` from adapter commands and reports its callbacks as events.
/// The client connects on the first command; a first `session_update` becomes the initial
/// `session.update`, otherwise `defaultSession` is sent.
final class QwenDriver: Sendable {
    let client: QwenRealtimeClient
    let events: EventLog
    let fault: Fault?
    /// The Qwen fault of `fault` (nil when it is not applied on this profile).
    var breach: QwenFault? { fault?.kind.qwen }
    private let connected = Mutex(false)
    /// Driven mode: whether the after-audio fault was injected (after the first `append_audio`).
    private let injectedAfterAudio = Mutex(false)

    /// The initial session when the commands do not start with `session_update`.
    /// `turn_detection` is explicit: on the audio profile an omitted one means push-to-talk
    /// (SEED-003, the mock's `omittedTurnDetectionIsPushToTalk`).
    static let defaultSession: JSONObject = [
        "modalities": ["text", "audio"], "turn_detection": ["type": "server_vad"],
    ]
    /// How late the `slow-barge-in` client stops playback after a barge-in.
    static let slowBargeInMillis = 300

    init(environment: AdapterEnvironment, events: EventLog, fault: Fault?) {
        self.events = events
        let profile = QwenRealtimeProfile(model: environment.model)
        if let fault, let needed = fault.profile, needed != profile {
            log(
                "fault \(fault.name) exists only on the \(needed) profile; model \(environment.model) is \(profile): not applied"
            )
            self.fault = nil
        } else {
            self.fault = fault
        }
        var url = environment.url
        if self.fault?.kind.qwen == .missingModel {
            url = String(url.prefix { $0 != "?" }) + "?model="
        }
        client = QwenRealtimeClient(url: url, apiKey: environment.apiKey, model: environment.model)
        client.callbacks = Self.callbacks(events)
        var faults = client.faults
        faults.omitAuthorization = self.breach == .noAuthorization
        faults.appendRightAfterSessionUpdate = self.breach == .audioBeforeSessionUpdate
        faults.ignoreFatalErrors = self.breach == .ignoreServerError
        faults.everyErrorTerminal = self.breach == .stopOnRequestError
        faults.bargeInDelayMillis = self.breach == .slowBargeIn ? Self.slowBargeInMillis : 0
        client.faults = faults
    }

    private static func callbacks(_ events: EventLog) -> QwenRealtimeCallbacks {
        var callbacks = QwenRealtimeCallbacks()
        callbacks.onEvent = { type, _ in
            if type == QwenServerEvent.sessionCreated.rawValue { events.event("connected") }
        }
        callbacks.onSessionUpdated = { events.event("session_updated", ["session": .object($0)]) }
        callbacks.onSpeechStarted = { events.event("speech_started", ["item_id": .string($0)]) }
        callbacks.onSpeechStopped = { events.event("speech_ended", ["item_id": .string($0)]) }
        callbacks.onInputTranscript = { item, text, isFinal in
            if isFinal {
                events.event("speech_content", ["item_id": .string(item), "text": .string(text), "finished": true])
            }
        }
        callbacks.onResponseCreated = { events.event("responding_started", ["response_id": .string($0)]) }
        callbacks.onResponseText = { id, text in
            events.event(
                "responding_content",
                ["response_id": .string(id), "text": .string(text), "finished": true, "commands": []])
        }
        callbacks.onAudio = { id, pcm in
            events.event("audio", ["response_id": .string(id), "bytes": .int(Int64(pcm.count))])
        }
        callbacks.onResponseDone = { id, status in
            events.event("responding_ended", ["response_id": .string(id), "status": .string(status)])
        }
        callbacks.onFunctionCall = { id, name, arguments in
            events.event("tool_call", ["call_id": .string(id), "name": .string(name), "arguments": .string(arguments)])
        }
        callbacks.onError = {
            events.event("error", ["code": .string($0.code), "message": .string($0.message), "type": .string($0.type)])
        }
        callbacks.onPlaybackStarted = { events.event("playback_started", ["response_id": .string($0)]) }
        callbacks.onPlaybackEnded = { events.event("playback_ended", ["response_id": .string($0)]) }
        callbacks.onClosed = { code, reason in
            events.event("closed", ["code": .int(Int64(code)), "reason": .string(reason)])
        }
        return callbacks
    }

    /// Connects with `session` unless connected. A rejected first update is followed by the
    /// default session, so the flow can go on (the rejection is what a fault wanted).
    func ensureConnected(session: JSONObject? = nil) async throws(AdapterError) {
        guard
            connected.withLock({ state in
                defer { state = true }
                return !state
            })
        else {
            if let session { _ = try? await client.updateSession(session) }
            return
        }
        var first = session ?? Self.defaultSession
        applySessionFault(&first)
        do {
            try await client.connect(session: first)
        } catch  where error.code == "connect_failed" || error.code == "closed" {
            throw AdapterError(code: "ConnectFailed", message: error.message)
        } catch {
            _ = try? await client.updateSession(Self.defaultSession)
        }
        // The fault's rule break right after the session is configured, in the default flow
        // and in driven scripts alike (so a fault is caught by the driven cases of its
        // obligation too).
        injectBeforeAudio()
    }

    /// Executes one command. - Returns: false for `quit`.
    func run(_ command: JSONObject) async throws(AdapterError) -> Bool {
        let name = command["cmd"]?.stringValue ?? ""
        if name == "quit" || name == "finish" {
            if connected.withLock({ $0 }) { await finishSession() }
            return name != "quit"
        }
        if name == "session_update" {
            try await ensureConnected(session: command["session"]?.objectValue ?? [:])
            return true
        }
        try await ensureConnected()
        switch name {
        case "append_audio":
            let pcm = try FixturePaths.read(command["file"]?.stringValue ?? "")
            await client.appendAudio(pcm: pcm, realtime: command["realtime"]?.boolValue ?? true)
            if injectedAfterAudio.withLock({ done in
                defer { done = true }
                return !done
            }) {
                await injectAfterAudio()
            }
        case "commit": client.commit()
        case "clear": client.clearAudioBuffer()
        case "create_response": client.createResponse(command["response"]?.objectValue)
        case "cancel_response": client.cancelResponse()
        case "tool_result":
            client.sendFunctionCallOutput(
                callId: command["call_id"]?.stringValue ?? "", output: command["output"]?.stringValue ?? "")
        case "create_item":
            let item = command["item"]?.objectValue ?? [:]
            if item["type"]?.stringValue == "input_image", let file = item["file"]?.stringValue {
                client.appendImage(jpeg: try FixturePaths.read(file))
            } else {
                client.createItem(item)
            }
        default:
            throw AdapterError(code: "UnknownCommand", message: "unknown command \(name) for qwen-realtime")
        }
        return true
    }
}
