import ConformanceChecks

/// report.html's filter bar and what it filters on: each case's verdict, obligations, change
/// against the baseline and searchable text as `data-` attributes, read by the page's script
/// (`web/report.js`, ``ReportAssets``). The bar is `hidden` until the script shows it, so a page read
/// without scripts shows no controls that do nothing.
enum HTMLFilter {
    /// The obligations a case is about: those it declares and those its checks judged.
    static func obligations(_ evaluation: CaseEvaluation) -> [String] {
        var result: [String] = []
        for obligation in (evaluation.conformanceCase?.obligations ?? []) + evaluation.checks.map(\.obligation)
        where !result.contains(obligation) {
            result.append(obligation)
        }
        return result
    }

    /// `regression`, `improvement` or `new` against the baseline; nil without one or unchanged.
    static func change(_ caseID: String, _ report: RunReport) -> String? {
        guard let baseline = report.baseline else { return nil }
        if let found = baseline.change(of: caseID) { return found.regressed ? "regression" : "improvement" }
        return baseline.newCases.contains(caseID) ? "new" : nil
    }

    /// The `data-` attributes of a case's `<details>`.
    static func attributes(_ evaluation: CaseEvaluation, _ report: RunReport) -> String {
        var search = [evaluation.caseID, evaluation.conformanceCase?.title ?? "", evaluation.reason ?? ""]
        search += evaluation.checks.filter(\.isFinding).flatMap { [$0.obligation, $0.actual, $0.expected] }
        var html = " data-verdict=\"\(evaluation.verdict.rawValue)\""
        html += " data-obligations=\"\(XMLText.escape(obligations(evaluation).joined(separator: " ")))\""
        if let change = change(evaluation.caseID, report) { html += " data-change=\"\(change)\"" }
        return html + " data-search=\"\(XMLText.escape(search.joined(separator: " ").lowercased()))\""
    }

    /// The bar: a checkbox per verdict that occurs (with its count of matching cases), the
    /// baseline changes when there is a baseline, an obligation list, a search field, and how
    /// many cases are shown.
    static func form(_ report: RunReport) -> String {
        let summary = report.summary
        var html = "<form id=\"filters\" class=\"filters\" hidden><fieldset><legend>verdict</legend>"
        for verdict in VerdictOrder.reading where summary[verdict, default: 0] > 0 {
            html += "<label class=\"chip \(verdict.rawValue)\"><input type=\"checkbox\" name=\"verdict\""
            html += " value=\"\(verdict.rawValue)\" checked> \(verdict.rawValue) <span class=\"n\">"
            html += "\(summary[verdict, default: 0])</span></label>"
        }
        html += "</fieldset>"
        if let baseline = report.baseline {
            html += "<fieldset><legend>baseline</legend>"
            let choices = [
                ("", "all", report.evaluations.count), ("regression", "regressed", baseline.regressions.count),
                ("improvement", "improved", baseline.improvements.count), ("new", "new", baseline.newCases.count),
            ]
            for (value, label, count) in choices {
                html += "<label class=\"chip\"><input type=\"radio\" name=\"change\" value=\"\(value)\""
                html += "\(value.isEmpty ? " checked" : "")> \(label) (\(count))</label>"
            }
            html += "</fieldset>"
        }
        var cases: [String: Int] = [:]
        var found: [String: Int] = [:]
        for evaluation in report.evaluations {
            for obligation in obligations(evaluation) { cases[obligation, default: 0] += 1 }
            for obligation in Set(evaluation.checks.filter(\.isFinding).map(\.obligation)) {
                found[obligation, default: 0] += 1
            }
        }
        html += "<label>obligation <select name=\"obligation\"><option value=\"\">any</option>"
        for obligation in cases.keys.sorted(by: NaturalOrder.precedes) {
            let findings = found[obligation].map { ", found in \($0)" } ?? ""
            html += "<option value=\"\(XMLText.escape(obligation))\">\(XMLText.escape(obligation))"
            html += " (\(cases[obligation, default: 0]) case\(cases[obligation] == 1 ? "" : "s")\(findings))</option>"
        }
        html += "</select></label><label>search <input type=\"search\" name=\"q\""
        html += " placeholder=\"case id, title, finding\"></label>"
        html += "<button type=\"button\" id=\"clear-filters\">show all</button>"
        return html + "<output id=\"shown\">\(report.evaluations.count) cases</output></form>\n"
    }

    /// What the baseline comparison found, above the summary bar; empty without a baseline.
    static func baselineSection(_ report: RunReport) -> String {
        guard let baseline = report.baseline else { return "" }
        var html = "<section id=\"baseline\" class=\"baseline\"><h2>Against the baseline</h2><p>"
        html +=
            baseline.file.map { "Compared with <code>\(XMLText.escape($0))</code>: " } ?? "Compared with a baseline: "
        let regressions = baseline.regressions.count
        html += "<span class=\"\(regressions > 0 ? "change regression" : "")\">"
        html += "\(regressions) regression\(regressions == 1 ? "" : "s")</span>, "
        html += "\(baseline.improvements.count) improvement\(baseline.improvements.count == 1 ? "" : "s"), "
        html += "\(baseline.newCases.count) new, \(baseline.missingCases.count) missing.</p>"
        let changes = baseline.regressions.map { ($0, true) } + baseline.improvements.map { ($0, false) }
        if !changes.isEmpty {
            html += "<table><tr><th>case</th><th>change</th><th>baseline</th><th>now</th><th>new findings</th></tr>"
            for (change, regressed) in changes {
                let id = XMLText.escape(change.caseID)
                html +=
                    "<tr class=\"\(regressed ? "regression" : "improvement")\"><td><a href=\"#\(id)\">\(id)</a></td>"
                html +=
                    "<td><span class=\"change \(regressed ? "regression\">regressed" : "improvement\">improved")</span></td>"
                html += "<td class=\"\(change.baselineVerdict.rawValue)\">\(change.baselineVerdict.rawValue)</td>"
                html += "<td class=\"\(change.verdict.rawValue)\">\(change.verdict.rawValue)</td>"
                html += "<td>\(XMLText.escape(change.newFailedChecks.joined(separator: " ")))</td></tr>"
            }
            html += "</table>"
        }
        if !baseline.missingCases.isEmpty {
            html +=
                "<p>Missing against the baseline: \(XMLText.escape(baseline.missingCases.joined(separator: ", ")))</p>"
        }
        return html + "</section>\n"
    }

    /// The case's badge beside its verdict, and the line in its section, when it changed.
    static func changeBadge(_ caseID: String, _ report: RunReport) -> (badge: String, line: String) {
        guard let baseline = report.baseline else { return ("", "") }
        if let (change, regressed) = baseline.change(of: caseID) {
            let kind = regressed ? "regression" : "improvement"
            let badge =
                " <span class=\"change \(kind)\" title=\"baseline: \(change.baselineVerdict.rawValue)\">"
                + "\(regressed ? "regressed" : "improved") · baseline \(change.baselineVerdict.rawValue)</span>"
            var line = "<p class=\"changed \(kind)\">Baseline verdict <b>\(change.baselineVerdict.rawValue)</b>, now "
            line += "<b>\(change.verdict.rawValue)</b>"
            if !change.newFailedChecks.isEmpty {
                line += "; new findings: \(XMLText.escape(change.newFailedChecks.joined(separator: ", ")))"
            }
            return (badge, line + "</p>")
        }
        guard baseline.newCases.contains(caseID) else { return ("", "") }
        return (" <span class=\"change new\">new vs the baseline</span>", "")
    }
}
