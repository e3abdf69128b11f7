/// A parsed JSON value. Objects keep their keys in document order.
///
/// Numbers keep the distinction the wire made: an integer literal that fits `Int64` is `.int`,
/// anything else (fractions, exponents, integers beyond 64 bits) is `.double`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An order-preserving JSON object. Lookups are linear, which is the right trade for the small
/// objects of the two wire protocols; keys are unique (decoding enforces last-wins or rejection).
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    public init(_ pairs: [(String, JSONValue)]) {
        reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Makes room for `count` members (events are built per frame: growing two arrays member
    /// by member reallocates both several times).
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Reading returns the value for `key`; writing `nil` removes the key, writing a value
    /// replaces it in place or appends it at the end.
    public subscript(key: String) -> JSONValue? {
        get { index(of: key).map { values[$0] } }
        set {
            if let index = index(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Keys match by code points, as JSON compares them. (Swift's `==` on `String` uses
    /// canonical equivalence, under which `"é"` and `"e\u{301}"` would be the same key.)
    private func index(of key: String) -> Int? {
        let count = key.utf8.count
        // Native strings compare as contiguous bytes (the per-frame lookups of `type`, `audio`…);
        // others fall back to the UTF-8 views.
        if let found = key.utf8.withContiguousStorageIfAvailable({ wanted in
            keys.firstIndex { candidate in
                candidate.utf8.count == count
                    && (candidate.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(wanted) }
                        ?? candidate.utf8.elementsEqual(wanted))
            }
        }) {
            return found
        }
        return keys.firstIndex { $0.utf8.count == count && $0.utf8.elementsEqual(key.utf8) }
    }

    /// Appends a key the caller knows is not present yet (the decoder: Jansson already merged
    /// duplicates), avoiding the linear search of the subscript setter.
    mutating func appendUnchecked(key: String, value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    public func makeIterator() -> some IteratorProtocol<Element> {
        zip(keys, values).lazy.map { (key: $0.0, value: $0.1) }.makeIterator()
    }

    /// Objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        // Order-independent: combine a commutative sum of per-entry hashes.
        var sum = 0
        for (key, value) in self {
            var entry = Hasher()
            entry.combine(key)
            entry.combine(value)
            sum = sum &+ entry.finalize()
        }
        hasher.combine(sum)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var isNull: Bool { self == .null }

    /// The value as an integer if it is one exactly (`3` and `3.0`, not `3.5`).
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }

    /// The value as a double if it is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The JSON type name as JSON Schema spells it ("integer" for integral numbers).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double(let d): d.rounded() == d && d.isFinite ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONObject {
    /// Sets (or with nil removes) the value at a path of object keys, creating objects on the way.
    public mutating func set(_ path: [String], _ value: JSONValue?) {
        guard let key = path.first else { return }
        if path.count == 1 {
            self[key] = value
            return
        }
        var child = self[key]?.objectValue ?? [:]
        child.set(Array(path.dropFirst()), value)
        self[key] = .object(child)
    }
}

extension JSONObject {
    /// The same object with its members, and every object and array inside it, at their exact
    /// size: for an object a session keeps for its whole life and built member by member
    /// (appending doubles an array's capacity; a session's configuration kept up to half its
    /// arrays empty).
    package func compacted() -> JSONObject {
        var copy = JSONObject()
        copy.keys = keys.withUnsafeBufferPointer { Array($0) }
        copy.values = [JSONValue](unsafeUninitializedCapacity: values.count) { buffer, count in
            for (index, value) in values.enumerated() {
                (buffer.baseAddress! + index).initialize(to: value.compacted())
            }
            count = values.count
        }
        return copy
    }
}

extension JSONValue {
    /// The same value with every object and array inside it at its exact size (see
    /// ``JSONObject/compacted()``).
    package func compacted() -> JSONValue {
        switch self {
        case .object(let object): .object(object.compacted())
        case .array(let elements):
            .array(
                [JSONValue](unsafeUninitializedCapacity: elements.count) { buffer, count in
                    for (index, element) in elements.enumerated() {
                        (buffer.baseAddress! + index).initialize(to: element.compacted())
                    }
                    count = elements.count
                })
        default: self
        }
    }
}
