package import ProtocolModel
package import ScenarioEngine
package import WireJSON

/// Builds server frames in the DashScope envelope (S2): every text frame is
/// `{"header":{"task_id","event"},"payload":{…}}` with `event` one of the four header events
/// and `payload` always present.
package struct ServerFrameBuilder: Sendable, Hashable {
    /// The client's task id, echoed in every header (empty before a Start was read).
    package var taskID: String

    /// Creates a builder for `taskID`.
    package init(taskID: String) {
        self.taskID = taskID
    }

    /// `task-started` with payload `{}`.
    package func taskStarted(at time: Int64) -> OutboundFrame {
        frame(
            DashScopeEnvelope.serverFrame(.taskStarted, taskID: taskID),
            type: DashScopeEnvelope.Event.taskStarted.rawValue, at: time)
    }

    /// `task-finished` with payload `{}`.
    package func taskFinished(at time: Int64) -> OutboundFrame {
        frame(
            DashScopeEnvelope.serverFrame(.taskFinished, taskID: taskID),
            type: DashScopeEnvelope.Event.taskFinished.rawValue, at: time)
    }

    /// `task-failed` with `error_code`/`error_message` in the header and payload `{}`.
    package func taskFailed(code: String, message: String, at time: Int64) -> OutboundFrame {
        let json = DashScopeEnvelope.serverFrame(
            .taskFailed, taskID: taskID,
            header: ["error_code": .string(code), "error_message": .string(message)])
        return frame(json, type: DashScopeEnvelope.Event.taskFailed.rawValue, at: time)
    }

    /// A dialog event: `result-generated` carrying `output = {event, dialog_id?, fields…}`.
    package func event(_ name: String, dialogID: String?, fields: JSONObject = [:], at time: Int64) -> OutboundFrame {
        frame(
            DashScopeEnvelope.dialogEvent(name, taskID: taskID, dialogID: dialogID, fields: fields), type: name,
            at: time)
    }

    /// The `Error` event for `error`.
    package func error(_ error: DialogErrorEvent, dialogID: String?, at time: Int64) -> OutboundFrame {
        event(
            DashScopeEnvelope.errorEvent, dialogID: dialogID,
            fields: [
                "error_code": .int(Int64(error.code)), "error_name": .string(error.name),
                "error_message": .string(error.message),
            ], at: time)
    }

    /// The documented fatal status error (DOC-MMERR, "421-InvalidParameter"): a `result-generated`
    /// whose header carries `status_code`, `status_name` and `status_message`, with output
    /// `{event: "Error", dialog_id}`; the service closes the connection after it.
    package func statusError(_ error: DialogErrorEvent, dialogID: String?, at time: Int64) -> OutboundFrame {
        var output: JSONObject = ["event": .string(DashScopeEnvelope.errorEvent)]
        if let dialogID { output["dialog_id"] = .string(dialogID) }
        let json = DashScopeEnvelope.serverFrame(
            .resultGenerated, taskID: taskID,
            header: [
                "status_code": .int(Int64(error.code)), "status_name": .string(error.name),
                "status_message": .string(error.message),
            ], payload: ["output": .object(output)])
        return frame(json, type: DashScopeEnvelope.errorEvent, at: time)
    }

    /// A binary audio frame.
    package func audio(_ bytes: [UInt8], level: AudioLevel? = nil, at time: Int64) -> OutboundFrame {
        OutboundFrame(eventType: nil, isText: false, bytes: bytes, dueAtMicros: time, audioLevel: level)
    }

    /// A scenario-given JSON frame with this session's `task_id` filled in when its header
    /// lacks one; the journal type is `payload.output.event`, else `header.event`.
    package func scripted(_ json: JSONValue, at time: Int64) -> OutboundFrame {
        var value = json
        if case .object(var root) = json, case .object(var header)? = root["header"], header["task_id"] == nil {
            header["task_id"] = .string(taskID)
            root["header"] = .object(header)
            value = .object(root)
        }
        return frame(value, type: DashScopeEnvelope.serverMessageName(of: value), at: time)
    }

    private func frame(_ json: JSONValue, type: String?, at time: Int64) -> OutboundFrame {
        OutboundFrame(eventType: type, isText: true, bytes: json.encoded(), dueAtMicros: time, json: json)
    }
}
