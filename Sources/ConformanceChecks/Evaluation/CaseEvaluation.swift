package import ProtocolModel
import WireJSON

/// The judgement of one case run: verdict, check results, state timelines, latency samples and
/// the faults the mock applied.
package struct CaseEvaluation: Sendable {
    /// The case id (with `/variant` for matrix members).
    package var caseID: String
    /// The case (nil only when the harness failed before loading it).
    package var conformanceCase: ConformanceCase?
    /// The worst verdict of the checks (or unimplemented / skipped / error).
    package var verdict: Verdict
    /// Why the case was not judged (skipped, unimplemented, error), if so.
    package var reason: String?
    /// One result per check, in case order.
    package var checks: [CheckResult]
    /// State-order report.
    package var timelines: [StateTimeline]
    /// Reaction-time samples.
    package var latency: [LatencySample]
    /// The transcript judged.
    package var transcript: Transcript
    /// Wall time of the run in milliseconds (set by the runner).
    package var durationMs: Double
    /// The obligation of the first finding that explains the others (``RootCause``), if any.
    package var rootCause: String?
    /// Every run of the case under `conformance run --repeat N` (N > 1); nil for a single run.
    package var repeats: CaseRepeats?

    /// Creates an evaluation.
    package init(
        caseID: String, conformanceCase: ConformanceCase?, verdict: Verdict, reason: String? = nil,
        checks: [CheckResult] = [],
        timelines: [StateTimeline] = [], latency: [LatencySample] = [],
        transcript: Transcript = Transcript(journal: []),
        durationMs: Double = 0
    ) {
        self.caseID = caseID
        self.conformanceCase = conformanceCase
        self.verdict = verdict
        self.reason = reason
        self.checks = checks
        self.timelines = timelines
        self.latency = latency
        self.transcript = transcript
        self.durationMs = durationMs
    }

    /// Obligation ids of the checks that found the client at fault (contract `failedChecks`):
    /// the root cause first, then the other independent findings in check order, then the
    /// consequences; without duplicates.
    package var failedChecks: [String] {
        var ids: [String] = rootCause.map { [$0] } ?? []
        for check in checks where check.isFinding && check.consequenceOf == nil && !ids.contains(check.obligation) {
            ids.append(check.obligation)
        }
        return ids + consequences.filter { !ids.contains($0) }
    }

    /// Obligation ids found only as consequences of the root cause, in check order.
    package var consequences: [String] {
        let independent = Set(checks.filter { $0.isFinding && $0.consequenceOf == nil }.map(\.obligation))
        var ids: [String] = []
        for check in checks
        where check.isFinding && check.consequenceOf != nil
            && !independent.contains(check.obligation) && !ids.contains(check.obligation)
        {
            ids.append(check.obligation)
        }
        return ids
    }

    /// The faults the mock applied, with their journal indices.
    package var appliedFaults: [(index: Int, note: FaultNote)] {
        transcript.journal.indices.compactMap { index in transcript.journal[index].fault.map { (index, $0) } }
    }
}
