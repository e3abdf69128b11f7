import ScenarioEngine
import ConformanceChecks

/// `report.html`: one self-contained page (inline CSS and SVG, no scripts, no external
/// assets): verdict counts, findings per obligation, every case with its checks and state timeline, and a latency
/// distribution per metric.
package enum HTMLReportWriter {
    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}
        td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}.pass{color:#188038}.fail,.error{color:#d93025}
        .nonStrict,.informational{color:#b06000}.skipped,.unimplemented{color:#777}
        .lane,.axis{font-size:11px;fill:#444}details{margin:.4em 0}summary{cursor:pointer}
        """

    /// The page.
    package static func text(_ report: RunReport) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Conformance: \(XMLText.escape(report.protocolName))</title>"
        html += "<style>\(style)</style></head><body>\n"
        html += "<h1>\(XMLText.escape(report.protocolName))</h1><p>client <code>\(XMLText.escape(report.client))</code> · started \(report.startedText)</p>\n"
        html += "<table><tr><th>verdict</th><th>cases</th></tr>"
        for verdict in Verdict.allCases { html += "<tr><td class=\"\(verdict.rawValue)\">\(verdict.rawValue)</td><td>\(report.summary[verdict, default: 0])</td></tr>" }
        html += "</table>\n"
        let findings = report.findings
        if !findings.isEmpty {
            html += "<h2>Findings by obligation</h2><p>Read the first row first; consequences follow from an earlier finding in their case.</p>"
            html += "<table><tr><th>obligation</th><th>verdict</th><th>cases</th><th>as a consequence in</th></tr>"
            for finding in findings {
                let links = { (ids: [String]) in ids.map { "<a href=\"#\(XMLText.escape($0))\">\(XMLText.escape($0))</a>" }.joined(separator: " ") }
                html += "<tr><td>\(XMLText.escape(finding.obligation))</td><td class=\"\(finding.verdict.rawValue)\">\(finding.verdict.rawValue)</td>"
                html += "<td>\(links(finding.cases))</td><td>\(links(finding.asConsequence))</td></tr>"
            }
            html += "</table>\n"
        }
        html += "<h2>Cases</h2>\n"
        for evaluation in report.evaluations { html += caseSection(evaluation) }
        html += "<h2>Latency</h2>\n"
        let samples = Dictionary(grouping: report.evaluations.flatMap(\.latency), by: \.metric)
        for metric in LatencyMetric.all {
            guard let values = samples[metric]?.map(\.value), !values.isEmpty else { continue }
            let statistics = LatencyStatistics(values)
            html += "<h3>\(XMLText.escape(metric)) (\(LatencyMetric.unit(metric)))</h3><p>n=\(statistics.count) p50=\(SVGCharts.fixed(statistics.p50))"
            html += " p95=\(SVGCharts.fixed(statistics.p95)) p99=\(SVGCharts.fixed(statistics.p99)) max=\(SVGCharts.fixed(statistics.max))</p>\n"
            html += SVGCharts.distribution(metric: metric, values: values) + "\n"
        }
        return html + "</body></html>\n"
    }

    private static func caseSection(_ evaluation: CaseEvaluation) -> String {
        let title = evaluation.conformanceCase?.title ?? ""
        var html = "<details id=\"\(XMLText.escape(evaluation.caseID))\"\(evaluation.verdict == .pass ? "" : " open")><summary><span class=\"\(evaluation.verdict.rawValue)\">"
        html += "\(evaluation.verdict.rawValue)</span> <b>\(XMLText.escape(evaluation.caseID))</b> \(XMLText.escape(title))</summary>\n"
        if let reason = evaluation.reason { html += "<p>\(XMLText.escape(reason))</p>" }
        if let root = evaluation.rootCause, !evaluation.consequences.isEmpty {
            html += "<p>Root cause: <b>\(XMLText.escape(root))</b>; consequences: \(XMLText.escape(evaluation.consequences.joined(separator: ", ")))</p>"
        }
        if !evaluation.checks.isEmpty {
            html += "<table><tr><th>check</th><th>obligation</th><th>verdict</th><th>expected</th><th>actual</th><th>evidence</th></tr>"
            for check in evaluation.checks {
                html += "<tr><td>\(XMLText.escape(check.kind))</td><td>\(XMLText.escape(check.obligation))</td><td class=\"\(check.verdict.rawValue)\">\(check.verdict.rawValue)"
                html += "\(check.consequenceOf.map { " (consequence of \(XMLText.escape($0)))" } ?? "")</td>"
                html += "<td>\(XMLText.escape(check.expected))</td><td>\(XMLText.escape(check.actual))</td><td>\(check.evidence.map { "#\($0)" }.joined(separator: " "))</td></tr>"
            }
            html += "</table>\n"
        }
        let endMs = evaluation.transcript.journal.last.map { Double($0.t) / 1000 } ?? 0
        for timeline in evaluation.timelines {
            html += "<p>\(XMLText.escape(timeline.machine))\(timeline.firstViolation.map { " — first violation at point \($0 + 1)" } ?? "")</p>"
            html += SVGCharts.timeline(timeline, endMs: endMs) + "\n"
        }
        return html + "</details>\n"
    }
}
