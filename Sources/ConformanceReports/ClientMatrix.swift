package import ConformanceChecks
package import FoundationEssentials
import WireJSON

/// Several runs side by side (`conformance matrix`): one column per run (a client on one
/// protocol), one row per case, the verdict in each cell; and the p50 of every latency metric
/// per run. Built from the runs' index.json alone, so any report folder (a run, a merge, an
/// older version's) can join.
package struct ClientMatrix: Sendable {
    /// A matrix that cannot be built, and why; the message names the folder or file.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// One run.
    package struct Column: Sendable {
        /// The name the matrix shows (`LABEL=DIR`, else derived from the client command).
        package var label: String
        package var protocolName: String
        package var client: String
        package var started: String
        package var toolVersion: String?
        /// The run folder as given (links to its case reports go through it).
        package var folder: String
        /// Count per verdict.
        package var summary: [String: Int]
        /// Runs per case (`--repeat`).
        package var repeatCount: Int
        /// p50 per latency metric.
        package var latencyP50: [String: Double]
        /// Budget per metric the run was judged with.
        package var latencyBudgets: [String: Double]
    }

    /// One run's verdict on one case.
    package struct Cell: Sendable {
        package var verdict: Verdict
        package var failedChecks: [String]
        /// The verdict changed between `--repeat` runs.
        package var flaky: Bool
        /// Share of runs that did not fail, under `--repeat`.
        package var passRate: Double?
        /// The case report's absolute path (the writers link it relative to the matrix).
        package var report: String
    }

    /// One case.
    package struct Row: Sendable {
        package var id: String
        package var protocolName: String
        /// Cell per column label (absent: that run did not have the case).
        package var cells: [String: Cell]
    }

    package var columns: [Column]
    /// Cases by protocol (in the order protocols first appear), each in suite order.
    package var rows: [Row]

    /// The protocols in column order, each once.
    package var protocols: [String] {
        var seen: [String] = []
        for column in columns where !seen.contains(column.protocolName) { seen.append(column.protocolName) }
        return seen
    }

    /// Reads the runs. - Parameter runs: `(label, folder)`, label nil for the default
    /// (``defaultLabel(client:)``; a label repeated within a protocol gets ` (2)`, ` (3)` …).
    /// - Throws: ``Failure``: no runs, a folder without a readable index.json, or one without
    ///   `protocol` / `cases`.
    package static func read(_ runs: [(label: String?, folder: String)]) throws(Failure) -> ClientMatrix {
        guard !runs.isEmpty else { throw Failure(description: "no run folders") }
        var columns: [Column] = []
        var rowsByID: [String: Row] = [:]
        var order: [String] = []
        for (label, folder) in runs {
            let url = URL(fileURLWithPath: folder).appendingPathComponent("index.json")
            let index = try readIndex(url)
            guard let protocolName = index["protocol"]?.stringValue, let cases = index["cases"]?.arrayValue else {
                throw Failure(description: "\(url.path): not a conformance run index (no \"protocol\" or \"cases\")")
            }
            let client = index["client"]?.stringValue ?? ""
            var name = label ?? defaultLabel(client: client)
            // Unique within a protocol (a client run on both protocols keeps its name in both).
            let taken = Set(columns.filter { $0.protocolName == protocolName }.map(\.label))
            if taken.contains(name) {
                var suffix = 2
                while taken.contains("\(name) (\(suffix))") { suffix += 1 }
                name = "\(name) (\(suffix))"
            }
            var summary: [String: Int] = [:]
            for (verdict, count) in index["summary"]?.objectValue ?? [:] { summary[verdict] = Int(count.intValue ?? 0) }
            var p50: [String: Double] = [:]
            for (metric, statistics) in index["latency"]?.objectValue ?? [:] {
                p50[metric] = statistics["p50"]?.doubleValue
            }
            var budgets: [String: Double] = [:]
            for (metric, value) in index["latencyBudgets"]?.objectValue ?? [:] { budgets[metric] = value.doubleValue }
            columns.append(
                Column(
                    label: name, protocolName: protocolName, client: client,
                    started: index["started"]?.stringValue ?? "", toolVersion: index["toolVersion"]?.stringValue,
                    folder: folder, summary: summary, repeatCount: Int(index["repeat"]?.intValue ?? 1),
                    latencyP50: p50, latencyBudgets: budgets))
            for entry in cases {
                guard let id = entry["id"]?.stringValue,
                    let verdict = entry["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:))
                else {
                    throw Failure(description: "\(url.path): a case without a valid \"id\" and \"verdict\"")
                }
                let key = protocolName + "\u{0}" + id
                if rowsByID[key] == nil {
                    rowsByID[key] = Row(id: id, protocolName: protocolName, cells: [:])
                    order.append(key)
                }
                let report = entry["report"]?.stringValue ?? RunReport.caseReportPath(id)
                rowsByID[key]?.cells[name] = Cell(
                    verdict: verdict, failedChecks: (entry["failedChecks"]?.arrayValue ?? []).compactMap(\.stringValue),
                    flaky: entry["repeats"]?["flaky"]?.boolValue ?? false,
                    passRate: entry["repeats"]?["passRate"]?.doubleValue,
                    report: URL(fileURLWithPath: folder).appendingPathComponent(report).standardizedFileURL.path)
            }
        }
        var matrix = ClientMatrix(columns: columns, rows: [])
        let protocols = matrix.protocols
        matrix.rows = order.compactMap { rowsByID[$0] }.enumerated().sorted { lhs, rhs in
            let left = protocols.firstIndex(of: lhs.element.protocolName) ?? 0
            let right = protocols.firstIndex(of: rhs.element.protocolName) ?? 0
            return (left, lhs.offset) < (right, rhs.offset)
        }.map(\.element)
        return matrix
    }

    /// A column name from a client command: its program's file name, or for a generic one
    /// (`run`, `adapter`, an interpreter) the folder or script that says which client it is:
    /// `conformance/adapters/dashscope-python/run` → `dashscope-python`,
    /// `.build/debug/dialogmock-adapter --fault x` → `dialogmock-adapter --fault x`.
    package static func defaultLabel(client: String) -> String {
        let words = client.split(separator: " ").map(String.init)
        guard let program = words.first else { return "client" }
        // By the path as written (not resolved against the current folder).
        let parts = program.split(separator: "/").map(String.init).filter { $0 != "." && $0 != ".." }
        var name = parts.last ?? program
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        if ["run", "adapter", "client", "main"].contains(stem), parts.count > 1 {
            name = parts[parts.count - 2]
        } else if ["python", "python3", "sh", "bash", "node"].contains(name), words.count > 1 {
            let script = words[1].split(separator: "/").last.map(String.init) ?? words[1]
            name = script.split(separator: ".").first.map(String.init) ?? script
            return ([name] + words.dropFirst(2)).joined(separator: " ")
        }
        return ([name] + words.dropFirst()).joined(separator: " ")
    }

    /// `path` relative to the folder `base` (both absolute), e.g. `../runs/x/cases/a.json`.
    package static func relativePath(_ path: String, from base: URL) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let from = base.standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, from.count), target[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    private static func readIndex(_ url: URL) throws(Failure) -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw Failure(
                description:
                    "\(url.path): cannot read (is \(url.deletingLastPathComponent().path) a conformance report folder?)"
            )
        }
        do {
            return try JSONValue.decode(Array(data))
        } catch {
            throw Failure(description: "\(url.path):\(error.line):\(error.column): \(error.message)")
        }
    }
}
