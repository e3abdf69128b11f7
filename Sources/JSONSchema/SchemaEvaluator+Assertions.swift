import WireJSON

extension SchemaEvaluator {
    /// The validation-vocabulary keywords: they look at the instance itself, never at subschemas.
    mutating func applyAssertion(_ rule: KeywordRule, to instance: JSONValue) -> Bool {
        // Checks return a message *builder* on failure: building messages (which render the
        // instance) only when recording keeps `anyOf`/`oneOf` probing cheap.
        let failure: (() -> String)? =
            switch rule {
            case .type(let names): Self.checkType(names, instance)
            case .enumeration(let options):
                options.contains(where: { $0.schemaEquals(instance) })
                    ? nil : { "value \(Self.describe(instance)) is not one of \(Self.describe(.array(options)))" }
            case .constant(let expected):
                expected.schemaEquals(instance)
                    ? nil : { "value \(Self.describe(instance)) is not \(Self.describe(expected))" }
            case .multipleOf(let divisor):
                !instance.isNumber || NumberSemantics.isMultiple(instance, of: divisor)
                    ? nil : { "value \(Self.describe(instance)) is not a multiple of \(Self.describe(divisor))" }
            case .maximum(let limit, let exclusive): Self.checkBound(instance, limit, exclusive: exclusive, upper: true)
            case .minimum(let limit, let exclusive):
                Self.checkBound(instance, limit, exclusive: exclusive, upper: false)
            case .maxLength(let limit):
                Self.length(of: instance).flatMap { length in
                    length > limit ? { "string is \(Self.count(length, "character")) long, longer than \(limit)" } : nil
                }
            case .minLength(let limit):
                Self.length(of: instance).flatMap { length in
                    length < limit
                        ? { "string is \(Self.count(length, "character")) long, shorter than \(limit)" } : nil
                }
            case .pattern(let regex):
                instance.stringValue.flatMap { text in
                    regex.matches(text)
                        ? nil
                        : {
                            "string \(Self.describe(instance)) does not match the pattern \(Self.quoted(regex.source))"
                        }
                }
            case .format(let format):
                instance.stringValue.flatMap { text in
                    FormatChecker.check(format, text) == false
                        ? { "string \(Self.describe(instance)) is not a valid \(Self.quoted(format))" } : nil
                }
            case .maxItems(let limit):
                Self.checkCount(instance.arrayValue?.count, limit, upper: true, noun: "item", container: "array")
            case .minItems(let limit):
                Self.checkCount(instance.arrayValue?.count, limit, upper: false, noun: "item", container: "array")
            case .uniqueItems: instance.arrayValue.flatMap(Self.checkUnique)
            case .maxProperties(let limit):
                Self.checkCount(instance.objectValue?.count, limit, upper: true, noun: "property", container: "object")
            case .minProperties(let limit):
                Self.checkCount(instance.objectValue?.count, limit, upper: false, noun: "property", container: "object")
            case .required(let names):
                instance.objectValue.flatMap { object in
                    let missing = names.filter { object[$0] == nil }
                    return missing.isEmpty ? nil : { Self.missingMessage(missing) }
                }
            case .dependentRequired(let pairs):
                instance.objectValue.flatMap { object in
                    for (property, required) in pairs where object[property] != nil {
                        let missing = required.filter { object[$0] == nil }
                        if !missing.isEmpty {
                            return {
                                Self.missingMessage(missing) + " (required when \(Self.quoted(property)) is present)"
                            }
                        }
                    }
                    return nil
                }
            default: nil
            }
        guard let failure else { return true }
        if recording { record(failure()) }
        return false
    }

    private static func checkCount(
        _ count: Int?, _ limit: Int, upper: Bool, noun: String, container: String
    )
        -> (() -> String)?
    {
        guard let count, upper ? count > limit : count < limit else { return nil }
        return { "\(container) has \(Self.count(count, noun)), \(upper ? "more" : "fewer") than \(limit)" }
    }

    private static func checkType(_ names: [String], _ instance: JSONValue) -> (() -> String)? {
        let actual = instance.typeName
        for name in names {
            if name == actual || (name == "number" && instance.isNumber) { return nil }
        }
        return { typeMessage(names, actual, instance) }
    }

    private static func typeMessage(_ names: [String], _ actual: String, _ instance: JSONValue) -> String {
        let expected =
            names.count == 1
            ? "type \(quoted(names[0]))" : "one of the types \(describe(.array(names.map(JSONValue.string))))"
        let found = actual == "integer" ? "an integer" : "of type \(quoted(actual))"
        return "value \(describe(instance)) is \(found), expected \(expected)"
    }

    private static func checkBound(
        _ instance: JSONValue, _ limit: JSONValue, exclusive: Bool, upper: Bool
    )
        -> (() -> String)?
    {
        guard let order = NumberSemantics.compare(instance, limit) else { return nil }
        let violates = upper ? (exclusive ? order >= 0 : order > 0) : (exclusive ? order <= 0 : order < 0)
        guard violates else { return nil }
        let relation =
            upper
            ? (exclusive ? "must be less than" : "must be at most")
            : (exclusive ? "must be greater than" : "must be at least")
        return { "value \(describe(instance)) \(relation) \(describe(limit))" }
    }

    /// Length in Unicode code points, as JSON Schema counts it.
    private static func length(of instance: JSONValue) -> Int? {
        instance.stringValue.map { $0.unicodeScalars.count }
    }

    private static func checkUnique(_ items: [JSONValue]) -> (() -> String)? {
        for first in items.indices {
            for second in items.indices where second > first && items[first].schemaEquals(items[second]) {
                return { "items \(first) and \(second) are equal, but items must be unique" }
            }
        }
        return nil
    }

    /// "1 item", "2 items", "1 property", "3 properties".
    private static func count(_ number: Int, _ noun: String) -> String {
        guard number != 1 else { return "1 \(noun)" }
        return noun.hasSuffix("y") ? "\(number) \(noun.dropLast())ies" : "\(number) \(noun)s"
    }

    private static func missingMessage(_ missing: [String]) -> String {
        missing.count == 1
            ? "required property \(quoted(missing[0])) is missing"
            : "required properties \(missing.map(quoted).joined(separator: ", ")) are missing"
    }
}
