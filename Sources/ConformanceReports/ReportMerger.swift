package import ConformanceChecks
package import FoundationEssentials
import WireJSON

/// Joins the report folders of `conformance run --shard K/N` runs into one folder, as one
/// unsharded run would have written it: each shard's `cases/*.json` is read back
/// (``CaseReportReader``), so index.json (summary, findings, latency percentiles over every
/// sample), junit.xml, ctrf.json, summary.md and report.html are regenerated from all cases in
/// suite order; the case files are copied as they are, with the client stderr files.
package enum ReportMerger {
    /// Why the folders cannot be merged; the message names the folder or file.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The protocol a report folder is about (to load its suite before merging).
    /// - Throws: ``Failure`` when the folder has no readable index.json.
    package static func protocolName(of folder: URL) throws(Failure) -> String {
        try protocolName(try index(of: folder), folder)
    }

    /// The merged run.
    /// - Parameters:
    ///   - folders: the shard folders (each with index.json and cases/).
    ///   - caseOrder: the suite's case ids in order (matrix variants expanded); defaults to the
    ///     order of `suite`, else ids in natural order. Cases it does not list go last.
    ///   - suite: the suite the runs used: its cases, section titles and case files make the
    ///     merged reports equal an unsharded run's; without it the cases are rebuilt from the
    ///     case reports (title, spec, obligations).
    /// - Throws: ``Failure``: no folders, a folder without index.json or with an unreadable
    ///   case report, shards of different protocols, a case in two shards.
    ///   - strict: whether the merged run is `--strict`; nil = whether any shard's index says so.
    package static func merge(
        _ folders: [URL], caseOrder: [String]? = nil, suite: LoadedSuite? = nil, strict: Bool? = nil
    ) throws(Failure) -> RunReport {
        try read(folders, caseOrder: caseOrder, suite: suite, strict: strict).report
    }

    /// ``merge(_:caseOrder:suite:strict:)`` and writes the merged folder to `output`.
    /// - Returns: the merged run.
    /// - Throws: ``Failure``, also for a file that cannot be written.
    @discardableResult
    package static func write(
        _ folders: [URL], to output: URL, caseOrder: [String]? = nil, suite: LoadedSuite? = nil,
        strict: Bool? = nil
    ) throws(Failure) -> RunReport {
        let (report, caseFiles) = try read(folders, caseOrder: caseOrder, suite: suite, strict: strict)
        do {
            try ReportFolderWriter.writeRunFiles(report, to: output)
            for (path, bytes) in caseFiles {
                try Data(bytes).write(to: output.appendingPathComponent(path), options: .atomic)
            }
            try ReportFolderWriter.writeStderr(report, to: output)
        } catch {
            throw Failure(description: "\(output.path): cannot write the merged report: \(error)")
        }
        return report
    }

    /// The merged report and the case files' bytes by path inside the folder.
    private static func read(
        _ folders: [URL], caseOrder: [String]?, suite: LoadedSuite?, strict: Bool?
    ) throws(Failure) -> (report: RunReport, caseFiles: [String: [UInt8]]) {
        guard let first = folders.first else { throw Failure(description: "no report folders to merge") }
        var protocolName = ""
        var client = ""
        var started: Date?
        var toolVersion = ""
        var anyStrict = false
        var repeatCount = 1
        var budgets: [String: Double] = [:]
        var evaluations: [CaseEvaluation] = []
        var stderr: [String: String] = [:]
        var caseFiles: [String: [UInt8]] = [:]
        var shardOf: [String: URL] = [:]
        for folder in folders {
            let index = try index(of: folder)
            let name = try self.protocolName(index, folder)
            if folder == first {
                protocolName = name
                client = index["client"]?.stringValue ?? ""
            } else if name != protocolName {
                throw Failure(description: "\(folder.path): protocol \(name), but \(first.path) is \(protocolName)")
            }
            if let text = index["started"]?.stringValue, let date = parseDate(text) {
                started = min(started ?? date, date)
            }
            anyStrict = anyStrict || index["strict"]?.boolValue == true
            repeatCount = max(repeatCount, Int(index["repeat"]?.intValue ?? 1))
            if toolVersion.isEmpty { toolVersion = index["toolVersion"]?.stringValue ?? "" }
            for (metric, value) in index["latencyBudgets"]?.objectValue ?? [:] { budgets[metric] = value.doubleValue }
            for entry in index["cases"]?.arrayValue ?? [] {
                guard let id = entry["id"]?.stringValue else {
                    throw Failure(description: "\(folder.path)/index.json: a case without \"id\"")
                }
                if let other = shardOf[id] {
                    throw Failure(description: "case \(id) is in both \(other.path) and \(folder.path)")
                }
                shardOf[id] = folder
                let path = entry["report"]?.stringValue ?? RunReport.caseReportPath(id)
                let bytes = try contents(folder.appendingPathComponent(path))
                let document = try decode(bytes, folder.appendingPathComponent(path))
                guard document["id"]?.stringValue == id else {
                    throw Failure(description: "\(folder.path)/\(path): is not the report of \(id)")
                }
                do {
                    evaluations.append(
                        try CaseReportReader.evaluation(document, conformanceCase: suite?.conformanceCase(id: id)))
                } catch {
                    throw Failure(description: "\(folder.path)/\(path): \(error.description)")
                }
                caseFiles[RunReport.caseReportPath(id)] = bytes
                let stderrURL = folder.appendingPathComponent(RunReport.caseStderrPath(id))
                if FileManager.default.fileExists(atPath: stderrURL.path) {
                    stderr[id] = String(decoding: try contents(stderrURL), as: UTF8.self)
                }
            }
        }
        let order = caseOrder ?? suite.map { $0.cases.flatMap { $0.expanded() }.map(\.id) }
        var report = RunReport(
            protocolName: protocolName, client: client, started: started ?? Date(timeIntervalSince1970: 0),
            evaluations: sorted(evaluations, order: order), suite: suite?.definition)
        report.clientStderr = stderr
        report.toolVersion = toolVersion
        report.latencyBudgets = budgets
        report.caseFiles = suite?.caseFiles ?? [:]
        report.strict = strict ?? anyStrict
        report.repeatCount = repeatCount
        return (report, caseFiles)
    }

    /// `evaluations` in `order` (ids it lacks last, in natural order); natural id order without one.
    package static func sorted(_ evaluations: [CaseEvaluation], order: [String]?) -> [CaseEvaluation] {
        let position = Dictionary(
            (order ?? []).enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return evaluations.sorted { lhs, rhs in
            let left = position[lhs.caseID] ?? .max
            let right = position[rhs.caseID] ?? .max
            if left != right { return left < right }
            return NaturalOrder.precedes(lhs.caseID, rhs.caseID)
        }
    }

    private static func index(of folder: URL) throws(Failure) -> JSONValue {
        let url = folder.appendingPathComponent("index.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Failure(description: "\(folder.path): no index.json (not a conformance report folder)")
        }
        return try decode(try contents(url), url)
    }

    private static func protocolName(_ index: JSONValue, _ folder: URL) throws(Failure) -> String {
        guard let name = index["protocol"]?.stringValue else {
            throw Failure(description: "\(folder.path)/index.json: no \"protocol\"")
        }
        return name
    }

    private static func contents(_ url: URL) throws(Failure) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw Failure(description: "\(url.path): cannot read: \(fileErrorText(error))")
        }
    }

    private static func decode(_ bytes: [UInt8], _ url: URL) throws(Failure) -> JSONValue {
        do {
            return try JSONValue.decode(bytes)
        } catch {
            throw Failure(description: "\(url.path):\(error.line):\(error.column): \(error.message)")
        }
    }

    private static func parseDate(_ text: String) -> Date? {
        ReportTimestamp.parseISO8601(text)
    }
}
