import WireJSON

/// A protocol error the protocol engine should send, described once for both protocols.
///
/// Rendering (done by the protocol engine):
/// - multimodal dialog, `fatal == false`: `Error{error_code: Int(code), error_name: name,
///   error_message: message}`; `fatal == true`: `task-failed{error_code: name ?? code,
///   error_message: message}` then close.
/// - Qwen realtime: `error{type: type ?? (fatal ? "server_error" : "invalid_request_error"),
///   code, message, param}`; fatal closes the socket with 1011 afterwards.
package struct ErrorSpec: Sendable, Hashable {
    /// When, within a turn, the error is sent.
    package enum Placement: String, Sendable, Hashable, CaseIterable {
        /// Before the answer (the answer still follows unless the error is fatal).
        case beforeAnswer
        /// After the answer has been sent.
        case afterAnswer
        /// Instead of the answer.
        case insteadOfAnswer
    }

    /// The error code (`"500"`, `"invalid_value"`, `"ResponseTimeout"`); numbers become strings.
    package var code: String
    /// Multimodal `error_name` (e.g. `InternalLLMError`).
    package var name: String?
    /// Human-readable message.
    package var message: String
    /// Qwen error `type` (`invalid_request_error`, `server_error`); derived from `fatal` if nil.
    package var type: String?
    /// Qwen error `param`.
    package var param: String?
    /// Whether the session ends after the error.
    package var fatal: Bool
    /// Where in a turn the error goes (ignored for errors injected by faults).
    package var placement: Placement

    /// Creates an error description.
    package init(
        code: String, name: String? = nil, message: String, type: String? = nil,
        param: String? = nil, fatal: Bool = false, placement: Placement = .beforeAnswer
    ) {
        self.code = code
        self.name = name
        self.message = message
        self.type = type
        self.param = param
        self.fatal = fatal
        self.placement = placement
    }

    /// Parses `{"code", "name"?, "message"?, "type"?, "param"?, "fatal"?, "at"?}`.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> ErrorSpec {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: ["code", "name", "message", "type", "param", "fatal", "at"])
        let code: String
        switch try reader.required("code") {
        case .string(let text) where !text.isEmpty: code = text
        case .int(let number): code = String(number)
        case let other: throw reader.typeError("code", "non-empty string or integer", other)
        }
        return ErrorSpec(
            code: code, name: try reader.string("name"), message: try reader.string("message") ?? "mock error",
            type: try reader.string("type"), param: try reader.string("param"),
            fatal: try reader.bool("fatal") ?? false,
            placement: try reader.enumeration("at", as: Placement.self) ?? .beforeAnswer)
    }
}
