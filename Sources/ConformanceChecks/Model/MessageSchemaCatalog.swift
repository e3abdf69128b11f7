package import JSONSchema
import ProtocolModel
package import WireJSON

/// The message schemas of `conformance/protocols/<protocol>/{client,server}/<type>.json`,
/// compiled once. Keys are `<protocol>/<side>/<type>`.
package struct MessageSchemaCatalog: Sendable {
    private var validators: [String: JSONSchemaValidator] = [:]
    /// Schemas that did not compile, with the reason (a harness problem, reported as `error`).
    package private(set) var brokenSchemas: [String: String] = [:]

    /// An empty catalog.
    package init() {}

    /// Compiles `documents` (key `<protocol>/<side>/<type>` → schema). Documents may `$ref`
    /// each other by their `file://` retrieval URIs under `baseURI`.
    package init(documents: [String: JSONValue], baseURI: String = "file:///conformance/protocols/") {
        var registry = SchemaRegistry()
        for (key, document) in documents.sorted(by: { $0.key < $1.key }) {
            try? registry.add(document: document, retrievalURI: baseURI + key + ".json")
        }
        for (key, document) in documents where key.split(separator: "/").count == 3 {
            do {
                validators[key] = try JSONSchemaValidator(
                    schema: document, registry: registry, baseURI: baseURI + key + ".json")
            } catch {
                brokenSchemas[key] = error.description
            }
        }
    }

    /// The key of a message schema.
    package static func key(protocolName: String, side: String, type: String) -> String {
        "\(protocolName)/\(side)/\(type)"
    }

    /// Whether a schema exists for the message.
    package func contains(protocolName: String, side: String, type: String) -> Bool {
        validators[Self.key(protocolName: protocolName, side: side, type: type)] != nil
    }

    /// Validates `instance` against the message's schema; `nil` when there is no usable schema.
    package func validate(
        _ instance: JSONValue, protocolName: String, side: String, type: String
    ) -> [ValidationFailure]? {
        validators[Self.key(protocolName: protocolName, side: side, type: type)]?.validate(instance)
    }

    /// Number of compiled schemas.
    package var count: Int { validators.count }
}
