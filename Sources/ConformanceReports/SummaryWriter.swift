import ConformanceChecks
import FoundationEssentials

/// `summary.md`: counts per verdict, the flaky cases of a `--repeat` run, findings per
/// obligation (the rule to read first first), the failing cases (and any whose client ended
/// abnormally) with how the client ended, a table per suite section, obligation coverage and
/// the latency table.
package enum SummaryWriter {
    /// The document.
    package static func text(_ report: RunReport) -> String {
        var lines = [
            "# Conformance run: \(report.protocolName)", "", "- client: `\(report.client)`",
            "- started: \(report.startedText)", "",
            "| verdict | cases |", "| --- | ---: |",
        ]
        for verdict in Verdict.caseVerdicts {
            lines.append("| \(verdict.rawValue) | \(report.summary[verdict, default: 0]) |")
        }
        if report.repeatCount > 1 {
            let flaky = report.flaky
            lines += [
                "", "## Flaky cases", "",
                "Each case ran \(report.repeatCount) times; \(flaky.count) changed verdict between runs"
                    + (flaky.isEmpty ? "." : " (each shows its worst run):"),
            ]
            if !flaky.isEmpty {
                lines += ["", "| case | verdicts | pass rate |", "| --- | --- | --- |"]
                for (caseID, repeats) in flaky {
                    lines.append(
                        "| \(caseID) | \(repeats.verdictCounts) | \(repeats.passText(strict: report.strict)) |")
                }
            }
        }
        let findings = report.findings
        if !findings.isEmpty {
            lines += [
                "", "## Findings by obligation", "",
                "Read the first row first: later rows seen only as consequences follow from an earlier finding in the same case.",
                "",
                "| obligation | verdict | cases | as a consequence in |", "| --- | --- | --- | --- |",
            ]
            for finding in findings {
                let cases = finding.cases.isEmpty ? "—" : finding.cases.joined(separator: ", ")
                let consequences = finding.asConsequence.isEmpty ? "—" : finding.asConsequence.joined(separator: ", ")
                lines.append("| \(finding.obligation) | \(finding.verdict.rawValue) | \(cases) | \(consequences) |")
            }
        }
        lines += failingCases(report)
        var sections: [String] = []
        for evaluation in report.evaluations {
            let section = evaluation.conformanceCase?.section ?? "?"
            if !sections.contains(section) { sections.append(section) }
        }
        if let order = report.suite?.sections.map(\.id) {
            sections.sort { (order.firstIndex(of: $0) ?? .max) < (order.firstIndex(of: $1) ?? .max) }
        }
        for section in sections {
            lines += [
                "", "## \(report.suite?.sectionTitle(section) ?? section)", "",
                "| case | title | verdict | failed checks | ms |", "| --- | --- | --- | --- | ---: |",
            ]
            for evaluation in report.evaluations where (evaluation.conformanceCase?.section ?? "?") == section {
                let title = (evaluation.conformanceCase?.title ?? "").replacingPipes
                let consequences = Set(evaluation.consequences)
                let failed = evaluation.failedChecks.map { consequences.contains($0) ? "(\($0))" : $0 }.joined(
                    separator: ", ")
                let flaky = evaluation.repeats?.isFlaky == true ? " (flaky)" : ""
                lines.append(
                    "| \(evaluation.caseID) | \(title) | \(evaluation.verdict.rawValue)\(flaky) | \(failed) | \(Int(evaluation.durationMs.rounded())) |"
                )
            }
        }
        lines += [
            "", "## Obligation coverage", "", "| obligation | sources | cases | verdicts |",
            "| --- | --- | --- | --- |",
        ]
        let sources = report.suite?.provenanceByID ?? [:]
        let obligations =
            report.suite?.obligations
            ?? Array(Set(report.evaluations.flatMap { $0.conformanceCase?.obligations ?? [] })).sorted()
        for obligation in obligations {
            let covering = report.evaluations.filter { $0.conformanceCase?.obligations.contains(obligation) ?? false }
            let cases = covering.isEmpty ? "**none**" : covering.map(\.caseID).joined(separator: ", ")
            let source = sources[obligation].map { $0.description.replacingPipes } ?? "—"
            lines.append(
                "| \(obligation) | \(source) | \(cases) | \(covering.map(\.verdict.rawValue).joined(separator: ", ")) |"
            )
        }
        let latency = report.latency
        if !latency.isEmpty {
            lines += [
                "", "## Latency", "", "| metric | count | p50 | p95 | p99 | max |",
                "| --- | ---: | ---: | ---: | ---: | ---: |",
            ]
            for metric in LatencyMetric.all {
                guard let statistics = latency[metric] else { continue }
                let unit = LatencyMetric.unit(metric)
                lines.append(
                    "| \(metric) (\(unit)) | \(statistics.count) | \(number(statistics.p50)) | \(number(statistics.p95)) | \(number(statistics.p99)) | \(number(statistics.max)) |"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Failing cases and abnormal client ends": each case that fails the run or is a harness
    /// error, and any other case whose client ended abnormally, with its headline and, as a code
    /// block, how the client ended and its last stderr lines.
    private static func failingCases(_ report: RunReport) -> [String] {
        let listed = report.evaluations.filter { evaluation in
            report.failsRun(evaluation) || evaluation.verdict == .error
                || evaluation.clientEnd?.endedAbnormally == true
        }
        guard !listed.isEmpty else { return [] }
        var lines = ["", "## Failing cases and abnormal client ends"]
        for evaluation in listed {
            let headline = evaluation.headline.map { ": \(OneLine.text($0, limit: 300))" } ?? ""
            lines += ["", "- \(evaluation.caseID) \(evaluation.verdict.rawValue)\(headline)"]
            let clientEnd = evaluation.clientEndText
            // An indented code block: stderr is shown as written, never read as Markdown.
            if !clientEnd.isEmpty {
                lines += [""] + clientEnd.split(separator: "\n", omittingEmptySubsequences: false).map { "      \($0)" }
            }
        }
        return lines
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}

extension String {
    /// The text safe for a Markdown table cell.
    var replacingPipes: String { replacing("|", with: "\\|") }
}
