import ProtocolModel
package import WireJSON

/// A condition on the value a JSON pointer finds: `equals`, `notEquals`, `oneOf`, `exists`,
/// `jsonType`, `minLength` / `maxLength` (strings and arrays), `minimum` / `maximum`.
/// All given members must hold.
package struct ValueCondition: Sendable, Hashable {
    /// Parameter names a condition reads.
    package static let names: Set<String> = [
        "equals", "notEquals", "oneOf", "exists", "jsonType", "minLength", "maxLength", "minimum", "maximum",
    ]

    var equals: JSONValue?
    var notEquals: JSONValue?
    var oneOf: [JSONValue]?
    var exists: Bool?
    var jsonType: [String]?
    var minLength: Int?
    var maxLength: Int?
    var minimum: Double?
    var maximum: Double?

    /// Whether no member is given (the pointer only has to exist).
    package var isEmpty: Bool {
        equals == nil && notEquals == nil && oneOf == nil && exists == nil && jsonType == nil
            && minLength == nil && maxLength == nil && minimum == nil && maximum == nil
    }

    /// Reads the condition members of `parameters`.
    /// - Throws: ``CheckParameterError`` for a member of the wrong type.
    package init(_ parameters: CheckParameters) throws(CheckParameterError) {
        equals = parameters.value("equals")
        notEquals = parameters.value("notEquals")
        if let list = parameters.value("oneOf") {
            guard let array = list.arrayValue, !array.isEmpty else {
                throw CheckParameterError(["oneOf"], "expected a non-empty array")
            }
            oneOf = array
        }
        exists = try parameters.bool("exists")
        jsonType = try parameters.strings("jsonType")
        minLength = try parameters.int("minLength")
        maxLength = try parameters.int("maxLength")
        minimum = try parameters.double("minimum", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        maximum = try parameters.double("maximum", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }

    /// Why `value` (absent when nil) does not satisfy the condition, or nil when it does.
    package func failure(for value: JSONValue?) -> String? {
        if let exists {
            if exists, value == nil { return "is missing" }
            if !exists, let value { return "is present (\(value.encodedString()))" }
            if !exists { return nil }
        }
        guard let value else { return "is missing" }
        let shown = Self.short(value)
        if let equals, value != equals { return "is \(shown), not \(Self.short(equals))" }
        if let notEquals, value == notEquals { return "must not be \(shown)" }
        if let oneOf, !oneOf.contains(value) {
            return "is \(shown), not one of \(oneOf.map(Self.short).joined(separator: ", "))"
        }
        if let jsonType, !jsonType.contains(value.typeName), !(jsonType.contains("number") && value.doubleValue != nil)
        {
            return "is a \(value.typeName), not \(jsonType.joined(separator: "|"))"
        }
        let length: Int? = value.stringValue.map { $0.count } ?? value.arrayValue.map(\.count)
        if let minLength, let length, length < minLength { return "has length \(length) < \(minLength)" }
        if let maxLength, let length, length > maxLength { return "has length \(length) > \(maxLength)" }
        if let minimum, let number = value.doubleValue, number < minimum { return "is \(shown) < \(minimum)" }
        if let maximum, let number = value.doubleValue, number > maximum { return "is \(shown) > \(maximum)" }
        return nil
    }

    /// A value shortened for messages.
    static func short(_ value: JSONValue) -> String {
        let text = value.encodedString()
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }
}
