import ProtocolModel
import WireJSON

/// `sequence`: the given entries occur in this order (an ordered subsequence of the journal;
/// other entries may come between).
///
/// Parameters: `steps` (array of matchers).
/// ```json
/// { "kind": "sequence", "steps": [ { "client": "SendSpeech" }, { "client": "binary" }, { "client": "StopSpeech" } ] }
/// ```
package struct SequenceCheck: Check {
    package static let kind = "sequence"
    package static let parameterNames: Set<String> = ["steps"]

    /// The steps in order.
    package var steps: [EntryMatcher]

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        guard let steps = try parameters.matchers("steps") else { throw CheckParameterError(["steps"], "required") }
        self.steps = steps
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        let expected = "in order: " + steps.map(\.description).joined(separator: " → ")
        var cursor = 0
        var found: [Int] = []
        for (number, step) in steps.enumerated() {
            guard let index = step.first(in: transcript, from: cursor) else {
                let reached = number == 0 ? "" : " after #\(found.last ?? 0)"
                return context.missing(
                    expected, "step \(number + 1) (\(step)) never happened\(reached)", context: found)
            }
            found.append(index)
            cursor = index + 1
        }
        return context.pass(expected, "all \(steps.count) steps in order", evidence: found)
    }
}
