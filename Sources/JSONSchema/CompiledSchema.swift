import WireJSON

/// An index into ``SchemaProgram/nodes``.
typealias NodeID = Int

/// A schema compiled for evaluation: every reachable subschema as a node, with references
/// already resolved to node indices (so recursive schemas need no reference cycles).
struct SchemaProgram: Sendable {
    var nodes: [SchemaNode] = []
    /// The URI of each schema resource a node belongs to; nodes refer to these by index.
    var resourceURIs: [String] = []
    /// For each `$dynamicAnchor` name a `$dynamicRef` may land on: resource index → node.
    var dynamicAnchorNodes: [String: [Int: NodeID]] = [:]
    /// Whether any node uses `unevaluatedItems` or `unevaluatedProperties`; if not, evaluation
    /// skips collecting annotations.
    var needsAnnotations = false
    /// The node to start from.
    var root: NodeID = 0
}

/// One compiled subschema.
struct SchemaNode: Sendable {
    enum Body: Sendable {
        case alwaysValid
        case alwaysInvalid
        case keywords([CompiledKeyword])
    }

    var body: Body
    /// Index into ``SchemaProgram/resourceURIs``.
    var resource: Int
    /// `resource-URI#pointer` of the subschema, for absolute keyword locations.
    var absoluteLocation: String
}

/// A keyword with its compiled argument. ``name`` is the keyword as written (`if` carries
/// `then`/`else`, `contains` carries `minContains`/`maxContains`).
struct CompiledKeyword: Sendable {
    let name: String
    let rule: KeywordRule
}

/// Everything a keyword needs at evaluation time.
enum KeywordRule: Sendable {
    // Core
    case ref(NodeID)
    /// `anchor` is set when the reference lands on a `$dynamicAnchor` of that name, which makes
    /// the final target depend on the dynamic scope.
    case dynamicRef(NodeID, anchor: String?)

    // Applicators
    case allOf([NodeID])
    case anyOf([NodeID])
    case oneOf([NodeID])
    case not(NodeID)
    case conditional(if: NodeID, then: NodeID?, else: NodeID?)
    case dependentSchemas([(property: String, node: NodeID)])
    case prefixItems([NodeID])
    case items(NodeID, firstIndex: Int)
    case contains(NodeID, minimum: Int, maximum: Int?)
    case properties([String: NodeID])
    case patternProperties([(regex: ECMARegex, node: NodeID)])
    case additionalProperties(NodeID, declared: Set<String>, patterns: [ECMARegex])
    case propertyNames(NodeID)
    case unevaluatedItems(NodeID)
    case unevaluatedProperties(NodeID)

    // Validation
    case type([String])
    case enumeration([JSONValue])
    case constant(JSONValue)
    case multipleOf(JSONValue)
    case maximum(JSONValue, exclusive: Bool)
    case minimum(JSONValue, exclusive: Bool)
    case maxLength(Int)
    case minLength(Int)
    case pattern(ECMARegex)
    /// Only compiled when formats are asserted.
    case format(String)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(property: String, required: [String])])
}
