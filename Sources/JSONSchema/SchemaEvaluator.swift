import WireJSON

/// Runs a ``SchemaProgram`` over one instance, collecting failures (and, when the program has
/// `unevaluated*` keywords, annotations). One evaluator per validation; not shared.
struct SchemaEvaluator {
    let program: SchemaProgram
    private(set) var failures: [ValidationFailure] = []
    var instancePath: [InstancePathToken] = []
    var keywordPath: [String] = []
    /// Resource indices entered, outermost first (the dynamic scope of `$dynamicRef`).
    var dynamicScope: [Int] = []
    /// False while probing subschemas whose failures are not the instance's failures (inside
    /// `anyOf`, `not`, `if`, `contains`); evaluation may then stop at the first failure.
    var recording = true
    /// Nodes being evaluated, with the keyword-path length at which each was entered.
    private var nodeStack: [(node: NodeID, keywordDepth: Int)] = []
    /// `$ref`/`$dynamicRef` targets entered, with the instance depth they were entered at; the
    /// same pair twice means the schema loops without consuming the instance.
    private var referenceStack: [(node: NodeID, instanceDepth: Int)] = []

    init(program: SchemaProgram) { self.program = program }

    /// Evaluates node `id` against `instance`, adding what it evaluated to `annotations`.
    /// Returns whether the instance is valid against the node.
    mutating func evaluate(_ id: NodeID, _ instance: JSONValue, _ annotations: inout Annotations) -> Bool {
        let node = program.nodes[id]
        switch node.body {
        case .alwaysValid:
            // A `true` schema evaluates nothing: annotations come from the keyword applying it.
            return true
        case .alwaysInvalid:
            recordFalseSchema()
            return false
        case .keywords(let keywords):
            let entersResource = dynamicScope.last != node.resource
            if entersResource { dynamicScope.append(node.resource) }
            nodeStack.append((id, keywordPath.count))
            defer {
                nodeStack.removeLast()
                if entersResource { dynamicScope.removeLast() }
            }
            // Each schema object collects its own annotations: its `unevaluated*` keywords see
            // what its own keywords and subschemas evaluated, never what its siblings did.
            var local = Annotations()
            var valid = true
            for keyword in keywords {
                keywordPath.append(keyword.name)
                let passed = apply(keyword.rule, to: instance, &local)
                keywordPath.removeLast()
                if !passed {
                    valid = false
                    if !recording { break }
                }
            }
            if valid && program.needsAnnotations { annotations.formUnion(local) }
            return valid
        }
    }

    /// Evaluates a child instance (a property value or an item) against node `id`.
    mutating func evaluate(_ id: NodeID, child value: JSONValue, at token: InstancePathToken) -> Bool {
        instancePath.append(token)
        defer { instancePath.removeLast() }
        var childAnnotations = Annotations()
        return evaluate(id, value, &childAnnotations)
    }

    /// Evaluates a reference target in place, refusing a loop that would not terminate.
    mutating func evaluateReference(_ id: NodeID, _ instance: JSONValue, _ annotations: inout Annotations) -> Bool {
        let depth = instancePath.count
        if referenceStack.contains(where: { $0.node == id && $0.instanceDepth == depth }) {
            record("the schema references itself without consuming the instance (infinite loop)")
            return false
        }
        referenceStack.append((id, depth))
        defer { referenceStack.removeLast() }
        return evaluate(id, instance, &annotations)
    }

    /// Runs `body` with failure recording switched off.
    mutating func probing<Result>(_ body: (inout SchemaEvaluator) -> Result) -> Result {
        let saved = recording
        recording = false
        defer { recording = saved }
        return body(&self)
    }

    /// Runs `body` with recording on and returns the failures it produced without keeping them.
    mutating func collectingFailures(_ body: (inout SchemaEvaluator) -> Void) -> [ValidationFailure] {
        let savedRecording = recording
        let savedCount = failures.count
        recording = true
        body(&self)
        recording = savedRecording
        let produced = Array(failures[savedCount...])
        failures.removeSubrange(savedCount...)
        return produced
    }

    // MARK: - Failures

    /// Records a failure of the current keyword at the current instance location.
    mutating func record(_ message: String) {
        guard recording else { return }
        let frame = nodeStack.last
        let keywordDepth = frame?.keywordDepth ?? 0
        let keyword = keywordPath.indices.contains(keywordDepth) ? keywordPath[keywordDepth] : "false"
        failures.append(failure(keyword: keyword, message: message, relativeTokens: keywordPath[keywordDepth...]))
    }

    /// A `false` schema: blame the keyword that applied it, in its own words.
    private mutating func recordFalseSchema() {
        guard recording else { return }
        let keywordDepth = nodeStack.last?.keywordDepth ?? 0
        let keyword = keywordPath.indices.contains(keywordDepth) ? keywordPath[keywordDepth] : "false"
        let message: String
        switch (keyword, instancePath.last) {
        case ("properties", .key(let name)?), ("patternProperties", .key(let name)?),
            ("additionalProperties", .key(let name)?), ("unevaluatedProperties", .key(let name)?):
            message = "property \(Self.quoted(name)) is not allowed"
        case ("items", .index(let index)?), ("prefixItems", .index(let index)?),
            ("unevaluatedItems", .index(let index)?):
            message = "item \(index) is not allowed"
        default:
            message = "no value is allowed here (the schema is false)"
        }
        failures.append(failure(keyword: keyword, message: message, relativeTokens: keywordPath[keywordDepth...]))
    }

    private func failure(keyword: String, message: String, relativeTokens: ArraySlice<String>) -> ValidationFailure {
        let nodeLocation = nodeStack.last.map { program.nodes[$0.node].absoluteLocation } ?? ""
        return ValidationFailure(
            instancePointer: JSONPointer(tokens: instancePath.map(\.text)),
            keywordLocation: JSONPointer(tokens: keywordPath),
            keyword: keyword,
            message: message,
            absoluteKeywordLocation: nodeLocation + JSONPointer(tokens: Array(relativeTokens)).description)
    }

    /// A JSON rendering of `value` for messages, shortened past 60 characters.
    static func describe(_ value: JSONValue) -> String {
        let text = value.encodedString()
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    static func quoted(_ text: String) -> String { describe(.string(text)) }
}
