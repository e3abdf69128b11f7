import ConformanceChecks
package import FoundationEssentials
package import WireJSON

/// `conformance matrix`'s files: `matrix.html`, one self-contained page (inline CSS, no
/// scripts) with a table per protocol — cases down, runs across, the verdict in each cell
/// linking to the run's case report, verdict counts on top — and the p50 of every latency
/// metric per run; and `matrix.json`, the same data with sorted keys (reports/README.md).
package enum MatrixWriter {
    /// matrix.json.
    /// - Parameter directory: where the file goes; links and folders are relative to it.
    package static func json(_ matrix: ClientMatrix, directory: URL, generated: Date = Date()) -> JSONValue {
        let columns: [JSONValue] = matrix.columns.map { column in
            var object: JSONObject = [
                "label": .string(column.label), "protocol": .string(column.protocolName),
                "client": .string(column.client),
                "started": .string(column.started),
                "folder": .string(ClientMatrix.relativePath(URL(fileURLWithPath: column.folder).path, from: directory)),
                "repeat": .int(Int64(column.repeatCount)),
                "summary": .object(JSONObject(column.summary.map { ($0.key, JSONValue.int(Int64($0.value))) })),
            ]
            object["toolVersion"] = column.toolVersion.map(JSONValue.string)
            return .object(object)
        }
        let rows: [JSONValue] = matrix.rows.map { row in
            var cells = JSONObject()
            for (label, cell) in row.cells {
                var object: JSONObject = [
                    "verdict": .string(cell.verdict.rawValue), "flaky": .bool(cell.flaky),
                    "failedChecks": .array(cell.failedChecks.map(JSONValue.string)),
                    "report": .string(ClientMatrix.relativePath(cell.report, from: directory)),
                ]
                object["passRate"] = cell.passRate.map(JSONValue.double)
                cells[label] = .object(object)
            }
            return ["id": .string(row.id), "protocol": .string(row.protocolName), "cells": .object(cells)]
        }
        var latency = JSONObject()
        for protocolName in matrix.protocols {
            var metrics = JSONObject()
            for column in matrix.columns where column.protocolName == protocolName {
                for (metric, p50) in column.latencyP50 {
                    var perRun = metrics[metric]?.objectValue ?? JSONObject()
                    perRun[column.label] = .milliseconds(p50)
                    metrics[metric] = .object(perRun)
                }
            }
            latency[protocolName] = .object(metrics)
        }
        let document: JSONValue = [
            "generated": .string(ReportTimestamp.iso8601(generated)), "columns": .array(columns),
            "rows": .array(rows), "latencyP50": .object(latency),
        ]
        return document.sortedKeys
    }

    /// matrix.html.
    package static func html(_ matrix: ClientMatrix, directory: URL, generated: Date = Date()) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Conformance matrix</title>"
        html +=
            "<style>\(HTMLReportWriter.style)td.cell{text-align:center;white-space:nowrap}td.cell a{text-decoration:none}"
        html +=
            "td.cell.pass{background:#e6f4ea}td.cell.fail,td.cell.error{background:#fce8e6}td.cell.nonStrict,td.cell.informational{background:#fef7e0}"
        html +=
            "td.cell.unimplemented,td.cell.skipped{background:#f1f3f4}td.none{color:#aaa;text-align:center}th.run{max-width:14em}"
        html +=
            "</style></head><body>\n<h1>Conformance matrix</h1><p>\(matrix.columns.count) runs · generated \(ReportTimestamp.iso8601(generated))."
        html +=
            " A cell is the run's verdict on the case and links to its case report; <span class=\"flaky\">flaky</span> marks a"
        html += " case whose verdict changed between <code>--repeat</code> runs.</p>\n"
        for protocolName in matrix.protocols {
            let columns = matrix.columns.filter { $0.protocolName == protocolName }
            let rows = matrix.rows.filter { $0.protocolName == protocolName }
            html += "<h2>\(XMLText.escape(protocolName))</h2>\n<table><tr><th>case</th>"
            for column in columns {
                html += "<th class=\"run\" title=\"\(XMLText.escape(column.client))\">\(XMLText.escape(column.label))"
                html +=
                    "<br><small>\(XMLText.escape(column.started))\(column.repeatCount > 1 ? " ×\(column.repeatCount)" : "")</small></th>"
            }
            html += "</tr>\n<tr><th>verdicts</th>"
            for column in columns {
                let counts = VerdictOrder.reading.compactMap { verdict -> String? in
                    guard let count = column.summary[verdict.rawValue], count > 0 else { return nil }
                    return "<span class=\"\(verdict.rawValue)\">\(count) \(verdict.rawValue)</span>"
                }
                html += "<td>\(counts.joined(separator: "<br>"))</td>"
            }
            html += "</tr>\n"
            for row in rows {
                html += "<tr><td><code>\(XMLText.escape(row.id))</code></td>"
                for column in columns {
                    guard let cell = row.cells[column.label] else {
                        html += "<td class=\"none\">—</td>"
                        continue
                    }
                    let title =
                        cell.failedChecks.isEmpty ? cell.verdict.rawValue : cell.failedChecks.joined(separator: " ")
                    html += "<td class=\"cell \(cell.verdict.rawValue)\" title=\"\(XMLText.escape(title))\">"
                    html +=
                        "<a class=\"\(cell.verdict.rawValue)\" href=\"\(XMLText.escape(ClientMatrix.relativePath(cell.report, from: directory)))\">\(cell.verdict.rawValue)</a>"
                    if cell.flaky {
                        let rate = cell.passRate.map { " \(Int(($0 * 100).rounded())) %" } ?? ""
                        html += " <span class=\"flaky\">flaky\(rate)</span>"
                    }
                    html += "</td>"
                }
                html += "</tr>\n"
            }
            html += "</table>\n"
            let metrics = LatencyMetric.all.filter { metric in columns.contains { $0.latencyP50[metric] != nil } }
            guard !metrics.isEmpty else { continue }
            html += "<h3>Latency p50</h3><table><tr><th>metric</th>"
            for column in columns { html += "<th class=\"run\">\(XMLText.escape(column.label))</th>" }
            html += "</tr>\n"
            for metric in metrics {
                html += "<tr><td>\(XMLText.escape(metric)) (\(LatencyMetric.unit(metric)))</td>"
                for column in columns {
                    guard let p50 = column.latencyP50[metric] else {
                        html += "<td class=\"none\">—</td>"
                        continue
                    }
                    let budget = column.latencyBudgets[metric]
                    let over = budget.map { p50 > $0 } ?? false
                    html +=
                        "<td class=\"\(over ? "fail" : "")\">\(SVGCharts.fixed(p50))\(budget.map { " <small>/ \(SVGCharts.fixed($0))</small>" } ?? "")</td>"
                }
                html += "</tr>\n"
            }
            html += "</table>\n"
        }
        return html + "</body></html>\n"
    }

    /// Writes `matrix.html` and `matrix.json` into `directory` (created if needed).
    /// - Throws: the file system's error.
    package static func write(_ matrix: ClientMatrix, to directory: URL, generated: Date = Date()) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(html(matrix, directory: directory, generated: generated).utf8).write(
            to: directory.appendingPathComponent("matrix.html"), options: .atomic)
        try Data((json(matrix, directory: directory, generated: generated).encodedString(pretty: true) + "\n").utf8)
            .write(to: directory.appendingPathComponent("matrix.json"), options: .atomic)
    }
}
