import ConformanceChecks
package import WireJSON

/// `index.json` (contract §2): `{"protocol", "client", "started", "summary": {verdict: count},
/// "cases": [{"id", "verdict", "durationMs", "failedChecks", "report"}], "latency": {metric:
/// {"count", "p50", "p95", "p99", "max"}}}` with sorted keys; extended with each case's
/// `rootCause` and `consequences`, and `findings`: `[{"obligation", "verdict", "cases",
/// "asConsequence"}]`, the rule to read first first (``RunReport/findings``).
package enum IndexWriter {
    /// The document.
    package static func json(_ report: RunReport) -> JSONValue {
        var summary = JSONObject()
        for (verdict, count) in report.summary { summary[verdict.rawValue] = .int(Int64(count)) }
        let cases: [JSONValue] = report.evaluations.map { evaluation in
            [
                "id": .string(evaluation.caseID),
                "verdict": .string(evaluation.verdict.rawValue),
                "durationMs": .milliseconds(evaluation.durationMs),
                "failedChecks": .array(evaluation.failedChecks.map(JSONValue.string)),
                "report": .string(RunReport.caseReportPath(evaluation.caseID)),
                "rootCause": evaluation.rootCause.map(JSONValue.string) ?? .null,
                "consequences": .array(evaluation.consequences.map(JSONValue.string)),
            ]
        }
        let findings: [JSONValue] = report.findings.map { finding in
            ["obligation": .string(finding.obligation), "verdict": .string(finding.verdict.rawValue),
             "cases": .array(finding.cases.map(JSONValue.string)), "asConsequence": .array(finding.asConsequence.map(JSONValue.string))]
        }
        var latency = JSONObject()
        for (metric, statistics) in report.latency {
            latency[metric] = [
                "count": .int(Int64(statistics.count)), "p50": .milliseconds(statistics.p50), "p95": .milliseconds(statistics.p95),
                "p99": .milliseconds(statistics.p99), "max": .milliseconds(statistics.max),
            ]
        }
        let document: JSONValue = [
            "protocol": .string(report.protocolName), "client": .string(report.client), "started": .string(report.startedText),
            "summary": .object(summary), "cases": .array(cases), "latency": .object(latency), "findings": .array(findings),
        ]
        return document.sortedKeys
    }

    /// The file text (pretty, trailing newline).
    package static func text(_ report: RunReport) -> String { json(report).encodedString(pretty: true) + "\n" }
}
