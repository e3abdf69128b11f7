package import WireJSON

/// `${name}` substitution in scenario strings, from the variables a client supplies
/// (multimodal `biz_params.user_prompt_params`) over the scenario's own defaults.
///
/// An unknown name is left as written (`${name}`) so the gap is visible on the wire; `$$`
/// is not special, and a `${` without a closing brace is kept literally.
package enum Placeholders {
    /// `text` with each `${name}` replaced by `variables[name]`.
    package static func substitute(_ text: String, _ variables: [String: String]) -> String {
        guard mayContainPlaceholder(text) else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.firstRange(of: "${") {
            result += rest[..<start.lowerBound]
            let afterOpen = rest[start.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                return result
            }
            let name = String(afterOpen[..<close])
            result += variables[name] ?? "${\(name)}"
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        result += rest
        return result
    }

    /// Whether `text` has a `${` (a byte scan: every turn's strings pass here, and the generic
    /// substring search costs more than the rest of the turn's setup).
    private static func mayContainPlaceholder(_ text: String) -> Bool {
        var afterDollar = false
        for byte in text.utf8 {
            if afterDollar && byte == UInt8(ascii: "{") { return true }
            afterDollar = byte == UInt8(ascii: "$")
        }
        return false
    }

    /// `value` with substitution applied to every string inside it (keys are left alone).
    package static func substitute(_ value: JSONValue, _ variables: [String: String]) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(substitute(text, variables))
        case .array(let elements):
            return .array(elements.map { substitute($0, variables) })
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, substitute($0.value, variables)) }))
        default:
            return value
        }
    }

    /// The names referenced by `${…}` in `text`, in order of appearance.
    package static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let start = rest.firstRange(of: "${") {
            let afterOpen = rest[start.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else { break }
            names.append(String(afterOpen[..<close]))
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        return names
    }
}
