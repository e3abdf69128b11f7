package import ConformanceChecks
package import WireJSON

/// A run compared with a previous run's index.json (`conformance run --baseline FILE`): which
/// cases got worse, which got better, which are new or gone.
///
/// Verdicts are ranked by how much they say is wrong with the client: pass = informational (a
/// MAY is no defect) < nonStrict < unimplemented (nothing could be judged) < fail = error.
/// A case regresses when its rank rises, when it fails now after a harness `error` (a failure
/// is news; the reverse is no improvement), or when it failed before too and now fails an
/// obligation it did not (a new id in `failedChecks`). `skipped` cases are not judged, so a
/// case skipped on one side counts as new or missing.
package struct BaselineComparison: Sendable, Hashable {
    /// A case whose verdict changed (or whose failed obligations grew).
    package struct Change: Sendable, Hashable {
        /// The case id.
        package var caseID: String
        /// Its verdict in the baseline.
        package var baselineVerdict: Verdict
        /// Its verdict now.
        package var verdict: Verdict
        /// Obligations found now (`failedChecks`) that the baseline did not list, for a regression.
        package var newFailedChecks: [String]
        /// The headline of the case now (worst finding or reason), for the text.
        package var message: String?
    }

    /// Cases that got worse, in run order.
    package var regressions: [Change] = []
    /// Cases that got better, in run order.
    package var improvements: [Change] = []
    /// Judged now, not judged (or absent) in the baseline.
    package var newCases: [String] = []
    /// Judged in the baseline, not judged (or absent) now.
    package var missingCases: [String] = []
    /// The baseline file as the user named it (`--baseline FILE`), when known; index.json and
    /// report.html say what the run was compared with.
    package var file: String? = nil

    /// Whether anything got worse.
    package var hasRegressions: Bool { !regressions.isEmpty }

    /// One line per regression (`REGRESSION id: pass → fail (mmd.C8: …)`), then one per
    /// improvement, then the new and missing cases on a line each; "no change" when empty.
    package var text: String {
        var lines = regressions.map { change in
            var line = "REGRESSION \(change.caseID): \(change.baselineVerdict.rawValue) → \(change.verdict.rawValue)"
            if !change.newFailedChecks.isEmpty {
                line += " new findings \(change.newFailedChecks.joined(separator: ", "))"
            }
            if let message = change.message { line += " (\(message))" }
            return line
        }
        lines += improvements.map { "improved \($0.caseID): \($0.baselineVerdict.rawValue) → \($0.verdict.rawValue)" }
        if !newCases.isEmpty { lines.append("new vs the baseline: \(newCases.joined(separator: ", "))") }
        if !missingCases.isEmpty { lines.append("missing vs the baseline: \(missingCases.joined(separator: ", "))") }
        return lines.isEmpty ? "no change vs the baseline" : lines.joined(separator: "\n")
    }

    /// index.json's `baseline` (reports/README.md, "Baselines"): `file` (when known),
    /// `regressions` [`id`, `baselineVerdict`, `verdict`, `newFailedChecks`], `improvements`
    /// [`id`, `baselineVerdict`, `verdict`], `newCases`, `missingCases`. report.html marks the
    /// cases from the same value.
    package var jsonValue: JSONValue {
        func changes(_ list: [Change], newFindings: Bool) -> JSONValue {
            .array(
                list.map { change in
                    var object: JSONObject = [
                        "id": .string(change.caseID), "baselineVerdict": .string(change.baselineVerdict.rawValue),
                        "verdict": .string(change.verdict.rawValue),
                    ]
                    if newFindings { object["newFailedChecks"] = .array(change.newFailedChecks.map(JSONValue.string)) }
                    return .object(object)
                })
        }
        var object: JSONObject = [
            "regressions": changes(regressions, newFindings: true),
            "improvements": changes(improvements, newFindings: false),
            "newCases": .array(newCases.map(JSONValue.string)),
            "missingCases": .array(missingCases.map(JSONValue.string)),
        ]
        object["file"] = file.map(JSONValue.string)
        return .object(object)
    }

    /// How `caseID` changed against the baseline: a regression, an improvement, or nil (no
    /// change, or new / missing).
    package func change(of caseID: String) -> (change: Change, regressed: Bool)? {
        if let change = regressions.first(where: { $0.caseID == caseID }) { return (change, true) }
        if let change = improvements.first(where: { $0.caseID == caseID }) { return (change, false) }
        return nil
    }

    /// How much a verdict says is wrong with the client; nil for `skipped` (not judged).
    package static func rank(_ verdict: Verdict) -> Int? {
        switch verdict {
        case .pass, .informational: 0
        case .nonStrict: 1
        case .unimplemented: 2
        case .fail, .error: 3
        case .skipped, .notExercised: nil
        }
    }

    /// Compares `report` with `baseline`, a previous run's index.json (its `cases[].id`,
    /// `verdict` and `failedChecks`; entries with an unknown verdict are ignored).
    package static func compare(_ report: RunReport, baseline: JSONValue) -> BaselineComparison {
        var before: [String: (verdict: Verdict, failed: [String])] = [:]
        var baselineOrder: [String] = []
        for entry in baseline["cases"]?.arrayValue ?? [] {
            guard let id = entry["id"]?.stringValue,
                let verdict = entry["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:))
            else { continue }
            before[id] = (verdict, (entry["failedChecks"]?.arrayValue ?? []).compactMap(\.stringValue))
            baselineOrder.append(id)
        }
        var comparison = BaselineComparison()
        var judgedNow: Set<String> = []
        for evaluation in report.evaluations {
            guard let now = rank(evaluation.verdict) else { continue }
            judgedNow.insert(evaluation.caseID)
            guard let previous = before[evaluation.caseID], let then = rank(previous.verdict) else {
                comparison.newCases.append(evaluation.caseID)
                continue
            }
            let added = evaluation.failedChecks.filter { !previous.failed.contains($0) }
            let regressed =
                now > then
                || (evaluation.verdict == .fail
                    && (previous.verdict == .error || (previous.verdict == .fail && !added.isEmpty)))
            let change = Change(
                caseID: evaluation.caseID, baselineVerdict: previous.verdict, verdict: evaluation.verdict,
                newFailedChecks: regressed ? added : [], message: evaluation.headline)
            if regressed {
                comparison.regressions.append(change)
            } else if now < then {
                comparison.improvements.append(change)
            }
        }
        comparison.missingCases = baselineOrder.filter { id in
            !judgedNow.contains(id) && before[id].flatMap { rank($0.verdict) } != nil
        }
        return comparison
    }
}
