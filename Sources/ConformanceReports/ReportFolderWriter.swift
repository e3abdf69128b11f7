import ConformanceChecks
package import Foundation

/// Writes the contract's report folder: `index.json`, `junit.xml`, `summary.md`,
/// `report.html` and `cases/<case-id>.json`.
package enum ReportFolderWriter {
    /// The default folder: `reports/runs/<client>/<YYYYMMDD-HHMMSS>/` under `root`.
    package static func defaultDirectory(root: URL, client: String, started: Date) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let safe = String(client.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(60))
        return root.appendingPathComponent("reports/runs/\(safe.isEmpty ? "client" : safe)/\(formatter.string(from: started))")
    }

    /// Writes every file into `directory` (created if needed).
    /// - Throws: the file system's error (a harness error).
    package static func write(_ report: RunReport, to directory: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("cases"), withIntermediateDirectories: true)
        try save(IndexWriter.text(report), directory.appendingPathComponent("index.json"))
        try save(JUnitWriter.text(report), directory.appendingPathComponent("junit.xml"))
        try save(SummaryWriter.text(report), directory.appendingPathComponent("summary.md"))
        try save(HTMLReportWriter.text(report), directory.appendingPathComponent("report.html"))
        for evaluation in report.evaluations {
            try save(CaseReportWriter.text(evaluation), directory.appendingPathComponent(RunReport.caseReportPath(evaluation.caseID)))
        }
    }

    private static func save(_ text: String, _ url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
