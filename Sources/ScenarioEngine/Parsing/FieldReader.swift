import WireJSON

/// Reads the members of one JSON object with type and range checks, tracking the JSON pointer
/// so every error names the exact field. Unknown members are rejected (typo protection).
struct FieldReader {
    let object: JSONObject
    let tokens: [String]
    let context: ScenarioDecodingContext

    /// The pointer tokens of member `key`.
    func path(_ key: String) -> [String] { tokens + [key] }

    /// Whether member `key` is present (a JSON `null` counts as absent).
    func has(_ key: String) -> Bool {
        if let value = object[key], value != .null { return true }
        return false
    }

    /// The typed reads (``JSONMemberReader``), with this reader's errors.
    private var members: JSONMemberReader<ScenarioError> {
        JSONMemberReader(object, nullIsAbsent: true) { mismatch in
            if mismatch.isOutOfRange, let number = mismatch.value.doubleValue {
                let range: ClosedRange<Double> =
                    switch mismatch.expected {
                    case .integer(let range): Double(range.lowerBound)...Double(range.upperBound)
                    case .number(let range): range
                    default: number...number
                    }
                return rangeError(mismatch.key, range, number)
            }
            return typeError(mismatch.key, mismatch.expected.typeName, mismatch.value)
        }
    }

    /// The raw value of `key`, treating `null` as absent.
    func value(_ key: String) -> JSONValue? { members.value(key) }

    /// Rejects members not in `allowed`, suggesting the closest allowed name.
    func rejectUnknownKeys(allowing allowed: [String]) throws(ScenarioError) {
        for key in object.keys where !allowed.contains(key) {
            var detail = "unknown key \"\(key)\""
            if let suggestion = DidYouMean.suggestion(for: key, among: allowed) {
                detail += "; did you mean \"\(suggestion)\"?"
            } else {
                detail += "; expected one of \(allowed.joined(separator: ", "))"
            }
            throw context.error(path(key), detail, atKey: true)
        }
    }

    /// A required member, with a "missing" error located at the enclosing object.
    func required(_ key: String) throws(ScenarioError) -> JSONValue {
        guard let value = value(key) else {
            throw context.error(tokens, "missing required key \"\(key)\"")
        }
        return value
    }

    /// An optional string member.
    func string(_ key: String) throws(ScenarioError) -> String? { try members.string(key) }

    /// An optional boolean member.
    func bool(_ key: String) throws(ScenarioError) -> Bool? { try members.bool(key) }

    /// An optional number member that must lie in `range`.
    func double(_ key: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double? {
        try members.double(key, in: range)
    }

    /// An optional integer member that must lie in `range`.
    func int(_ key: String, in range: ClosedRange<Int64>) throws(ScenarioError) -> Int64? {
        try members.int(key, in: range)
    }

    /// An optional string member restricted to the raw values of `E`.
    func enumeration<E: RawRepresentable & CaseIterable>(
        _ key: String, as type: E.Type
    ) throws(ScenarioError) -> E? where E.RawValue == String {
        guard let value = value(key) else { return nil }
        let names = E.allCases.map(\.rawValue)
        guard case .string(let text) = value else {
            throw context.error(
                path(key),
                "expected one of \(names.joined(separator: ", ")); got \(ScenarioDecodingContext.describe(value))")
        }
        guard let result = E(rawValue: text) else {
            throw context.error(path(key), "expected one of \(names.joined(separator: ", ")); got \"\(text)\"")
        }
        return result
    }

    /// An optional object member, as a reader.
    func object(_ key: String) throws(ScenarioError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        return try context.object(value, at: path(key))
    }

    /// An optional array member.
    func array(_ key: String) throws(ScenarioError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        return try context.array(value, at: path(key))
    }

    /// An optional object of string values (e.g. variables).
    func stringDictionary(_ key: String) throws(ScenarioError) -> [String: String]? {
        guard let reader = try object(key) else { return nil }
        var result: [String: String] = [:]
        for (name, value) in reader.object {
            guard case .string(let text) = value else {
                throw context.error(
                    reader.path(name), "expected string; got \(ScenarioDecodingContext.describe(value))")
            }
            result[name] = text
        }
        return result
    }

    /// A type error for member `key`.
    func typeError(_ key: String, _ expected: String, _ value: JSONValue) -> ScenarioError {
        context.error(path(key), "expected \(expected); got \(ScenarioDecodingContext.describe(value))")
    }

    private func rangeError(_ key: String, _ range: ClosedRange<Double>, _ number: Double) -> ScenarioError {
        let low = ScenarioDecodingContext.format(range.lowerBound)
        let high = ScenarioDecodingContext.format(range.upperBound)
        return context.error(
            path(key), "must be between \(low) and \(high); got \(ScenarioDecodingContext.format(number))")
    }
}
