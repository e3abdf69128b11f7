import ConformanceChecks
import ProtocolModel
import TimelineView

/// `report.html`: one self-contained page (inline CSS, SVG and script, no external assets, so
/// it works offline and from file://) a person reads first: the comparison with a baseline when
/// the run had one, a summary bar of verdict counts linking to the groups, a filter bar (verdict,
/// baseline change, obligation, free text; kept in the URL's `#filter:…` so a link shares it),
/// findings per obligation, the cases grouped worst first (``VerdictOrder/reading``) with how
/// the client ended beside the verdict (red when abnormal), a regressed / improved badge, their
/// checks, the journal entries each finding cites (base64 abbreviated, audio as a clip player),
/// the case's uplink and downlink audio as a waveform with a player, its timeline, a state
/// timeline and the client's stderr tail, and a latency distribution per metric with its budget.
/// Each case's journal is in the page once (``HTMLCaseData``): the script reads the audio, the
/// timeline and expanded payloads from it.
package enum HTMLReportWriter {
    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}
        td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}.pass{color:#188038}.fail,.error{color:#d93025}
        .nonStrict,.informational{color:#b06000}.skipped,.unimplemented{color:#777}
        .lane,.axis{font-size:11px;fill:#444}details{margin:.4em 0}summary{cursor:pointer}
        .bar{display:flex;height:28px;border-radius:4px;overflow:hidden;margin:.5em 0 1em;max-width:900px}
        .bar a{color:#fff;text-decoration:none;padding:4px 6px;white-space:nowrap;overflow:hidden;font-weight:600}
        .bar .pass{background:#188038}.bar .fail{background:#d93025}.bar .error{background:#8b1a10}
        .bar .nonStrict{background:#b06000}.bar .informational{background:#d4a017}.bar .unimplemented{background:#777}.bar .skipped{background:#aaa}
        ol.evidence{margin:0;padding-left:1.2em}ol.evidence pre,pre.stderr{margin:.2em 0;max-height:24em;overflow:auto;background:#f6f6f6;padding:4px;font-size:12px}
        pre,td.text{white-space:pre-wrap;overflow-wrap:anywhere}td,th,p,summary{overflow-wrap:break-word}details.case{scroll-margin-top:4em}table,svg{max-width:100%}svg{height:auto}table{display:block;overflow-x:auto}
        @media (max-width:800px){body{margin:.6em}}
        .b64 small{color:#666}.b64 button,.player button,.filters button{font-size:11px;margin-left:3px}
        .b64-full{display:block;max-height:10em;overflow:auto;word-break:break-all;background:#fff;border:1px solid #ddd;padding:2px}
        .filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;position:sticky;top:0;background:#fff;padding:6px 0;z-index:2;border-bottom:1px solid #ddd}
        .filters fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:4px}.filters legend{float:left;margin-right:4px;color:#555}
        .chip{border:1px solid #ccc;border-radius:12px;padding:1px 8px;white-space:nowrap}.chip .n{font-weight:600}#shown{color:#555}
        .change{border-radius:3px;padding:0 4px;font-size:12px;color:#fff}.change.regression{background:#d93025}
        .change.improvement{background:#188038}.change.new{background:#1a73e8}details.case[data-change=regression]{border-left:4px solid #d93025;padding-left:6px}
        details.case[data-change=improvement]{border-left:4px solid #188038;padding-left:6px}p.changed.regression{color:#d93025}
        tr.regression td:first-child{border-left:4px solid #d93025}.baseline{border:1px solid #ddd;padding:0 8px;margin-bottom:1em}
        .audio{margin:.4em 0}.track{margin:.2em 0}.player{display:flex;align-items:center;gap:8px;flex-wrap:wrap;max-width:100%}
        .player svg.wave{flex:1 1 300px;min-width:120px;max-width:640px;height:40px;background:#eef3fb;cursor:pointer}
        .clip .player svg.wave{flex-basis:160px;min-width:80px;max-width:240px;height:26px}.wave path{fill:#4c8bf5}.wave rect{fill:#9bb7e8}
        .wave line{stroke:#d93025;stroke-width:1.5}.player .info{font-size:12px;color:#555}.clip{font-size:12px;color:#555}
        .client{font-size:12px;color:#555;border:1px solid #ccc;border-radius:3px;padding:0 4px}.client.abnormal{color:#fff;background:#d93025;border-color:#d93025}
        .entry{font-size:12px;color:#444}.flaky{background:#fde293;color:#5f4200;border-radius:3px;padding:0 4px;font-size:12px}
        """

    /// The page.
    /// - Parameter audioBudget: base64 characters of audio payloads the page carries
    ///   (``HTMLCaseData/pageAudioBudget``).
    package static func text(_ report: RunReport, audioBudget: Int = HTMLCaseData.pageAudioBudget) -> String {
        var budget = audioBudget
        var html =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Conformance: \(XMLText.escape(report.protocolName))</title>"
        html += "<style>\(style)\(TimelineAssets.style)</style></head><body>\n"
        html +=
            "<h1>\(XMLText.escape(report.protocolName))</h1><p>client <code>\(XMLText.escape(report.client))</code> · started \(report.startedText)"
        html += report.toolVersion.isEmpty ? "" : " · conformance \(XMLText.escape(report.toolVersion))"
        html += "</p>\n" + HTMLFilter.baselineSection(report) + summaryBar(report) + HTMLFilter.form(report)
        html += flakySection(report)
        let findings = report.findings
        if !findings.isEmpty {
            html +=
                "<h2>Findings by obligation</h2><p>Read the first row first; consequences follow from an earlier finding in their case.</p>"
            html += "<table><tr><th>obligation</th><th>verdict</th><th>cases</th><th>as a consequence in</th></tr>"
            for finding in findings {
                html +=
                    "<tr><td><a href=\"#filter:obligation=\(XMLText.escape(finding.obligation))\" title=\"show its cases\">\(XMLText.escape(finding.obligation))</a></td><td class=\"\(finding.verdict.rawValue)\">\(finding.verdict.rawValue)</td>"
                html += "<td>\(caseLinks(finding.cases))</td><td>\(caseLinks(finding.asConsequence))</td></tr>"
            }
            html += "</table>\n"
        }
        html += "<h2>Cases</h2>\n"
        for verdict in VerdictOrder.reading {
            let group = report.evaluations.filter { $0.verdict == verdict }
            guard !group.isEmpty else { continue }
            html += "<section class=\"group\" data-verdict=\"\(verdict.rawValue)\">"
            html +=
                "<h3 id=\"verdict-\(verdict.rawValue)\" class=\"\(verdict.rawValue)\">\(verdict.rawValue) (<span class=\"group-count\" data-total=\"\(group.count)\">\(group.count)</span>)</h3>\n"
            for evaluation in group { html += caseSection(evaluation, report, budget: &budget) }
            html += "</section>\n"
        }
        html += latencySection(report)
        // The timeline component once per page, then the page's own script (web/report.js).
        html += "<script>\(TimelineAssets.script)</script>\n<script>\(ReportAssets.script)</script>\n"
        return html + "</body></html>\n"
    }

    /// One segment per verdict that occurs, as wide as its share, linking to its group.
    private static func summaryBar(_ report: RunReport) -> String {
        let summary = report.summary
        var html = "<nav class=\"bar\" aria-label=\"verdicts\">"
        for verdict in VerdictOrder.reading {
            let count = summary[verdict, default: 0]
            guard count > 0 else { continue }
            html +=
                "<a class=\"\(verdict.rawValue)\" href=\"#verdict-\(verdict.rawValue)\" style=\"flex:\(count) 1 0\" title=\"\(count) \(verdict.rawValue)\">"
            html += "\(count) \(verdict.rawValue)</a>"
        }
        html += "</nav>\n<table><tr><th>verdict</th><th>cases</th></tr>"
        for verdict in VerdictOrder.reading {
            let count = summary[verdict, default: 0]
            let label =
                count > 0 ? "<a href=\"#verdict-\(verdict.rawValue)\">\(verdict.rawValue)</a>" : verdict.rawValue
            html += "<tr><td class=\"\(verdict.rawValue)\">\(label)</td><td>\(count)</td></tr>"
        }
        return html + "</table>\n"
    }

    private static func caseLinks(_ ids: [String]) -> String {
        ids.map { "<a href=\"#\(XMLText.escape($0))\">\(XMLText.escape($0))</a>" }.joined(separator: " ")
    }

    private static func caseSection(_ evaluation: CaseEvaluation, _ report: RunReport, budget: inout Int) -> String {
        let title = evaluation.conformanceCase?.title ?? ""
        let open = evaluation.verdict == .pass || evaluation.verdict == .skipped ? "" : " open"
        let change = HTMLFilter.changeBadge(evaluation.caseID, report)
        var html = "<details id=\"\(XMLText.escape(evaluation.caseID))\" class=\"case\""
        html +=
            "\(HTMLFilter.attributes(evaluation, report))\(open)><summary><span class=\"\(evaluation.verdict.rawValue)\">"
        html +=
            "\(evaluation.verdict.rawValue)</span> <b>\(XMLText.escape(evaluation.caseID))</b> \(XMLText.escape(title))"
        html += change.badge
        if let repeats = evaluation.repeats, repeats.isFlaky { html += " <span class=\"flaky\">flaky</span>" }
        if let client = evaluation.clientEnd {
            let abnormal = client.endedAbnormally ? " abnormal" : ""
            html += " <span class=\"client\(abnormal)\">client: \(XMLText.escape(client.endDescription))</span>"
        }
        html += "</summary>\n" + change.line
        html +=
            "<p><a href=\"\(XMLText.escape(RunReport.caseReportPath(evaluation.caseID)))\">case report (JSON)</a></p>"
        if let reason = evaluation.reason { html += "<p>\(XMLText.escape(reason))</p>" }
        if let root = evaluation.rootCause, !evaluation.consequences.isEmpty {
            html +=
                "<p>Root cause: <b>\(XMLText.escape(root))</b>; consequences: \(XMLText.escape(evaluation.consequences.joined(separator: ", ")))</p>"
        }
        if let repeats = evaluation.repeats { html += repeatsTable(repeats, report) }
        if !evaluation.checks.isEmpty {
            html +=
                "<table><tr><th>check</th><th>obligation (sources)</th><th>verdict</th><th>expected</th><th>actual</th><th>evidence</th></tr>"
            for check in evaluation.checks {
                html +=
                    "<tr><td>\(XMLText.escape(check.kind))</td><td>\(XMLText.escape(check.obligation))\(sourcesHTML(check))</td><td class=\"\(check.verdict.rawValue)\">\(check.verdict.rawValue)"
                html += "\(check.consequenceOf.map { " (consequence of \(XMLText.escape($0)))" } ?? "")</td>"
                html +=
                    "<td class=\"text\">\(XMLText.escape(check.expected))</td><td class=\"text\">\(XMLText.escape(check.actual))</td><td>"
                // A finding shows the entries it cites; a passing check only their indices.
                html +=
                    check.isFinding && !check.evidence.isEmpty
                    ? HTMLEvidence.html(check, transcript: evaluation.transcript)
                    : check.evidence.map { "#\($0)" }.joined(separator: " ")
                html += "</td></tr>"
            }
            html += "</table>\n"
        }
        html += HTMLAudio.tracksHTML(evaluation.transcript) + HTMLCaseData.timelineHTML(evaluation)
        let endMs = evaluation.transcript.journal.last.map { Double($0.t) / 1000 } ?? 0
        // The state order per machine (the timeline above shows the states too): open when a
        // machine took an illegal step.
        let machines = evaluation.timelines.filter { !$0.points.isEmpty }
        if !machines.isEmpty {
            let illegal = machines.contains { $0.firstViolation != nil }
            html += "<details class=\"state-order\"\(illegal ? " open" : "")><summary>state order per machine"
            html += "\(illegal ? " — <span class=\"fail\">an illegal step</span>" : "")</summary>\n"
            for timeline in machines {
                html +=
                    "<p>\(XMLText.escape(timeline.machine))\(timeline.firstViolation.map { " — first violation at point \($0 + 1)" } ?? "")</p>"
                html += SVGCharts.timeline(timeline, endMs: endMs) + "\n"
            }
            html += "</details>\n"
        }
        if let stderr = report.stderr(of: evaluation.caseID) {
            let path = XMLText.escape(RunReport.caseStderrPath(evaluation.caseID))
            html += "<details><summary>client stderr (last lines) — <a href=\"\(path)\">\(path)</a></summary>"
            html +=
                "<pre class=\"stderr\">\(XMLText.escape(TextTail.lines(stderr, count: 20).joined(separator: "\n")))</pre></details>\n"
        }
        return html + HTMLCaseData.script(evaluation, budget: &budget) + "</details>\n"
    }

    /// The cases whose verdict changed between `--repeat` runs, with their verdict counts.
    /// The check's obligation sources under its id (an inferred-only rule says so).
    private static func sourcesHTML(_ check: CheckResult) -> String {
        guard let provenance = check.provenance else { return "" }
        return "<br><small>\(XMLText.escape(provenance.description))</small>"
    }

    private static func flakySection(_ report: RunReport) -> String {
        guard report.repeatCount > 1 else { return "" }
        let flaky = report.flaky
        var html = "<h2 id=\"flaky\">Flaky cases (\(flaky.count))</h2><p>Each case ran \(report.repeatCount) times"
        html += "; a case whose verdict changed between runs is flaky and shows its worst run.</p>"
        guard !flaky.isEmpty else { return html + "\n" }
        html += "<table><tr><th>case</th><th>verdicts</th><th>pass rate</th></tr>"
        for (caseID, repeats) in flaky {
            html += "<tr><td>\(caseLinks([caseID]))</td><td>\(XMLText.escape(repeats.verdictCounts))</td>"
            html += "<td>\(XMLText.escape(repeats.passText(strict: report.strict)))</td></tr>"
        }
        return html + "</table>\n"
    }

    /// A repeated case's runs (verdict, time, failed checks) and the spread of its latencies.
    private static func repeatsTable(_ repeats: CaseRepeats, _ report: RunReport) -> String {
        var html = "<p>\(repeats.runs.count) runs, \(XMLText.escape(repeats.passText(strict: report.strict)))"
        html +=
            repeats.isFlaky
            ? " — <span class=\"flaky\">flaky</span>; the checks below are run \(repeats.representative + 1)'s" : ""
        html += "</p><table><tr><th>run</th><th>verdict</th><th>ms</th><th>failed checks</th></tr>"
        for (index, run) in repeats.runs.enumerated() {
            html += "<tr><td>\(index + 1)</td><td class=\"\(run.verdict.rawValue)\">\(run.verdict.rawValue)</td>"
            html +=
                "<td>\(Int(run.durationMs.rounded()))</td><td>\(XMLText.escape(run.failedChecks.joined(separator: " ")))</td></tr>"
        }
        html += "</table>\n"
        let spread = repeats.latencySpread
        guard !spread.isEmpty else { return html }
        html += "<table><tr><th>metric</th><th>n</th><th>min</th><th>p50</th><th>max</th></tr>"
        for metric in LatencyMetric.all {
            guard let statistics = spread[metric] else { continue }
            html += "<tr><td>\(XMLText.escape(metric)) (\(LatencyMetric.unit(metric)))</td><td>\(statistics.count)</td>"
            html +=
                "<td>\(SVGCharts.fixed(statistics.min))</td><td>\(SVGCharts.fixed(statistics.p50))</td><td>\(SVGCharts.fixed(statistics.max))</td></tr>"
        }
        return html + "</table>\n"
    }

    private static func latencySection(_ report: RunReport) -> String {
        var html = "<h2>Latency</h2>\n"
        let samples = Dictionary(grouping: report.evaluations.flatMap(\.allLatency), by: \.metric)
        for metric in LatencyMetric.all {
            guard let values = samples[metric]?.map(\.value), !values.isEmpty else { continue }
            let statistics = LatencyStatistics(values)
            let budget = report.latencyBudgets[metric]
            html +=
                "<h3>\(XMLText.escape(metric)) (\(LatencyMetric.unit(metric)))</h3><p>n=\(statistics.count) p50=\(SVGCharts.fixed(statistics.p50))"
            html +=
                " p95=\(SVGCharts.fixed(statistics.p95)) p99=\(SVGCharts.fixed(statistics.p99)) max=\(SVGCharts.fixed(statistics.max))"
            if let budget {
                let over = values.filter { $0 > budget }.count
                html +=
                    " · budget \(SVGCharts.fixed(budget))\(over > 0 ? " — <span class=\"fail\">\(over) over</span>" : "")"
            }
            html += "</p>\n" + SVGCharts.distribution(metric: metric, values: values, budget: budget) + "\n"
        }
        return html
    }
}
