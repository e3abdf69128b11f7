import ConformanceChecks
package import FoundationEssentials

/// Writes the contract's report folder: `index.json`, `junit.xml`, `ctrf.json`, `summary.md`,
/// `report.html`, `cases/<case-id>.json` and `cases/<case-id>.stderr.txt` (client stderr, when
/// non-empty).
package enum ReportFolderWriter {
    /// The default folder: `reports/runs/<client>/<YYYYMMDD-HHMMSS>/` under `root`.
    package static func defaultDirectory(root: URL, client: String, started: Date) -> URL {
        let safe = String(client.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(60))
        return root.appendingPathComponent(
            "reports/runs/\(safe.isEmpty ? "client" : safe)/\(ReportTimestamp.folderName(started))")
    }

    /// Writes every file into `directory` (created if needed).
    /// - Throws: the file system's error (a harness error).
    package static func write(_ report: RunReport, to directory: URL) throws {
        try writeRunFiles(report, to: directory)
        for evaluation in report.evaluations {
            try save(
                CaseReportWriter.text(evaluation, strict: report.strict),
                directory.appendingPathComponent(RunReport.caseReportPath(evaluation.caseID)))
        }
        try writeStderr(report, to: directory)
    }

    /// The files about the whole run (index.json, junit.xml, ctrf.json, summary.md,
    /// report.html), and the `cases/` folder; not the per-case files.
    /// - Throws: the file system's error.
    package static func writeRunFiles(_ report: RunReport, to directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("cases"), withIntermediateDirectories: true)
        try save(IndexWriter.text(report), directory.appendingPathComponent("index.json"))
        try save(JUnitWriter.text(report), directory.appendingPathComponent("junit.xml"))
        try save(CTRFWriter.text(report), directory.appendingPathComponent("ctrf.json"))
        try save(SummaryWriter.text(report), directory.appendingPathComponent("summary.md"))
        try save(HTMLReportWriter.text(report), directory.appendingPathComponent("report.html"))
    }

    /// Rewrites the files that show a baseline comparison (``RunReport/baseline``): index.json's
    /// `baseline` and report.html's marks; the other files do not change with it.
    /// - Throws: the file system's error.
    package static func writeBaselineFiles(_ report: RunReport, to directory: URL) throws {
        try save(IndexWriter.text(report), directory.appendingPathComponent("index.json"))
        try save(HTMLReportWriter.text(report), directory.appendingPathComponent("report.html"))
    }

    /// `cases/<case-id>.stderr.txt` for every case whose client wrote to stderr.
    /// - Throws: the file system's error.
    package static func writeStderr(_ report: RunReport, to directory: URL) throws {
        for evaluation in report.evaluations {
            guard let text = report.stderr(of: evaluation.caseID) else { continue }
            try save(text, directory.appendingPathComponent(RunReport.caseStderrPath(evaluation.caseID)))
        }
    }

    static func save(_ text: String, _ url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
