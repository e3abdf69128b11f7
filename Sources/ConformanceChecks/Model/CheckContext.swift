import ProtocolModel
import WireJSON

/// What a check knows besides the transcript: the protocol, the obligation and level it
/// enforces, and the message schemas. Checks build their ``CheckResult`` through it, so the
/// level → verdict rule (layout §9.10) lives in one place.
package struct CheckContext: Sendable {
    /// A ``DialogProtocol`` name.
    package var protocolName: String
    /// The check kind being evaluated.
    package var kind: String
    /// The obligation id results name.
    package var obligation: String
    /// The level a failure is judged at.
    package var level: RequirementLevel
    /// Message schemas for `matchesSchema`.
    package var schemas: MessageSchemaCatalog

    /// Creates a context.
    package init(
        protocolName: String, kind: String, obligation: String, level: RequirementLevel, schemas: MessageSchemaCatalog
    ) {
        self.protocolName = protocolName
        self.kind = kind
        self.obligation = obligation
        self.level = level
        self.schemas = schemas
    }

    /// A passing result.
    package func pass(_ expected: String, _ actual: String = "as expected", evidence: [Int] = []) -> CheckResult {
        CheckResult(
            kind: kind, obligation: obligation, verdict: .pass, expected: expected, actual: actual, evidence: evidence)
    }

    /// A broken requirement, judged at the level.
    package func fail(_ expected: String, _ actual: String, evidence: [Int] = []) -> CheckResult {
        CheckResult(
            kind: kind, obligation: obligation, verdict: level.failureVerdict, expected: expected, actual: actual,
            evidence: evidence)
    }

    /// Something required never happened, judged at the level; `context` shows where it was due.
    package func missing(_ expected: String, _ actual: String, context: [Int] = []) -> CheckResult {
        var result = fail(expected, actual, evidence: context)
        result.isAbsence = true
        return result
    }

    /// Passes when `failure` is nil, else fails with it.
    package func judge(
        _ expected: String, failure: (actual: String, evidence: [Int])?, passEvidence: [Int] = []
    ) -> CheckResult {
        guard let failure else { return pass(expected, evidence: passEvidence) }
        return fail(expected, failure.actual, evidence: failure.evidence)
    }

    /// What the check judges did not happen in the run (no client frame, no function call, the
    /// anchor never came): no evidence either way (evidence before verdict: never a pass).
    package func notExercised(_ expected: String, _ reason: String) -> CheckResult {
        CheckResult(
            kind: kind, obligation: obligation, verdict: .notExercised, expected: expected,
            actual: CheckResult.notExercisedPrefix + reason)
    }

    /// The client lacks what the check needs (no adapter events, for example).
    package func unimplemented(_ expected: String, _ actual: String) -> CheckResult {
        CheckResult(kind: kind, obligation: obligation, verdict: .unimplemented, expected: expected, actual: actual)
    }

    /// The harness could not evaluate the check (missing schema, bad fixture).
    package func harnessError(_ expected: String, _ actual: String) -> CheckResult {
        CheckResult(kind: kind, obligation: obligation, verdict: .error, expected: expected, actual: actual)
    }
}
