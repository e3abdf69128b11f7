package import ProtocolModel
package import WireJSON

/// A client text frame in the DashScope envelope (§4.1, §4.2), read tolerantly: extra keys and
/// `null` values are ignored (§11).
package struct ClientFrame: Sendable, Hashable {
    /// The whole frame.
    package let json: JSONValue
    /// `header.action` (`run-task`, `continue-task`, `finish-task`).
    package let action: String?
    /// `header.task_id`.
    package let taskID: String?
    /// `header.streaming` (always `duplex`).
    package let streaming: String?
    /// `payload.input.directive` as sent.
    package let directiveName: String?
    /// `payload.input` (empty if absent).
    package let input: JSONObject
    /// `payload.parameters`, if present and not null.
    package let parameters: JSONValue?
    /// `payload` (empty if absent).
    package let payload: JSONObject

    /// The directive, if it is one of §5.0.
    package var directive: Directive? { directiveName.flatMap(Directive.init(rawValue:)) }

    /// `payload.input.dialog_id` if it is a non-empty string (Java sends `""`, Python `null`).
    package var dialogID: String? {
        guard let id = input["dialog_id"]?.stringValue, !id.isEmpty else { return nil }
        return id
    }

    /// The name the scenario runtime knows this frame by: the directive, else the action.
    package var typeName: String? { directiveName ?? action }

    /// Reads the envelope of `json`.
    /// - Throws: a ``ParameterProblem`` (obligation `mmd.C2`) when the frame is not a JSON
    ///   object with `header` and `payload` objects.
    package init(_ json: JSONValue?) throws(ParameterProblem) {
        guard let json else { throw ParameterProblem("mmd.C2", "text frame is not JSON") }
        guard case .object = json else {
            throw ParameterProblem("mmd.C2", "text frame is a JSON \(json.typeName), not an object")
        }
        guard let header = DashScopeEnvelope.header(of: json) else {
            // Issue 40 row 11: a realtime event (the nuisdk sample points at this path) is told
            // where it belongs.
            if let type = json["type"]?.stringValue {
                throw ParameterProblem(
                    "mmd.C2",
                    "frame has no \"header\" object: {\"type\":\"\(type)\"} is a Qwen realtime event, and "
                        + "\(DialogProtocol.multimodalDialog.servicePath) is the multimodal dialog endpoint; "
                        + "realtime clients connect to \(DialogProtocol.qwenRealtime.servicePath)?model=<model>")
            }
            throw ParameterProblem("mmd.C2", "frame has no \"header\" object")
        }
        self.json = json
        action = header["action"]?.stringValue
        taskID = header["task_id"]?.stringValue
        streaming = header["streaming"]?.stringValue
        payload = DashScopeEnvelope.payload(of: json) ?? JSONObject()
        input = payload["input"]?.objectValue ?? JSONObject()
        directiveName = input["directive"]?.stringValue
        parameters = payload["parameters"].flatMap { $0.isNull ? nil : $0 }
    }

    /// A quick look at `bytes` for the journal: the directive (or action) and the JSON.
    package static func classify(_ bytes: [UInt8]) -> (type: String?, json: JSONValue?) {
        guard let json = try? JSONValue.decode(bytes) else { return (nil, nil) }
        let frame = try? ClientFrame(json)
        return (frame?.typeName, json)
    }
}
