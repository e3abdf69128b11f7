import Foundation
import JSONSchema
import Testing

@Suite struct JSONSchemaTestSuiteTests {
    /// The official suite, vendored beside this file (`JSON-Schema-Test-Suite/`, MIT, see its
    /// README), or the folder named by JSON_SCHEMA_TEST_SUITE (e.g. a newer upstream copy).
    static let suiteDirectory: String = {
        if let custom = ProcessInfo.processInfo.environment["JSON_SCHEMA_TEST_SUITE"] { return custom }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "JSON-Schema-Test-Suite"
        ).path
    }()

    @Test func everyRequiredDraft2020_12TestPasses() throws {
        let results = try JSONSchemaTestSuite.run(suiteDirectory: Self.suiteDirectory, includeOptional: false)
        print(Self.table(results))
        #expect(!results.isEmpty)
        for result in results {
            #expect(
                result.failed == 0, Comment(rawValue: "\(result.file):\n  " + result.failures.joined(separator: "\n  "))
            )
        }
    }

    /// Optional tests (bignum, ecmascript-regex, format assertions, ...) are reported, not required.
    @Test func optionalResultsAreReported() throws {
        let results = try JSONSchemaTestSuite.run(suiteDirectory: Self.suiteDirectory, includeOptional: true)
            .filter { $0.file.hasPrefix("optional/") }
        print(results.isEmpty ? "no optional tests in \(Self.suiteDirectory)" : Self.table(results))
        for result in results where result.failed > 0 {
            print("\(result.file):\n  " + result.failures.joined(separator: "\n  "))
        }
    }

    static func table(_ results: [JSONSchemaTestSuite.FileResult]) -> String {
        let width = max(results.map(\.file.count).max() ?? 0, 4)
        var lines = ["file".padding(width) + "  passed  failed"]
        for result in results {
            lines.append(
                result.file.padding(width) + "  " + String(result.passed).leftPadding(6) + "  "
                    + String(result.failed).leftPadding(6))
        }
        let passed = results.reduce(0) { $0 + $1.passed }
        let failed = results.reduce(0) { $0 + $1.failed }
        lines.append(
            "total".padding(width) + "  " + String(passed).leftPadding(6) + "  " + String(failed).leftPadding(6))
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    fileprivate func leftPadding(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
