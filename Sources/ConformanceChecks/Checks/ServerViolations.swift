import ProtocolModel
import WireJSON

/// `serverViolations`: the mock's protocol engine recorded no violation of the given
/// obligations (the engines detect most wire-level breaches as they happen).
///
/// Parameters: `obligations` (ids, default the check's obligation), `message` (substring the
/// violation message must contain to count, optional).
/// ```json
/// { "kind": "serverViolations", "obligations": ["mmd.C8"] }
/// ```
package struct ServerViolations: FlowIndependentCheck {
    package static let kind = "serverViolations"
    package static let parameterNames: Set<String> = ["obligations", "message"]

    var obligations: [String]?
    var message: String?

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        obligations = try parameters.strings("obligations")
        message = try parameters.string("message")
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let ids = obligations ?? [context.obligation]
        let expected = "no violation of \(ids.joined(separator: ", ")) recorded by the mock"
        let found = transcript.journal.indices.filter { index in
            guard let violation = transcript.journal[index].violation, ids.contains(violation.obligation) else {
                return false
            }
            return message.map { violation.message.contains($0) } ?? true
        }
        // A MUST the mock journaled is the finding; with only SHOULD ones, the case is judged at
        // the violation's level, never above it (a SHOULD can make a case nonStrict, not fail it).
        let firstMust = found.first { transcript.journal[$0].violation?.level == .must }
        guard let first = firstMust ?? found.first, let violation = transcript.journal[first].violation else {
            // The mock judges what the client sends: without a frame it judged nothing.
            let frames = transcript.clientFrameIndices.count
            return frames == 0
                ? context.notExercised(expected, "the client sent no frame for the mock to judge")
                : context.pass(expected, "none in \(frames) client frame(s)")
        }
        let more = found.count > 1 ? " (+\(found.count - 1) more)" : ""
        var result = context.fail(expected, "\(violation.obligation): \(violation.message)\(more)", evidence: found)
        result.obligation = violation.obligation
        if firstMust == nil { result.verdict = min(result.verdict, RequirementLevel.should.failureVerdict) }
        return result
    }
}
