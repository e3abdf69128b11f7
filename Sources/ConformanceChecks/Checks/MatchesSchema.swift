import JSONSchema
import ProtocolModel
import WireJSON

/// `matchesSchema`: client frames validate against
/// `conformance/protocols/<protocol>/client/<type>.json`.
///
/// Parameters: `type` (string or array; absent = every client text frame, where a frame
/// whose type has no schema is an unknown message), `side` (`client`, default).
/// A failure names the instance JSON Pointer and the keyword.
/// ```json
/// { "kind": "matchesSchema", "type": "Start" }
/// ```
package struct MatchesSchema: PresenceJudgedCheck {
    package static let kind = "matchesSchema"
    package static let parameterNames: Set<String> = ["type", "side"]

    /// Types to validate, or nil for all.
    package var types: [String]?
    /// `client` or `server`.
    package var side: String

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        types = try parameters.strings("type")
        side = try parameters.string("side") ?? "client"
        guard side == "client" || side == "server" else {
            throw CheckParameterError(["side"], "expected client or server")
        }
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let scope = types?.joined(separator: ", ") ?? "every \(side) text frame"
        let expected = "\(scope) valid against conformance/protocols/\(context.protocolName)/\(side)/<type>.json"
        if let types {
            for type in types
            where !context.schemas.contains(protocolName: context.protocolName, side: side, type: type) {
                return context.harnessError(expected, "no usable schema \(context.protocolName)/\(side)/\(type).json")
            }
        }
        let frames = side == "client" ? transcript.clientFrameIndices : transcript.serverFrameIndices
        var checked: [Int] = []
        for index in frames where transcript.journal[index].kind == .text {
            let type = transcript.messageType(at: index)
            if let types, !types.contains(type ?? "") { continue }
            guard let json = transcript.journal[index].json else {
                return context.fail(expected, "frame #\(index) is not JSON", evidence: [index])
            }
            guard let type,
                let failures = context.schemas.validate(
                    json, protocolName: context.protocolName, side: side, type: type)
            else {
                return context.fail(
                    expected, "frame #\(index): unknown message type \(type ?? "(none)")", evidence: [index])
            }
            if let failure = failures.first {
                let pointer = failure.instancePointer.description.isEmpty ? "/" : failure.instancePointer.description
                return context.fail(
                    expected, "\(type) #\(index): \(pointer): \(failure.keyword): \(failure.message)", evidence: [index]
                )
            }
            checked.append(index)
        }
        if checked.isEmpty {
            return context.notExercised(expected, "the client sent no \(scope)")
        }
        return context.pass(expected, "\(checked.count) frame(s) valid", evidence: checked)
    }
}
