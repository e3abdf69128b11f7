/// A non-fatal `Error` event (`error_code` int, `error_name`, `error_message`, §10.1), or the
/// pair used for a fatal `task-failed`.
///
/// The names below are mock-defined (spec §13 S11, S12, S18, S20; *mock-only* in the reference's
/// §10.1) unless a source is named: the official error page (DOC-MMERR) documents only
/// ``respondTypeInvalid`` of them.
package struct DialogErrorEvent: Sendable, Hashable {
    /// `error_code` of the `Error` event.
    package var code: Int
    /// `error_name` of the `Error` event; also the `error_code` string of a `task-failed`.
    package var name: String
    /// Human-readable text.
    package var message: String

    /// A directive that is not allowed in the current dialog state (S11).
    package static func invalidState(_ message: String) -> DialogErrorEvent {
        DialogErrorEvent(code: 400, name: "InvalidState", message: message)
    }

    /// An image object that breaks the image rules (S12).
    package static func invalidImage(_ message: String) -> DialogErrorEvent {
        DialogErrorEvent(code: 400, name: "InvalidImage", message: message)
    }

    /// A wrong task_id, unknown directive or misplaced Start (S20).
    package static func invalidDirective(_ message: String) -> DialogErrorEvent {
        DialogErrorEvent(code: 400, name: "InvalidDirective", message: message)
    }

    /// A directive field with a wrong type or value after Start (non-fatal).
    package static func invalidParameter(_ message: String) -> DialogErrorEvent {
        DialogErrorEvent(code: 400, name: "InvalidParameter", message: message)
    }

    /// DOC-MMERR "421-InvalidParameter": a RequestToRespond whose `type` is neither `transcript`
    /// nor `prompt` (sent as the status error, after which the connection closes).
    package static let respondTypeInvalid = DialogErrorEvent(
        code: 421, name: "InvalidParameter",
        message: "type of directive payload is error, please choose transcript or prompt")

    /// The 20 s audio-gap rule fired (S18; *mock-only*: no source gives its shape).
    package static func audioTimeout(_ message: String) -> DialogErrorEvent {
        DialogErrorEvent(code: 40000, name: "AudioTimeout", message: message)
    }
}
