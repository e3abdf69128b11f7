internal import CJansson

extension JSONValue {
    /// Compact UTF-8 JSON with object keys in their stored order, written by Jansson.
    ///
    /// Doubles are written as the shortest text that reads back to the same value (`0.1`, not
    /// Jansson's `0.10000000000000001`); integral doubles keep a fraction (`100.0`) so they stay
    /// doubles when decoded again. Non-finite doubles, which JSON cannot express, become `null`.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        // Sized up front: an audio frame (kilobytes of base64) grew from 256 bytes by doubling,
        // four reallocations and copies per frame.
        output.reserveCapacity(CompactWriter.estimatedCount(self))
        CompactWriter.write(self, into: &output)
        return output
    }

    /// Appends the compact JSON text to `output` (building a frame in place).
    public func encode(into output: inout [UInt8]) {
        CompactWriter.write(self, into: &output)
    }

    /// The JSON text as a `String`; `pretty` indents nested values by two spaces.
    public func encodedString(pretty: Bool = false) -> String {
        let flags = pretty ? cjansson_flags_indent(2) : Int(JSON_COMPACT)
        return String(decoding: JanssonTreeWriter.dump(self, flags: flags), as: UTF8.self)
    }
}

/// Builds a Jansson tree from a ``JSONValue`` (without recursion) and dumps it.
enum JanssonTreeWriter {
    static func dump(_ value: JSONValue, flags: Int) -> [UInt8] {
        let root = node(for: value)
        defer { json_decref(root) }
        let sink = DumpSink()
        let allFlags = flags | Int(JSON_ENCODE_ANY) | cjansson_flags_real_precision(17)
        withExtendedLifetime(sink) {
            let context = Unmanaged.passUnretained(sink).toOpaque()
            _ = json_dump_callback(
                root,
                { chunk, size, context in
                    guard let chunk, let context else { return -1 }
                    let sink = Unmanaged<DumpSink>.fromOpaque(context).takeUnretainedValue()
                    chunk.withMemoryRebound(to: UInt8.self, capacity: size) {
                        sink.write(UnsafeBufferPointer(start: $0, count: size))
                    }
                    return 0
                }, context, allFlags)
        }
        return sink.bytes
    }

    /// A new reference to a Jansson tree equal to `value`; the caller decrefs it.
    static func node(for value: JSONValue) -> UnsafeMutablePointer<json_t> {
        let root = shallowNode(for: value)
        // Each frame is a container already linked into the tree (so owned by its parent)
        // together with the JSON value whose children still have to be added.
        var stack: [(node: UnsafeMutablePointer<json_t>, value: JSONValue, next: Int)] = []
        if value.isContainer { stack.append((root, value, 0)) }
        while let top = stack.last {
            let index = top.next
            let child: JSONValue
            switch top.value {
            case .array(let elements) where index < elements.count:
                child = elements[index]
                let childNode = shallowNode(for: child)
                json_array_append_new(top.node, childNode)
                stack[stack.count - 1].next += 1
                if child.isContainer { stack.append((childNode, child, 0)) }
            case .object(let members) where index < members.count:
                child = members.values[index]
                let childNode = shallowNode(for: child)
                let key = members.keys[index]
                // withCString keeps embedded NULs; the explicit length makes Jansson keep them too.
                _ = key.withCString { json_object_setn_new(top.node, $0, key.utf8.count, childNode) }
                stack[stack.count - 1].next += 1
                if child.isContainer { stack.append((childNode, child, 0)) }
            default:
                stack.removeLast()
            }
        }
        return root
    }

    /// A new node for a scalar, or an empty container for an array or object.
    private static func shallowNode(for value: JSONValue) -> UnsafeMutablePointer<json_t> {
        let node: UnsafeMutablePointer<json_t>? =
            switch value {
            case .null: json_null()
            case .bool(let flag): flag ? json_true() : json_false()
            case .int(let integer): json_integer(json_int_t(integer))
            case .double(let real): real.isFinite ? json_real(real) : json_null()
            case .string(let text): text.withCString { json_stringn($0, text.utf8.count) }
            case .array: json_array()
            case .object: json_object()
            }
        guard let node else { preconditionFailure("Jansson could not allocate a value") }
        return node
    }
}

/// Collects Jansson's output chunks, rewriting real numbers to their shortest round-trip text.
///
/// Jansson hands each real to the callback as one chunk, and a string's delimiting quotes as
/// chunks of exactly `"` (a quote inside a string arrives escaped as `\"`), so a chunk outside
/// a string that starts like a number and has a fraction or exponent is a real.
private final class DumpSink {
    var bytes: [UInt8] = []
    private var insideString = false

    func write(_ chunk: UnsafeBufferPointer<UInt8>) {
        if chunk.count == 1, chunk[0] == UInt8(ascii: "\"") { insideString.toggle() }
        if !insideString, let first = chunk.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57),
            chunk.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let real = Double(String(decoding: chunk, as: UTF8.self))
        {
            bytes.append(contentsOf: real.description.utf8)
        } else {
            bytes.append(contentsOf: chunk)
        }
    }
}

extension JSONValue {
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

/// Compact JSON text written straight into a byte array, byte for byte what Jansson's
/// `JSON_COMPACT` dump gives (same escapes; reals as their shortest round-trip text), without
/// building a Jansson tree: this runs for every frame the mock sends.
enum CompactWriter {
    static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let flag): output.append(contentsOf: flag ? Array("true".utf8) : Array("false".utf8))
        case .int(let integer): appendInteger(integer, into: &output)
        case .double(let real):
            if real.isFinite {
                output.append(contentsOf: real.description.utf8)
            } else {
                output.append(contentsOf: Array("null".utf8))
            }
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for index in 0..<members.count {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(members.keys[index], into: &output)
                output.append(UInt8(ascii: ":"))
                write(members.values[index], into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// About the length of the compact text: exact for plain strings (no escapes), 24 bytes for
    /// a number; at least 64.
    static func estimatedCount(_ value: JSONValue) -> Int {
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .null, .bool: 5
            case .int, .double: 24
            case .string(let text): text.utf8.count + 2
            case .array(let elements): elements.reduce(2) { $0 + count($1) + 1 }
            case .object(let members):
                (0..<members.count).reduce(2) {
                    $0 + members.keys[$1].utf8.count + 4 + count(members.values[$1])
                }
            }
        }
        return max(64, count(value))
    }

    private static func appendInteger(_ value: Int64, into output: inout [UInt8]) {
        if value >= 0 && value < 10 {
            output.append(UInt8(truncatingIfNeeded: value) + 48)
        } else {
            output.append(contentsOf: String(value).utf8)
        }
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func writeString(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            var index = 0
            let count = bytes.count
            let raw = bytes.baseAddress.map(UnsafeRawPointer.init)
            while index < count {
                // Sixteen or eight bytes at a time while none needs escaping (base64 audio is
                // thousands of them).
                if let raw, index + 16 <= count,
                    !FlatObjectScanner.mayEndString(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
                {
                    index += 16
                    continue
                }
                if let raw, index + 8 <= count,
                    !FlatObjectScanner.mayEndString(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let escaped = index - 1
                if runStart < escaped {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<escaped]))
                }
                runStart = index
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
            output.append(UInt8(ascii: "\""))
        }
    }
}
