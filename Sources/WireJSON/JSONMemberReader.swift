/// Typed reads of one JSON object's members: the type and range checks of the package's readers
/// of JSON someone else wrote (scenario files, check parameters, client frames), in one place.
/// Each reader words its own errors from the ``Mismatch`` it is handed (`Failure`).
public struct JSONMemberReader<Failure: Error> {
    /// What a member was asked to be.
    public enum Expected: Sendable, Equatable {
        case string, boolean, object, array
        /// An integer (`3` or `3.0`) within the range.
        case integer(ClosedRange<Int64>)
        /// A finite number within the range.
        case number(ClosedRange<Double>)

        /// The JSON type asked for, as JSON Schema names it.
        public var typeName: String {
            switch self {
            case .string: "string"
            case .boolean: "boolean"
            case .object: "object"
            case .array: "array"
            case .integer: "integer"
            case .number: "number"
            }
        }
    }

    /// A member that is not what was asked: another type, or a number outside the range.
    public struct Mismatch: Sendable {
        public let key: String
        public let expected: Expected
        /// The member's value.
        public let value: JSONValue

        /// Whether the member has the type asked for but lies outside the range.
        public var isOutOfRange: Bool {
            switch expected {
            case .integer: value.intValue != nil
            case .number: value.doubleValue?.isFinite == true
            default: false
            }
        }
    }

    /// The object read.
    public let object: JSONObject
    /// Whether a JSON `null` counts as an absent member.
    public let nullIsAbsent: Bool
    private let failure: (Mismatch) -> Failure

    /// A reader of `object` whose mismatches become `failure(mismatch)`.
    public init(_ object: JSONObject, nullIsAbsent: Bool, failure: @escaping (Mismatch) -> Failure) {
        self.object = object
        self.nullIsAbsent = nullIsAbsent
        self.failure = failure
    }

    /// The member `key`, nil when absent (or `null`, with ``nullIsAbsent``).
    public func value(_ key: String) -> JSONValue? {
        guard let value = object[key] else { return nil }
        // Not a `?:`: JSONValue is ExpressibleByNilLiteral, so `nil` there would be `.null`.
        if nullIsAbsent, value.isNull { return nil }
        return value
    }

    /// An optional string member.
    public func string(_ key: String) throws(Failure) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, .string, value) }
        return text
    }

    /// An optional boolean member.
    public func bool(_ key: String) throws(Failure) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, .boolean, value) }
        return flag
    }

    /// An optional integer member within `range`.
    public func int(_ key: String, in range: ClosedRange<Int64> = .min ... .max) throws(Failure) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue, range.contains(number) else { throw mismatch(key, .integer(range), value) }
        return number
    }

    /// An optional finite number member within `range`.
    public func double(
        _ key: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude ... .greatestFiniteMagnitude
    ) throws(Failure) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
            throw mismatch(key, .number(range), value)
        }
        return number
    }

    /// An optional object member.
    public func object(_ key: String) throws(Failure) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw mismatch(key, .object, value) }
        return members
    }

    /// An optional array member.
    public func array(_ key: String) throws(Failure) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, .array, value) }
        return elements
    }

    private func mismatch(_ key: String, _ expected: Expected, _ value: JSONValue) -> Failure {
        failure(Mismatch(key: key, expected: expected, value: value))
    }
}
