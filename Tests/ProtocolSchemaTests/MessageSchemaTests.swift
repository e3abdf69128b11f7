import Foundation
import JSONSchema
import Testing
import WireJSON

/// Every message schema compiles, is a valid draft 2020-12 schema, resolves all its `$ref`s,
/// names its spec section and obligations, and never closes an object to unknown keys.
@Suite("Message schemas")
struct MessageSchemaTests {
    @Test func everyFileLoads() {
        for name in ProtocolFiles.protocols {
            let set = ProtocolFiles.schemaSets[name]
            #expect(set?.loadErrors == [], "\(set?.loadErrors ?? [])")
            #expect((set?.documents.count ?? 0) > 10, "\(name): schemas missing")
        }
    }

    @Test(arguments: ProtocolFiles.allSchemaKeys)
    func schemaCompiles(key: String) throws {
        let validator = try ProtocolFiles.validator(key)
        let (name, path) = split(key)
        #expect(validator.rootURI == ProtocolFiles.idBase + key)
        let document = try #require(ProtocolFiles.schemaSets[name]?.documents[path])
        #expect(document["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(document["$id"]?.stringValue == ProtocolFiles.idBase + key, "$id must match the file's place")
    }

    @Test(arguments: ProtocolFiles.allSchemaKeys)
    func schemaIsValidAgainstTheMetaschema(key: String) throws {
        let (name, path) = split(key)
        let document = try #require(ProtocolFiles.schemaSets[name]?.documents[path])
        let metaschema = try JSONSchemaValidator(
            schema: try JSONValue.decode(#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#))
        let failures = metaschema.validate(document)
        #expect(failures.isEmpty, "\(failures.map(\.description))")
    }

    @Test(arguments: ProtocolFiles.allSchemaKeys)
    func everyReferenceResolves(key: String) throws {
        let (name, path) = split(key)
        let set = try #require(ProtocolFiles.schemaSets[name])
        let document = try #require(set.documents[path])
        let base = try #require(URL(string: set.uri(of: path)))
        for (pointer, ref) in ProtocolFiles.references(in: document) {
            let absolute = try #require(
                URL(string: ref, relativeTo: base)?.absoluteString, "\(key)\(pointer): bad $ref \(ref)")
            // The target must exist in a file of this protocol …
            let parts = absolute.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            #expect(
                parts[0].hasPrefix(ProtocolFiles.idBase + name + "/"), "\(key)\(pointer): \(ref) leaves the protocol")
            let targetPath = String(parts[0].dropFirst((ProtocolFiles.idBase + name + "/").count))
            let target = try #require(set.documents[targetPath], "\(key)\(pointer): \(ref) names a missing file")
            let fragment = parts.count > 1 ? parts[1] : ""
            #expect(
                try JSONPointer(parsing: "#" + fragment).resolve(in: target) != nil,
                "\(key)\(pointer): \(ref) names a missing definition")
            // … and the validator must resolve it through the registry.
            #expect(throws: Never.self, "\(key)\(pointer): \(ref)") {
                try JSONSchemaValidator(schema: .object(["$ref": .string(absolute)]), registry: set.registry)
            }
        }
    }

    @Test(arguments: ProtocolFiles.allSchemaKeys)
    func schemaNamesItsSectionAndObligations(key: String) throws {
        let (name, path) = split(key)
        let document = try #require(ProtocolFiles.schemaSets[name]?.documents[path])
        let title = document["title"]?.stringValue ?? ""
        let description = document["description"]?.stringValue ?? ""
        #expect(!title.isEmpty)
        #expect(description.contains("§"), "description must name the spec section")
        if path != "common.json" {
            let prefix = try #require(ProtocolFiles.obligationPrefixes[name])
            #expect(description.contains(prefix), "description must name the obligation ids (\(prefix)…)")
        }
    }

    /// The spec requires tolerating newer optional fields: no schema closes an object.
    @Test(arguments: ProtocolFiles.allSchemaKeys)
    func schemaToleratesUnknownKeys(key: String) throws {
        let (name, path) = split(key)
        let document = try #require(ProtocolFiles.schemaSets[name]?.documents[path])
        #expect(ProtocolFiles.closedObjects(in: document) == [])
    }

    private func split(_ key: String) -> (String, String) {
        let slash = key.firstIndex(of: "/")!
        return (String(key[..<slash]), String(key[key.index(after: slash)...]))
    }
}
