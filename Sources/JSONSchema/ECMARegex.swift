/// A compiled ECMA-262 regular expression (the dialect JSON Schema's `pattern` uses), run by the
/// standard library's `Regex` (no ICU) on Unicode scalars, as ECMA-262's `u` mode reads text.
///
/// `Regex` syntax is close to ECMA-262; the differences that matter are translated first:
/// - `\d`, `\D`, `\w`, `\W` are ASCII-only in ECMA-262 (`Regex` also matches other scripts'
///   digits and letters);
/// - `\s`, `\S` use ECMA-262's set;
/// - `$` is the end of the input only (`Regex` also matches before a final line terminator).
/// Matching is unanchored, as the specification requires.
struct ECMARegex: @unchecked Sendable {
    // @unchecked: a `Regex` compiles its matching program once, on first use, and publishes it
    // atomically; matching reads it without mutating it, so one regex serves several threads.
    private let expression: Regex<AnyRegexOutput>
    /// The pattern as written in the schema.
    let source: String

    /// Compiles `source`; returns `nil` if `Regex` rejects it.
    init?(_ source: String) {
        guard let translated = Self.translated(source), let expression = try? Regex(translated) else { return nil }
        self.expression = expression.matchingSemantics(.unicodeScalar)
        self.source = source
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        (try? expression.firstMatch(in: text)) != nil
    }

    /// Rewrites the ECMA-262 constructs `Regex` reads differently; `nil` for group syntax
    /// ECMA-262 does not have (`Regex` accepts Python's `(?P<name>…)`, inline flags, atomic
    /// groups and comments, ECMA-262 only `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` and `(?<name>`).
    static func translated(_ source: String) -> String? {
        guard source.contains(where: { "\\$([".contains($0) }) else { return source }
        var result = ""
        var insideClass = false
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\\":
                guard index < characters.count else {
                    result.append("\\")
                    continue
                }
                let escaped = characters[index]
                index += 1
                if escaped == "c", index < characters.count, let control = controlCode(characters[index]) {
                    index += 1
                    result += control
                } else {
                    result += translatedEscape(escaped, insideClass: insideClass)
                }
            case "(" where !insideClass && characters[index...].starts(with: "?"):
                guard isECMAGroupOpening(characters[(index + 1)...]) else { return nil }
                result.append(character)
            case "$" where !insideClass:
                result += "\\z"
            case "[" where !insideClass && characters[index...].starts(with: "]"):
                index += 1
                result += "(?!)"  // `[]`: matches nothing (`Regex` rejects an empty class)
            case "[" where !insideClass && characters[index...].starts(with: "^]"):
                index += 2
                result += "[\\s\\S]"  // `[^]`: any character
            case "[" where !insideClass:
                insideClass = true
                result.append(character)
            case "]" where insideClass:
                insideClass = false
                result.append(character)
            default:
                result.append(character)
            }
        }
        return result
    }

    /// `\cX`: the control character of ASCII letter `X` (its code modulo 32), as `\x{…}`.
    private static func controlCode(_ letter: Character) -> String? {
        guard let ascii = letter.asciiValue, letter.isLetter else { return nil }
        return "\\x{" + String(ascii % 32, radix: 16) + "}"
    }

    /// Whether what follows `(?` opens a group ECMA-262 has.
    private static func isECMAGroupOpening(_ rest: ArraySlice<Character>) -> Bool {
        guard let first = rest.first else { return false }
        switch first {
        case ":", "=", "!": return true
        case "<":
            guard let second = rest.dropFirst().first else { return false }
            return second == "=" || second == "!" || second == "$" || second == "_" || second.isLetter
        default: return false
        }
    }

    /// ECMA-262 WhiteSpace and LineTerminator code points.
    private static let ecmaWhitespace = #"\t\n\x{0B}\f\r\x{2028}\x{2029}\x{FEFF}\p{Zs}"#

    private static func translatedEscape(_ escaped: Character, insideClass: Bool) -> String {
        switch (escaped, insideClass) {
        case ("d", false): "[0-9]"
        case ("d", true): "0-9"
        case ("D", false): "[^0-9]"
        case ("D", true): "[^0-9]"
        case ("w", false): "[a-zA-Z0-9_]"
        case ("w", true): "a-zA-Z0-9_"
        case ("W", false): "[^a-zA-Z0-9_]"
        case ("W", true): "[^a-zA-Z0-9_]"
        case ("s", false): "[" + ecmaWhitespace + "]"
        case ("s", true): ecmaWhitespace
        case ("S", _): "[^" + ecmaWhitespace + "]"
        default: "\\" + String(escaped)
        }
    }
}
