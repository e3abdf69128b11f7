package import ProtocolModel
import Synchronization
package import WireJSON
import WireSocket

extension MultiModalDialog {
    /// The run-task frame with `Start` (C2–C5), remembering the negotiated formats.
    func startFrame(_ s: inout DialogSessionState, params: MultiModalRequestParam, dialogID: String?) -> String {
        var parameters = params.parameters
        var upstream = parameters["upstream"]?.objectValue ?? [:]
        if upstream["type"] == nil { upstream["type"] = "AudioOnly" }
        if let mode = upstream["mode"]?.stringValue, let parsed = DialogMode(rawValue: mode) {
            s.mode = parsed
        } else {
            upstream["mode"] = .string(s.mode.rawValue)
        }
        if upstream["audio_format"] == nil { upstream["audio_format"] = "pcm" }
        if upstream["sample_rate"] == nil { upstream["sample_rate"] = 16000 }
        s.upstreamFormat = upstream["audio_format"]?.stringValue ?? "pcm"
        s.upstreamRate = Int(upstream["sample_rate"]?.intValue ?? 16000)
        parameters["upstream"] = .object(upstream)
        var clientInfo = parameters["client_info"]?.objectValue ?? [:]
        if clientInfo["user_id"] == nil { clientInfo["user_id"] = "dialogmock-swift" }
        parameters["client_info"] = .object(clientInfo)
        let downstream = parameters["downstream"]?.objectValue ?? [:]
        s.downstreamFormat = downstream["audio_format"]?.stringValue ?? "pcm"
        s.downstreamRate = Int(downstream["sample_rate"]?.intValue ?? 24000)
        s.downstreamBitRate = Int(downstream["bit_rate"]?.intValue ?? 32)
        var input: JSONObject = [
            "directive": .string(Directive.start.rawValue), "workspace_id": .string(workSpaceId),
            "app_id": .string(appId),
        ]
        if let dialogID { input["dialog_id"] = .string(dialogID) }
        var payload = JSONObject()
        for (key, value) in DashScopeEnvelope.dialogTask { payload[key] = .string(value) }
        payload["model"] = .string(DialogProtocol.multimodalDialog.rawValue)
        payload["input"] = .object(input)
        payload["parameters"] = .object(parameters)
        var frame = DashScopeEnvelope.clientFrame(.runTask, taskID: s.taskID, payload: payload).objectValue ?? [:]
        s.faults.rewriteStart?(&frame)
        return JSONValue.object(frame).encodedString()
    }

    /// A directive frame: `continue-task`, or `finish-task` for Stop (C6, C7, C23).
    func directiveText(
        _ s: DialogSessionState, _ directive: Directive, input extra: JSONObject = [:],
        parameters: JSONObject? = nil, action: DashScopeEnvelope.Action? = nil, taskID: String? = nil
    ) -> String {
        DashScopeEnvelope.directive(
            directive.rawValue, taskID: taskID ?? s.taskID, dialogID: s.dialogID, input: extra,
            parameters: parameters, action: action
        ).encodedString()
    }

    /// Sends a directive unless the task is over (C22).
    @discardableResult
    func sendDirective(
        _ s: inout DialogSessionState, _ directive: Directive, input: JSONObject = [:],
        parameters: JSONObject? = nil
    ) -> Bool {
        guard let connection = s.connection, !s.finishSent, s.phase == .started || s.phase == .awaitingStarted else {
            return false
        }
        connection.send(text: directiveText(s, directive, input: input, parameters: parameters))
        if directive == .heartBeat { s.lastHeartbeatAt = Clock.nowMicros() }
        return true
    }

    /// Sends one binary audio frame unless the task is over.
    func sendBinary(_ s: inout DialogSessionState, _ bytes: [UInt8]) {
        guard let connection = s.connection, !s.finishSent, s.phase == .started else { return }
        if s.faults.oddAudioFrame {
            s.faults.oddAudioFrame = false
            connection.send(.binary(bytes + [0]))
        } else {
            connection.send(.binary(bytes))
        }
        s.lastAudioAt = Clock.nowMicros()
    }

    // MARK: - Raw access for the faulty clients

    /// Whether the task is running and the client has not sent finish-task (faulty clients
    /// check it before a delayed raw frame, so that it breaks only the rule they break).
    package var isRunning: Bool { state.withLock { $0.phase == .started && !$0.finishSent } }

    /// Sends a text frame as is, bypassing every guard (faulty clients only).
    package func sendRaw(text: String) {
        state.withLock { $0.connection?.send(text: text) }
    }

    /// Sends a binary frame as is, bypassing every guard (faulty clients only).
    package func sendRaw(binary: [UInt8]) {
        state.withLock { $0.connection?.send(.binary(binary)) }
    }

    /// A directive frame with the current ids, optionally with another action or task id.
    package func rawDirective(
        _ directive: Directive, input: JSONObject = [:], parameters: JSONObject? = nil,
        action: DashScopeEnvelope.Action? = nil, taskID: String? = nil
    ) -> String {
        state.withLock {
            directiveText($0, directive, input: input, parameters: parameters, action: action, taskID: taskID)
        }
    }
}
