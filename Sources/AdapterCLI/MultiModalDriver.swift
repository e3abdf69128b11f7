import DialogClients
import ProtocolModel
import WireJSON

/// Drives a `MultiModalDialog` from adapter commands and reports its callbacks as events.
final class MultiModalDriver: Sendable {
    let dialog: MultiModalDialog
    let events: EventLog
    let environment: AdapterEnvironment
    let fault: Fault?
    /// The multimodal fault of `fault`, which the flow switches over.
    var breach: MultiModalFault? { fault?.kind.multimodal }

    init(environment: AdapterEnvironment, events: EventLog, fault: Fault?) {
        self.environment = environment
        self.events = events
        self.fault = fault
        var options = MultiModalDialogOptions()
        if fault?.kind.multimodal == .noSilence || fault?.kind.multimodal == .noSilenceDuplex {
            options.keepAudioFlowing = false
        }
        dialog = MultiModalDialog(
            url: environment.url, workSpaceId: environment.workspaceID, appId: environment.appID,
            mode: .tap2talk, options: options)
        dialog.callbacks = Self.callbacks(events)
        applyLibraryFaults()
    }

    private static func callbacks(_ events: EventLog) -> MultiModalDialog.Callbacks {
        var callbacks = MultiModalDialog.Callbacks()
        callbacks.onConnected = { events.event("connected") }
        callbacks.onConversationStarted = { events.event("started", ["dialog_id": .string($0)]) }
        callbacks.onConversationStateChanged = { events.event("state", ["state": .string($0.rawValue)]) }
        callbacks.onConversationEvent = { event, _ in
            switch event {
            case .speechStarted: events.event("speech_started")
            case .speechEnded: events.event("speech_ended")
            case .respondingStarted: events.event("responding_started")
            case .respondingEnded: events.event("responding_ended")
            case .requestAccepted: events.event("request_accepted")
            }
        }
        callbacks.onMessageReceived = { output in
            switch output["event"]?.stringValue {
            case "SpeechContent":
                events.event("speech_content", ["text": output["text"] ?? "", "finished": output["finished"] ?? false])
            case "RespondingContent":
                // C18: extra_info.commands is a JSON string; parse it a second time.
                var commands: JSONValue = []
                if let text = output["extra_info"]?["commands"]?.stringValue, let parsed = try? JSONValue.decode(text) {
                    commands = parsed
                }
                events.event(
                    "responding_content",
                    [
                        "text": output["text"] ?? "", "spoken": output["spoken"] ?? "",
                        "finished": output["finished"] ?? false, "commands": commands,
                    ])
            default:
                break
            }
        }
        callbacks.onErrorReceived = {
            events.event("error", ["code": .string($0.code), "message": .string($0.message)])
        }
        callbacks.onSynthesizedData = { events.event("audio", ["bytes": .int(Int64($0.count))]) }
        callbacks.onPlaybackStarted = { events.event("playback_started") }
        callbacks.onPlaybackEnded = { events.event("playback_ended") }
        callbacks.onWebsocketClosed = { code, reason in
            events.event("closed", ["code": .int(Int64(code)), "reason": .string(reason ?? "")])
        }
        return callbacks
    }

    /// Executes one command. - Returns: false for `quit`.
    func run(_ command: JSONObject) async throws(AdapterError) -> Bool {
        let name = command["cmd"]?.stringValue ?? ""
        switch name {
        case "start":
            let params = MultiModalRequestParam(parameters: try resolveImages(command["params"]?.objectValue ?? [:]))
            let dialogID = breach == .badDialogId ? "not-a-dialog" : command["dialog_id"]?.stringValue
            _ = try? await dialog.start(apiKey: environment.apiKey, params: params, dialogId: dialogID)
            // Driven runs get the same one-off fault as the default flow, in the first Listening.
            if fault != nil, await waitForState(.listening, timeoutMillis: 3_000) { await injectListeningFault() }
        case "start_speech":
            if breach == .sendspeechOutsideListening, dialog.dialogState != .listening {
                // Pressed during an answer: SendSpeech goes at once instead of waiting for Listening.
                dialog.sendRaw(text: dialog.rawDirective(.sendSpeech, input: [:]))
            }
            dialog.startSpeech()
        case "send_audio":
            guard (command["format"]?.stringValue ?? "pcm") == "pcm" else {
                throw AdapterError(code: "Unsupported", message: "send_audio: only format pcm is supported")
            }
            let pcm = try FixturePaths.read(command["file"]?.stringValue ?? "")
            await dialog.sendAudio(pcm: pcm, realtime: command["realtime"]?.boolValue ?? true)
        case "stop_speech": dialog.stopSpeech()
        case "cancel_speech": dialog.cancelSpeech()
        case "interrupt": dialog.interrupt()
        case "request_to_respond":
            dialog.requestToRespond(
                type: command["type"]?.stringValue ?? "prompt", text: command["text"]?.stringValue ?? "",
                params: try resolveImages(command["params"]?.objectValue ?? [:]))
            if breach == .respondOutsideListening {
                // A second one at once: the first has left Listening.
                dialog.sendRaw(
                    text: dialog.rawDirective(.requestToRespond, input: ["type": "prompt", "text": "Hello?"]))
            }
            if breach == .framesOutsideVideo,
                command["params"]?["biz_params"]?["videos"]?[0]?["action"] == "connect"
            {
                // A frame at once, while the connect round has not returned to Listening yet.
                sendVideoFrame()
            }
        case "update_info": dialog.updateInfo(params: try resolveImages(command["params"]?.objectValue ?? [:]))
        case "heartbeat": dialog.sendHeartBeat()
        case "stop": await dialog.stop()
        case "quit":
            await dialog.stop()
            return false
        default:
            throw AdapterError(code: "UnknownCommand", message: "unknown command \(name) for multimodal-dialog")
        }
        return true
    }

    /// Images given as `{"type":"base64","file":PATH}` get the file's base64 as `value`.
    func resolveImages(_ params: JSONObject) throws(AdapterError) -> JSONObject {
        guard let images = params["images"]?.arrayValue else { return params }
        var resolved: [JSONValue] = []
        for image in images {
            guard var object = image.objectValue, let file = object["file"]?.stringValue else {
                resolved.append(image)
                continue
            }
            object["file"] = nil
            object["value"] = .string(Base64.encode(try FixturePaths.read(file)))
            resolved.append(.object(object))
        }
        var result = params
        result["images"] = .array(resolved)
        return result
    }

    /// Waits until the dialog is in `state` (polling). - Returns: false on timeout.
    func waitForState(_ state: DialogClients.DialogState, timeoutMillis: Int) async -> Bool {
        for _ in 0..<(timeoutMillis / 20) {
            if dialog.dialogState == state { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return dialog.dialogState == state
    }
}
