import Foundation
import JSONSchema
import ProtocolModel
import ScenarioEngine
import WireJSON

/// Validates the mock's outgoing text frames (from a session journal) against the server
/// message schemas in conformance/protocols/<protocol>/server/<event>.json.
enum ServerFrameSchemas {
    static let folder = SDKProcess.root.appendingPathComponent("conformance/protocols")

    /// Validators by event type for one protocol, sharing one registry of all its schemas.
    static func validators(for protocolName: String) throws -> [String: JSONSchemaValidator] {
        var registry = SchemaRegistry()
        var documents: [(path: String, uri: String, value: JSONValue)] = []
        for side in ["", "client/", "server/"] {
            let directory = folder.appendingPathComponent("\(protocolName)/\(side)")
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasSuffix(".json") {
                guard side != "" || file == "common.json" else { continue }
                let value = try JSONValue.decode(Array(try Data(contentsOf: directory.appendingPathComponent(file))))
                let uri = "https://dialogmock.dev/schemas/\(protocolName)/\(side)\(file)"
                try registry.add(document: value, retrievalURI: uri)
                documents.append((side + file, uri, value))
            }
        }
        var result: [String: JSONSchemaValidator] = [:]
        for document in documents where document.path.hasPrefix("server/") {
            let event = String(document.path.dropFirst("server/".count).dropLast(".json".count))
            result[event] = try JSONSchemaValidator(schema: document.value, registry: registry, baseURI: document.uri)
        }
        return result
    }

    /// Problems with the server frames of a journal: unknown event types and schema failures.
    static func problems(journal: String, protocolName: String) throws -> [String] {
        let validators = try validators(for: protocolName)
        var problems: [String] = []
        var checked = 0
        for entry in try JournalEntry.decodeLines(journal) where entry.direction == .out && entry.kind == .text {
            guard let json = entry.json, let event = entry.eventType else { continue }
            guard let validator = validators[event] else {
                problems.append("no server schema for event \(event)")
                continue
            }
            checked += 1
            for failure in validator.validate(json) { problems.append("\(event): \(failure)") }
        }
        if checked == 0 { problems.append("no server text frame in the journal") }
        return problems
    }
}

extension ServerFrameSchemas {
    /// Problems of a scenario file against `conformance/schema/scenario.schema.json`.
    static func scenarioProblems(_ text: String) throws -> [String] {
        let schema = try JSONValue.decode(
            Array(
                try Data(contentsOf: SDKProcess.root.appendingPathComponent("conformance/schema/scenario.schema.json")))
        )
        return try JSONSchemaValidator(schema: schema).validate(try JSONValue.decode(text)).map(\.description)
    }
}
