import Foundation
import JSONSchema
import Testing
import WireJSON

/// `examples/valid/<type>.<n>.json` validate against the schema of their type;
/// `examples/invalid/<type>.<n>.json` fail with the keyword and at the instance pointer that
/// `examples/invalid/expected.json` names for them.
@Suite("Protocol examples")
struct ExampleTests {
    static var validExamples: [String] {
        ProtocolFiles.protocols.flatMap { name in
            ProtocolFiles.jsonFiles(in: "\(name)/examples/valid").map { "\(name)/\($0)" }
        }
    }

    static var invalidExamples: [String] {
        ProtocolFiles.protocols.flatMap { name in
            ProtocolFiles.jsonFiles(in: "\(name)/examples/invalid").filter { $0 != "expected.json" }.map {
                "\(name)/\($0)"
            }
        }
    }

    /// The schema a valid example is checked against: the one file named after its type in
    /// `client/` or `server/`; for a name in both (Multimodal `HeartBeat`) the envelope decides:
    /// a client header has `action`, a server header has `event`.
    static func schemaKey(protocolName: String, fileName: String, example: JSONValue) throws -> String {
        guard let type = ProtocolFiles.exampleType(fileName) else {
            throw TestError("\(fileName) is not <type>.<n>.json")
        }
        let candidates = ["client", "server"].filter { ProtocolFiles.fileExists("\(protocolName)/\($0)/\(type).json") }
        switch candidates.count {
        case 0: throw TestError("no schema for type \(type)")
        case 1: return "\(protocolName)/\(candidates[0])/\(type).json"
        default:
            let direction = example["header"]?["action"] != nil ? "client" : "server"
            return "\(protocolName)/\(direction)/\(type).json"
        }
    }

    @Test(arguments: validExamples)
    func validExampleValidates(key: String) throws {
        let (name, file) = Self.split(key)
        let example = try ProtocolFiles.readJSON("\(name)/examples/valid/\(file)")
        let validator = try ProtocolFiles.validator(
            try Self.schemaKey(protocolName: name, fileName: file, example: example))
        let failures = validator.validate(example)
        #expect(failures.isEmpty, "\(failures.map(\.description))")
    }

    /// Newer optional fields must not break validation: the same example with unknown keys
    /// added at the top level and inside the message body still validates.
    @Test(arguments: validExamples)
    func validExampleWithUnknownKeysStillValidates(key: String) throws {
        let (name, file) = Self.split(key)
        var example = try ProtocolFiles.readJSON("\(name)/examples/valid/\(file)")
        let validator = try ProtocolFiles.validator(
            try Self.schemaKey(protocolName: name, fileName: file, example: example))
        example = Self.adding("x_future_field", to: example, at: [])
        for path in [
            ["payload"], ["payload", "input"], ["payload", "output"], ["header"], ["session"], ["item"], ["response"],
            ["error"],
        ] {
            example = Self.adding("x_future_field", to: example, at: path)
        }
        let failures = validator.validate(example)
        #expect(failures.isEmpty, "\(failures.map(\.description))")
    }

    struct Expectation: Sendable {
        let schema: String
        let keyword: String
        let instancePointer: String
    }

    static func expectations(of protocolName: String) throws -> [String: Expectation] {
        let manifest = try ProtocolFiles.readJSON("\(protocolName)/examples/invalid/expected.json")
        guard case .object(let examples)? = manifest["examples"] else {
            throw TestError("expected.json has no examples object")
        }
        var result: [String: Expectation] = [:]
        for (file, entry) in examples {
            guard let schema = entry["schema"]?.stringValue, let keyword = entry["keyword"]?.stringValue,
                let pointer = entry["instancePointer"]?.stringValue, entry["violates"]?.stringValue != nil
            else { throw TestError("expected.json entry \(file) needs schema, keyword, instancePointer, violates") }
            result[file] = Expectation(schema: schema, keyword: keyword, instancePointer: pointer)
        }
        return result
    }

    @Test(arguments: ProtocolFiles.protocols)
    func sidecarListsExactlyTheInvalidExamples(protocolName: String) throws {
        let listed = Set(try Self.expectations(of: protocolName).keys)
        let files = Set(
            ProtocolFiles.jsonFiles(in: "\(protocolName)/examples/invalid").filter { $0 != "expected.json" })
        #expect(
            listed == files,
            "only listed: \(listed.subtracting(files).sorted()); only on disk: \(files.subtracting(listed).sorted())")
    }

    @Test(arguments: invalidExamples)
    func invalidExampleFailsWithTheExpectedKeyword(key: String) throws {
        let (name, file) = Self.split(key)
        let expectation = try #require(try Self.expectations(of: name)[file], "\(file) is not in expected.json")
        let type = try #require(ProtocolFiles.exampleType(file))
        #expect(expectation.schema.hasSuffix("/\(type).json"), "file name type \(type) ≠ schema \(expectation.schema)")
        let example = try ProtocolFiles.readJSON("\(name)/examples/invalid/\(file)")
        let failures = try ProtocolFiles.validator("\(name)/\(expectation.schema)").validate(example)
        #expect(
            failures.contains {
                $0.keyword == expectation.keyword && $0.instancePointer.description == expectation.instancePointer
            },
            "expected \(expectation.keyword) at \"\(expectation.instancePointer)\", got \(failures.map(\.description))")
        // Exactly one rule is broken: every failure is about that one place.
        #expect(
            failures.allSatisfy { $0.instancePointer.description == expectation.instancePointer },
            "failures elsewhere: \(failures.map(\.description))")
    }

    /// Every message schema has at least one valid example, every client message at least one
    /// invalid one.
    @Test(arguments: ProtocolFiles.protocols)
    func everyMessageTypeHasExamples(protocolName: String) throws {
        var validSchemas: Set<String> = []
        for file in ProtocolFiles.jsonFiles(in: "\(protocolName)/examples/valid") {
            let example = try ProtocolFiles.readJSON("\(protocolName)/examples/valid/\(file)")
            validSchemas.insert(try Self.schemaKey(protocolName: protocolName, fileName: file, example: example))
        }
        let invalidSchemas = Set(try Self.expectations(of: protocolName).values.map { "\(protocolName)/\($0.schema)" })
        for path in ProtocolFiles.schemaPaths(of: protocolName) where path != "common.json" {
            #expect(validSchemas.contains("\(protocolName)/\(path)"), "no valid example for \(path)")
            if path.hasPrefix("client/") {
                #expect(invalidSchemas.contains("\(protocolName)/\(path)"), "no invalid example for \(path)")
            }
        }
    }

    private static func split(_ key: String) -> (String, String) {
        let slash = key.firstIndex(of: "/")!
        return (String(key[..<slash]), String(key[key.index(after: slash)...]))
    }

    /// `value` with `key: true` added to the object at `path`, if there is one.
    private static func adding(_ key: String, to value: JSONValue, at path: [String]) -> JSONValue {
        guard case .object(var object) = value else { return value }
        guard let first = path.first else {
            object[key] = .bool(true)
            return .object(object)
        }
        guard let child = object[first] else { return value }
        object[first] = adding(key, to: child, at: Array(path.dropFirst()))
        return .object(object)
    }
}
