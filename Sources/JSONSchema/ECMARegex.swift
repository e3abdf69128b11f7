internal import Foundation

/// A compiled ECMA-262 regular expression (the dialect JSON Schema's `pattern` uses), run by
/// ICU through `NSRegularExpression`.
///
/// ICU is close to ECMA-262; the differences that matter are translated first:
/// - `\d`, `\D`, `\w`, `\W` are ASCII-only in ECMA-262 (ICU also matches other scripts' digits
///   and letters);
/// - `\s`, `\S` use ECMA-262's set (ICU's lacks U+000B and U+FEFF);
/// - `$` is the end of the input only (ICU also matches before a final line terminator).
/// Matching is unanchored, as the specification requires.
struct ECMARegex: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable after creation and documented as safe to
    // use from several threads at once.
    private let expression: NSRegularExpression
    /// The pattern as written in the schema.
    let source: String

    /// Compiles `source`; returns `nil` if ICU rejects it.
    init?(_ source: String) {
        guard let expression = try? NSRegularExpression(pattern: Self.translated(source)) else { return nil }
        self.expression = expression
        self.source = source
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        let range = NSRange(location: 0, length: text.utf16.count)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    /// Rewrites the ECMA-262 constructs ICU reads differently.
    static func translated(_ source: String) -> String {
        guard source.contains("\\") || source.contains("$") else { return source }
        var result = ""
        var insideClass = false
        var iterator = source.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\\":
                guard let escaped = iterator.next() else {
                    result.append("\\")
                    continue
                }
                result += translatedEscape(escaped, insideClass: insideClass)
            case "$" where !insideClass:
                result += "\\z"
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
