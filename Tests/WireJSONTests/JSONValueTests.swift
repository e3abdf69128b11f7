import Glibc
import Testing
import WireJSON

/// Issue 44: an object a session keeps for its life is kept without spare capacity.
struct JSONValueCompactionTests {
    /// An object grown member by member, with a nested object and array grown the same way.
    static func grown() -> JSONObject {
        var nested = JSONObject()
        var elements: [JSONValue] = []
        for index in 0..<9 {
            nested["member_\(index)"] = .int(Int64(index))
            elements.append(.string("element \(index)"))
        }
        var object: JSONObject = ["type": "session.update"]
        for index in 0..<17 { object["key_\(index)"] = .double(Double(index) / 4) }
        object["nested"] = .object(nested)
        object["list"] = .array(elements)
        return object
    }

    @Test func compactedValuesAreEqualAndFit() throws {
        let object = Self.grown()
        let compacted = object.compacted()
        #expect(compacted == object)
        #expect(JSONValue.object(compacted).encoded() == JSONValue.object(object).encoded())
        #expect(Array(compacted.keys) == Array(object.keys))
        // Grown by appending, the arrays have room to spare; compacted, they have none beyond
        // the allocator's rounding (a malloc block is a multiple of 16 bytes).
        #expect(object.keys.capacity > object.keys.count)
        #expect(compacted.keys.capacity - compacted.keys.count <= 1)
        #expect(compacted.values.capacity - compacted.values.count <= 1)
        guard case .object(let nested)? = compacted["nested"], case .array(let list)? = compacted["list"] else {
            Issue.record("nested members lost")
            return
        }
        #expect(nested.values.capacity - nested.values.count <= 1)
        #expect(list.capacity - list.count <= 1)
        #expect(JSONValue.string("x").compacted() == .string("x"))
        #expect(JSONValue.array([]).compacted() == .array([]))
    }
}
