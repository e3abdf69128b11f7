import ConformanceChecks
package import WireJSON

/// `index.json` (reports/README.md): `{"protocol", "client", "started", "summary": {verdict: count},
/// "cases": [{"id", "verdict", "durationMs", "failedChecks", "report"}], "latency": {metric:
/// {"count", "p50", "p95", "p99", "max"}}}` with sorted keys; extended with each case's
/// `rootCause` and `consequences`, and `findings`: `[{"obligation", "verdict", "cases",
/// "asConsequence"}]`, the rule to read first first (``RunReport/findings``); versioned by
/// `"$schema"` and `"schemaVersion": 1` (conformance/schema/report-index.v1.schema.json), with
/// `strict`, and `toolVersion`, `latencyBudgets` and each case's `stderr` path when known; `repeat`
/// (runs per case, `--repeat`), `flakyCases`, and each repeated case's `repeats` (verdict per run,
/// pass rate, flaky, latency spread); `baseline` when the run was compared with one
/// (``BaselineComparison/jsonValue``). Keys are only ever added within a version.
package enum IndexWriter {
    /// The document.
    package static func json(_ report: RunReport) -> JSONValue {
        var summary = JSONObject()
        for (verdict, count) in report.summary { summary[verdict.rawValue] = .int(Int64(count)) }
        let cases: [JSONValue] = report.evaluations.map { evaluation in
            var entry: JSONObject = [
                "id": .string(evaluation.caseID),
                "verdict": .string(evaluation.verdict.rawValue),
                "durationMs": .milliseconds(evaluation.durationMs),
                "failedChecks": .array(evaluation.failedChecks.map(JSONValue.string)),
                "report": .string(RunReport.caseReportPath(evaluation.caseID)),
                "rootCause": evaluation.rootCause.map(JSONValue.string) ?? .null,
                "consequences": .array(evaluation.consequences.map(JSONValue.string)),
            ]
            if report.stderr(of: evaluation.caseID) != nil {
                entry["stderr"] = .string(RunReport.caseStderrPath(evaluation.caseID))
            }
            if let repeats = evaluation.repeats { entry["repeats"] = repeats.indexJSON(strict: report.strict) }
            return .object(entry)
        }
        let findings: [JSONValue] = report.findings.map { finding in
            [
                "obligation": .string(finding.obligation), "verdict": .string(finding.verdict.rawValue),
                "cases": .array(finding.cases.map(JSONValue.string)),
                "asConsequence": .array(finding.asConsequence.map(JSONValue.string)),
            ]
        }
        var latency = JSONObject()
        for (metric, statistics) in report.latency {
            latency[metric] = [
                "count": .int(Int64(statistics.count)), "p50": .milliseconds(statistics.p50),
                "p95": .milliseconds(statistics.p95),
                "p99": .milliseconds(statistics.p99), "max": .milliseconds(statistics.max),
            ]
        }
        var document: JSONObject = [
            "$schema": .string(ReportSchema.indexID), "schemaVersion": .int(Int64(ReportSchema.indexVersion)),
            "protocol": .string(report.protocolName), "client": .string(report.client),
            "started": .string(report.startedText),
            "summary": .object(summary), "cases": .array(cases), "latency": .object(latency),
            "findings": .array(findings),
            "strict": .bool(report.strict), "repeat": .int(Int64(report.repeatCount)),
            "flakyCases": .array(report.flakyCases.map(JSONValue.string)),
        ]
        if let baseline = report.baseline { document["baseline"] = baseline.jsonValue }
        if !report.toolVersion.isEmpty { document["toolVersion"] = .string(report.toolVersion) }
        if !report.latencyBudgets.isEmpty {
            document["latencyBudgets"] = .object(
                JSONObject(report.latencyBudgets.map { ($0.key, JSONValue.milliseconds($0.value)) }))
        }
        return JSONValue.object(document).sortedKeys
    }

    /// The file text (pretty, trailing newline).
    package static func text(_ report: RunReport) -> String { json(report).encodedString(pretty: true) + "\n" }
}
