import DialogClients
import ProtocolModel
import Synchronization
import WireJSON

/// Drives a `QwenAudioLiveClient` from adapter commands and reports its callbacks as events.
/// The client connects on the first command; a first `session_update` becomes the initial
/// `session.update`, otherwise `defaultSession` is sent. Like an app with handlers registered,
/// it answers every function call and every client delegation itself.
final class QwenAudioLiveDriver: Sendable {
    let client: QwenAudioLiveClient
    let events: EventLog
    let fault: Fault?
    /// The Qwen-Audio-Live fault of `fault`.
    var breach: QwenAudioLiveFault? { fault?.kind.qwenAudioLive }
    private let connected = Mutex(false)

    /// The initial session when the commands do not start with `session_update`: full duplex,
    /// as the quick start and the SDKs run it (the client adds the default frontend model, the
    /// duplex one, and `delegation{type: client}`).
    static let defaultSession: JSONObject = ["turn_detection": ["type": "duplex"]]
    /// The output of every function call the driver answers.
    static let toolOutput = #"{"weather":"sunny"}"#
    /// The frontend model that cannot hold duplex conversations (the `duplex-on-flash` fault's).
    static let flashModel = QwenAudioLive.frontendModels.first { $0 != QwenAudioLive.duplexModel } ?? ""
    /// The result of every client delegation the driver answers.
    static let delegationResult = "The task is done: it is sunny in Paris."

    init(environment: AdapterEnvironment, events: EventLog, fault: Fault?) {
        self.events = events
        self.fault = fault
        client = QwenAudioLiveClient(url: environment.url, apiKey: environment.apiKey, serviceModel: environment.model)
        let breach = fault?.kind.qwenAudioLive
        client.callbacks = Self.callbacks(events, client: client, breach: breach)
        var faults = client.faults
        faults.omitAuthorization = breach == .noAuthorization
        faults.omitUpdateEventID = breach == .missingEventId
        faults.overlongUpdateEventID = breach == .longEventId
        faults.appendRightAfterSessionUpdate = breach == .audioBeforeUpdated
        faults.omittedSessionFields =
            switch breach {
            case .missingSessionModel?: ["model"]
            case .missingDelegation?: ["delegation"]
            default: []
            }
        faults.audioOnWebSocketUnderAOQ = breach == .aoqAudioOnWs
        faults.eventRightAfterSessionClose = breach == .eventsAfterClosed
        client.faults = faults
    }

    private static func callbacks(
        _ events: EventLog, client: QwenAudioLiveClient, breach: QwenAudioLiveFault?
    ) -> QwenAudioLiveCallbacks {
        var callbacks = QwenAudioLiveCallbacks()
        callbacks.onSessionCreated = { events.event("connected", ["session_id": .string($0["id"]?.stringValue ?? "")]) }
        callbacks.onSessionUpdated = { events.event("session_updated", ["session": .object($0)]) }
        callbacks.onInputTranscript = { events.event("speech_content", ["text": .string($0), "finished": false]) }
        callbacks.onOutputTranscript = {
            events.event("responding_content", ["text": .string($0), "finished": false, "commands": []])
        }
        callbacks.onAudio = { events.event("audio", ["bytes": .int(Int64($0.count))]) }
        callbacks.onPlaybackStarted = { events.event("playback_started") }
        callbacks.onPlaybackEnded = { events.event("playback_ended", ["reason": .string($0.rawValue)]) }
        callbacks.onFunctionCall = { call in
            events.event(
                "tool_call",
                ["call_id": .string(call.callId), "name": .string(call.name), "arguments": .string(call.arguments)])
        }
        callbacks.onDelegation = { delegation in
            events.event(
                "delegation", ["delegation_id": .string(delegation.id), "target": .string(delegation.target)])
        }
        callbacks.onResponseEvent = { id, event in
            events.event(
                "response_event", ["delegation_id": .string(id), "type": .string(event["type"]?.stringValue ?? "")])
        }
        callbacks.onMuted = { events.event($0 ? "muted" : "unmuted") }
        callbacks.onUsage = { events.event("usage", ["seconds": .double($0)]) }
        callbacks.onError = { events.event("error", ["code": .string($0.code), "message": .string($0.message)]) }
        callbacks.onSessionClosed = { events.event("session_closed", ["reason": .string($0)]) }
        callbacks.onClosed = { code, reason in
            events.event("closed", ["code": .int(Int64(code)), "reason": .string(reason)])
        }
        callbacks.answerFunctionCall = { [weak client] call in
            switch breach {
            case .ignoreFunctionCall?:
                return nil
            case .wrongCallId?:
                client?.sendRaw(
                    QwenAudioLiveClientEvent.itemCreate.object([
                        "item": [
                            "type": "function_call_output", "call_id": "call_wrong", "output": .string(toolOutput),
                        ]
                    ]))
                return nil
            default:
                return toolOutput
            }
        }
        callbacks.answerDelegation = { _ in delegationResult }
        return callbacks
    }

    /// Connects with `session` unless connected (a later `session` is a further update). A
    /// refused first update is followed by the correct session, so the flow can go on (the
    /// refusal is what a fault wanted).
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
        if breach == .duplexOnFlash {
            first["model"] = .string(Self.flashModel)
            first["turn_detection"] = ["type": "duplex"]
        }
        do {
            try await client.connect(session: first)
        } catch  where error.isClientSide {
            throw AdapterError(code: "ConnectFailed", message: error.message)
        } catch {
            // The session as asked (a fault's breakage was on the first update only), without a
            // media transport the mock refuses: the client still keeps audio off the WebSocket
            // after asking for AOQ (qal.C7).
            var corrected = session ?? Self.defaultSession
            corrected["transport"] = nil
            _ = try? await client.updateSession(corrected)
        }
        // The fault's rule break right after the session is configured, in the default flow and
        // in driven scripts alike (so a fault is caught by the driven cases of its obligation too).
        await injectAfterUpdated()
    }

    /// Executes one command. - Returns: false for `quit`.
    func run(_ command: JSONObject) async throws(AdapterError) -> Bool {
        let name = command["cmd"]?.stringValue ?? ""
        if name == "quit" || name == "finish" {
            if connected.withLock({ $0 }) { await client.close() }
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
            await appendSpeech(pcm, realtime: command["realtime"]?.boolValue ?? true)
        case "mute": client.mute()
        case "unmute": client.unmute()
        case "create_item": client.createItem(command["item"]?.objectValue ?? [:])
        case "send_text": client.sendText(command["text"]?.stringValue ?? "")
        case "tool_result":
            if !client.sendFunctionCallOutput(
                callId: command["call_id"]?.stringValue ?? "", output: command["output"]?.stringValue ?? "")
            {
                log("tool_result: no unanswered call \(command["call_id"]?.stringValue ?? "")")
            }
        case "commentary":
            let content = command["content"]?.stringValue ?? ""
            if let id = command["delegation_id"]?.stringValue {
                if !client.appendCommentary(delegationId: id, content: content) {
                    log("commentary: no unanswered delegation \(id)")
                }
            } else {
                client.appendCommentary(content)
            }
        case "thinking":
            client.appendThinking(
                delegationId: command["delegation_id"]?.stringValue, content: command["content"]?.stringValue ?? "")
        case "instructions":
            client.appendInstructions(
                command["content"]?.stringValue ?? "", delegationId: command["delegation_id"]?.stringValue)
        default:
            throw AdapterError(code: "UnknownCommand", message: "unknown command \(name) for qwen-audio-live")
        }
        return true
    }
}
