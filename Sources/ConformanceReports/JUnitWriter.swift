import ConformanceChecks

/// `junit.xml`: one `<testsuite>` per run, one `<testcase name="<case id>">` per case with
/// `<properties>` (verdict, obligations, rootCause…). fail → `<failure>` (root cause first,
/// consequences marked), nonStrict / informational → a passing test whose `<system-out>` starts
/// `NONSTRICT:` / `INFORMATIONAL:`, unimplemented / skipped → `<skipped>`, error → `<error>`;
/// how the client ended (`client: exit 3` and its last stderr lines, when
/// ``CaseEvaluation/mentionsClientEnd``) ends the failure or error body, else the `<system-out>`;
/// the client's stderr → `<system-err>`; the suite's `<system-out>` lists the findings per
/// obligation. Counts come from the evaluations given. Under `--strict` (``RunReport/strict``)
/// nonStrict is a `<failure>` too, as it fails the run. A repeated case (`--repeat`) has the
/// properties `repeats`, `verdicts`, `passRate` and `flaky`; a flaky failure's message starts
/// `flaky (k/N runs passed):`.
package enum JUnitWriter {
    /// The document.
    package static func text(_ report: RunReport) -> String {
        let summary = report.summary
        let failures = report.evaluations.filter(report.failsRun).count
        let errors = summary[.error, default: 0]
        let skipped = summary[.skipped, default: 0] + summary[.unimplemented, default: 0]
        let total = report.evaluations.reduce(0.0) { $0 + $1.durationMs } / 1000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites tests=\"\(report.evaluations.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        xml +=
            "  <testsuite name=\"\(XMLText.escape(report.protocolName))\" tests=\"\(report.evaluations.count)\" failures=\"\(failures)\""
        xml +=
            " errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(total))\" timestamp=\"\(report.startedText)\">\n"
        for evaluation in report.evaluations { xml += testcase(evaluation, report) }
        let findings = report.findings
        if !findings.isEmpty {
            // Findings per obligation across cases, the rule to read first first.
            let lines = findings.map { finding in
                var parts: [String] = []
                if !finding.cases.isEmpty { parts.append("in \(finding.cases.joined(separator: " "))") }
                if !finding.asConsequence.isEmpty {
                    parts.append("as a consequence in \(finding.asConsequence.joined(separator: " "))")
                }
                return "\(finding.obligation) \(finding.verdict.rawValue): \(parts.joined(separator: "; "))"
            }
            xml +=
                "    <system-out>\(XMLText.escape("Findings by obligation:\n" + lines.joined(separator: "\n")))</system-out>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Client stderr kept in `<system-err>` (the tail; the file has all of it).
    static let stderrLimit = 64 * 1024

    private static func testcase(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        let section = evaluation.sectionTitle(in: report.suite)
        // The name is the case id alone so CI history tracks a case across title edits.
        var xml =
            "    <testcase classname=\"\(XMLText.escape(report.protocolName + "." + section))\" name=\"\(XMLText.escape(evaluation.caseID))\""
        xml += " time=\"\(seconds(evaluation.durationMs / 1000))\">\n"
        xml += properties(evaluation, report)
        let details = evaluation.findingDetails
        // How the client ended: in the failure or error body, else in the output.
        let clientEnd = evaluation.clientEndText
        var output = clientEnd
        // Under --strict a nonStrict case fails the run, so it is a failure here too.
        switch report.failsRun(evaluation) ? .fail : evaluation.verdict {
        case .pass:
            break
        case .fail:
            let message =
                flakyPrefix(evaluation, report) + (evaluation.verdict == .fail ? "" : "nonStrict (--strict): ")
                + (evaluation.headline ?? "failed")
            let body = [details, clientEnd].filter { !$0.isEmpty }.joined(separator: "\n")
            xml +=
                "      <failure message=\"\(XMLText.escape(message))\" type=\"\(XMLText.escape(evaluation.failedChecks.joined(separator: " ")))\">\(XMLText.escape(body))</failure>\n"
            output = ""
        case .nonStrict, .informational:
            // A passing test whose output starts with the verdict in capitals: reporters that
            // show a passing test's output show it, and nothing counts it as skipped.
            let marker = evaluation.verdict == .nonStrict ? "NONSTRICT" : "INFORMATIONAL"
            output = ["\(marker): \(evaluation.headline ?? "")\n\(details)", clientEnd].filter { !$0.isEmpty }
                .joined(separator: "\n")
        case .unimplemented, .skipped, .notExercised:
            xml +=
                "      <skipped message=\"\(XMLText.escape("\(evaluation.verdict.rawValue): \(evaluation.reason ?? "")"))\"/>\n"
        case .error:
            xml +=
                "      <error message=\"\(XMLText.escape(evaluation.reason ?? "harness error"))\">\(XMLText.escape(clientEnd))</error>\n"
            output = ""
        }
        if !output.isEmpty { xml += "      <system-out>\(XMLText.escape(output))</system-out>\n" }
        if let stderr = report.stderr(of: evaluation.caseID) {
            xml += "      <system-err>\(XMLText.escape(TextTail.bytes(stderr, maxBytes: stderrLimit)))</system-err>\n"
        }
        return xml + "    </testcase>\n"
    }

    /// `title`, `verdict`, `obligations`, their `sources`, `rootCause` / `consequences` when any, `report`.
    private static func properties(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        var entries: [(String, String)] = []
        if let conformanceCase = evaluation.conformanceCase {
            entries.append(("title", conformanceCase.title))
            entries.append(("obligations", conformanceCase.obligations.joined(separator: " ")))
            if let sources = report.suite?.sourcesText(of: conformanceCase.obligations), !sources.isEmpty {
                entries.append(("sources", sources))
            }
        }
        entries.append(("verdict", evaluation.verdict.rawValue))
        if let root = evaluation.rootCause { entries.append(("rootCause", root)) }
        if !evaluation.consequences.isEmpty {
            entries.append(("consequences", evaluation.consequences.joined(separator: " ")))
        }
        if !evaluation.failedChecks.isEmpty {
            entries.append(("failedChecks", evaluation.failedChecks.joined(separator: " ")))
        }
        entries.append(("report", RunReport.caseReportPath(evaluation.caseID)))
        if report.stderr(of: evaluation.caseID) != nil {
            entries.append(("stderr", RunReport.caseStderrPath(evaluation.caseID)))
        }
        if let repeats = evaluation.repeats {
            entries.append(("repeats", String(repeats.runs.count)))
            entries.append(("verdicts", repeats.verdicts.map(\.rawValue).joined(separator: " ")))
            entries.append(("passRate", String(CaseRepeats.rounded(repeats.passRate(strict: report.strict)))))
            entries.append(("flaky", String(repeats.isFlaky)))
        }
        let lines = entries.map { "        <property name=\"\($0.0)\" value=\"\(XMLText.escape($0.1))\"/>\n" }
        return "      <properties>\n" + lines.joined() + "      </properties>\n"
    }

    /// `flaky (3/5 runs passed): ` before a repeated case's failure message when its verdict changed.
    private static func flakyPrefix(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        guard let repeats = evaluation.repeats, repeats.isFlaky else { return "" }
        return "flaky (\(repeats.passText(strict: report.strict))): "
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int64((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
