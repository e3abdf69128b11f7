/// What `conformance run --repeat N` saw of one case: the verdict, duration, failed checks and
/// reaction times of each run, in run order. A case whose verdict changes between runs is
/// flaky.
package struct CaseRepeats: Sendable, Hashable {
    /// One run of the case.
    package struct Run: Sendable, Hashable {
        package var verdict: Verdict
        package var durationMs: Double
        /// ``CaseEvaluation/failedChecks`` of the run.
        package var failedChecks: [String]
        /// The run's samples (evidence indices point into that run's transcript, which only
        /// the representative run keeps, so they are dropped).
        package var latency: [LatencySample]

        package init(verdict: Verdict, durationMs: Double, failedChecks: [String] = [], latency: [LatencySample] = []) {
            self.verdict = verdict
            self.durationMs = durationMs
            self.failedChecks = failedChecks
            self.latency = latency
        }

        init(_ evaluation: CaseEvaluation) {
            self.init(
                verdict: evaluation.verdict, durationMs: evaluation.durationMs, failedChecks: evaluation.failedChecks,
                latency: evaluation.latency.map { LatencySample(metric: $0.metric, value: $0.value) })
        }
    }

    /// The runs, first to last.
    package var runs: [Run]
    /// Which run (0-based) the case's checks, transcript and evidence come from: the first with
    /// the worst verdict, so a report shows the failure a flaky case had.
    package var representative: Int

    package init(runs: [Run], representative: Int = 0) {
        self.runs = runs
        self.representative = representative
    }

    /// Whether the verdict changed between runs.
    package var isFlaky: Bool { runs.contains { $0.verdict != runs.first?.verdict } }

    /// The verdict of each run.
    package var verdicts: [Verdict] { runs.map(\.verdict) }

    /// The share of runs, 0…1, whose verdict does not fail a run (fail and error do; nonStrict
    /// too under `--strict`).
    package func passRate(strict: Bool) -> Double {
        guard !runs.isEmpty else { return 0 }
        let passing = runs.filter {
            !($0.verdict == .fail || $0.verdict == .error || (strict && $0.verdict == .nonStrict))
        }
        return Double(passing.count) / Double(runs.count)
    }

    /// Every run's latency samples.
    package var latency: [LatencySample] { runs.flatMap(\.latency) }

    /// The spread of each metric over the runs (count, min, p50, max …).
    package var latencySpread: [String: LatencyStatistics] { LatencyStatistics.aggregate(latency) }

    /// "pass ×4, fail ×1" — the verdicts with their counts, in order of first appearance.
    package var verdictCounts: String {
        var order: [Verdict] = []
        var counts: [Verdict: Int] = [:]
        for run in runs {
            if counts[run.verdict] == nil { order.append(run.verdict) }
            counts[run.verdict, default: 0] += 1
        }
        return order.map { "\($0.rawValue) ×\(counts[$0]!)" }.joined(separator: ", ")
    }
}

extension CaseEvaluation {
    /// One case's repeated runs as one evaluation: the first run with the worst verdict (its
    /// checks, transcript, latency with evidence, root cause), carrying every run in
    /// ``repeats``. A single run comes back as it is.
    package static func combining(_ runs: [CaseEvaluation]) -> CaseEvaluation {
        guard var combined = runs.first else { preconditionFailure("combining no runs") }
        guard runs.count > 1 else { return combined }
        let worst = Verdict.worst(runs.map(\.verdict))
        let representative = runs.firstIndex { $0.verdict == worst } ?? 0
        combined = runs[representative]
        combined.repeats = CaseRepeats(runs: runs.map(CaseRepeats.Run.init), representative: representative)
        return combined
    }

    /// Latency samples of every run (the repeats' when repeated, else this run's).
    package var allLatency: [LatencySample] { repeats?.latency ?? latency }
}
