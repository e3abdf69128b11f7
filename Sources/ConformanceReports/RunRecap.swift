import ConformanceChecks

/// What `conformance run` ends with on stderr, after the per-case lines, so a CI log shows the
/// run at a glance: the verdict counts, then each obligation the client broke in its own right
/// (not as a consequence) with its cases and its first evidence, once; and for GitHub Actions
/// the same obligations as workflow-command annotations.
package enum RunRecap {
    /// Cases named per obligation; the others are counted.
    static let caseLimit = 10
    /// Characters of evidence quoted per obligation.
    static let evidenceLimit = 200

    /// The block, without a trailing newline:
    /// ```
    /// conformance recap: 2 fail, 1 nonStrict, 3 pass
    ///   fail qrt.C11 in qrt.tools.001, qrt.tools.002: no function_call_output for call c1
    ///   nonStrict qrt.C7 in qrt.session.002: session.update resends voice: null
    /// ```
    package static func text(_ report: RunReport) -> String {
        let lines = brokenObligations(report).map { finding in
            "  \(finding.verdict.rawValue) \(finding.obligation) in \(message(finding))"
        }
        return (["conformance recap: \(counts(report))"] + lines).joined(separator: "\n")
    }

    /// `2 fail, 1 nonStrict, 3 pass`: the verdicts that occur, in ``VerdictOrder/reading``;
    /// `no case` for an empty run.
    package static func counts(_ report: RunReport) -> String {
        let summary = report.summary
        let counts = VerdictOrder.reading.compactMap { verdict -> String? in
            let count = summary[verdict, default: 0]
            return count > 0 ? "\(count) \(verdict.rawValue)" : nil
        }
        return counts.isEmpty ? "no case" : counts.joined(separator: ", ")
    }

    /// One GitHub Actions workflow command per obligation of ``text(_:)``:
    /// `::error title=<obligation>::<cases>: <first evidence>` when its verdict fails the run
    /// (fail; nonStrict too under `--strict`), else `::warning`; escaped as GitHub requires.
    package static func githubAnnotations(_ report: RunReport) -> [String] {
        brokenObligations(report).map { finding in
            let level = RunReport.failsRun(finding.verdict, strict: report.strict) ? "error" : "warning"
            return "::\(level) title=\(escapedProperty(finding.obligation))::\(escapedData(message(finding)))"
        }
    }

    /// A workflow command's message: `%`, CR and LF as `%25`, `%0D`, `%0A`.
    package static func escapedData(_ text: String) -> String {
        escaped(text, ["%": "%25", "\r": "%0D", "\n": "%0A"])
    }

    /// A workflow command's property value: as ``escapedData(_:)``, and `:` and `,` as `%3A`, `%2C`.
    package static func escapedProperty(_ text: String) -> String {
        escaped(text, ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
    }

    /// `text` with each scalar in `replacements` replaced (per scalar: a CR LF pair is two).
    private static func escaped(_ text: String, _ replacements: [Unicode.Scalar: String]) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] {
                result += replacement
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The obligations found in their own right with verdict fail, then those with nonStrict
    /// (each group in ``RunReport/findings`` order: most cases first).
    static func brokenObligations(_ report: RunReport) -> [RunReport.ObligationFindings] {
        let own = report.findings.filter { !$0.cases.isEmpty }
        return own.filter { $0.verdict == .fail } + own.filter { $0.verdict == .nonStrict }
    }

    /// `qrt.tools.001, qrt.tools.002: <first evidence>`, at most ``caseLimit`` cases named.
    private static func message(_ finding: RunReport.ObligationFindings) -> String {
        var cases = finding.cases.prefix(caseLimit).joined(separator: ", ")
        if finding.cases.count > caseLimit { cases += " and \(finding.cases.count - caseLimit) more" }
        return "\(cases): \(OneLine.text(finding.firstActual, limit: evidenceLimit))"
    }
}
