import WireJSON

enum WireJSONFuzzing {
    /// Decodes (fast path and Jansson must agree); what decodes re-encodes to text that decodes
    /// to the same value; the in-place member scan agrees with the tree; base64 round-trips.
    static func run(_ bytes: [UInt8]) {
        let value = try? JSONValue.decode(bytes)
        let reference = try? JSONValue.decodeWithJansson(bytes)
        if let value, value != reference {
            fatalError(
                "the flat-object fast path decoded \(value.encodedString()) where Jansson says \(String(describing: reference))"
            )
        }
        checkInPlaceMembers(bytes, tree: value)
        checkBase64(bytes)
        guard let value else { return }
        let encoded = value.encoded()
        guard let again = try? JSONValue.decode(encoded) else {
            fatalError("re-encoded JSON does not decode: \(String(decoding: encoded.prefix(200), as: UTF8.self))")
        }
        precondition(again == value, "JSON round trip changed the value")
    }

    /// Members the in-place scan accepts are exactly the decoded object's (all strings).
    private static func checkInPlaceMembers(_ bytes: [UInt8], tree: JSONValue?) {
        var members: [(String, String)] = []
        let accepted = bytes.withUnsafeBufferPointer { buffer in
            InPlaceJSON.visitASCIIStringMembers(buffer) { key, value in
                members.append(
                    (String(decoding: buffer[key], as: UTF8.self), String(decoding: buffer[value], as: UTF8.self)))
                return true
            }
        }
        guard accepted else { return }
        guard case .object(let object)? = tree else {
            fatalError("in-place scan accepted what does not decode to an object")
        }
        var expected: [String: String] = [:]
        for (key, value) in members { expected[key] = value }  // a repeated key: the last one counts, as in the tree
        precondition(
            expected.count == object.count && expected.allSatisfy { object[$0.key] == .string($0.value) },
            "the in-place member scan disagrees with the tree")
    }

    private static func checkBase64(_ bytes: [UInt8]) {
        let encoded = Base64.encode(bytes)
        precondition(Base64.decode(encoded) == bytes, "base64 round trip changed the bytes")
        let decoded = bytes.withUnsafeBufferPointer { Base64.decode($0) }
        var reused: [UInt8] = [1, 2, 3]
        let valid = bytes.withUnsafeBufferPointer { Base64.decode($0, into: &reused) }
        precondition(valid == (decoded != nil) && (decoded ?? []) == reused, "the two base64 decoders disagree")
        precondition(
            Base64.decodedCount(ofEncoded: bytes) == decoded?.count || decoded == nil, "decodedCount disagrees")
    }
}
