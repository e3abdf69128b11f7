import ProtocolModel
import WireJSON

/// Judges transcripts against cases: level → verdict per check, every violation the mock
/// journaled under its own id (``JournaledViolations``), reactions over their latency budget
/// (``LatencyBudgets``), the sources of each result's obligation and the nonStrict cap on
/// inferred rules (``InferredRules``), root cause and consequences
/// (``RootCause``), the case verdict as the worst judged result. Evidence before verdict: a
/// check that saw nothing to judge is `notExercised`, and a case none of whose own checks saw
/// anything fails (check kind ``evidenceKind``); every case judges the client's end
/// (``ClientExit/implicit``). A passive client on a driven case is judged by the checks that
/// need no drive (the others are `notExercised`); `unimplemented` only when it opened a session
/// and left nothing to judge. `skipped` for retired or strict-only cases outside `--strict`.
/// Pure: the runner supplies the transcript.
package struct CaseEvaluator: Sendable {
    /// A ``DialogProtocol`` name.
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
    /// The sources of the suite's obligations by id (``SuiteDefinition/provenanceByID``): every
    /// result names its obligation's, and an inferred-only obligation is at most nonStrict
    /// (``InferredRules``).
    package var provenance: [String: Provenance] = [:]

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
        let judged = conformanceCase.checks.map { configured in
            (configured.check, configured.exercisedBy, configured.source, context(for: configured, of: conformanceCase))
        }
        for (check, exercisedBy, source, context) in judged {
            var result: CheckResult
            if !undriven {
                result = check.evaluate(transcript, context: context)
            } else if let undrivenResult = check.evaluateUndriven(transcript, context: context) {
                result = undrivenResult
            } else {
                // Evaluated only for its `expected` text.
                result = context.notExercised(
                    check.evaluate(transcript, context: context).expected, Self.needsDrive)
            }
            if let exercisedBy, !result.isFinding, exercisedBy.first(in: transcript) == nil {
                result = context.notExercised(result.expected, "\(exercisedBy) never happened")
            }
            // A check's `note` explains a finding (e.g. a known SDK deviation): it goes with
            // the result into every report.
            if result.isFinding, let note = source["note"]?.stringValue, !note.isEmpty {
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
        if !conformanceCase.checks.contains(where: { $0.check is ClientExit }) {
            // Every case judges how the client ended (issue 39): exit 0, on its own.
            var context = context(for: nil, of: conformanceCase)
            context.kind = ClientExit.kind
            context.obligation =
                transcript.client.timedOut ? ClientExit.timeoutObligation : ClientExit.exitObligation
            context.level = .must
            evaluation.checks.append(ClientExit.implicit.evaluate(transcript, context: context))
        }
        InferredRules.apply(&evaluation.checks, provenance: provenance)
        // Exercised: an evidential check saw what it judges (it held, or found a breach in
        // something that happened; an absence is no sighting).
        let exercised = zip(judged, evaluation.checks).contains { entry, result in
            type(of: entry.0).countsAsEvidence && (result.verdict == .pass || (result.isFinding && !result.isAbsence))
        }
        // With a MUST finding the case fails already; the missing evidence would only add noise,
        // except that a client opened no session at all, which is said in every case.
        if !exercised, transcript.journal.isEmpty || !evaluation.checks.contains(where: { $0.verdict == .fail }) {
            // Evidence before verdict: a case none of whose own checks saw what it judges never
            // passes. It fails for a client that opened no session or sent nothing; it is
            // unimplemented where it cannot apply: a passive client on a driven case, or a client
            // whose own flow (sending frames) never uses what the case judges (no tools, no
            // event_id, no images).
            let ranItsOwnFlow = undriven || !conformanceCase.needsDriving
            let cannotApply =
                !transcript.journal.isEmpty && !evaluation.checks.contains(where: \.isFinding)
                && (undriven || (ranItsOwnFlow && !transcript.clientFrameIndices.isEmpty))
            if cannotApply {
                evaluation.verdict = .unimplemented
                evaluation.reason =
                    undriven
                    ? "passive client on a driven case: none of its \(conformanceCase.checks.count) checks could be "
                        + "exercised without the adapter drive"
                    : "the client's own flow does not use what this case judges ("
                        + Self.reasons(evaluation.checks).joined(separator: "; ") + ")"
                evaluation.timelines = StateOrderAnalyzer.timelines(protocolName: protocolName, transcript: transcript)
                return evaluation
            }
            evaluation.checks.append(noEvidence(conformanceCase, transcript: transcript, results: evaluation.checks))
            evaluation.checks[evaluation.checks.count - 1].provenance = provenance[conformanceCase.obligations[0]]
        }
        evaluation.rootCause = RootCause.mark(&evaluation.checks, transcript: transcript)
        evaluation.verdict = Verdict.worst(evaluation.checks.filter(\.isJudged).map(\.verdict))
        if undriven {
            let skipped = evaluation.checks.count { $0.actual.hasSuffix(Self.needsDrive) }
            evaluation.reason =
                "passive client on a driven case: \(skipped) of \(conformanceCase.checks.count) checks not exercised"
                + " (they need the adapter drive); schemas, mock-recorded violations and state order are judged"
        }
        evaluation.timelines = StateOrderAnalyzer.timelines(protocolName: protocolName, transcript: transcript)
        return evaluation
    }

    /// The context a case's check is judged in.
    private func context(for configured: ConfiguredCheck?, of conformanceCase: ConformanceCase) -> CheckContext {
        CheckContext(
            protocolName: protocolName, kind: configured?.kind ?? "",
            obligation: configured?.obligation ?? conformanceCase.obligations[0],
            level: configured?.level ?? conformanceCase.spec.level, schemas: schemas)
    }

    /// The finding of a case whose own checks saw nothing to judge: under the case's first
    /// obligation, at MUST whatever the case's level (a client that did nothing has not shown
    /// it meets even a SHOULD), with the checks' reasons.
    private func noEvidence(
        _ conformanceCase: ConformanceCase, transcript: Transcript, results: [CheckResult]
    ) -> CheckResult {
        let obligation = conformanceCase.obligations[0]
        let reason: String
        if transcript.journal.isEmpty {
            reason = "the client opened no session"
        } else if transcript.clientFrameIndices.isEmpty {
            reason = "the client opened a session and sent nothing"
        } else {
            reason =
                "none of the case's checks saw what it judges (" + Self.reasons(results).joined(separator: "; ") + ")"
        }
        var result = CheckResult(
            kind: Self.evidenceKind, obligation: obligation, verdict: .fail,
            expected: "the client exercises \(conformanceCase.obligations.joined(separator: ", ")) in this case",
            actual: CheckResult.notExercisedPrefix + reason)
        result.isAbsence = true
        return result
    }

    /// Why the `notExercised` checks among `results` saw nothing, once each, in order.
    private static func reasons(_ results: [CheckResult]) -> [String] {
        var reasons: [String] = []
        for result in results where result.verdict == .notExercised {
            let text = String(result.actual.dropFirst(CheckResult.notExercisedPrefix.count))
            if !reasons.contains(text) { reasons.append(text) }
        }
        return reasons
    }

    /// The kind of the finding a case without evidence gets.
    package static let evidenceKind = "evidence"

    /// Why a check was not exercised for a passive client on a driven case.
    package static let needsDrive = "the check needs the adapter drive (the passive client ran its own flow)"

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
