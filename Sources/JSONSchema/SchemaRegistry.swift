package import WireJSON

/// Schema documents by URI, so that `$ref`, `$dynamicRef` and `$schema` can find each other.
///
/// A new registry already holds the draft 2020-12 metaschema and its vocabulary metaschemas.
/// Adding a document indexes every schema resource in it (`$id`), every `$anchor` and every
/// `$dynamicAnchor`. It is a value: copies are cheap, and a validator keeps its own copy.
package struct SchemaRegistry: Sendable {
    /// A schema resource: the root of a document or a subschema with `$id`.
    struct Resource: Sendable {
        let location: SchemaLocation
        /// `$anchor` and `$dynamicAnchor` names to pointers from the document root.
        var anchors: [String: [String]] = [:]
        /// `$dynamicAnchor` names only.
        var dynamicAnchors: [String: [String]] = [:]
    }

    private(set) var documents: [JSONValue] = []
    /// The retrieval URI of each document: the base URI its root starts from.
    private(set) var documentBaseURIs: [URIReference] = []
    private(set) var resources: [String: Resource] = [:]

    /// A registry holding the draft 2020-12 metaschemas.
    package init() { self = Self.withMetaschemas }

    private init(empty: Void) {}

    private static let withMetaschemas: SchemaRegistry = {
        var registry = SchemaRegistry(empty: ())
        for (uri, text) in Metaschema2020_12.documents {
            guard let document = try? JSONValue.decode(text),
                (try? registry.add(document: document, retrievalURI: uri)) != nil
            else { preconditionFailure("bundled metaschema \(uri) does not load") }
        }
        return registry
    }()

    /// Adds a schema document retrieved from `retrievalURI` (an absolute URI). Resources the
    /// document declares with `$id` are found under their own URIs as well.
    /// - Throws: ``SchemaError`` if `retrievalURI` is not absolute.
    package mutating func add(document: JSONValue, retrievalURI: String) throws(SchemaError) {
        let base = URIReference(parsing: retrievalURI)
        guard base.isAbsolute else {
            throw SchemaError(location: retrievalURI, message: "retrieval URI must be absolute")
        }
        let location = SchemaLocation(document: documents.count, pointer: [])
        documents.append(document)
        documentBaseURIs.append(base.withoutFragment)
        let key = base.withoutFragment.description
        resources[key] = Resource(location: location)
        index(document, at: location, base: base.withoutFragment, resource: key)
    }

    /// Indexes resources and anchors in the subschema `value` (recursively).
    private mutating func index(_ value: JSONValue, at location: SchemaLocation, base: URIReference, resource: String) {
        guard case .object(let object) = value else { return }
        var base = base
        var resource = resource
        if case .string(let id) = object["$id"] {
            base = URIReference(parsing: id).resolved(against: base).withoutFragment
            resource = base.description
            if resources[resource]?.location != location { resources[resource] = Resource(location: location) }
        }
        if case .string(let anchor) = object["$anchor"] {
            resources[resource]?.anchors[anchor] = location.pointer
        }
        if case .string(let anchor) = object["$dynamicAnchor"] {
            resources[resource]?.anchors[anchor] = location.pointer
            resources[resource]?.dynamicAnchors[anchor] = location.pointer
        }
        SubschemaPositions.forEachSubschema(of: object) { tokens, child in
            index(
                child, at: SchemaLocation(document: location.document, pointer: location.pointer + tokens),
                base: base, resource: resource)
        }
    }

    // MARK: - Lookup

    /// The JSON at `location`, if there is any.
    func value(at location: SchemaLocation) -> JSONValue? {
        guard documents.indices.contains(location.document) else { return nil }
        return JSONPointer(tokens: location.pointer).resolve(in: documents[location.document])
    }

    /// The location an absolute reference names: a resource, a JSON pointer inside one, or an anchor.
    func location(of reference: URIReference) -> SchemaLocation? {
        guard let resource = resources[reference.withoutFragment.description] else { return nil }
        guard let fragment = reference.fragment, !fragment.isEmpty else { return resource.location }
        if fragment.hasPrefix("/") {
            guard let pointer = try? JSONPointer(parsing: "#" + fragment) else { return nil }
            let target = SchemaLocation(
                document: resource.location.document, pointer: resource.location.pointer + pointer.tokens)
            return value(at: target) == nil ? nil : target
        }
        return resource.anchors[fragment].map { SchemaLocation(document: resource.location.document, pointer: $0) }
    }

    /// The location of the `$dynamicAnchor` named `name` in the resource `resourceURI`.
    func dynamicAnchor(_ name: String, inResource resourceURI: String) -> SchemaLocation? {
        guard let resource = resources[resourceURI], let pointer = resource.dynamicAnchors[name] else { return nil }
        return SchemaLocation(document: resource.location.document, pointer: pointer)
    }

    /// The vocabularies of schemas whose `$schema` is `metaschemaURI`.
    func vocabularies(ofMetaschema metaschemaURI: String) -> Vocabularies {
        let reference = URIReference(parsing: metaschemaURI)
        guard let location = location(of: reference), case .object(let metaschema)? = value(at: location),
            case .object(let vocabulary)? = metaschema["$vocabulary"]
        else { return .standard }
        return Vocabularies(vocabularyObject: vocabulary.map { ($0.key, $0.value == .bool(true)) })
    }
}
