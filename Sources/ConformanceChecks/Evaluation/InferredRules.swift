/// Sources on every check result, and the cap on rules no source states (issue 40): a finding
/// under an obligation whose only source is *inferred* is at most `nonStrict`, whether a case's
/// check or a violation the mock journaled found it, with the reason in the result. The
/// no-evidence finding (``CaseEvaluator/evidenceKind``) is not capped: it is about the client
/// having done nothing, not about the rule.
package enum InferredRules {
    /// How the reason is appended to a capped finding's `actual`.
    package static let marker = " — inferred rule, at most nonStrict: "

    /// Sets each result's ``CheckResult/provenance`` from `provenance` (by obligation id) and
    /// caps the MUST findings of inferred-only obligations.
    package static func apply(_ checks: inout [CheckResult], provenance: [String: Provenance]) {
        guard !provenance.isEmpty else { return }
        for index in checks.indices {
            guard let sources = provenance[checks[index].obligation] else { continue }
            checks[index].provenance = sources
            guard sources.isInferredOnly, checks[index].verdict == .fail,
                checks[index].kind != CaseEvaluator.evidenceKind
            else { continue }
            checks[index].verdict = .nonStrict
            checks[index].actual +=
                marker + (sources.inferred.flatMap { $0.isEmpty ? nil : $0 } ?? "no source states it")
        }
    }
}
