import CLISupport
import Glibc
import JSONSchema

/// `conformance schema-suite [DIR]`: passed / failed per file of the official suite.
enum SchemaSuiteCommand: AsyncCommand {
    static let optional = FlagOption(
        "--optional", help: "Also run tests/draft2020-12/optional (reported, never required).")
    static let configuration = CommandConfiguration(
        name: "schema-suite",
        abstract: "Run the official JSON-Schema-Test-Suite (draft 2020-12) against the validator.",
        options: [optional],
        positionals: [
            PositionalSpec(
                "suite-dir",
                help:
                    "The suite's folder (with tests/ and remotes/); default: the copy vendored in Tests/JSONSchemaTests.",
                optional: true)
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let directory = arguments.positional("suite-dir") ?? "Tests/JSONSchemaTests/JSON-Schema-Test-Suite"
        let results: [JSONSchemaTestSuite.FileResult]
        do {
            results = try JSONSchemaTestSuite.run(
                suiteDirectory: directory, includeOptional: arguments.value(of: optional))
        } catch {
            ConformanceCommand.fail("schema-suite: \(error)")
        }
        var requiredFailed = 0
        var passed = 0
        var failed = 0
        ConformanceCommand.printLine(pad("passed", 7) + pad("failed", 7) + "file")
        for result in results {
            ConformanceCommand.printLine(pad(String(result.passed), 7) + pad(String(result.failed), 7) + result.file)
            for failure in result.failures.prefix(5) { ConformanceCommand.printLine("    ✘ \(failure)") }
            passed += result.passed
            failed += result.failed
            if !result.file.contains("optional/") { requiredFailed += result.failed }
        }
        ConformanceCommand.printLine("schema-suite: \(passed) passed, \(failed) failed")
        exit(requiredFailed == 0 && !results.isEmpty ? 0 : 1)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - text.count)) + text + " "
    }
}
