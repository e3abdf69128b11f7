import WireJSON

/// Turns schema JSON into a ``SchemaProgram``: resolves references through a
/// ``SchemaRegistry``, compiles regexes once, and only compiles subschemas that can be reached.
struct SchemaCompiler {
    /// Base URI, resource and vocabularies in effect at a subschema.
    struct Context {
        var base: URIReference
        var resource: String
        var vocabularies: Vocabularies
    }

    let registry: SchemaRegistry
    /// Whether `format` asserts everywhere, not only under a format-assertion metaschema.
    let assertsFormats: Bool
    var program = SchemaProgram()
    private var nodeAt: [SchemaLocation: NodeID] = [:]
    private var resourceIndex: [String: Int] = [:]
    private var dynamicAnchorNames: Set<String> = []

    init(registry: SchemaRegistry, assertsFormats: Bool = false) {
        self.registry = registry
        self.assertsFormats = assertsFormats
    }

    /// Compiles the schema at `location` (and everything it reaches) and makes it the root.
    mutating func compileRoot(at location: SchemaLocation) throws(SchemaError) {
        program.root = try compileReferenced(location)
        try compileDynamicAnchorTargets()
    }

    // MARK: - Nodes

    /// Compiles a subschema reached by reference, working out its context from the document root.
    mutating func compileReferenced(_ location: SchemaLocation) throws(SchemaError) -> NodeID {
        if let id = nodeAt[location] { return id }
        return try compile(location, context: contextAbove(location))
    }

    /// Compiles the subschema at `location` whose parent's context is `parentContext`.
    mutating func compile(_ location: SchemaLocation, context parentContext: Context) throws(SchemaError) -> NodeID {
        if let id = nodeAt[location] { return id }
        guard let value = registry.value(at: location) else {
            throw SchemaError(location: describe(location, parentContext), message: "no schema at this location")
        }
        let context = Self.context(of: value, inheriting: parentContext, registry: registry)
        let id = program.nodes.count
        let node = SchemaNode(
            body: .alwaysValid, resource: intern(context.resource), absoluteLocation: describe(location, context))
        program.nodes.append(node)
        nodeAt[location] = id
        switch value {
        case .bool(let flag):
            program.nodes[id].body = flag ? .alwaysValid : .alwaysInvalid
        case .object(let object):
            let keywords = try compileKeywords(object, at: location, context: context)
            program.nodes[id].body = .keywords(keywords)
        default:
            throw SchemaError(location: node.absoluteLocation, message: "a schema must be an object or a boolean")
        }
        return id
    }

    /// The context inside the subschema `value`, applying its own `$id` and `$schema`.
    static func context(of value: JSONValue, inheriting parent: Context, registry: SchemaRegistry) -> Context {
        guard case .object(let object) = value else { return parent }
        var context = parent
        if case .string(let id) = object["$id"] {
            context.base = URIReference(parsing: id).resolved(against: parent.base).withoutFragment
            context.resource = context.base.description
        }
        if case .string(let metaschema) = object["$schema"] {
            let uri = URIReference(parsing: metaschema).resolved(against: context.base).withoutFragment
            context.vocabularies = registry.vocabularies(ofMetaschema: uri.description)
        }
        return context
    }

    /// The context of the parent of `location`: walks from the document root, applying `$id`
    /// and `$schema` of every schema object on the way.
    private func contextAbove(_ location: SchemaLocation) -> Context {
        let base = registry.documentBaseURIs[location.document]
        var context = Context(base: base, resource: base.description, vocabularies: .standard)
        var value = registry.documents[location.document]
        var kind = SubschemaPositions.Kind.schema
        for token in location.pointer {
            if kind == .schema { context = Self.context(of: value, inheriting: context, registry: registry) }
            guard let child = JSONPointer(tokens: [token]).resolve(in: value) else { break }
            value = child
            kind = SubschemaPositions.kind(ofChild: token, in: kind)
        }
        return context
    }

    private mutating func intern(_ resource: String) -> Int {
        if let index = resourceIndex[resource] { return index }
        resourceIndex[resource] = program.resourceURIs.count
        program.resourceURIs.append(resource)
        return program.resourceURIs.count - 1
    }

    func describe(_ location: SchemaLocation, _ context: Context) -> String {
        "\(context.resource)#\(JSONPointer(tokens: location.pointer))"
    }

    // MARK: - References

    /// Resolves a `$ref`/`$dynamicRef` value against the base URI of its schema.
    mutating func resolveReference(
        _ text: String, context: Context, keyword: String, at location: SchemaLocation
    )
        throws(SchemaError) -> (node: NodeID, reference: URIReference, target: SchemaLocation)
    {
        let reference = URIReference(parsing: text).resolved(against: context.base)
        guard let target = registry.location(of: reference) else {
            throw SchemaError(
                location: describe(location.appending(keyword), context),
                message: "cannot resolve \(keyword) \"\(text)\"")
        }
        return (try compileReferenced(target), reference, target)
    }

    /// Records that a `$dynamicRef` may land on `$dynamicAnchor` `name`.
    mutating func noteDynamicAnchor(_ name: String) { dynamicAnchorNames.insert(name) }

    /// For every resource that evaluation can enter and every dynamic anchor name in use,
    /// compiles the anchored subschema. Repeats until compiling adds no new resource or name.
    private mutating func compileDynamicAnchorTargets() throws(SchemaError) {
        var done: Set<String> = []
        while true {
            var added = false
            for name in dynamicAnchorNames.sorted() {
                for (resourceNumber, resource) in program.resourceURIs.enumerated() {
                    guard done.insert("\(resourceNumber) \(name)").inserted else { continue }
                    added = true
                    guard let location = registry.dynamicAnchor(name, inResource: resource) else { continue }
                    let node = try compileReferenced(location)
                    program.dynamicAnchorNodes[name, default: [:]][resourceNumber] = node
                }
            }
            if !added { return }
        }
    }
}
