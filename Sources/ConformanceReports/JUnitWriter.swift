import ConformanceChecks

/// `junit.xml`: one `<testsuite>` per run, one `<testcase>` per case. fail → `<failure>`
/// (root cause first, consequences marked), nonStrict / informational → a `<system-out>` note,
/// unimplemented / skipped → `<skipped>`, error → `<error>`; the suite's `<system-out>` lists
/// the findings per obligation.
package enum JUnitWriter {
    /// The document.
    package static func text(_ report: RunReport) -> String {
        let summary = report.summary
        let failures = summary[.fail, default: 0]
        let errors = summary[.error, default: 0]
        let skipped = summary[.skipped, default: 0] + summary[.unimplemented, default: 0]
        let total = report.evaluations.reduce(0.0) { $0 + $1.durationMs } / 1000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(report.evaluations.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(XMLText.escape(report.protocolName))\" tests=\"\(report.evaluations.count)\" failures=\"\(failures)\""
        xml += " errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(total))\" timestamp=\"\(report.startedText)\">\n"
        for evaluation in report.evaluations { xml += testcase(evaluation, report) }
        let findings = report.findings
        if !findings.isEmpty {
            // Findings per obligation across cases, the rule to read first first.
            let lines = findings.map { finding in
                var parts: [String] = []
                if !finding.cases.isEmpty { parts.append("in \(finding.cases.joined(separator: " "))") }
                if !finding.asConsequence.isEmpty { parts.append("as a consequence in \(finding.asConsequence.joined(separator: " "))") }
                return "\(finding.obligation) \(finding.verdict.rawValue): \(parts.joined(separator: "; "))"
            }
            xml += "    <system-out>\(XMLText.escape("Findings by obligation:\n" + lines.joined(separator: "\n")))</system-out>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private static func testcase(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        let section = evaluation.conformanceCase.map { report.suite?.sectionTitle($0.section) ?? $0.section } ?? ""
        let title = evaluation.conformanceCase?.title ?? evaluation.caseID
        var xml = "    <testcase classname=\"\(XMLText.escape(report.protocolName + "." + section))\" name=\"\(XMLText.escape(evaluation.caseID + " " + title))\""
        xml += " time=\"\(seconds(evaluation.durationMs / 1000))\""
        // The root cause first, consequences last and marked as such.
        let findings = evaluation.checks.filter(\.isFinding).sorted { lhs, rhs in
            (lhs.obligation == evaluation.rootCause ? 0 : lhs.consequenceOf == nil ? 1 : 2)
                < (rhs.obligation == evaluation.rootCause ? 0 : rhs.consequenceOf == nil ? 1 : 2)
        }
        let details = findings.map { finding in
            let marker = finding.consequenceOf.map { " (consequence of \($0))" } ?? ""
            return "\(finding.obligation)\(marker) [\(finding.kind)] expected: \(finding.expected)\n  actual: \(finding.actual)"
        }.joined(separator: "\n")
        switch evaluation.verdict {
        case .pass:
            return xml + "/>\n"
        case .fail:
            let message = findings.first { $0.verdict == .fail }.map { "\($0.obligation): \($0.actual)" } ?? "failed"
            xml += ">\n      <failure message=\"\(XMLText.escape(message))\" type=\"\(XMLText.escape(evaluation.failedChecks.joined(separator: " ")))\">\(XMLText.escape(details))</failure>\n"
        case .nonStrict, .informational:
            xml += ">\n      <system-out>\(XMLText.escape("\(evaluation.verdict.rawValue): \(details)"))</system-out>\n"
        case .unimplemented, .skipped:
            xml += ">\n      <skipped message=\"\(XMLText.escape("\(evaluation.verdict.rawValue): \(evaluation.reason ?? "")"))\"/>\n"
        case .error:
            xml += ">\n      <error message=\"\(XMLText.escape(evaluation.reason ?? "harness error"))\"/>\n"
        }
        return xml + "    </testcase>\n"
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int64((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
