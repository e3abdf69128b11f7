import WireJSON

extension SchemaEvaluator {
    /// `prefixItems`, `items`, `contains`, `unevaluatedItems` on an array.
    mutating func applyArrayApplicator(
        _ rule: KeywordRule, _ items: [JSONValue], _ annotations: inout Annotations
    )
        -> Bool
    {
        switch rule {
        case .prefixItems(let nodes):
            var valid = true
            for (index, node) in zip(nodes.indices, nodes) where index < items.count {
                keywordPath.append(String(index))
                valid = evaluate(node, child: items[index], at: .index(index)) && valid
                keywordPath.removeLast()
                if !valid && !recording { return false }
            }
            annotations.itemPrefix = max(annotations.itemPrefix, min(nodes.count, items.count))
            return valid
        case .items(let node, let firstIndex):
            var valid = true
            for index in items.indices where index >= firstIndex {
                valid = evaluate(node, child: items[index], at: .index(index)) && valid
                if !valid && !recording { return false }
            }
            annotations.allItems = true
            return valid
        case .contains(let node, let minimum, let maximum):
            var matched: [Int] = []
            for (index, item) in items.enumerated() where probing({ $0.evaluate(node, child: item, at: .index(index)) })
            {
                matched.append(index)
            }
            annotations.itemIndices.formUnion(matched)
            if matched.count < minimum {
                record(
                    matched.isEmpty && minimum == 1
                        ? "no item matches the \"contains\" schema"
                        : "\(matched.count) items match the \"contains\" schema, at least \(minimum) required")
                return false
            }
            if let maximum, matched.count > maximum {
                record("\(matched.count) items match the \"contains\" schema, at most \(maximum) allowed")
                return false
            }
            return true
        case .unevaluatedItems(let node):
            var valid = true
            for index in items.indices where !annotations.evaluatedItem(index) {
                valid = evaluate(node, child: items[index], at: .index(index)) && valid
                if !valid && !recording { return false }
            }
            annotations.allItems = true
            return valid
        default:
            return true
        }
    }

    /// `properties`, `patternProperties`, `additionalProperties`, `propertyNames` and
    /// `unevaluatedProperties` on an object.
    mutating func applyObjectApplicator(
        _ rule: KeywordRule, _ object: JSONObject, _ annotations: inout Annotations
    )
        -> Bool
    {
        let annotate = program.needsAnnotations
        var valid = true
        for (key, value) in object {
            let target: [NodeID]
            var extraKeywordToken: String?
            switch rule {
            case .properties(let nodes):
                guard let node = nodes[key] else { continue }
                target = [node]
                extraKeywordToken = key
            case .patternProperties(let pairs):
                for (regex, node) in pairs where regex.matches(key) {
                    keywordPath.append(regex.source)
                    valid = evaluate(node, child: value, at: .key(key)) && valid
                    keywordPath.removeLast()
                    if annotate { annotations.properties.insert(key) }
                    if !valid && !recording { return false }
                }
                continue
            case .additionalProperties(let node, let declared, let patterns):
                guard !declared.contains(key), !patterns.contains(where: { $0.matches(key) }) else { continue }
                target = [node]
            case .unevaluatedProperties(let node):
                guard !annotations.properties.contains(key) else { continue }
                target = [node]
            case .propertyNames(let node):
                valid = evaluate(node, child: .string(key), at: .key(key)) && valid
                if !valid && !recording { return false }
                continue
            default:
                return true
            }
            if let extraKeywordToken { keywordPath.append(extraKeywordToken) }
            valid = evaluate(target[0], child: value, at: .key(key)) && valid
            if extraKeywordToken != nil { keywordPath.removeLast() }
            if annotate { annotations.properties.insert(key) }
            if !valid && !recording { return false }
        }
        return valid
    }
}
