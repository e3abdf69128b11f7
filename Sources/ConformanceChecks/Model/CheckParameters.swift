import ProtocolModel
package import WireJSON

/// Typed access to a check's parameters (the members of its object in the case file).
/// Every getter names the parameter in its error, so lint can point at the value.
package struct CheckParameters: Sendable {
    /// The check object as written.
    package var object: JSONObject

    /// Wraps a check object.
    package init(_ object: JSONObject) { self.object = object }

    /// Whether `key` is present.
    package func has(_ key: String) -> Bool { object[key] != nil }

    /// The raw value of `key`.
    package func value(_ key: String) -> JSONValue? { object[key] }

    /// The typed reads (``JSONMemberReader``; a `null` parameter is a wrong type, not absent),
    /// each getter's error worded once.
    private var members: JSONMemberReader<CheckParameterError> {
        JSONMemberReader(object, nullIsAbsent: false) { mismatch in
            let message =
                switch mismatch.expected {
                case .string: "expected a non-empty string"
                case .boolean: "expected true or false"
                case .integer(let range): "expected an integer in \(range.lowerBound)…\(range.upperBound)"
                case .number(let range):
                    "expected a number "
                        + (range.upperBound == .greatestFiniteMagnitude
                            ? "≥ \(format(range.lowerBound))"
                            : "in \(format(range.lowerBound))…\(format(range.upperBound))")
                case .object, .array: "expected \(mismatch.expected.typeName)"
                }
            return CheckParameterError([mismatch.key], message)
        }
    }

    /// A required string.
    package func requiredString(_ key: String) throws(CheckParameterError) -> String {
        guard let text = try string(key) else { throw CheckParameterError([key], "required string is missing") }
        return text
    }

    /// An optional string.
    package func string(_ key: String) throws(CheckParameterError) -> String? {
        guard let text = try members.string(key) else { return nil }
        guard !text.isEmpty else { throw CheckParameterError([key], "expected a non-empty string") }
        return text
    }

    /// A string or an array of strings (`"type": "Start"` or `["Start", "Stop"]`).
    package func strings(_ key: String) throws(CheckParameterError) -> [String]? {
        guard let value = object[key] else { return nil }
        if let text = value.stringValue { return [text] }
        guard let array = value.arrayValue, !array.isEmpty else {
            throw CheckParameterError([key], "expected a string or a non-empty array of strings")
        }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else {
                throw CheckParameterError([key, String(index)], "expected a string")
            }
            result.append(text)
        }
        return result
    }

    /// An optional number, range-checked.
    package func double(
        _ key: String, in range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude
    ) throws(CheckParameterError) -> Double? {
        try members.double(key, in: range)
    }

    /// An optional integer, range-checked.
    package func int(_ key: String, in range: ClosedRange<Int> = 0...Int.max) throws(CheckParameterError) -> Int? {
        try members.int(key, in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
    }

    /// An optional boolean.
    package func bool(_ key: String) throws(CheckParameterError) -> Bool? { try members.bool(key) }

    /// An optional JSON pointer.
    package func pointer(_ key: String) throws(CheckParameterError) -> JSONPointer? {
        guard let text = try string(key) else { return nil }
        do {
            return try JSONPointer(parsing: text)
        } catch {
            throw CheckParameterError([key], "not a JSON pointer: \(text)")
        }
    }

    /// An optional entry matcher.
    package func matcher(_ key: String) throws(CheckParameterError) -> EntryMatcher? {
        guard let value = object[key] else { return nil }
        do {
            return try EntryMatcher(value)
        } catch {
            throw CheckParameterError([key] + error.tokens, error.message)
        }
    }

    /// A required entry matcher.
    package func requiredMatcher(_ key: String) throws(CheckParameterError) -> EntryMatcher {
        guard let matcher = try matcher(key) else { throw CheckParameterError([key], "required matcher is missing") }
        return matcher
    }

    /// An optional array of entry matchers.
    package func matchers(_ key: String) throws(CheckParameterError) -> [EntryMatcher]? {
        guard let value = object[key] else { return nil }
        guard let array = value.arrayValue, !array.isEmpty else {
            throw CheckParameterError([key], "expected a non-empty array of matchers")
        }
        var result: [EntryMatcher] = []
        for (index, element) in array.enumerated() {
            do {
                result.append(try EntryMatcher(element))
            } catch {
                throw CheckParameterError([key, String(index)] + error.tokens, error.message)
            }
        }
        return result
    }
}
