package import ConformanceChecks
import FoundationEssentials
package import WireJSON

/// `ctrf.json`: the run in the Common Test Report Format (https://ctrf.io, spec 0.0.0), one
/// test per case named by its id. CTRF has five statuses, so the verdict is also kept as
/// `rawStatus`: pass / nonStrict / informational → `passed` (nonStrict and informational with a
/// `message` saying so; `failed` in a `--strict` run), fail and error → `failed` (a harness error
/// fails the run as well; tell them apart by `rawStatus`), unimplemented / skipped → `skipped`.
/// A repeated case (`--repeat N`) sets `flaky` (its verdict changed) and `retries` (N − 1), and
/// `extra.repeats` as index.json has it. How the client ended is `extra.client` (as in the
/// case report) and, when a report tells it (``CaseEvaluation/mentionsClientEnd``), the end of
/// `trace`. Keys in lexicographic order.
package enum CTRFWriter {
    /// The tool name in `results.tool.name`.
    package static let toolName = "dialogmock-conformance"
    /// At most this many stderr lines per test (the tail; `cases/<id>.stderr.txt` has all).
    static let stderrLineLimit = 500

    /// CTRF's status for a verdict.
    package static func status(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass, .nonStrict, .informational: "passed"
        case .fail, .error: "failed"
        case .unimplemented, .skipped, .notExercised: "skipped"
        }
    }

    /// The status of a case in `report`: ``status(_:)``, and `failed` for nonStrict in a
    /// `--strict` run.
    static func status(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        report.failsRun(evaluation) ? "failed" : status(evaluation.verdict)
    }

    /// The document.
    package static func json(_ report: RunReport) -> JSONValue {
        let tests = report.evaluations.map { test($0, report) }
        var counts: [String: Int64] = ["passed": 0, "failed": 0, "skipped": 0, "pending": 0, "other": 0]
        for evaluation in report.evaluations { counts[status(evaluation, report), default: 0] += 1 }
        let start = milliseconds(report.started.timeIntervalSince1970 * 1000)
        let stop =
            report.finished.map { milliseconds($0.timeIntervalSince1970 * 1000) }
            ?? start + milliseconds(report.evaluations.reduce(0) { $0 + $1.durationMs })
        var summary: JSONObject = ["tests": .int(Int64(tests.count)), "start": .int(start), "stop": .int(stop)]
        for (key, count) in counts { summary[key] = .int(count) }
        var tool: JSONObject = ["name": .string(toolName)]
        if !report.toolVersion.isEmpty { tool["version"] = .string(report.toolVersion) }
        let results: JSONObject = [
            "tool": .object(tool), "summary": .object(summary), "tests": .array(tests),
            "environment": ["appName": .string(report.client), "extra": ["protocol": .string(report.protocolName)]],
        ]
        let document: JSONValue = ["reportFormat": "CTRF", "specVersion": "0.0.0", "results": .object(results)]
        return document.sortedKeys
    }

    private static func test(_ evaluation: CaseEvaluation, _ report: RunReport) -> JSONValue {
        var test: JSONObject = [
            "name": .string(evaluation.caseID), "status": .string(status(evaluation, report)),
            "rawStatus": .string(evaluation.verdict.rawValue), "duration": .int(milliseconds(evaluation.durationMs)),
        ]
        if let headline = evaluation.headline {
            // A passing nonStrict / informational test says so in its message.
            let prefix = evaluation.verdict == .fail ? "" : "\(evaluation.verdict.rawValue): "
            test["message"] = .string(prefix + headline)
        }
        let trace = [evaluation.findingDetails, evaluation.clientEndText].filter { !$0.isEmpty }
        if !trace.isEmpty { test["trace"] = .string(trace.joined(separator: "\n")) }
        let section = evaluation.sectionTitle(in: report.suite)
        if !section.isEmpty { test["suite"] = .string(section) }
        if let file = report.caseFile(of: evaluation.caseID) { test["filePath"] = .string(file) }
        if let stderr = report.stderr(of: evaluation.caseID) {
            test["stderr"] = .array(TextTail.lines(stderr, count: stderrLineLimit).map(JSONValue.string))
        }
        if let obligations = evaluation.conformanceCase?.obligations {
            test["tags"] = .array(obligations.map(JSONValue.string))
        }
        var extra: JSONObject = [
            "obligations": .array((evaluation.conformanceCase?.obligations ?? []).map(JSONValue.string)),
            "rootCause": evaluation.rootCause.map(JSONValue.string) ?? .null,
            "consequences": .array(evaluation.consequences.map(JSONValue.string)),
            "failedChecks": .array(evaluation.failedChecks.map(JSONValue.string)),
            "report": .string(RunReport.caseReportPath(evaluation.caseID)),
        ]
        if let title = evaluation.conformanceCase?.title { extra["title"] = .string(title) }
        if let obligations = evaluation.conformanceCase?.obligations, let suite = report.suite {
            // Where each obligation comes from (issue 40), by id.
            let table = suite.provenanceByID
            let sources = obligations.compactMap { id in table[id].map { (id, JSONValue.object($0.jsonObject)) } }
            if !sources.isEmpty { extra["sources"] = .object(JSONObject(sources)) }
        }
        extra["client"] = evaluation.clientEndJSON
        if let repeats = evaluation.repeats {
            // CTRF's own flakiness fields; `extra.repeats` has the verdict of every run.
            test["flaky"] = .bool(repeats.isFlaky)
            test["retries"] = .int(Int64(repeats.runs.count - 1))
            extra["repeats"] = repeats.indexJSON(strict: report.strict)
        }
        test["extra"] = .object(extra)
        return .object(test)
    }

    private static func milliseconds(_ value: Double) -> Int64 { value.isFinite ? Int64(value.rounded()) : 0 }

    /// The file text (pretty, trailing newline).
    package static func text(_ report: RunReport) -> String { json(report).encodedString(pretty: true) + "\n" }
}
