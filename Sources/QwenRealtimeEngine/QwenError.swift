import ProtocolModel
package import WireJSON

/// An `error` event's `error` object (§5.1, §9): `type`, `code`, `message`, `param`, and the
/// client `event_id` that caused it.
package struct QwenError: Error, Sendable, Hashable {
    /// `invalid_request_error` (connection kept) or `server_error` (connection terminated).
    package var type: String
    /// `invalid_value` or one of the mock-defined codes of §9.
    package var code: String
    /// Human-readable text.
    package var message: String
    /// The offending parameter (`session.modalities`, `response.create`, …).
    package var param: String?

    /// Creates an error object.
    package init(type: String = "invalid_request_error", code: String, message: String, param: String? = nil) {
        self.type = type
        self.code = code
        self.message = message
        self.param = param
    }

    /// Whether the connection ends after this error (C19).
    package var isTerminal: Bool { type == "server_error" }

    /// `invalid_value` for a bad field.
    package static func invalidValue(_ param: String, _ message: String) -> QwenError {
        QwenError(code: "invalid_value", message: message, param: param)
    }

    /// `invalid_state`: the session's state does not allow the operation.
    package static func invalidState(_ param: String?, _ message: String) -> QwenError {
        QwenError(code: "invalid_state", message: message, param: param)
    }

    /// `unknown_event`: a type the profile does not define.
    package static func unknownEvent(_ type: String) -> QwenError {
        QwenError(code: "unknown_event", message: "Unknown event type: \(type).", param: "type")
    }

    /// `invalid_json`: the frame is not one JSON object with a string `type`.
    package static func invalidJSON(_ message: String) -> QwenError {
        QwenError(code: "invalid_json", message: message)
    }

    /// `item_not_found` for an unknown item id.
    package static func itemNotFound(_ id: String, param: String = "item_id") -> QwenError {
        QwenError(code: "item_not_found", message: "Item with id '\(id)' not found.", param: param)
    }

    /// The documented "another response is in progress" error (S12).
    package static let responseInProgress = QwenError(
        code: "invalid_value", message: "Cannot create response while another response is in progress.",
        param: QwenClientEvent.responseCreate.rawValue)

    /// `response.create` on a conversation without a user message: the service's model call
    /// refuses it. Shape as two client libraries and a recorded Qwen-Omni session show it
    /// (code `InvalidParameter`, the `<400> InternalError.Algo.InvalidParameter: …` text);
    /// `type` and the kept connection are inferred.
    package static let noUserMessage = QwenError(
        code: "InvalidParameter",
        message:
            "<400> InternalError.Algo.InvalidParameter: The input messages do not contain elements with the role of user"
    )

    /// `response.cancel` of an answer the scenario makes not interruptible (policy
    /// `interruptible: false`): a cancel gets `response.done` (cancelled) or an `error`
    /// (DOC-QA-CE, DOC-OMNI-CE); the answer goes on, so it is the error. The code is the mock's.
    package static let notInterruptible = QwenError(
        code: "invalid_state", message: "The response in progress cannot be cancelled: answers are not interruptible.",
        param: QwenClientEvent.responseCancel.rawValue)

    /// The object as sent inside `error`.
    package func json(eventID: String?) -> JSONValue {
        var object: JSONObject = ["type": .string(type), "code": .string(code), "message": .string(message)]
        object["param"] = param.map(JSONValue.string) ?? .null
        object["event_id"] = eventID.map(JSONValue.string) ?? .null
        return .object(object)
    }
}
