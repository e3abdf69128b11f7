package import ConformanceChecks
import ConformanceReports

/// The progress line `conformance run` prints per finished case, so a CI log shows why a case
/// failed without opening the report: verdict and duration, then for a finding or an error the
/// root cause with what was seen, and for a fail, an error or a client that ended abnormally
/// (non-zero exit, signal, timeout; whatever the verdict) its end and the tail of its stderr.
package enum CaseLogLine {
    /// - Parameter run: under `--repeat`, which run this is of how many.
    package static func text(
        _ evaluation: CaseEvaluation, index: Int, total: Int, stderr: String,
        run: (index: Int, count: Int)? = nil
    ) -> String {
        let runText = run.map { " (run \($0.index)/\($0.count))" } ?? ""
        var line =
            "[\(index)/\(total)] \(evaluation.caseID)\(runText) \(evaluation.verdict.rawValue) \(Int(evaluation.durationMs)) ms"
        if let reason = evaluation.reason { line += " — \(reason)" }
        // A fail, an error or a nonStrict names its root cause.
        let needsReading = [.fail, .error, .nonStrict].contains(evaluation.verdict)
        guard needsReading || evaluation.mentionsClientEnd else { return line }
        var details: [String] = []
        let findings = evaluation.orderedFindings
        if needsReading, let root = findings.first {
            details.append("\(root.obligation) [\(root.kind)]: \(root.actual)")
            let others = findings.filter { $0.obligation != root.obligation }.map(\.obligation)
            if !others.isEmpty { details.append("also: \(Array(Set(others)).sorted().joined(separator: ", "))") }
        }
        if evaluation.mentionsClientEnd, let client = evaluation.clientEnd {
            details += client.reportLines(stderrTail: tail(stderr, lines: ClientProcessResult.stderrTailLines))
        }
        return ([line] + details.map { "    " + $0 }).joined(separator: "\n")
    }

    /// After the last run of a repeated case whose verdict changed: `<id> flaky: pass ×4, fail ×1`.
    package static func repeatsLine(_ combined: CaseEvaluation) -> String? {
        guard let repeats = combined.repeats, repeats.isFlaky else { return nil }
        return "    \(combined.caseID) flaky: \(repeats.verdictCounts)"
    }

    /// The last `lines` non-empty lines of `text`, each cut to 300 characters.
    package static func tail(_ text: String, lines: Int) -> [String] {
        TextTail.lines(text, count: .max).filter { !$0.isEmpty }.suffix(lines).map { String($0.prefix(300)) }
    }
}
