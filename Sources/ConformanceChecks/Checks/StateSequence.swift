import ProtocolModel
import WireJSON

/// `stateSequence`: the state timeline follows the spec's machine and (optionally) passes
/// through given states in order.
///
/// Parameters: `machine` (one of ``StateOrderAnalyzer/machines``; default the protocol's
/// first), `contains` (states as an ordered subsequence), `validate` (bool, default
/// true: every step legal).
/// ```json
/// { "kind": "stateSequence", "machine": "mmd.dialog", "contains": ["Listening", "Responding", "Listening"] }
/// ```
package struct StateSequence: Check {
    package static let kind = "stateSequence"
    package static let parameterNames: Set<String> = ["machine", "contains", "validate"]

    var machine: String?
    var contains: [String]
    var validate: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        machine = try parameters.string("machine")
        if let machine, !StateOrderAnalyzer.machines.contains(machine) {
            throw CheckParameterError(
                ["machine"], "expected one of " + StateOrderAnalyzer.machines.joined(separator: ", "))
        }
        contains = try parameters.strings("contains") ?? []
        validate = try parameters.bool("validate") ?? true
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        judge(transcript, context: context, contains: contains)
    }

    /// Without the drive only the legality of the steps is judged: the states to pass through
    /// are the driven flow's.
    package func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult? {
        validate ? judge(transcript, context: context, contains: []) : nil
    }

    private func judge(_ transcript: Transcript, context: CheckContext, contains: [String]) -> CheckResult {
        let timelines = StateOrderAnalyzer.timelines(protocolName: context.protocolName, transcript: transcript)
        guard let timeline = timelines.first(where: { $0.machine == (machine ?? timelines[0].machine) }) else {
            return context.harnessError("state machine \(machine ?? "")", "not available for \(context.protocolName)")
        }
        var expected = "\(timeline.machine) transitions legal"
        if !contains.isEmpty { expected += "; passes through " + contains.joined(separator: " → ") }
        guard !timeline.points.isEmpty else {
            return context.notExercised(expected, "\(timeline.machine) never changed state")
        }
        let states = timeline.points.map(\.state).joined(separator: " → ")
        if validate, let bad = timeline.firstViolation {
            let point = timeline.points[bad]
            return context.fail(
                expected, "\(point.note ?? "illegal step") at #\(point.index); states: \(states)",
                evidence: [point.index])
        }
        var cursor = 0
        for wanted in contains {
            guard let found = timeline.points[cursor...].firstIndex(where: { $0.state == wanted }) else {
                return context.missing(
                    expected, "never reached \(wanted) (in order); states: \(states)",
                    context: timeline.points.last.map { [$0.index] } ?? [])
            }
            cursor = found + 1
        }
        return context.pass(expected, states, evidence: timeline.points.map(\.index))
    }
}
