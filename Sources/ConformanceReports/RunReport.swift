package import ConformanceChecks
package import FoundationEssentials

/// Everything one `conformance run` produced: the inputs to every report writer.
package struct RunReport: Sendable {
    /// `multimodal-dialog` or `qwen-realtime`.
    package var protocolName: String
    /// The client command or adapter name.
    package var client: String
    /// When the run started.
    package var started: Date
    /// One evaluation per case, in suite order.
    package var evaluations: [CaseEvaluation]
    /// The suite (section titles, obligation list), when known.
    package var suite: SuiteDefinition?
    /// Client stderr per case id (the runner sets it; empty text = nothing written). Reports
    /// show the tail, `cases/<id>.stderr.txt` holds all of it.
    package var clientStderr: [String: String] = [:]
    /// Latency budget per metric in ms (the metric's unit), drawn as a threshold on the
    /// report's latency plots and written to index.json's `latencyBudgets`.
    package var latencyBudgets: [String: Double] = [:]
    /// The harness version (`conformance --version`), for index.json and CTRF's `tool`.
    package var toolVersion: String = ""
    /// Case id → case file path relative to the repository (CTRF `filePath`), when known.
    package var caseFiles: [String: String] = [:]
    /// When the run ended (CTRF `summary.stop`); nil = `started` plus the cases' durations.
    package var finished: Date? = nil
    /// A `--strict` run: nonStrict fails it, so junit.xml and ctrf.json report nonStrict cases
    /// as failed tests (`rawStatus` / the `verdict` property still say nonStrict).
    package var strict = false
    /// The comparison with `--baseline FILE`, when the run had one: index.json's `baseline` and
    /// the marks on report.html's regressed and improved cases.
    package var baseline: BaselineComparison? = nil
    /// `--repeat N`: how many times each case ran (1 = once). Repeated cases carry
    /// ``CaseEvaluation/repeats``.
    package var repeatCount = 1

    /// The cases whose verdict changed between repeats, with their runs, in report order.
    package var flaky: [(caseID: String, repeats: CaseRepeats)] {
        evaluations.compactMap { evaluation in evaluation.repeats.flatMap { $0.isFlaky ? (evaluation.caseID, $0) : nil }
        }
    }

    /// Ids of ``flaky``.
    package var flakyCases: [String] { flaky.map(\.caseID) }

    /// Whether the case fails the run (fail, or nonStrict under ``strict``); error aside.
    package func failsRun(_ evaluation: CaseEvaluation) -> Bool {
        evaluation.verdict == .fail || (strict && evaluation.verdict == .nonStrict)
    }

    /// Creates a report.
    package init(
        protocolName: String, client: String, started: Date, evaluations: [CaseEvaluation],
        suite: SuiteDefinition? = nil
    ) {
        self.protocolName = protocolName
        self.client = client
        self.started = started
        self.evaluations = evaluations
        self.suite = suite
    }

    /// Count per verdict (every verdict present, zeros included).
    package var summary: [Verdict: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Verdict.caseVerdicts.map { ($0, 0) })
        for evaluation in evaluations { counts[evaluation.verdict, default: 0] += 1 }
        return counts
    }

    /// What the client was found to break, per obligation across cases.
    package struct ObligationFindings: Sendable, Hashable {
        /// The obligation id.
        package var obligation: String
        /// The worst verdict it got.
        package var verdict: Verdict
        /// Cases where it is a finding in its own right (the root cause or independent).
        package var cases: [String]
        /// Cases where it is only a consequence of another finding.
        package var asConsequence: [String]
        /// The `actual` of its first finding in its own right (in `cases[0]`), else of its first
        /// consequence: the evidence a one-line recap quotes.
        package var firstActual: String
    }

    /// Findings per obligation: those found in their own right first (most cases first, then
    /// the worst verdict, then id), then those seen only as consequences. The first line is the
    /// rule a user should read first.
    package var findings: [ObligationFindings] {
        var byObligation: [String: ObligationFindings] = [:]
        var order: [String] = []
        for evaluation in evaluations {
            let consequences = Set(evaluation.consequences)
            for check in evaluation.checks where check.isFinding {
                if byObligation[check.obligation] == nil {
                    byObligation[check.obligation] = ObligationFindings(
                        obligation: check.obligation, verdict: check.verdict,
                        cases: [], asConsequence: [], firstActual: check.actual)
                    order.append(check.obligation)
                }
                var entry = byObligation[check.obligation]!
                entry.verdict = max(entry.verdict, check.verdict)
                if consequences.contains(check.obligation) {
                    if !entry.asConsequence.contains(evaluation.caseID) {
                        entry.asConsequence.append(evaluation.caseID)
                    }
                } else if !entry.cases.contains(evaluation.caseID) {
                    // Its first case in its own right gives the evidence, even after consequences.
                    if entry.cases.isEmpty { entry.firstActual = check.actual }
                    entry.cases.append(evaluation.caseID)
                }
                byObligation[check.obligation] = entry
            }
        }
        return order.compactMap { byObligation[$0] }.sorted { lhs, rhs in
            if lhs.cases.isEmpty != rhs.cases.isEmpty { return !lhs.cases.isEmpty }
            if lhs.cases.count != rhs.cases.count { return lhs.cases.count > rhs.cases.count }
            if lhs.verdict != rhs.verdict { return lhs.verdict > rhs.verdict }
            return NaturalOrder.precedes(lhs.obligation, rhs.obligation)
        }
    }

    /// Latency statistics per metric across every case.
    package var latency: [String: LatencyStatistics] {
        LatencyStatistics.aggregate(evaluations.flatMap(\.allLatency))
    }

    /// The started time as ISO 8601 (UTC, seconds).
    package var startedText: String {
        ReportTimestamp.iso8601(started)
    }

    /// Path of a case's report inside the folder.
    package static func caseReportPath(_ caseID: String) -> String {
        "cases/\(caseFileStem(caseID)).json"
    }

    /// Path of a case's client stderr inside the folder (written only when non-empty).
    package static func caseStderrPath(_ caseID: String) -> String {
        "cases/\(caseFileStem(caseID)).stderr.txt"
    }

    /// A case id as a file name: a matrix variant's `/` becomes `__`.
    static func caseFileStem(_ caseID: String) -> String { caseID.replacing("/", with: "__") }

    /// The case file of `caseID` (a matrix variant's is its case's), when known.
    package func caseFile(of caseID: String) -> String? {
        caseFiles[caseID] ?? caseID.split(separator: "/").first.flatMap { caseFiles[String($0)] }
    }

    /// The client's stderr of case `caseID`, when it wrote any.
    package func stderr(of caseID: String) -> String? {
        guard let text = clientStderr[caseID], !text.isEmpty else { return nil }
        return text
    }

    /// The process exit code the contract prescribes: 0 none failed, 1 any failed (or
    /// nonStrict with `strict`), 2 on harness error.
    package func exitCode(strict: Bool) -> Int32 {
        let verdicts = Set(evaluations.map(\.verdict))
        if verdicts.contains(.error) { return 2 }
        return verdicts.contains { Self.failsRun($0, strict: strict) } ? 1 : 0
    }

    /// The exit code compared with a baseline: a harness error is still 2; otherwise 1 only when
    /// a case regressed to, or is new with, a verdict that fails the run (known findings pass).
    package func exitCode(strict: Bool, baseline comparison: BaselineComparison?) -> Int32 {
        let plain = exitCode(strict: strict)
        guard let comparison, plain != 2 else { return plain }
        let verdicts = Dictionary(evaluations.map { ($0.caseID, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let regressed =
            comparison.regressions.contains { Self.failsRun($0.verdict, strict: strict) }
            || comparison.newCases.contains { verdicts[$0].map { Self.failsRun($0, strict: strict) } ?? false }
        return regressed ? 1 : 0
    }

    /// Whether a case with this verdict fails a run (`fail`; `nonStrict` too with `--strict`).
    package static func failsRun(_ verdict: Verdict, strict: Bool) -> Bool {
        verdict == .fail || (strict && verdict == .nonStrict)
    }
}
