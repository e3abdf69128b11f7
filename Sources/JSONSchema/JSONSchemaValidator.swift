package import WireJSON

/// A JSON Schema (draft 2020-12) compiled once and used to validate many instances.
///
/// ```swift
/// let validator = try JSONSchemaValidator(schema: schemaJSON)
/// for failure in validator.validate(message.value) { print(failure) }
/// ```
/// `format` is an annotation only, as the default of 2020-12 says, unless `assertFormats` is set
/// or the schema's metaschema requires the format-assertion vocabulary.
package struct JSONSchemaValidator: Sendable {
    private let program: SchemaProgram

    /// The URI the root schema was registered under (its `$id`, else `baseURI`, else a
    /// placeholder); references inside the schema resolve against it.
    package let rootURI: String

    /// The base URI used when neither `baseURI` nor the schema's `$id` gives one.
    package static let defaultBaseURI = "https://dialogmock.invalid/schema.json"

    /// Compiles `schema`.
    /// - Parameters:
    ///   - registry: other schema documents `$ref` may point to (the metaschemas are always there).
    ///   - baseURI: where the schema came from, e.g. a `file://` URL; relative references resolve
    ///     against it unless the schema's `$id` says otherwise.
    ///   - assertFormats: check `format` values (dates, times, e-mail addresses, host names, IP
    ///     addresses, URIs, UUIDs, JSON pointers, regexes); unknown formats pass.
    /// - Throws: ``SchemaError`` for an unresolvable reference, an invalid regex or a keyword
    ///   value of the wrong shape.
    package init(
        schema: JSONValue, registry: SchemaRegistry = .init(), baseURI: String? = nil, assertFormats: Bool = false
    ) throws(SchemaError) {
        var registry = registry
        let retrievalURI = baseURI ?? Self.defaultBaseURI
        try registry.add(document: schema, retrievalURI: retrievalURI)
        let document = registry.documents.count - 1
        var compiler = SchemaCompiler(registry: registry, assertsFormats: assertFormats)
        try compiler.compileRoot(at: SchemaLocation(document: document, pointer: []))
        program = compiler.program
        rootURI = program.resourceURIs[program.nodes[program.root].resource]
    }

    /// Every way `instance` fails the schema; empty when it is valid.
    package func validate(_ instance: JSONValue) -> [ValidationFailure] {
        guard LargeStackRunner.nestsDeeperThan(LargeStackRunner.inlineDepthLimit, instance) else {
            return evaluate(instance, recording: true).failures
        }
        return LargeStackRunner.run { [self] in evaluate(instance, recording: true).failures }
    }

    /// Whether `instance` is valid; stops at the first failure, so it is cheaper than
    /// ``validate(_:)`` for invalid instances.
    package func isValid(_ instance: JSONValue) -> Bool {
        guard LargeStackRunner.nestsDeeperThan(LargeStackRunner.inlineDepthLimit, instance) else {
            return evaluate(instance, recording: false).valid
        }
        return LargeStackRunner.run { [self] in evaluate(instance, recording: false).valid }
    }

    private func evaluate(_ instance: JSONValue, recording: Bool) -> (valid: Bool, failures: [ValidationFailure]) {
        var evaluator = SchemaEvaluator(program: program)
        evaluator.recording = recording
        var annotations = Annotations()
        let valid = evaluator.evaluate(program.root, instance, &annotations)
        return (valid, evaluator.failures)
    }
}
