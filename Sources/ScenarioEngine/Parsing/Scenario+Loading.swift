package import WireJSON

extension Scenario {
    /// Parses and validates a scenario file's bytes, with `FILE:LINE:COLUMN` locations for
    /// every error (JSON syntax errors included). Duplicate keys are errors.
    /// - Parameters:
    ///   - bytes: The file content.
    ///   - file: The name to print in errors.
    /// - Throws: ``ScenarioError``.
    package static func load(bytes: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        let (value, locate) = try decodeLocated(bytes, file: file)
        return try parse(value, file: file, locate: locate)
    }

    /// Decodes JSON bytes (duplicate keys are errors) with a locator of its members'
    /// `LINE:COLUMN` for later errors; a syntax error names the file, line and column.
    static func decodeLocated(
        _ bytes: [UInt8], file: String
    ) throws(ScenarioError) -> (JSONValue, ScenarioSourceLocator) {
        let value: JSONValue
        do {
            value = try JSONValue.decode(bytes, options: [.rejectDuplicateKeys])
        } catch {
            throw ScenarioError(file: file, line: error.line, column: error.column, tokens: [], message: error.message)
        }
        let map = JSONSourceMap(bytes: bytes)
        return (
            value,
            { tokens, atKey in
                let pointer = JSONPointer(tokens: tokens)
                if atKey, let location = map.keyLocation(of: pointer) { return location }
                return map.nearestLocation(of: pointer)
            }
        )
    }

    /// Parses scenario text (convenience for tests and embedded scenarios).
    package static func load(text: String, file: String) throws(ScenarioError) -> Scenario {
        try load(bytes: Array(text.utf8), file: file)
    }
}

extension TurnContent {
    /// `commands` as the JSON *string* multimodal `extra_info.commands` carries, or `nil`.
    package var commandsJSONString: String? {
        commands?.encodedString()
    }
}

extension TurnContent.FunctionCall {
    /// The arguments serialized as the JSON string Qwen's `arguments` field carries.
    package var argumentsJSONString: String {
        arguments.encodedString()
    }
}

extension FaultSpec {
    /// Parses one fault object given on its own (the control API's `POST /_mock/faults`), with
    /// `FILE:LINE:COLUMN` locations for errors; `file` names the source in messages.
    package static func load(bytes: [UInt8], file: String) throws(ScenarioError) -> FaultSpec {
        let (value, locate) = try Scenario.decodeLocated(bytes, file: file)
        let context = ScenarioDecodingContext(file: file, locate: locate)
        return try parse(value, at: [], context: context)
    }

    /// Parses one fault object already decoded (a conformance case's `faults`); errors name
    /// `file` and the member path, without line and column.
    package static func parse(_ value: JSONValue, file: String) throws(ScenarioError) -> FaultSpec {
        try parse(value, at: [], context: ScenarioDecodingContext(file: file, locate: nil))
    }
}
