import ProtocolModel
import WireJSON

/// `respondsWithin`: after a trigger, the client reacts within a time bound.
///
/// Parameters: `trigger` (matcher), `reaction` (matcher), `withinMs` (number), `each` (bool,
/// default false: only the first trigger), `requireTrigger` (bool, default false: a missing
/// trigger is `notExercised`). A reaction that never comes fails.
/// ```json
/// { "kind": "respondsWithin", "trigger": { "server": "session.created" }, "reaction": { "client": "session.update" }, "withinMs": 1000 }
/// ```
package struct RespondsWithin: Check {
    package static let kind = "respondsWithin"
    package static let parameterNames: Set<String> = ["trigger", "reaction", "withinMs", "each", "requireTrigger"]

    /// What the server (or anything) did.
    package var trigger: EntryMatcher
    /// What the client must do.
    package var reaction: EntryMatcher
    /// The bound in milliseconds.
    package var withinMs: Double
    /// Judge every trigger occurrence.
    package var each: Bool
    /// A missing trigger fails.
    package var requireTrigger: Bool

    package init(parameters: CheckParameters) throws(CheckParameterError) {
        trigger = try parameters.requiredMatcher("trigger")
        reaction = try parameters.requiredMatcher("reaction")
        guard let bound = try parameters.double("withinMs") else { throw CheckParameterError(["withinMs"], "required") }
        withinMs = bound
        each = try parameters.bool("each") ?? false
        requireTrigger = try parameters.bool("requireTrigger") ?? false
    }

    package func evaluate(_ transcript: Transcript, context: CheckContext) -> CheckResult {
        judge(transcript, context: context, requireReaction: true)
    }

    /// Without the drive, reactions that came are timed; a trigger without one is not exercised
    /// (the drive may be what makes the client react).
    package func evaluateUndriven(_ transcript: Transcript, context: CheckContext) -> CheckResult? {
        let result = judge(transcript, context: context, requireReaction: false)
        return result.evidence.isEmpty ? nil : result
    }

    private func judge(_ transcript: Transcript, context: CheckContext, requireReaction: Bool) -> CheckResult {
        let expected = "\(reaction) within \(format(withinMs)) ms of \(trigger)"
        let triggers = each ? trigger.indices(in: transcript) : trigger.first(in: transcript).map { [$0] } ?? []
        if triggers.isEmpty {
            return requireTrigger
                ? context.missing(expected, "the trigger never happened")
                : context.notExercised(expected, "\(trigger) never happened")
        }
        var worst = 0.0
        var evidence: [Int] = []
        for start in triggers {
            guard let answer = reaction.first(in: transcript, from: start + 1) else {
                guard requireReaction else { continue }
                return context.missing(expected, "no \(reaction) after #\(start)", context: [start])
            }
            let elapsed = transcript.milliseconds(at: answer) - transcript.milliseconds(at: start)
            if elapsed > withinMs {
                return context.fail(
                    expected, "reacted after \(format(elapsed)) ms (#\(start) → #\(answer))", evidence: [answer, start])
            }
            worst = max(worst, elapsed)
            evidence += [start, answer]
        }
        guard !evidence.isEmpty else { return context.notExercised(expected, "no \(reaction) after \(trigger)") }
        return context.pass(
            expected, "slowest reaction \(format(worst)) ms over \(triggers.count) trigger(s)", evidence: evidence)
    }
}
