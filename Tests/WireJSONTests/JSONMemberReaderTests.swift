import Testing
import WireJSON

@Suite("JSONMemberReader")
struct JSONMemberReaderTests {
    struct Failure: Error, Equatable {
        let key: String
        let expected: String
        let outOfRange: Bool
    }

    static let object: JSONObject = [
        "s": "text", "b": true, "i": 3, "i2": 3.0, "f": 2.5, "n": .null, "o": ["x": 1], "a": [1, 2],
    ]

    static func reader(nullIsAbsent: Bool = true) -> JSONMemberReader<Failure> {
        JSONMemberReader(object, nullIsAbsent: nullIsAbsent) { mismatch in
            Failure(key: mismatch.key, expected: mismatch.expected.typeName, outOfRange: mismatch.isOutOfRange)
        }
    }

    @Test func membersOfTheAskedTypeAreRead() throws {
        let reader = Self.reader()
        #expect(try reader.string("s") == "text")
        #expect(try reader.bool("b") == true)
        #expect(try reader.int("i") == 3)
        #expect(try reader.int("i2") == 3, "3.0 is an integer")
        #expect(try reader.double("i") == 3)
        #expect(try reader.double("f", in: 0...10) == 2.5)
        #expect(try reader.object("o") == ["x": 1])
        #expect(try reader.array("a") == [1, 2])
        #expect(try reader.string("missing") == nil)
    }

    @Test func nullIsAbsentOnlyWhenAsked() {
        #expect(Self.reader().value("n") == nil)
        #expect(throws: Failure(key: "n", expected: "string", outOfRange: false)) {
            try Self.reader(nullIsAbsent: false).string("n")
        }
    }

    @Test func wrongTypesAndRangesAreTold() {
        let reader = Self.reader()
        #expect(throws: Failure(key: "s", expected: "boolean", outOfRange: false)) { try reader.bool("s") }
        #expect(throws: Failure(key: "f", expected: "integer", outOfRange: false)) { try reader.int("f") }
        #expect(throws: Failure(key: "i", expected: "integer", outOfRange: true)) { try reader.int("i", in: 4...5) }
        #expect(throws: Failure(key: "f", expected: "number", outOfRange: true)) { try reader.double("f", in: 0...1) }
        #expect(throws: Failure(key: "b", expected: "number", outOfRange: false)) { try reader.double("b") }
        #expect(throws: Failure(key: "a", expected: "object", outOfRange: false)) { try reader.object("a") }
        #expect(throws: Failure(key: "o", expected: "array", outOfRange: false)) { try reader.array("o") }
    }
}

@Suite("JSONObject.set")
struct JSONObjectPathSetTests {
    @Test func setsCreatesAndRemovesAlongAPath() {
        var object: JSONObject = ["header": ["action": "run-task"]]
        object.set(["header", "action"], "continue-task")
        object.set(["payload", "parameters", "client_info", "user_id"], "u1")
        #expect(object["header"]?["action"] == "continue-task")
        #expect(object["payload"]?["parameters"]?["client_info"]?["user_id"] == "u1")
        object.set(["payload", "parameters", "client_info", "user_id"], nil)
        #expect(object["payload"]?["parameters"]?["client_info"] == .object([:]))
        object.set([], "ignored")
        #expect(object.count == 2)
    }
}
