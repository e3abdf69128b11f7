import JSONSchema
package import WireJSON

/// The call a model would make of a session's declared tools when the scenario scripts none
/// (`policies.callDeclaredTools`): the tool whose name and description share the most words
/// with the user's transcript (the first declared one when none does), with arguments built
/// from its `parameters` schema and checked against it.
package enum DeclaredToolCall {
    /// The tool that best fits `transcript`, or nil when none is declared: the most words in
    /// common, function words (`the`, `what`, `get`, …) left out; the first declared on a tie.
    package static func bestTool(for transcript: String, among tools: [ToolDefinition]) -> ToolDefinition? {
        let heard = contentWords(of: transcript)
        var best: (tool: ToolDefinition, score: Int)?
        for tool in tools {
            let score = contentWords(of: tool.name + " " + (tool.description ?? "")).intersection(heard).count
            if best == nil || score > best!.score { best = (tool, score) }
        }
        return best?.tool
    }

    /// Words that say nothing about which tool fits or what to pass it.
    static let functionWords: Set<String> = [
        "the", "and", "for", "are", "was", "were", "with", "what", "whats", "when", "where", "which", "who", "whom",
        "how",
        "why", "that", "this", "these", "those", "from", "into", "about", "can", "could", "would", "should", "will",
        "please", "you", "your", "our", "my", "its", "it's", "has", "have", "had", "does", "did", "not", "any", "some",
        "get", "set", "like", "tell", "give", "show", "let", "is", "in", "of", "to", "on", "at", "me", "be", "do",
        "there", "here", "now", "then", "than", "them", "they", "his", "her", "him", "she", "all", "just", "also",
    ]

    static func contentWords(of text: String) -> Set<String> {
        Set(words(of: text)).subtracting(functionWords)
    }

    /// The word a string argument gets: the first capitalised word that does not open a
    /// sentence (a name: "Paris"), else the longest word that is neither a function word nor one
    /// of the tool's own words, as written; empty when there is none.
    package static func subject(of transcript: String, excluding toolWords: Set<String>) -> String {
        var tokens: [(word: String, opensSentence: Bool)] = []
        var current = ""
        var opensSentence = true
        var nextOpens = true
        for character in transcript + " " {
            if character.isLetter || character.isNumber || character == "-" {
                if current.isEmpty { opensSentence = nextOpens }
                current.append(character)
                continue
            }
            if !current.isEmpty {
                tokens.append((current, opensSentence))
                current = ""
                nextOpens = false
            }
            if ".!?。！？\n".contains(character) { nextOpens = true }
        }
        let usable = tokens.filter { token in
            let lower = token.word.lowercased()
            return token.word.count >= 2 && !functionWords.contains(lower) && !toolWords.contains(lower)
        }
        if let name = usable.first(where: { !$0.opensSentence && $0.word.first?.isUppercase == true }) {
            return name.word
        }
        return usable.max { $0.word.count < $1.word.count }?.word ?? ""
    }

    /// Lower-cased words of three letters or more; `snake_case` and `camelCase` split.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        func flush() {
            if current.count >= 3 { words.append(current) }
            current = ""
        }
        for character in text {
            guard character.isLetter || character.isNumber else {
                flush()
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower { flush() }
            current += character.lowercased()
            previousWasLower = character.isLowercase
        }
        flush()
        return words
    }

    /// Arguments for `tool`, and a note when they do not satisfy its `parameters` schema (a
    /// `pattern` or `$ref` the builder cannot follow) or the schema does not compile.
    package static func arguments(for tool: ToolDefinition, transcript: String) -> (JSONValue, note: String?) {
        guard let schema = tool.parameters else { return (.object([:]), nil) }
        let toolWords = Set(words(of: tool.name + " " + (tool.description ?? "")))
        let value = instance(of: schema, hint: subject(of: transcript, excluding: toolWords), depth: 0)
        do {
            let failures = try JSONSchemaValidator(schema: schema).validate(value)
            guard let first = failures.first else { return (value, nil) }
            return (value, "arguments for \(tool.name) may not satisfy its parameters: \(first)")
        } catch {
            return (value, "the parameters schema of \(tool.name) does not compile: \(error.message)")
        }
    }

    /// A value that satisfies the common JSON Schema keywords of `schema`: `const`, `enum`,
    /// `default`, `examples`, `type`, bounds, lengths, `required`, `items`, `anyOf`/`oneOf`/`allOf`.
    static func instance(of schema: JSONValue, hint: String, depth: Int) -> JSONValue {
        guard let object = schema.objectValue, depth < 8 else {
            return schema.boolValue == false ? .null : .object([:])
        }
        if let constant = object["const"] { return constant }
        if let first = object["enum"]?.arrayValue?.first { return first }
        if let value = object["default"] { return value }
        if let first = object["examples"]?.arrayValue?.first { return first }
        for keyword in ["anyOf", "oneOf"] {
            if let first = object[keyword]?.arrayValue?.first {
                return instance(of: first, hint: hint, depth: depth + 1)
            }
        }
        if let parts = object["allOf"]?.arrayValue, !parts.isEmpty {
            var merged = JSONObject()
            for part in parts {
                for key in part.objectValue?.keys ?? [] where merged[key] == nil { merged[key] = part[key] }
            }
            for key in object.keys where key != "allOf" { merged[key] = object[key] }
            return instance(of: .object(merged), hint: hint, depth: depth + 1)
        }
        let type =
            object["type"]?.stringValue ?? object["type"]?.arrayValue?.first?.stringValue
            ?? (object["properties"] != nil ? "object" : object["items"] != nil ? "array" : "string")
        switch type {
        case "object":
            var result = JSONObject()
            let properties = object["properties"]?.objectValue ?? JSONObject()
            for key in properties.keys {
                result[key] = instance(of: properties[key] ?? .object([:]), hint: hint, depth: depth + 1)
            }
            for key in object["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where result[key] == nil {
                result[key] = instance(of: object["additionalProperties"] ?? .object([:]), hint: hint, depth: depth + 1)
            }
            return .object(result)
        case "array":
            let count = max(1, Int(object["minItems"]?.intValue ?? 1))
            let items = object["items"] ?? .object([:])
            return .array((0..<min(count, 16)).map { _ in instance(of: items, hint: hint, depth: depth + 1) })
        case "integer":
            return .int(integer(within: object))
        case "number":
            let low = object["minimum"]?.doubleValue ?? object["exclusiveMinimum"]?.doubleValue.map { $0 + 1 }
            let high = object["maximum"]?.doubleValue ?? object["exclusiveMaximum"]?.doubleValue.map { $0 - 1 }
            if let low { return .double(high.map { min(low, $0) } ?? low) }
            return .double(high.map { min(1, $0) } ?? 1)
        case "boolean":
            return .bool(true)
        case "null":
            return .null
        default:
            return .string(string(within: object, hint: hint))
        }
    }

    private static func integer(within object: JSONObject) -> Int64 {
        let low = object["minimum"]?.intValue ?? object["exclusiveMinimum"]?.intValue.map { $0 + 1 }
        let high = object["maximum"]?.intValue ?? object["exclusiveMaximum"]?.intValue.map { $0 - 1 }
        var value = low ?? min(1, high ?? 1)
        if let step = object["multipleOf"]?.intValue, step > 0, value % step != 0 {
            value += step - ((value % step) + step) % step
        }
        return value
    }

    /// A string in the given format, else the hint (the transcript's subject), sized to the
    /// length bounds.
    private static func string(within object: JSONObject, hint: String) -> String {
        var text: String
        switch object["format"]?.stringValue {
        case "date": text = "2026-01-01"
        case "date-time": text = "2026-01-01T12:00:00Z"
        case "time": text = "12:00:00Z"
        case "email": text = "user@example.com"
        case "uri", "url": text = "https://example.com/"
        case "uuid": text = "00000000-0000-4000-8000-000000000000"
        default: text = hint.isEmpty ? "example" : hint
        }
        let minimum = Int(object["minLength"]?.intValue ?? 0)
        if text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
        if let maximum = object["maxLength"]?.intValue, text.count > Int(maximum) {
            text = String(text.prefix(Int(maximum)))
        }
        return text
    }
}
