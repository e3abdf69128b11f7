import ProtocolModel
import WireJSON

/// `firstMessage`: the client's first frame is a text frame of one of the given types.
///
/// Parameters: `type` (string or array). A client that sent nothing is `notExercised`.
/// ```json
/// { "kind": "firstMessage", "type": "session.update" }
/// ```
package struct FirstMessage: Check {
    package static let kind = "firstMessage"
    package static let parameterNames: Set<String> = ["type"]

    /// Accepted types.
    package var types: [String]

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        guard let types = try parameters.strings("type") else { throw CheckParameterError(["type"], "required") }
        self.types = types
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected = "first client frame is a text frame of type \(types.joined(separator: " or "))"
        guard let first = transcript.clientFrameIndices.first else {
            return context.notExercised(expected, "the client sent no frame")
        }
        let entry = transcript.journal[first]
        guard entry.kind == .text else {
            return context.fail(
                expected, "first client frame is binary (\(entry.byteLength ?? 0) bytes)", evidence: [first])
        }
        guard let type = transcript.messageType(at: first), types.contains(type) else {
            let shown = transcript.messageType(at: first) ?? (entry.json == nil ? "not JSON" : "without a type")
            return context.fail(expected, "first client frame is \(shown)", evidence: [first])
        }
        return context.pass(expected, "first client frame is \(type)", evidence: [first])
    }
}
