import Testing
import WireJSON

@Suite struct JSONPointerTests {
    /// The example document of RFC 6901 section 5.
    static let document = try! JSONValue.decode(
        #"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#
    )

    @Test(
        arguments: [
            ("", nil), ("/foo", nil), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
            ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ] as [(String, JSONValue?)])
    func rfc6901PlainExamplesResolve(pointer: String, expected: JSONValue?) throws {
        let resolved = try JSONPointer(parsing: pointer).resolve(in: Self.document)
        if let expected { #expect(resolved == expected) } else { #expect(resolved != nil) }
    }

    @Test(
        arguments: [
            ("#", nil), ("#/foo/0", "bar"), ("#/", 0), ("#/a~1b", 1), ("#/c%25d", 2), ("#/e%5Ef", 3), ("#/g%7Ch", 4),
            ("#/i%5Cj", 5), ("#/k%22l", 6), ("#/%20", 7), ("#/m~0n", 8),
        ] as [(String, JSONValue?)])
    func rfc6901FragmentExamplesResolve(pointer: String, expected: JSONValue?) throws {
        let resolved = try JSONPointer(parsing: pointer).resolve(in: Self.document)
        if let expected { #expect(resolved == expected) } else { #expect(resolved == Self.document) }
    }

    @Test func escapesRoundTripThroughDescription() throws {
        let pointer = JSONPointer(tokens: ["a/b", "m~n", ""])
        #expect(pointer.description == "/a~1b/m~0n/")
        #expect(try JSONPointer(parsing: pointer.description) == pointer)
        #expect(try JSONPointer(parsing: "/~01").tokens == ["~1"])
        #expect(JSONPointer.root.description == "")
    }

    @Test(arguments: ["/foo/2", "/foo/-", "/foo/01", "/foo/x", "/missing", "/foo/0/deeper", "/ /x"])
    func missingPathsResolveToNil(pointer: String) throws {
        #expect(try JSONPointer(parsing: pointer).resolve(in: Self.document) == nil)
    }

    @Test(arguments: ["foo", "/a~2", "/a~", "#/a%2", "#/%zz"])
    func malformedPointersThrow(text: String) {
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: text) }
    }

    @Test func appendingAndParent() {
        let pointer = JSONPointer.root.appending("payload").appending("input")
        #expect(pointer.description == "/payload/input")
        #expect(pointer.parent == JSONPointer(tokens: ["payload"]))
        #expect(JSONPointer.root.parent == nil)
    }
}
