import Foundation
import JSONSchema
import WireJSON

/// The message schemas, examples and AsyncAPI documents under `conformance/protocols/`, loaded
/// once for all tests.
enum ProtocolFiles {
    /// The package root: three levels up from this file (`Tests/ProtocolSchemaTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let protocolsFolder = root.appendingPathComponent("conformance/protocols")
    static let protocols = ["multimodal-dialog", "qwen-realtime", "qwen-audio-live"]
    /// The obligation-id prefix of each protocol (`mmd.C1`).
    static let obligationPrefixes = ["multimodal-dialog": "mmd.", "qwen-realtime": "qrt.", "qwen-audio-live": "qal."]
    /// The `$id` prefix of every message schema.
    static let idBase = "https://dialogmock.dev/schemas/"

    /// One protocol's schemas: relative path (`client/Start.json`) → parsed document, and a
    /// registry holding all of them under their `$id`s.
    struct SchemaSet: Sendable {
        let name: String
        var documents: [String: JSONValue] = [:]
        var registry = SchemaRegistry()
        /// Problems found while loading (unreadable file, bad JSON, registry refusal).
        var loadErrors: [String] = []

        func uri(of relativePath: String) -> String { ProtocolFiles.idBase + name + "/" + relativePath }
    }

    static let schemaSets: [String: SchemaSet] = {
        var sets: [String: SchemaSet] = [:]
        for name in protocols {
            var set = SchemaSet(name: name)
            for relativePath in schemaPaths(of: name) {
                do {
                    let document = try readJSON(protocolsFolder.appendingPathComponent("\(name)/\(relativePath)"))
                    set.documents[relativePath] = document
                    try set.registry.add(document: document, retrievalURI: set.uri(of: relativePath))
                } catch {
                    set.loadErrors.append("\(name)/\(relativePath): \(error)")
                }
            }
            sets[name] = set
        }
        return sets
    }()

    /// Compiled validators by `"<protocol>/<relative path>"`, or the compile error.
    static let validators: [String: Result<JSONSchemaValidator, SchemaError>] = {
        var result: [String: Result<JSONSchemaValidator, SchemaError>] = [:]
        for (name, set) in schemaSets {
            for (path, document) in set.documents {
                result["\(name)/\(path)"] = Result { () throws(SchemaError) in
                    try JSONSchemaValidator(schema: document, registry: set.registry, baseURI: set.uri(of: path))
                }
            }
        }
        return result
    }()

    static func validator(_ key: String) throws -> JSONSchemaValidator {
        guard let entry = validators[key] else { throw TestError("no schema \(key)") }
        return try entry.get()
    }

    /// `common.json`, `client/*.json`, `server/*.json` of a protocol, sorted.
    static func schemaPaths(of name: String) -> [String] {
        var paths = ["common.json"]
        for folder in ["client", "server"] {
            paths += jsonFiles(in: "\(name)/\(folder)").map { "\(folder)/\($0)" }
        }
        return paths
    }

    /// `"<protocol>/<relative path>"` of every schema file, for parameterised tests.
    static var allSchemaKeys: [String] {
        protocols.flatMap { name in schemaPaths(of: name).map { "\(name)/\($0)" } }
    }

    /// The `.json` file names in a folder under `conformance/protocols/`, sorted.
    static func jsonFiles(in folder: String) -> [String] {
        let path = protocolsFolder.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }

    static func fileExists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: protocolsFolder.appendingPathComponent(relativePath).path)
    }

    static func readJSON(_ url: URL) throws -> JSONValue {
        try JSONValue.decode(Array(try Data(contentsOf: url)))
    }

    static func readJSON(_ relativePath: String) throws -> JSONValue {
        try readJSON(protocolsFolder.appendingPathComponent(relativePath))
    }

    /// The message type an example file name names: `session.update.2.json` → `session.update`.
    static func exampleType(_ fileName: String) -> String? {
        var parts = fileName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts.removeLast() == "json", let last = parts.popLast(), Int(last) != nil else {
            return nil
        }
        return parts.joined(separator: ".")
    }

    /// Every `$ref` string in a document with the pointer where it occurs.
    static func references(in value: JSONValue, at pointer: [String] = []) -> [(pointer: String, ref: String)] {
        switch value {
        case .object(let object):
            var found: [(pointer: String, ref: String)] = []
            for (key, child) in object {
                if key == "$ref", case .string(let ref) = child {
                    found.append((JSONPointer(tokens: pointer + [key]).description, ref))
                } else {
                    found += references(in: child, at: pointer + [key])
                }
            }
            return found
        case .array(let array):
            return array.enumerated().flatMap { references(in: $0.element, at: pointer + [String($0.offset)]) }
        default:
            return []
        }
    }

    /// Pointers of every `additionalProperties: false` / `unevaluatedProperties: false`.
    static func closedObjects(in value: JSONValue, at pointer: [String] = []) -> [String] {
        switch value {
        case .object(let object):
            var found: [String] = []
            for (key, child) in object {
                if key == "additionalProperties" || key == "unevaluatedProperties", child == .bool(false) {
                    found.append(JSONPointer(tokens: pointer + [key]).description)
                }
                found += closedObjects(in: child, at: pointer + [key])
            }
            return found
        case .array(let array):
            return array.enumerated().flatMap { closedObjects(in: $0.element, at: pointer + [String($0.offset)]) }
        default:
            return []
        }
    }
}

struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
