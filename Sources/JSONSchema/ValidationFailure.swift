package import WireJSON

/// One reason an instance does not conform to a schema.
package struct ValidationFailure: Sendable, Equatable, CustomStringConvertible {
    /// Where in the instance the failing value is.
    package let instancePointer: JSONPointer
    /// The path of keywords the validator followed from the root schema to the failing keyword,
    /// including `$ref` steps (JSON Schema's "keywordLocation"), e.g. `/properties/type/enum`.
    package let keywordLocation: JSONPointer
    /// The failing keyword as written in the schema (`enum`, `required`, `false` for a `false`
    /// schema).
    package let keyword: String
    /// A sentence describing the failure, e.g. `value "x" is not one of ["a", "b"]`.
    package let message: String
    /// The failing keyword's own location: the URI of its schema resource with a JSON-pointer
    /// fragment (JSON Schema's "absoluteKeywordLocation"), independent of how it was reached.
    package let absoluteKeywordLocation: String

    /// Creates a failure.
    package init(
        instancePointer: JSONPointer, keywordLocation: JSONPointer, keyword: String, message: String,
        absoluteKeywordLocation: String = ""
    ) {
        self.instancePointer = instancePointer
        self.keywordLocation = keywordLocation
        self.keyword = keyword
        self.message = message
        self.absoluteKeywordLocation = absoluteKeywordLocation
    }

    /// `at /payload/input/mode: keyword enum: value "x" is not one of ["a", "b"]`.
    package var description: String {
        let at = instancePointer.tokens.isEmpty ? "(root)" : instancePointer.description
        return "at \(at): keyword \(keyword): \(message)"
    }
}
