import JSONSchema
import WireJSON

enum JSONSchemaFuzzing {
    /// `schema NUL instance`: the schema compiles or is refused with an error; an instance is
    /// judged the same way by `validate` (every failure) and `isValid` (first failure).
    static func run(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        guard let schema = try? JSONValue.decode(Array(bytes[..<split])) else { return }
        let instance = split < bytes.endIndex ? (try? JSONValue.decode(Array(bytes[(split + 1)...]))) : schema
        for assertFormats in [false, true] {
            guard let validator = try? JSONSchemaValidator(schema: schema, assertFormats: assertFormats) else { return }
            guard let instance else { continue }
            let failures = validator.validate(instance)
            precondition(failures.isEmpty == validator.isValid(instance), "validate and isValid disagree")
        }
    }
}
