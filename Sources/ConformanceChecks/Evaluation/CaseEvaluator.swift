import ProtocolModel
import WireJSON

/// Judges transcripts against cases: level → verdict per check, every violation the mock
/// journaled under its own id (``JournaledViolations``), reactions over their latency budget
/// (``LatencyBudgets``), root cause and consequences
/// (``RootCause``), the case verdict as the worst judged result. A passive client on a driven
/// case is judged by the checks that need no drive (the others are `skipped`, "not
/// exercised"); `unimplemented` only when it left nothing to judge. `skipped` for retired or
/// strict-only cases outside `--strict`. Pure: the runner supplies the transcript.
package struct CaseEvaluator: Sendable {
    /// `multimodal-dialog` or `qwen-realtime`.
    package var protocolName: String
    /// Message schemas for `matchesSchema`.
    package var schemas: MessageSchemaCatalog
    /// Whether the run has `--strict` (strict-only cases run).
    package var strict: Bool
    /// `--strict-replay`: a replayed case that departs from its recording or leaves recorded
    /// frames unused fails instead of being nonStrict.
    package var strictReplay = false
    /// Latency gates: a sample over its budget fails the case (``LatencyBudgets``).
    package var budgets = LatencyBudgets()

    /// Creates an evaluator.
    package init(protocolName: String, schemas: MessageSchemaCatalog, strict: Bool = false) {
        self.protocolName = protocolName
        self.schemas = schemas
        self.strict = strict
    }

    /// Whether a case is run at all (not retired, not strict-only outside `--strict`).
    package func shouldRun(_ conformanceCase: ConformanceCase) -> Bool {
        conformanceCase.status == .active && (strict || !conformanceCase.strict)
    }

    /// Judges `transcript` for `conformanceCase`.
    package func evaluate(
        _ conformanceCase: ConformanceCase, transcript: Transcript, durationMs: Double = 0
    ) -> CaseEvaluation {
        var evaluation = CaseEvaluation(
            caseID: conformanceCase.id, conformanceCase: conformanceCase, verdict: .pass,
            transcript: transcript, durationMs: durationMs)
        guard shouldRun(conformanceCase) else {
            evaluation.verdict = .skipped
            evaluation.reason = conformanceCase.status == .retired ? "retired" : "strict-only case (run with --strict)"
            return evaluation
        }
        let undriven = conformanceCase.needsDriving && !transcript.client.driven
        if undriven, transcript.journal.isEmpty {
            evaluation.verdict = .unimplemented
            evaluation.reason =
                "the case drives the client through adapter commands; this passive client opened no session to judge"
            return evaluation
        }
        for configured in conformanceCase.checks {
            let context = CheckContext(
                protocolName: protocolName, kind: configured.kind,
                obligation: configured.obligation ?? conformanceCase.obligations[0],
                level: configured.level ?? conformanceCase.spec.level, schemas: schemas)
            var result: CheckResult
            if !undriven {
                result = configured.check.evaluate(transcript, context: context)
            } else if let judged = configured.check.evaluateUndriven(transcript, context: context) {
                result = judged
            } else {
                // Evaluated only for its `expected` text.
                let full = configured.check.evaluate(transcript, context: context)
                result = CheckResult(
                    kind: full.kind, obligation: full.obligation, verdict: .skipped, expected: full.expected,
                    actual: Self.notExercised)
            }
            // A check's `note` explains a finding (e.g. a known SDK deviation): it goes with
            // the result into every report.
            if result.verdict != .pass, let note = configured.source["note"]?.stringValue, !note.isEmpty {
                result.actual += " — note: \(note)"
            }
            evaluation.checks.append(result)
        }
        evaluation.checks += JournaledViolations.results(
            transcript, reported: evaluation.checks,
            excused: conformanceCase.excusedViolations, strictReplay: strictReplay)
        evaluation.latency = LatencyExtractor(protocolName: protocolName).extract(transcript)
        if evaluation.appliedFaults.isEmpty {
            // A fault the mock applied (a stall, a delay) is inside the measured times: budgets
            // judge only runs without one.
            evaluation.checks += budgets.overruns(evaluation.latency, protocolName: protocolName)
        }
        evaluation.rootCause = RootCause.mark(&evaluation.checks, transcript: transcript)
        evaluation.verdict = Verdict.worst(evaluation.checks.filter(\.isJudged).map(\.verdict))
        if undriven {
            let skipped = evaluation.checks.count { !$0.isJudged }
            if skipped == conformanceCase.checks.count, evaluation.verdict == .pass {
                // None of the case's own checks could be exercised and nothing else was found.
                evaluation.verdict = .unimplemented
            }
            evaluation.reason =
                "passive client on a driven case: \(skipped) of \(conformanceCase.checks.count) checks not exercised"
                + " (they need the adapter drive); schemas, mock-recorded violations and state order are judged"
        }
        evaluation.timelines = StateOrderAnalyzer.timelines(protocolName: protocolName, transcript: transcript)
        return evaluation
    }

    /// The `actual` of a check a passive client could not exercise.
    package static let notExercised =
        "not exercised: the check needs the adapter drive (the passive client ran its own flow)"

    /// The evaluation for a case the harness could not run (port in use, fixture missing…).
    package func harnessError(
        _ conformanceCase: ConformanceCase?, caseID: String, message: String,
        transcript: Transcript = Transcript(journal: [])
    ) -> CaseEvaluation {
        CaseEvaluation(
            caseID: caseID, conformanceCase: conformanceCase, verdict: .error, reason: message, transcript: transcript)
    }

    /// The evaluation for a case that was not selected.
    package func skipped(_ conformanceCase: ConformanceCase, reason: String = "not selected") -> CaseEvaluation {
        CaseEvaluation(caseID: conformanceCase.id, conformanceCase: conformanceCase, verdict: .skipped, reason: reason)
    }
}
