import WireJSON

/// Where a schema physically is: a document in a ``SchemaRegistry`` and a JSON pointer from that
/// document's root. Each subschema has exactly one location, however it is referenced.
struct SchemaLocation: Sendable, Hashable {
    let document: Int
    let pointer: [String]

    func appending(_ tokens: String...) -> SchemaLocation {
        SchemaLocation(document: document, pointer: pointer + tokens)
    }
}

/// Which keywords of draft 2020-12 hold subschemas, and in what shape. Used to find `$id`,
/// `$anchor` and `$dynamicAnchor` only where they are keywords (not inside `enum` or `const`).
enum SubschemaPositions {
    /// Keywords whose value is one schema.
    static let single: Set<String> = [
        "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
    ]
    /// Keywords whose value is an array of schemas.
    static let list: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    /// Keywords whose value is an object of schemas (`definitions` only for older documents).
    static let map: Set<String> = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"]

    /// What a JSON location is, seen from the nearest schema above it.
    enum Kind {
        case schema
        case schemaList
        case schemaMap
        case plain
    }

    /// The kind of the child `token` of a value of kind `parent`.
    static func kind(ofChild token: String, in parent: Kind) -> Kind {
        switch parent {
        case .schema:
            if single.contains(token) { return .schema }
            if list.contains(token) { return .schemaList }
            if map.contains(token) { return .schemaMap }
            return .plain
        case .schemaList, .schemaMap: return .schema
        case .plain: return .plain
        }
    }

    /// Calls `body` with the relative path and value of every direct subschema of `object`.
    static func forEachSubschema(of object: JSONObject, _ body: ([String], JSONValue) -> Void) {
        for (key, value) in object {
            if single.contains(key) {
                body([key], value)
            } else if list.contains(key), case .array(let elements) = value {
                for (index, element) in elements.enumerated() { body([key, String(index)], element) }
            } else if map.contains(key), case .object(let members) = value {
                for (name, member) in members { body([key, name], member) }
            }
        }
    }
}
