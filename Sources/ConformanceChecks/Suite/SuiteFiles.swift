/// The files of a conformance tree as bytes, keyed by path relative to the repository root
/// (`conformance/suites/qwen-realtime/cases/session/qrt.session.001.json`). Reading them is
/// the caller's job (ConformanceHarness' `SuiteDirectoryReader` reads a checkout with
/// Foundation), so loading and lint stay pure.
package struct SuiteFiles: Sendable {
    /// Path → content.
    package var files: [String: [UInt8]]

    /// Creates a tree.
    package init(files: [String: [UInt8]] = [:]) { self.files = files }

    /// Paths under `prefix` ending in `suffix`, sorted.
    package func paths(under prefix: String, suffix: String = ".json") -> [String] {
        files.keys.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }

    /// The content of `path` as text.
    package func text(_ path: String) -> String? { files[path].map { String(decoding: $0, as: UTF8.self) } }

    /// The file name without folders and extension.
    package static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }

    /// Names of shipped scenarios (`mock-server/scenarios/<name>.json`).
    package var shippedScenarios: Set<String> { Set(paths(under: "mock-server/scenarios/").map(Self.baseName)) }
}

/// A lint or load message, printed `FILE:LINE:COLUMN: message`.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    package enum Severity: String, Sendable, Hashable {
        case error, note
    }

    /// The file path.
    package var file: String
    /// 1-based line (1 when unknown).
    package var line: Int
    /// 1-based column (1 when unknown).
    package var column: Int
    /// What is wrong.
    package var message: String
    /// Error or note.
    package var severity: Severity

    /// Creates a diagnostic.
    package init(file: String, line: Int = 1, column: Int = 1, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
    }

    package var description: String {
        "\(file):\(line):\(column): \(severity == .note ? "note: " : "")\(message)"
    }
}
