import WireJSON

/// What every field reader needs: the file name for messages and the location lookup.
struct ScenarioDecodingContext {
    let file: String
    let locate: ScenarioSourceLocator?

    /// An error at `tokens`, pointing at the value (or at the member name with `atKey`).
    func error(_ tokens: [String], _ detail: String, atKey: Bool = false) -> ScenarioError {
        let location = locate?(tokens, atKey)
        return ScenarioError(
            file: file, line: location?.line, column: location?.column, tokens: tokens,
            message: "\(ScenarioError.dottedPath(tokens)): \(detail)")
    }

    /// A reader for the object at `tokens`, or a type error if `value` is not an object.
    func object(_ value: JSONValue, at tokens: [String]) throws(ScenarioError) -> FieldReader {
        guard case .object(let object) = value else {
            throw error(tokens, "expected object; got \(Self.describe(value))")
        }
        return FieldReader(object: object, tokens: tokens, context: self)
    }

    /// The elements of the array at `tokens`, or a type error.
    func array(_ value: JSONValue, at tokens: [String]) throws(ScenarioError) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw error(tokens, "expected array; got \(Self.describe(value))")
        }
        return elements
    }

    /// A short description of a value for "got …" messages: `string "gauss"`, `number 1.5`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "boolean \(flag)"
        case .int(let number): "integer \(number)"
        case .double(let number): "number \(number)"
        case .string(let text): "string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: "array"
        case .object: "object"
        }
    }

    /// Formats a number for range messages without a spurious `.0`.
    static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
