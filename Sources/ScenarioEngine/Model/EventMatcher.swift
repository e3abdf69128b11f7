package import WireJSON

/// Selects outbound frames (for faults) or client messages (for triggers) by event type,
/// frame kind and an optional JSON-pointer comparison.
package struct EventMatcher: Sendable, Hashable {
    /// Accepted event types; empty accepts any type (including untyped binary frames).
    package var eventTypes: [String]
    /// `true` only binary frames, `false` only text frames, `nil` both.
    package var binary: Bool?
    /// Reference tokens of a JSON pointer into the frame's JSON, if a value must match.
    package var pointer: [String]?
    /// The value required at `pointer`; `nil` only requires the pointer to resolve.
    package var equals: JSONValue?

    /// Creates a matcher; with no arguments it matches every frame.
    package init(eventTypes: [String] = [], binary: Bool? = nil, pointer: [String]? = nil, equals: JSONValue? = nil) {
        self.eventTypes = eventTypes
        self.binary = binary
        self.pointer = pointer
        self.equals = equals
    }

    /// A matcher for any frame.
    package static let any = EventMatcher()

    /// Whether a frame with this type, kind and (parsed) JSON matches.
    package func matches(eventType: String?, isText: Bool, json: JSONValue?) -> Bool {
        if let binary, binary == isText { return false }
        if !eventTypes.isEmpty {
            guard let eventType, eventTypes.contains(eventType) else { return false }
        }
        if let pointer {
            guard let json, let found = Self.resolve(pointer, in: json) else { return false }
            if let equals, found != equals { return false }
        }
        return true
    }

    /// The value at `tokens` in `value`, or `nil` when the path does not exist.
    package static func resolve(_ tokens: [String], in value: JSONValue) -> JSONValue? {
        var current = value
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The reference tokens of an RFC 6901 pointer string, or `nil` if it is malformed.
    package static func pointerTokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }
}

extension EventMatcher {
    /// Parses `{"type": "X" | ["X", …], "binary"?, "pointer"?, "equals"?}`.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> EventMatcher {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: ["type", "binary", "pointer", "equals"])
        var matcher = EventMatcher()
        switch reader.value("type") {
        case nil: break
        case .string(let name)?: matcher.eventTypes = [name]
        case .array(let names)?:
            for (index, name) in names.enumerated() {
                guard case .string(let text) = name else {
                    throw context.error(
                        reader.path("type") + [String(index)],
                        "expected string; got \(ScenarioDecodingContext.describe(name))")
                }
                matcher.eventTypes.append(text)
            }
        case let other?: throw reader.typeError("type", "string or array of strings", other)
        }
        matcher.binary = try reader.bool("binary")
        if let text = try reader.string("pointer") {
            guard let pointerTokens = pointerTokens(text) else {
                throw context.error(
                    reader.path("pointer"), "expected a JSON pointer starting with \"/\"; got \"\(text)\"")
            }
            matcher.pointer = pointerTokens
        }
        matcher.equals = reader.object["equals"]
        if matcher.equals != nil, matcher.pointer == nil {
            throw context.error(reader.path("equals"), "\"equals\" needs a \"pointer\"")
        }
        return matcher
    }
}
