internal import FoundationEssentials
import WireJSON

/// Runs the official JSON-Schema-Test-Suite (draft 2020-12) against ``JSONSchemaValidator``.
///
/// Remote documents are read from the suite's `remotes/` folder and registered under
/// `http://localhost:1234/<path>`, the URLs the suite's tests use.
package enum JSONSchemaTestSuite {
    /// The outcome of one test file.
    package struct FileResult: Sendable, Equatable {
        /// Path relative to `tests/draft2020-12/`, e.g. `ref.json` or `optional/bignum.json`.
        package let file: String
        /// Tests whose verdict matched the suite's `valid`.
        package var passed = 0
        /// Tests whose verdict did not (including tests whose schema did not compile).
        package var failed = 0
        /// `case description / test description: expected valid, got invalid (reason)`.
        package var failures: [String] = []
    }

    /// An I/O or JSON problem with the suite itself (not a failing test).
    package struct SuiteError: Error, CustomStringConvertible {
        /// What went wrong, with the file concerned.
        package let description: String
    }

    /// Runs every `*.json` file in `tests/draft2020-12` (and `optional/` when asked), sorted by path.
    package static func run(suiteDirectory: String, includeOptional: Bool) throws -> [FileResult] {
        let testsDirectory = suiteDirectory + "/tests/draft2020-12"
        let registry = try remotesRegistry(suiteDirectory + "/remotes")
        var files = try jsonFiles(in: testsDirectory, recursive: includeOptional)
        files.sort()
        return try files.map { try run(file: $0, in: testsDirectory, registry: registry) }
    }

    private static func run(file: String, in directory: String, registry: SchemaRegistry) throws -> FileResult {
        var result = FileResult(file: file)
        guard case .array(let cases) = try load(directory + "/" + file) else {
            throw SuiteError(description: "\(file): expected an array of test cases")
        }
        for testCase in cases {
            let caseName = testCase["description"]?.stringValue ?? "?"
            let schema = testCase["schema"] ?? .bool(true)
            let validator: JSONSchemaValidator?
            var compileError: String?
            do {
                // The suite's optional/format/ tests are written for format assertion.
                validator = try JSONSchemaValidator(
                    schema: schema, registry: registry, assertFormats: file.hasPrefix("optional/format/"))
            } catch {
                validator = nil
                compileError = error.description
            }
            for test in testCase["tests"]?.arrayValue ?? [] {
                let name = "\(caseName) / \(test["description"]?.stringValue ?? "?")"
                let expected = test["valid"]?.boolValue ?? true
                guard let validator else {
                    result.failed += 1
                    result.failures.append("\(name): schema did not compile: \(compileError ?? "")")
                    continue
                }
                let failures = validator.validate(test["data"] ?? .null)
                if failures.isEmpty == expected && validator.isValid(test["data"] ?? .null) == expected {
                    result.passed += 1
                } else {
                    result.failed += 1
                    let reason = failures.first.map { " (\($0))" } ?? ""
                    result.failures.append("\(name): expected \(expected ? "valid" : "invalid")\(reason)")
                }
            }
        }
        return result
    }

    private static func remotesRegistry(_ directory: String) throws -> SchemaRegistry {
        var registry = SchemaRegistry()
        for file in try jsonFiles(in: directory, recursive: true).sorted() {
            do {
                try registry.add(
                    document: try load(directory + "/" + file), retrievalURI: "http://localhost:1234/" + file)
            } catch let error as SchemaError {
                throw SuiteError(description: "remote \(file): \(error)")
            }
        }
        return registry
    }

    private static func jsonFiles(in directory: String, recursive: Bool) throws -> [String] {
        try paths(in: directory, under: "", recursive: recursive).filter { $0.hasSuffix(".json") }
    }

    /// The entries of `directory/folder`, as paths relative to `directory`; with `recursive`,
    /// the files of every subfolder (symbolic links to folders followed) instead of the folders.
    private static func paths(in directory: String, under folder: String, recursive: Bool) throws -> [String] {
        var paths: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder) {
            let path = folder + name
            var isFolder = false
            if recursive, FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isFolder),
                isFolder
            {
                paths += try Self.paths(in: directory, under: path + "/", recursive: true)
            } else {
                paths.append(path)
            }
        }
        return paths
    }

    private static func load(_ path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SuiteError(description: "cannot read \(path)")
        }
        do {
            return try JSONValue.decode([UInt8](data), options: .allowNul)
        } catch {
            throw SuiteError(description: "\(path):\(error)")
        }
    }
}
