import Testing
import WireJSON

@Suite struct JSONSourceMapTests {
    static let text = """
        {
          "id": "qrt.session.003",
          "spec": { "level": "MUST", "tags": ["a", {"deep": [1, 2.5]}] },
          "checks": [
            { "kind": "firstMessage" },
            {"kind": "noMessage", "é": "日本", "x": true}
          ],
          "a/b": null
        }
        """
    static let map = JSONSourceMap(text: text)

    private func location(_ pointer: String) throws -> [Int]? {
        try Self.map.location(of: JSONPointer(parsing: pointer)).map { [$0.line, $0.column] }
    }

    private func keyLocation(_ pointer: String) throws -> [Int]? {
        try Self.map.keyLocation(of: JSONPointer(parsing: pointer)).map { [$0.line, $0.column] }
    }

    @Test func rootAndTopLevelMembers() throws {
        #expect(try location("") == [1, 1])
        #expect(try location("/id") == [2, 9])
        #expect(try keyLocation("/id") == [2, 3])
        #expect(try location("/a~1b") == [8, 10])
    }

    @Test func nestedObjectsAndArrays() throws {
        #expect(try location("/spec") == [3, 11])
        #expect(try location("/spec/level") == [3, 22])
        #expect(try location("/spec/tags") == [3, 38])
        #expect(try location("/spec/tags/0") == [3, 39])
        #expect(try location("/spec/tags/1") == [3, 44])
        #expect(try location("/spec/tags/1/deep/1") == [3, 57])
        #expect(try keyLocation("/spec/tags/1/deep") == [3, 45])
    }

    @Test func multiLineArraysAndCodePointColumns() throws {
        #expect(try location("/checks") == [4, 13])
        #expect(try location("/checks/0") == [5, 5])
        #expect(try location("/checks/0/kind") == [5, 15])
        #expect(try location("/checks/1") == [6, 5])
        #expect(try keyLocation("/checks/1/x") == [6, 38])
        #expect(try location("/checks/1/x") == [6, 43])
    }

    @Test func keysAreNotValuesAndMissingPathsAreNil() throws {
        #expect(try keyLocation("") == nil)
        #expect(try keyLocation("/checks/0") == nil)
        #expect(try location("/checks/2") == nil)
        #expect(try location("/nope") == nil)
        #expect(
            try Self.map.nearestLocation(of: JSONPointer(parsing: "/checks/0/missing")).map { [$0.line, $0.column] }
                == [5, 5])
    }

    @Test func escapedKeysMatchDecodedTokens() throws {
        let map = JSONSourceMap(text: #"{"a\"b": 1, "\u00e9\ud83d\ude00": [true]}"#)
        #expect(map.location(of: JSONPointer(tokens: ["a\"b"]))?.column == 10)
        #expect(map.location(of: JSONPointer(tokens: ["é😀", "0"]))?.column == 36)
    }

    @Test func malformedInputKeepsWhatWasRead() {
        let map = JSONSourceMap(text: "{\"a\": 1, \"b\": [2, ")
        #expect(map.location(of: JSONPointer(tokens: ["a"]))?.column == 7)
        #expect(map.location(of: JSONPointer(tokens: ["b", "0"]))?.column == 16)
        #expect(map.location(of: JSONPointer(tokens: ["b", "1"])) == nil)
    }

    @Test func deepInputDoesNotOverflowTheStack() {
        let map = JSONSourceMap(text: String(repeating: "[", count: 50_000))
        #expect(map.location(of: JSONPointer(tokens: Array(repeating: "0", count: 3))) != nil)
        #expect(map.location(of: JSONPointer(tokens: Array(repeating: "0", count: 2049))) == nil)
    }
}
