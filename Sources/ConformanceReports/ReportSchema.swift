package import FoundationEssentials
import JSONSchema
package import WireJSON

/// The published JSON Schemas of the report files, and validation against them with the
/// package's own validator (tests, harness end-to-end tests, `conformance merge`).
package enum ReportSchema {
    /// `$id` of the index.json schema, also written as index.json's `"$schema"`.
    package static let indexID = "https://dialogmock.dev/schemas/report-index/v1.json"
    /// index.json's `"schemaVersion"`: bumped when a key is removed or changes meaning
    /// (adding an optional key keeps the version).
    package static let indexVersion = 1
    /// The index.json schema, relative to the repository root.
    package static let indexSchemaPath = "conformance/schema/report-index.v1.schema.json"
    /// The CTRF schema ctrf.json is checked against, relative to the repository root.
    package static let ctrfSchemaPath = "conformance/schema/ctrf.schema.json"

    /// Every way `document` fails the schema in `schemaFile`, as `at /pointer: keyword k:
    /// message` lines; empty when it is valid. A schema that cannot be read or compiled is
    /// reported as one line naming the file. Formats (`date-time`) are asserted.
    package static func validate(_ document: JSONValue, schemaFile: URL) -> [String] {
        let schema: JSONValue
        do {
            schema = try JSONValue.decode(Array(try Data(contentsOf: schemaFile)))
        } catch {
            return ["\(schemaFile.path): cannot read the schema: \(error)"]
        }
        do {
            let validator = try JSONSchemaValidator(
                schema: schema, baseURI: schemaFile.absoluteString, assertFormats: true)
            return validator.validate(document).map(\.description)
        } catch {
            return ["\(schemaFile.path): the schema does not compile: \(error)"]
        }
    }

    /// ``validate(_:schemaFile:)`` against the index.json schema under `repositoryRoot`.
    package static func validateIndex(_ index: JSONValue, repositoryRoot: URL) -> [String] {
        validate(index, schemaFile: repositoryRoot.appendingPathComponent(indexSchemaPath))
    }
}
