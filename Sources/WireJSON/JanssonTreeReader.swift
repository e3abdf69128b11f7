internal import CJansson

/// Converts a Jansson tree into a ``JSONValue`` without recursion, so input at Jansson's depth
/// limit (2048) cannot overflow the stack of a small thread. The tree is only borrowed.
enum JanssonTreeReader {
    static func value(of root: UnsafeMutablePointer<json_t>) -> JSONValue {
        var stack: [Container] = []
        var node = root
        while true {
            var finished: JSONValue?
            if let container = Container(node) { stack.append(container) } else { finished = scalar(node) }
            while true {
                if let value = finished {
                    if stack.isEmpty { return value }
                    stack[stack.count - 1].append(value)
                    finished = nil
                }
                if let child = stack[stack.count - 1].nextChild() {
                    node = child
                    break
                }
                finished = stack.removeLast().value
            }
        }
    }

    private static func scalar(_ node: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch cjansson_typeof(node) {
        case JSON_STRING: .string(string(json_string_value(node), length: json_string_length(node)))
        case JSON_INTEGER: .int(Int64(json_integer_value(node)))
        case JSON_REAL: .double(json_real_value(node))
        case JSON_TRUE: .bool(true)
        case JSON_FALSE: .bool(false)
        default: .null
        }
    }

    /// Jansson strings may hold NUL (with `JSON_ALLOW_NUL`), so the length is explicit.
    fileprivate static func string(_ pointer: UnsafePointer<CChar>?, length: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// An array or object being filled in.
    private struct Container {
        let node: UnsafeMutablePointer<json_t>
        let isObject: Bool
        var nextIndex = 0
        var iterator: UnsafeMutableRawPointer?
        var pendingKey = ""
        var elements: [JSONValue] = []
        var members = JSONObject()

        init?(_ node: UnsafeMutablePointer<json_t>) {
            switch cjansson_typeof(node) {
            case JSON_OBJECT:
                isObject = true
                iterator = json_object_iter(node)
            case JSON_ARRAY:
                isObject = false
                elements.reserveCapacity(json_array_size(node))
            default:
                return nil
            }
            self.node = node
        }

        mutating func nextChild() -> UnsafeMutablePointer<json_t>? {
            if isObject {
                guard let current = iterator else { return nil }
                pendingKey = JanssonTreeReader.string(
                    json_object_iter_key(current), length: json_object_iter_key_len(current))
                iterator = json_object_iter_next(node, current)
                return json_object_iter_value(current)
            }
            guard nextIndex < json_array_size(node) else { return nil }
            defer { nextIndex += 1 }
            return json_array_get(node, nextIndex)
        }

        mutating func append(_ value: JSONValue) {
            if isObject { members.appendUnchecked(key: pendingKey, value: value) } else { elements.append(value) }
        }

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }
}
