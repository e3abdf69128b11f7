import CLISupport
import Glibc
import JSONSchema

/// `conformance`: the conformance harness. This build carries the JSON Schema validator's proof
/// against the official JSON-Schema-Test-Suite; the case runner comes with its own issue.
@main
enum ConformanceCommand {
    static let schemaSuite = CommandSpec(
        name: "schema-suite",
        abstract: "Run the official JSON-Schema-Test-Suite (draft 2020-12) against the validator.",
        options: [.flag("--optional", help: "Also run tests/draft2020-12/optional (reported, never required).")],
        positionals: [PositionalSpec("suite-dir", help: "The suite's folder (with tests/ and remotes/).", optional: true)]
    )

    static let spec = CommandSpec(
        name: "conformance",
        abstract: "Conformance harness for the multimodal-dialog and Qwen realtime protocols.",
        options: [],
        subcommands: [schemaSuite]
    )

    static func main() {
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        switch arguments.subcommand {
        case "schema-suite": runSchemaSuite(arguments)
        default: CommandLineRunner.exit(with: CommandLineError("missing subcommand", commandPath: ["conformance"]), spec: spec)
        }
    }

    /// Prints `passed failed file` per file and a total; exit 0 only when no required test failed.
    static func runSchemaSuite(_ arguments: ParsedArguments) -> Never {
        let directory = arguments.positional("suite-dir") ?? "../shared/json-schema-test-suite"
        let results: [JSONSchemaTestSuite.FileResult]
        do {
            results = try JSONSchemaTestSuite.run(suiteDirectory: directory, includeOptional: arguments.flag("--optional"))
        } catch {
            printLine("conformance schema-suite: \(error)", to: 2)
            exit(3)
        }
        var requiredFailed = 0
        var passed = 0
        var failed = 0
        printLine(pad("passed", 7) + pad("failed", 7) + "file")
        for result in results {
            printLine(pad(String(result.passed), 7) + pad(String(result.failed), 7) + result.file)
            for failure in result.failures.prefix(5) { printLine("    ✘ \(failure)") }
            passed += result.passed
            failed += result.failed
            if !result.file.contains("optional/") { requiredFailed += result.failed }
        }
        printLine("schema-suite: \(passed) passed, \(failed) failed")
        exit(requiredFailed == 0 && !results.isEmpty ? 0 : 1)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - text.count)) + text + " "
    }

    static func printLine(_ line: String, to descriptor: Int32 = 1) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
    }
}
