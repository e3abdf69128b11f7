import WireJSON

extension SchemaEvaluator {
    /// Applies one keyword; returns whether it passed. Failures are recorded by the keyword.
    mutating func apply(_ rule: KeywordRule, to instance: JSONValue, _ annotations: inout Annotations) -> Bool {
        switch rule {
        case .ref(let target):
            return evaluateReference(target, instance, &annotations)
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor, let candidates = program.dynamicAnchorNodes[anchor],
                let outermost = dynamicScope.lazy.compactMap({ candidates[$0] }).first
            {
                resolved = outermost
            }
            return evaluateReference(resolved, instance, &annotations)
        case .allOf(let nodes):
            var valid = true
            for (index, node) in nodes.enumerated() {
                keywordPath.append(String(index))
                valid = evaluate(node, instance, &annotations) && valid
                keywordPath.removeLast()
                if !valid && !recording { return false }
            }
            return valid
        case .anyOf(let nodes):
            return applyAnyOf(nodes, instance, &annotations)
        case .oneOf(let nodes):
            return applyOneOf(nodes, instance, &annotations)
        case .not(let node):
            var ignored = Annotations()
            guard probing({ $0.evaluate(node, instance, &ignored) }) else { return true }
            record("value must not match the schema in \"not\"")
            return false
        case .conditional(let condition, let thenNode, let elseNode):
            var conditionAnnotations = Annotations()
            let holds = probing { $0.evaluate(condition, instance, &conditionAnnotations) }
            guard let branch = holds ? thenNode : elseNode else {
                if holds { annotations.formUnion(conditionAnnotations) }
                return true
            }
            if holds { annotations.formUnion(conditionAnnotations) }
            keywordPath[keywordPath.count - 1] = holds ? "then" : "else"
            defer { keywordPath[keywordPath.count - 1] = "if" }
            return evaluate(branch, instance, &annotations)
        case .dependentSchemas(let pairs):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (property, node) in pairs where object[property] != nil {
                keywordPath.append(property)
                valid = evaluate(node, instance, &annotations) && valid
                keywordPath.removeLast()
                if !valid && !recording { return false }
            }
            return valid
        case .prefixItems, .items, .contains, .unevaluatedItems:
            guard case .array(let items) = instance else { return true }
            return applyArrayApplicator(rule, items, &annotations)
        case .properties, .patternProperties, .additionalProperties, .propertyNames, .unevaluatedProperties:
            guard case .object(let object) = instance else { return true }
            return applyObjectApplicator(rule, object, &annotations)
        default:
            return applyAssertion(rule, to: instance)
        }
    }

    private mutating func applyAnyOf(_ nodes: [NodeID], _ instance: JSONValue, _ annotations: inout Annotations) -> Bool
    {
        var matched = false
        for (index, node) in nodes.enumerated() {
            var branch = Annotations()
            keywordPath.append(String(index))
            let valid = probing { $0.evaluate(node, instance, &branch) }
            keywordPath.removeLast()
            if valid {
                matched = true
                annotations.formUnion(branch)
                // Every valid branch contributes annotations, so only stop early without them.
                if !program.needsAnnotations { break }
            }
        }
        if !matched && recording {
            record("value does not match any of the \(nodes.count) alternatives\(branchDetails(nodes, instance))")
        }
        return matched
    }

    private mutating func applyOneOf(_ nodes: [NodeID], _ instance: JSONValue, _ annotations: inout Annotations) -> Bool
    {
        var matches: [Int] = []
        var matchedAnnotations = Annotations()
        for (index, node) in nodes.enumerated() {
            var branch = Annotations()
            keywordPath.append(String(index))
            let valid = probing { $0.evaluate(node, instance, &branch) }
            keywordPath.removeLast()
            if valid {
                matches.append(index)
                matchedAnnotations = branch
                if matches.count > 1 && !recording { return false }
            }
        }
        switch matches.count {
        case 1:
            annotations.formUnion(matchedAnnotations)
            return true
        case 0:
            if recording {
                record("value does not match any of the \(nodes.count) alternatives\(branchDetails(nodes, instance))")
            }
        default:
            let list = matches.map(String.init).joined(separator: ", ")
            record("value matches \(matches.count) alternatives (\(list)) but must match exactly one")
        }
        return false
    }

    /// ` ([0] at /x: keyword type: ...; [1] ...)`: the first failure of each alternative, so a
    /// reader sees why each one was rejected.
    private mutating func branchDetails(_ nodes: [NodeID], _ instance: JSONValue) -> String {
        var parts: [String] = []
        for (index, node) in nodes.enumerated().prefix(5) {
            keywordPath.append(String(index))
            let failures = collectingFailures { evaluator in
                var ignored = Annotations()
                _ = evaluator.evaluate(node, instance, &ignored)
            }
            keywordPath.removeLast()
            if let first = failures.first { parts.append("[\(index)] \(first)") }
        }
        if nodes.count > 5 { parts.append("...") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }
}
