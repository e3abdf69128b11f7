package import WireJSON

/// The DashScope envelope of every multimodal dialog text frame (§3):
/// `{"header": {"action" | "event", "task_id", "streaming"}, "payload": {…}}`. Client frames
/// carry a header `action` (`run-task`, `continue-task`, `finish-task`) and the directive in
/// `payload.input.directive`; server frames carry a header `event` (`task-started`,
/// `result-generated`, `task-finished`, `task-failed`) and dialog events in
/// `payload.output.event`. The one place these keys are spelled.
package enum DashScopeEnvelope {
    /// The header actions a client sends.
    package enum Action: String, Sendable, Hashable, CaseIterable {
        case runTask = "run-task"
        case continueTask = "continue-task"
        case finishTask = "finish-task"
    }

    /// The header events the server sends.
    package enum Event: String, Sendable, Hashable, CaseIterable {
        case taskStarted = "task-started"
        case resultGenerated = "result-generated"
        case taskFinished = "task-finished"
        case taskFailed = "task-failed"
    }

    /// The dialog event the server answers a refused directive with (`payload.output.event`).
    package static let errorEvent = MultiModalDialogEvent.error.rawValue

    /// The `streaming` value of every frame of a dialog.
    package static let streaming = "duplex"

    /// The `payload.task_group` of the multimodal dialog service's `run-task`.
    package static let dialogTaskGroup = "aigc"
    /// Its `payload.task`.
    package static let dialogTaskName = "multimodal-generation"

    /// The `payload` members of a `run-task` that name the multimodal dialog service, in the
    /// order a Start carries them (`task_group`, `task`, `function`; C3).
    package static let dialogTask: KeyValuePairs<String, String> = [
        "task_group": dialogTaskGroup, "task": dialogTaskName, "function": "generation",
    ]

    /// ``dialogTask`` as `key "value"` phrases for messages (`task_group "aigc", …`).
    package static var dialogTaskDescription: String {
        dialogTask.map { "\($0.key) \"\($0.value)\"" }.joined(separator: ", ")
    }

    // MARK: - Building

    /// A client frame: `header {action, task_id, streaming}` and `payload`.
    package static func clientFrame(_ action: Action, taskID: String, payload: JSONObject) -> JSONValue {
        let header: JSONObject = [
            "action": .string(action.rawValue), "task_id": .string(taskID), "streaming": .string(streaming),
        ]
        return ["header": .object(header), "payload": .object(payload)]
    }

    /// A client directive frame: `payload.input = {directive, dialog_id?, fields…}`, plus
    /// `payload.parameters` when given. `Stop` goes with `finish-task`, others with
    /// `continue-task`, unless `action` says otherwise.
    package static func directive(
        _ name: String, taskID: String, dialogID: String?, input fields: JSONObject = [:],
        parameters: JSONObject? = nil, action: Action? = nil
    ) -> JSONValue {
        var input: JSONObject = ["directive": .string(name)]
        if let dialogID { input["dialog_id"] = .string(dialogID) }
        for (key, value) in fields { input[key] = value }
        var payload: JSONObject = ["input": .object(input)]
        if let parameters { payload["parameters"] = .object(parameters) }
        return clientFrame(
            action ?? Directive(rawValue: name)?.expectedAction ?? .continueTask, taskID: taskID, payload: payload)
    }

    /// A server frame: `header {task_id, event, extra…}` and `payload`.
    package static func serverFrame(
        _ event: Event, taskID: String, header extra: JSONObject = [:],
        payload: JSONObject = [:]
    ) -> JSONValue {
        var header: JSONObject = ["task_id": .string(taskID), "event": .string(event.rawValue)]
        for (key, value) in extra { header[key] = value }
        return ["header": .object(header), "payload": .object(payload)]
    }

    /// A dialog event: `result-generated` with `payload.output = {event, dialog_id?, fields…}`.
    package static func dialogEvent(
        _ name: String, taskID: String, dialogID: String?, fields: JSONObject = [:]
    ) -> JSONValue {
        var output: JSONObject = ["event": .string(name)]
        if let dialogID { output["dialog_id"] = .string(dialogID) }
        for (key, value) in fields { output[key] = value }
        return serverFrame(.resultGenerated, taskID: taskID, payload: ["output": .object(output)])
    }

    // MARK: - Reading

    /// `header`, when the frame has one.
    package static func header(of frame: JSONValue?) -> JSONObject? { frame?["header"]?.objectValue }
    /// `payload.input.directive` of a client frame.
    package static func directiveName(of frame: JSONValue?) -> String? {
        frame?["payload"]?["input"]?["directive"]?.stringValue
    }
    /// `header.action` of a client frame.
    package static func action(of frame: JSONValue?) -> String? { frame?["header"]?["action"]?.stringValue }
    /// `payload.output.event` of a server frame (a dialog event).
    package static func dialogEventName(of frame: JSONValue?) -> String? {
        frame?["payload"]?["output"]?["event"]?.stringValue
    }
    /// `header.event` of a server frame.
    package static func headerEvent(of frame: JSONValue?) -> String? { frame?["header"]?["event"]?.stringValue }
    /// `payload`, when the frame has one.
    package static func payload(of frame: JSONValue?) -> JSONObject? { frame?["payload"]?.objectValue }
    /// `payload.parameters` of a client frame (Start, UpdateInfo).
    package static func parameters(of frame: JSONValue?) -> JSONValue? { frame?["payload"]?["parameters"] }
    /// `payload.output` of a server frame (a dialog event's members).
    package static func output(of frame: JSONValue?) -> JSONObject? { frame?["payload"]?["output"]?.objectValue }
    /// `header.task_id`.
    package static func taskID(of frame: JSONValue?) -> String? { frame?["header"]?["task_id"]?.stringValue }

    /// The name a client frame goes by: its directive, else its header action.
    package static func clientMessageName(of frame: JSONValue?) -> String? {
        directiveName(of: frame) ?? action(of: frame)
    }

    /// The name a server frame goes by: its dialog event, else its header event.
    package static func serverMessageName(of frame: JSONValue?) -> String? {
        dialogEventName(of: frame) ?? headerEvent(of: frame)
    }
}

/// The message name of a frame of either protocol, as journals and checks name it.
package enum MessageName {
    /// Qwen realtime's `type`, else the multimodal directive, dialog event or header event.
    package static func of(_ frame: JSONValue?) -> String? {
        guard let frame else { return nil }
        return frame["type"]?.stringValue ?? DashScopeEnvelope.directiveName(of: frame)
            ?? DashScopeEnvelope.serverMessageName(of: frame)
    }

    /// A client frame's name: Qwen's `type`, else the directive, else the header action.
    package static func ofClientFrame(_ frame: JSONValue?) -> String? {
        frame?["type"]?.stringValue ?? DashScopeEnvelope.clientMessageName(of: frame)
    }

    /// Whether a server message of this name refuses what the client sent: Qwen's `error`, the
    /// dialog's `Error` event, or the `task-failed` that ends a dialog.
    package static func isRefusal(_ name: String) -> Bool {
        name == QwenServerEvent.error.rawValue || name == DashScopeEnvelope.errorEvent
            || name == DashScopeEnvelope.Event.taskFailed.rawValue
    }

    /// A server frame's name: Qwen's `type`, else the dialog event, else the header event.
    package static func ofServerFrame(_ frame: JSONValue?) -> String? {
        frame?["type"]?.stringValue ?? DashScopeEnvelope.serverMessageName(of: frame)
    }
}
