import WireJSON

extension SchemaCompiler {
    /// Compiles the keywords of one schema object, in document order except that
    /// `unevaluatedItems` and `unevaluatedProperties` come last (they depend on the others).
    mutating func compileKeywords(
        _ object: JSONObject, at location: SchemaLocation, context: Context
    )
        throws(SchemaError) -> [CompiledKeyword]
    {
        var keywords: [CompiledKeyword] = []
        var unevaluated: [CompiledKeyword] = []
        let applicator = context.vocabularies.contains(.applicator)
        let validation = context.vocabularies.contains(.validation)
        for (name, value) in object {
            let here = location.appending(name)
            func sub(_ tokens: String...) throws(SchemaError) -> NodeID {
                try compile(SchemaLocation(document: here.document, pointer: here.pointer + tokens), context: context)
            }
            func bad(_ message: String) -> SchemaError {
                SchemaError(location: describe(here, context), message: message)
            }
            func count() throws(SchemaError) -> Int {
                guard let count = value.intValue, count >= 0 else {
                    throw bad("\(name) must be a non-negative integer")
                }
                return Int(clamping: count)
            }
            func subList() throws(SchemaError) -> [NodeID] {
                guard case .array(let elements) = value, !elements.isEmpty else {
                    throw bad("\(name) must be a non-empty array")
                }
                var nodes: [NodeID] = []
                for index in elements.indices { nodes.append(try sub(String(index))) }
                return nodes
            }
            func regex(_ source: String) throws(SchemaError) -> ECMARegex {
                guard let regex = ECMARegex(source) else { throw bad("invalid regular expression \"\(source)\"") }
                return regex
            }

            var rule: KeywordRule?
            switch name {
            case "$ref":
                guard case .string(let text) = value else { throw bad("$ref must be a string") }
                rule = .ref(try resolveReference(text, context: context, keyword: name, at: location).node)
            case "$dynamicRef":
                guard case .string(let text) = value else { throw bad("$dynamicRef must be a string") }
                let resolved = try resolveReference(text, context: context, keyword: name, at: location)
                var anchor: String?
                // Dynamic only if the fragment is a name that a $dynamicAnchor (not a plain
                // $anchor) defines at the statically resolved target.
                if let fragment = resolved.reference.fragment, !fragment.isEmpty, !fragment.hasPrefix("/"),
                    registry.dynamicAnchor(fragment, inResource: resolved.reference.withoutFragment.description)
                        == resolved.target
                {
                    anchor = fragment
                    noteDynamicAnchor(fragment)
                }
                rule = .dynamicRef(resolved.node, anchor: anchor)

            case "allOf" where applicator: rule = .allOf(try subList())
            case "anyOf" where applicator: rule = .anyOf(try subList())
            case "oneOf" where applicator: rule = .oneOf(try subList())
            case "not" where applicator: rule = .not(try sub())
            case "if" where applicator:
                let thenNode: NodeID? =
                    object["then"] == nil ? nil : try compile(location.appending("then"), context: context)
                let elseNode: NodeID? =
                    object["else"] == nil ? nil : try compile(location.appending("else"), context: context)
                rule = .conditional(if: try sub(), then: thenNode, else: elseNode)
            case "dependentSchemas" where applicator:
                guard case .object(let members) = value else { throw bad("dependentSchemas must be an object") }
                var pairs: [(property: String, node: NodeID)] = []
                for key in members.keys { pairs.append((key, try sub(key))) }
                rule = .dependentSchemas(pairs)
            case "prefixItems" where applicator: rule = .prefixItems(try subList())
            case "items" where applicator:
                let prefixCount = object["prefixItems"]?.arrayValue?.count ?? 0
                rule = .items(try sub(), firstIndex: prefixCount)
            case "contains" where applicator:
                var minimum = 1
                var maximum: Int?
                if validation {
                    if let value = object["minContains"]?.intValue, value >= 0 { minimum = Int(clamping: value) }
                    if let value = object["maxContains"]?.intValue, value >= 0 { maximum = Int(clamping: value) }
                }
                rule = .contains(try sub(), minimum: minimum, maximum: maximum)
            case "properties" where applicator:
                guard case .object(let members) = value else { throw bad("properties must be an object") }
                var nodes: [String: NodeID] = [:]
                for key in members.keys { nodes[key] = try sub(key) }
                rule = .properties(nodes)
            case "patternProperties" where applicator:
                guard case .object(let members) = value else { throw bad("patternProperties must be an object") }
                var pairs: [(regex: ECMARegex, node: NodeID)] = []
                for key in members.keys { pairs.append((try regex(key), try sub(key))) }
                rule = .patternProperties(pairs)
            case "additionalProperties" where applicator:
                let declared = Set(object["properties"]?.objectValue?.keys ?? [])
                var patterns: [ECMARegex] = []
                for key in object["patternProperties"]?.objectValue?.keys ?? [] { patterns.append(try regex(key)) }
                rule = .additionalProperties(try sub(), declared: declared, patterns: patterns)
            case "propertyNames" where applicator: rule = .propertyNames(try sub())

            case "unevaluatedItems" where context.vocabularies.contains(.unevaluated):
                program.needsAnnotations = true
                unevaluated.append(CompiledKeyword(name: name, rule: .unevaluatedItems(try sub())))
            case "unevaluatedProperties" where context.vocabularies.contains(.unevaluated):
                program.needsAnnotations = true
                unevaluated.append(CompiledKeyword(name: name, rule: .unevaluatedProperties(try sub())))

            case "type" where validation:
                let names: [String]
                switch value {
                case .string(let single): names = [single]
                case .array(let many): names = many.compactMap(\.stringValue)
                default: throw bad("type must be a string or an array of strings")
                }
                rule = .type(names)
            case "enum" where validation:
                guard case .array(let options) = value else { throw bad("enum must be an array") }
                rule = .enumeration(options)
            case "const" where validation: rule = .constant(value)
            case "multipleOf" where validation:
                guard value.isNumber, (value.doubleValue ?? 0) > 0 else {
                    throw bad("multipleOf must be a positive number")
                }
                rule = .multipleOf(value)
            case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
                guard validation else { break }
                guard value.isNumber else { throw bad("\(name) must be a number") }
                let exclusive = name.hasPrefix("exclusive")
                rule =
                    name.hasSuffix("aximum")
                    ? .maximum(value, exclusive: exclusive) : .minimum(value, exclusive: exclusive)
            case "maxLength" where validation: rule = .maxLength(try count())
            case "minLength" where validation: rule = .minLength(try count())
            case "pattern" where validation:
                guard case .string(let source) = value else { throw bad("pattern must be a string") }
                rule = .pattern(try regex(source))
            case "format" where assertsFormats || context.vocabularies.contains(.formatAssertion):
                if case .string(let format) = value { rule = .format(format) }
            case "maxItems" where validation: rule = .maxItems(try count())
            case "minItems" where validation: rule = .minItems(try count())
            case "uniqueItems" where validation: if value == .bool(true) { rule = .uniqueItems }
            case "maxProperties" where validation: rule = .maxProperties(try count())
            case "minProperties" where validation: rule = .minProperties(try count())
            case "required" where validation:
                guard case .array(let names) = value else { throw bad("required must be an array of strings") }
                rule = .required(names.compactMap(\.stringValue))
            case "dependentRequired" where validation:
                guard case .object(let members) = value else { throw bad("dependentRequired must be an object") }
                rule = .dependentRequired(
                    members.map { ($0.key, $0.value.arrayValue?.compactMap(\.stringValue) ?? []) })
            default:
                // Annotations (format, title, content*, ...), keywords of other drafts and
                // unknown keywords do not assert anything.
                break
            }
            if let rule { keywords.append(CompiledKeyword(name: name, rule: rule)) }
        }
        return keywords + unevaluated
    }
}
