/// What the keywords that succeeded at one instance location evaluated, as far as
/// `unevaluatedProperties` and `unevaluatedItems` need to know.
struct Annotations {
    /// Property names some keyword evaluated.
    var properties: Set<String> = []
    /// `items`, `unevaluatedItems` (or an equivalent) evaluated every item.
    var allItems = false
    /// Items before this index were evaluated (`prefixItems`).
    var itemPrefix = 0
    /// Individual items `contains` matched.
    var itemIndices: Set<Int> = []

    mutating func formUnion(_ other: Annotations) {
        properties.formUnion(other.properties)
        allItems = allItems || other.allItems
        itemPrefix = max(itemPrefix, other.itemPrefix)
        itemIndices.formUnion(other.itemIndices)
    }

    func evaluatedItem(_ index: Int) -> Bool {
        allItems || index < itemPrefix || itemIndices.contains(index)
    }
}

/// A step in the instance path; indices stay numbers until a failure is reported.
enum InstancePathToken {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}
