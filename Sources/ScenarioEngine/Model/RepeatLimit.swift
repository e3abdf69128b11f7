import WireJSON

/// How often a trigger fires or a fault applies: `"once"`, `"every"` or a count.
package enum RepeatLimit: Sendable, Hashable {
    /// At most once.
    case once
    /// Without limit.
    case every
    /// At most `n` times.
    case count(Int)

    /// The maximum number of applications, `nil` for unlimited.
    package var maximum: Int? {
        switch self {
        case .once: 1
        case .every: nil
        case .count(let n): n
        }
    }

    /// Whether `used` applications exhaust the limit.
    package func isExhausted(after used: Int) -> Bool {
        guard let maximum else { return false }
        return used >= maximum
    }

    /// Parses `"once"`, `"every"` or a positive integer at member `key` of `reader`.
    static func parse(_ reader: FieldReader, key: String) throws(ScenarioError) -> RepeatLimit? {
        guard let value = reader.value(key) else { return nil }
        switch value {
        case .string("once"): return .once
        case .string("every"): return .every
        default:
            if let number = value.intValue {
                guard number >= 1, number <= 1_000_000 else {
                    throw reader.context.error(reader.path(key), "must be between 1 and 1000000; got \(number)")
                }
                return .count(Int(number))
            }
            throw reader.context.error(
                reader.path(key),
                "expected \"once\", \"every\" or a positive integer; got \(ScenarioDecodingContext.describe(value))")
        }
    }
}
