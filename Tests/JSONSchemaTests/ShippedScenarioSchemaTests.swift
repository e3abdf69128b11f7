import Foundation
import JSONSchema
import Testing
import WireJSON

/// The shipped scenarios are valid against `conformance/schema/scenario.schema.json`, and the
/// schema rejects what the scenario loader rejects.
@Suite("Scenario schema")
struct ShippedScenarioSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func validator() throws -> JSONSchemaValidator {
        let schema = try JSONValue.decode(
            Array(try Data(contentsOf: root.appendingPathComponent("conformance/schema/scenario.schema.json"))))
        return try JSONSchemaValidator(schema: schema)
    }

    static var scenarioFiles: [String] {
        let folder = root.appendingPathComponent("mock-server/scenarios").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }

    @Test(arguments: scenarioFiles)
    func shippedScenarioIsSchemaValid(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("mock-server/scenarios/\(file)")))
        let failures = try Self.validator().validate(try JSONValue.decode(bytes))
        #expect(failures.isEmpty, "\(failures.map(\.description))")
    }

    @Test func schemaRejectsABadDistributionAndAnUnknownKey() throws {
        let validator = try Self.validator()
        #expect(!validator.validate(try JSONValue.decode(#"{"timing": {"events": {"X": {"kind": "gauss"}}}}"#)).isEmpty)
        #expect(!validator.validate(try JSONValue.decode(#"{"tming": {}}"#)).isEmpty)
        #expect(Self.scenarioFiles.count >= 18)
    }
}
