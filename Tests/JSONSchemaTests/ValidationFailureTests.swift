import JSONSchema
import Testing
import WireJSON

@Suite struct ValidationFailureTests {
    static let schema = try! JSONValue.decode(
        #"""
        {
          "$id": "https://dialogmock.test/client/Start.json",
          "type": "object",
          "required": ["header", "payload"],
          "properties": {
            "header": {"$ref": "#/$defs/header"},
            "payload": {
              "type": "object",
              "properties": {
                "input": {
                  "type": "object",
                  "properties": {"mode": {"enum": ["push2talk", "tap2talk", "duplex"]}},
                  "additionalProperties": false
                },
                "rate": {"type": "integer", "minimum": 8000, "multipleOf": 8000},
                "tags": {"type": "array", "items": {"type": "string", "minLength": 2}, "uniqueItems": true}
              }
            }
          },
          "$defs": {
            "header": {
              "type": "object",
              "required": ["action"],
              "properties": {"action": {"const": "Start"}, "taskId": {"type": "string", "pattern": "^[0-9a-f]{32}$"}}
            }
          }
        }
        """#)

    static let validator = try! JSONSchemaValidator(schema: schema)

    private func failures(_ text: String) throws -> [ValidationFailure] {
        Self.validator.validate(try JSONValue.decode(text))
    }

    @Test func validInstanceHasNoFailures() throws {
        #expect(
            try failures(#"{"header": {"action": "Start"}, "payload": {"input": {"mode": "duplex"}, "rate": 16000}}"#)
                == [])
    }

    @Test func enumFailureNamesInstanceAndKeywordLocations() throws {
        let found = try failures(#"{"header": {"action": "Start"}, "payload": {"input": {"mode": "x"}}}"#)
        let failure = try #require(found.first)
        #expect(found.count == 1)
        #expect(failure.instancePointer.description == "/payload/input/mode")
        #expect(failure.keywordLocation.description == "/properties/payload/properties/input/properties/mode/enum")
        #expect(failure.keyword == "enum")
        #expect(failure.message == #"value "x" is not one of ["push2talk","tap2talk","duplex"]"#)
        #expect(
            failure.absoluteKeywordLocation
                == "https://dialogmock.test/client/Start.json#/properties/payload/properties/input/properties/mode/enum"
        )
        #expect(
            failure.description
                == #"at /payload/input/mode: keyword enum: value "x" is not one of ["push2talk","tap2talk","duplex"]"#)
    }

    @Test func referencedSchemasReportTheRefPathAndTheirOwnLocation() throws {
        let found = try failures(#"{"header": {"action": "Stop", "taskId": "XYZ"}, "payload": {}}"#)
        #expect(
            found.map(\.keywordLocation.description) == [
                "/properties/header/$ref/properties/action/const",
                "/properties/header/$ref/properties/taskId/pattern",
            ])
        #expect(
            found.map(\.absoluteKeywordLocation) == [
                "https://dialogmock.test/client/Start.json#/$defs/header/properties/action/const",
                "https://dialogmock.test/client/Start.json#/$defs/header/properties/taskId/pattern",
            ])
        #expect(found[0].message == #"value "Stop" is not "Start""#)
        #expect(found[1].message == #"string "XYZ" does not match the pattern "^[0-9a-f]{32}$""#)
    }

    @Test func missingRequiredPropertiesAreReportedAtTheObject() throws {
        let found = try failures(#"{"payload": {}}"#)
        #expect(found.count == 1)
        #expect(found[0].instancePointer == .root)
        #expect(found[0].keywordLocation.description == "/required")
        #expect(found[0].message == #"required property "header" is missing"#)
    }

    @Test func additionalPropertyFalseNamesTheProperty() throws {
        let found = try failures(#"{"header": {"action": "Start"}, "payload": {"input": {"mood": "happy"}}}"#)
        #expect(
            found.map(\.description) == [
                #"at /payload/input/mood: keyword additionalProperties: property "mood" is not allowed"#
            ])
        #expect(found[0].keywordLocation.description == "/properties/payload/properties/input/additionalProperties")
    }

    @Test func everyFailureIsReportedNotJustTheFirst() throws {
        let found = try failures(
            #"{"header": {"action": "Start"}, "payload": {"rate": 12000.5, "tags": ["a", "bb", "bb"]}}"#)
        #expect(found.map(\.keyword) == ["type", "multipleOf", "minLength", "uniqueItems"])
        #expect(
            found.map(\.instancePointer.description) == [
                "/payload/rate", "/payload/rate", "/payload/tags/0", "/payload/tags",
            ])
        #expect(found[0].message == "value 12000.5 is of type \"number\", expected type \"integer\"")
        #expect(found[2].message == "string is 1 character long, shorter than 2")
        #expect(found[3].message == "items 1 and 2 are equal, but items must be unique")
    }

    @Test func anyOfExplainsEachAlternative() throws {
        let validator = try JSONSchemaValidator(
            schema: JSONValue.decode(
                #"{"anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}"#))
        let found = validator.validate(["b": 1])
        #expect(found.count == 1)
        #expect(found[0].keyword == "anyOf")
        #expect(
            found[0].message
                == #"value does not match any of the 2 alternatives ([0] at (root): keyword type: value {"b":1} is of type "object", expected type "string"; [1] at (root): keyword required: required property "a" is missing)"#
        )
    }

    @Test func numbersCompareMathematically() throws {
        let validator = try JSONSchemaValidator(
            schema: JSONValue.decode(
                #"{"prefixItems": [{"const": 1}, {"enum": [2.0]}, {"multipleOf": 0.1}, {"maximum": 9007199254740993}]}"#
            ))
        #expect(validator.validate([1.0, 2, 0.3, 9_007_199_254_740_992]) == [])
        #expect(validator.validate([1, 2, 0.35, 9_007_199_254_740_994]).map(\.keyword) == ["multipleOf", "maximum"])
    }

    @Test func unresolvableReferencesFailAtCompileTime() throws {
        #expect(throws: SchemaError.self) {
            try JSONSchemaValidator(schema: JSONValue.decode(#"{"$ref": "other.json#/x"}"#))
        }
        var registry = SchemaRegistry()
        try registry.add(
            document: JSONValue.decode(#"{"$defs": {"x": {"type": "string"}}}"#),
            retrievalURI: "file:///schemas/other.json")
        let validator = try JSONSchemaValidator(
            schema: JSONValue.decode(#"{"$ref": "other.json#/$defs/x"}"#), registry: registry,
            baseURI: "file:///schemas/main.json")
        #expect(validator.validate(1).map(\.keywordLocation.description) == ["/$ref/type"])
    }

    @Test func invalidRegexIsASchemaError() {
        #expect(throws: SchemaError.self) { try JSONSchemaValidator(schema: JSONValue.decode(#"{"pattern": "("}"#)) }
    }

    @Test func metaschemaValidatesSchemas() throws {
        let metaschema = try JSONSchemaValidator(schema: ["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(metaschema.validate(Self.schema) == [])
        let found = metaschema.validate(["type": "strin", "minLength": -1])
        #expect(found.map(\.instancePointer.description).sorted() == ["/minLength", "/type"])
    }

    @Test func ecmaDigitClassIsAsciiOnly() throws {
        let validator = try JSONSchemaValidator(schema: ["pattern": "^\\d+$"])
        #expect(validator.isValid("0123"))
        #expect(!validator.isValid("٣"))
    }
}

@Suite struct DeepInstanceTests {
    @Test(arguments: [60, 2000])
    func deeplyNestedInstancesValidateWithoutOverflowingTheStack(depth: Int) throws {
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let instance = try JSONValue.decode(text)
        let validator = try JSONSchemaValidator(
            schema: JSONValue.decode(##"{"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}"##))
        #expect(validator.validate(instance) == [])
        let strict = try JSONSchemaValidator(schema: JSONValue.decode(##"{"items": {"$ref": "#"}, "type": "array"}"##))
        #expect(strict.validate(instance).map(\.keyword) == ["type"])
    }

    @Test func selfReferenceWithoutProgressIsAFailureNotAHang() throws {
        let validator = try JSONSchemaValidator(
            schema: JSONValue.decode(##"{"$defs": {"a": {"$ref": "#"}}, "$ref": "#/$defs/a"}"##))
        #expect(validator.validate(1).map(\.keyword) == ["$ref"])
    }
}
