import ConformanceChecks
import FoundationEssentials

extension SummaryWriter {
    /// Cases listed in the step summary's table; the rest are counted (GitHub caps a step
    /// summary at 1 MiB, and a person reads the first rows).
    static let stepSummaryCaseLimit = 50

    /// Compact GitHub-flavoured Markdown for `$GITHUB_STEP_SUMMARY`: the verdict counts on one
    /// line, a table of the cases that need reading (fail, error, then nonStrict) with their root
    /// cause and message, the regressions vs `baseline` if any, and where the full report is
    /// (`reportLocation`, e.g. the folder path or an artifact name).
    package static func stepSummary(
        _ report: RunReport, baseline: BaselineComparison?, reportLocation: String? = nil
    ) -> String {
        let summary = report.summary
        // The icon says what the job's exit code says (strictness and the baseline included).
        let failing = report.exitCode(strict: report.strict, baseline: baseline) != 0
        var lines = [
            "### \(failing ? "❌" : "✅") Conformance: \(report.protocolName)", "",
            "Client `\(report.client.replacing("`", with: "'"))` · \(report.evaluations.count) cases",
            "",
        ]
        lines.append(
            VerdictOrder.reading.compactMap { verdict in
                let count = summary[verdict, default: 0]
                guard count > 0 else { return nil }
                let text = "\(count) \(verdict.rawValue)"
                return verdict == .fail || verdict == .error ? "**\(text)**" : text
            }.joined(separator: " · "))
        let flaky = report.flakyCases
        if !flaky.isEmpty {
            lines += [
                "",
                "**\(flaky.count) flaky** (verdict changed over \(report.repeatCount) runs): "
                    + flaky.prefix(stepSummaryCaseLimit).map { "`\($0)`" }.joined(separator: ", "),
            ]
        }
        let listed = [Verdict.fail, .error, .nonStrict].flatMap { verdict in
            report.evaluations.filter { $0.verdict == verdict }
        }
        if !listed.isEmpty {
            lines += ["", "| case | verdict | root cause | message |", "| --- | --- | --- | --- |"]
            for evaluation in listed.prefix(stepSummaryCaseLimit) {
                // A client that crashed, hung or exited non-zero says so after the message.
                let end = evaluation.clientEnd.flatMap { $0.endedAbnormally ? "client: \($0.endDescription)" : nil }
                let message = cell([evaluation.headline, end].compactMap { $0 }.joined(separator: " — "))
                lines.append(
                    "| `\(evaluation.caseID)` | \(evaluation.verdict.rawValue) | \(evaluation.rootCause ?? "—") | \(message) |"
                )
            }
            if listed.count > stepSummaryCaseLimit {
                lines += ["", "… and \(listed.count - stepSummaryCaseLimit) more in the report."]
            }
        }
        if let baseline {
            if baseline.hasRegressions {
                lines += [
                    "",
                    "**\(baseline.regressions.count) regression\(baseline.regressions.count == 1 ? "" : "s") vs the baseline**",
                    "",
                ]
                lines += baseline.regressions.prefix(stepSummaryCaseLimit).map { change in
                    "- `\(change.caseID)`: \(change.baselineVerdict.rawValue) → \(change.verdict.rawValue)"
                        + (change.newFailedChecks.isEmpty
                            ? "" : " (new: \(change.newFailedChecks.joined(separator: ", ")))")
                }
            } else {
                lines += [
                    "",
                    "No regression vs the baseline\(baseline.improvements.isEmpty ? "" : "; \(baseline.improvements.count) improved").",
                ]
            }
        }
        if let reportLocation {
            lines += [
                "",
                "Full report: `\(reportLocation)` (report.html to read first; index.json, junit.xml, ctrf.json, summary.md)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` on one line and safe in a table cell, cut at 200 characters.
    private static func cell(_ text: String) -> String { OneLine.text(text).replacingPipes }
}
