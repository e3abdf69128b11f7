/// A suite as loaded from `conformance/suites/<name>/`: its definition and cases, with the
/// file of each case and the example transcripts found beside them.
package struct LoadedSuite: Sendable {
    /// The folder (`conformance/suites/qwen-realtime`).
    package var directory: String
    /// `suite.json`.
    package var definition: SuiteDefinition
    /// Cases in section order, then id order.
    package var cases: [ConformanceCase]
    /// Case id → case file path.
    package var caseFiles: [String: String]

    /// Creates a suite.
    package init(directory: String, definition: SuiteDefinition, cases: [ConformanceCase], caseFiles: [String: String])
    {
        self.directory = directory
        self.definition = definition
        self.cases = cases
        self.caseFiles = caseFiles
    }

    /// The path of an example transcript (`kind` = `pass` or `fail`).
    package func examplePath(caseID: String, kind: String) -> String {
        "\(directory)/examples/\(caseID).\(kind).json"
    }

    /// A case's `scenario` naming a recorded scenario file (`mock-server record-to-scenario`) by its
    /// path in the suite's folder: `recorded:recordings/call.json`.
    package static let recordedPrefix = "recorded:"

    /// The path of a suite-local scenario: `scenarios/NAME.json`, or the file a `recorded:PATH`
    /// name gives, in the suite's folder.
    package func scenarioPath(_ name: String) -> String {
        if name.hasPrefix(Self.recordedPrefix) { return "\(directory)/\(name.dropFirst(Self.recordedPrefix.count))" }
        return "\(directory)/scenarios/\(name).json"
    }

    /// The case with `id` (matrix variants resolve to their case).
    package func conformanceCase(id: String) -> ConformanceCase? {
        let base = String(id.split(separator: "/")[0])
        return cases.first { $0.id == base }?.expanded().first { $0.id == id }
    }
}
