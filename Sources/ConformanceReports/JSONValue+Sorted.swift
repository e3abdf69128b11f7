package import WireJSON

extension JSONValue {
    /// The value with every object's keys in lexicographic order (stable diffs).
    package var sortedKeys: JSONValue {
        switch self {
        case .object(let object):
            var sorted = JSONObject()
            for key in object.keys.sorted() { sorted[key] = object[key]?.sortedKeys }
            return .object(sorted)
        case .array(let array):
            return .array(array.map(\.sortedKeys))
        default:
            return self
        }
    }

    /// A millisecond figure rounded to 0.1 ms, as a JSON number.
    static func milliseconds(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? .int(Int64(rounded)) : .double(rounded)
    }
}
