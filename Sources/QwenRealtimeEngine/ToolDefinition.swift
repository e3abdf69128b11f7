package import WireJSON

/// A function tool in the nested Chat-Completions form of §3.4:
/// `{"type":"function","function":{"name","description"?,"parameters"?}}`.
package struct ToolDefinition: Sendable, Hashable {
    /// The function name.
    package var name: String
    /// What the tool does, if given.
    package var description: String?
    /// The JSON-Schema object of the parameters, if given.
    package var parameters: JSONValue?

    /// Validates a `tools` array (C6): every entry nested, `type:"function"`, a non-empty
    /// `function.name`, and `parameters` (if present) an object schema with `type:"object"`.
    package static func validate(_ value: JSONValue) -> Result<[ToolDefinition], QwenError> {
        guard let list = value.arrayValue else {
            return .failure(.invalidValue("session.tools", "tools must be an array."))
        }
        var tools: [ToolDefinition] = []
        for (index, entry) in list.enumerated() {
            let param = "session.tools[\(index)]"
            guard entry.objectValue != nil else {
                return .failure(.invalidValue(param, "Each tool must be an object."))
            }
            guard entry["type"]?.stringValue == "function" else {
                return .failure(.invalidValue("\(param).type", "Tool type must be 'function'."))
            }
            guard let function = entry["function"]?.objectValue else {
                let hint = entry["name"] != nil ? " (flat OpenAI form is not supported; nest it under 'function')" : ""
                return .failure(.invalidValue("\(param).function", "Tool must have a 'function' object\(hint)."))
            }
            guard let name = function["name"]?.stringValue, !name.isEmpty else {
                return .failure(
                    .invalidValue("\(param).function.name", "Tool function name must be a non-empty string."))
            }
            if let description = function["description"], description.stringValue == nil {
                return .failure(.invalidValue("\(param).function.description", "description must be a string."))
            }
            let parameters = function["parameters"]
            if let parameters, parameters["type"]?.stringValue != "object" {
                return .failure(
                    .invalidValue(
                        "\(param).function.parameters", "parameters must be a JSON Schema object with type 'object'."))
            }
            tools.append(
                ToolDefinition(name: name, description: function["description"]?.stringValue, parameters: parameters))
        }
        return .success(tools)
    }
}

extension ToolDefinition {
    /// Reads a declared tool of a validated `tools` list: the nested form, or the flat form
    /// `{"type":"function","name",…}` of the dialects that take it (Qwen-Audio-Live).
    package init?(declared entry: JSONValue) {
        let function = entry["function"]?.objectValue ?? entry.objectValue
        guard let function, let name = function["name"]?.stringValue, !name.isEmpty else { return nil }
        self.init(
            name: name, description: function["description"]?.stringValue, parameters: function["parameters"])
    }
}
