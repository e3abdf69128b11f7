package import WireJSON

/// Validation of a client `conversation.item.create` item against §4.6 (C15) and its
/// normalisation into a stored `realtime.item`.
package enum ClientItem {
    /// Validates `value` and returns the item as stored and echoed (`object`, `status`, an id
    /// from `newID` when the client gave none; base64 audio replaced by an empty transcript).
    package static func validate(
        _ value: JSONValue?, conversation: Conversation, newID: () -> String
    ) -> Result<JSONObject, QwenError> {
        guard case .object(let given)? = value else {
            return .failure(.invalidValue("item", "item must be an object."))
        }
        var item: JSONObject = [:]
        if let id = given["id"] {
            guard let text = id.stringValue, !text.isEmpty else {
                return .failure(.invalidValue("item.id", "item.id must be a non-empty string."))
            }
            guard !conversation.contains(text) else {
                return .failure(.invalidValue("item.id", "Item with id '\(text)' already exists."))
            }
            item["id"] = id
        } else {
            item["id"] = .string(newID())
        }
        item["object"] = "realtime.item"
        guard let type = given["type"]?.stringValue else {
            return .failure(.invalidValue("item.type", "item.type is required."))
        }
        item["type"] = .string(type)
        item["status"] = "completed"
        switch type {
        case "message":
            return message(given, into: item)
        case "function_call":
            for key in ["call_id", "name", "arguments"] {
                guard let text = given[key]?.stringValue, key == "arguments" || !text.isEmpty else {
                    return .failure(.invalidValue("item.\(key)", "function_call items need a string \(key)."))
                }
                item[key] = .string(text)
            }
            return .success(item)
        case "function_call_output":
            guard let callID = given["call_id"]?.stringValue, !callID.isEmpty else {
                return .failure(.invalidValue("item.call_id", "function_call_output items need a call_id."))
            }
            guard let output = given["output"]?.stringValue else {
                return .failure(.invalidValue("item.output", "function_call_output.output must be a string."))
            }
            item["call_id"] = .string(callID)
            item["output"] = .string(output)
            return .success(item)
        default:
            return .failure(
                .invalidValue(
                    "item.type", "item.type must be message, function_call or function_call_output."))
        }
    }

    /// Content types allowed per role.
    private static let allowedContent: [String: Set<String>] = [
        "system": ["input_text"], "user": ["input_text", "input_audio"], "assistant": ["output_text", "text"],
    ]

    private static func message(_ given: JSONObject, into base: JSONObject) -> Result<JSONObject, QwenError> {
        var item = base
        guard let role = given["role"]?.stringValue, let allowed = allowedContent[role] else {
            return .failure(.invalidValue("item.role", "item.role must be system, user or assistant."))
        }
        item["role"] = .string(role)
        guard let content = given["content"]?.arrayValue, !content.isEmpty else {
            return .failure(.invalidValue("item.content", "message items need a non-empty content array."))
        }
        var parts: [JSONValue] = []
        for (index, part) in content.enumerated() {
            let param = "item.content[\(index)]"
            guard let type = part["type"]?.stringValue, allowed.contains(type) else {
                let list = allowed.sorted().joined(separator: ", ")
                return .failure(.invalidValue("\(param).type", "Content of a \(role) message must be: \(list)."))
            }
            if type == "input_audio" {
                guard let audio = part["audio"]?.stringValue, let bytes = Base64.decode(audio), bytes.count % 2 == 0
                else {
                    return .failure(.invalidValue("\(param).audio", "input_audio.audio must be base64 PCM s16le."))
                }
                parts.append(["type": "input_audio", "transcript": .null])
            } else {
                guard let text = part["text"]?.stringValue else {
                    return .failure(.invalidValue("\(param).text", "\(type) content needs a string text."))
                }
                parts.append(["type": .string(type), "text": .string(text)])
            }
        }
        item["content"] = .array(parts)
        return .success(item)
    }
}
