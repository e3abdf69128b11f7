/// A problem in a scenario file, located in the source when a location lookup is available.
///
/// `description` prints `FILE:LINE:COLUMN: path: message`, the format compilers use, so
/// editors and CI logs link straight to the offending value.
package struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the parser (usually the path the user passed).
    package var file: String
    /// 1-based line of the offending value or key, when known.
    package var line: Int?
    /// 1-based column of the offending value or key, when known.
    package var column: Int?
    /// The reference tokens of the JSON pointer to the offending value.
    package var tokens: [String]
    /// What is wrong, starting with the dotted path (`timing.events.X.kind: expected …`).
    package var message: String

    /// Creates an error; `message` should already start with the dotted path.
    package init(file: String, line: Int? = nil, column: Int? = nil, tokens: [String], message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.tokens = tokens
        self.message = message
    }

    /// The RFC 6901 JSON pointer of the offending value (`""` for the whole document).
    package var pointer: String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// `FILE:LINE:COLUMN: message`, or `FILE: message` when the location is unknown.
    package var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file): \(message)"
    }

    /// The dotted form of a path used at the start of messages: `turns.list[2].answer`.
    package static func dottedPath(_ tokens: [String]) -> String {
        var text = ""
        for token in tokens {
            if !token.isEmpty, token.allSatisfy(\.isNumber) {
                text += "[\(token)]"
            } else {
                text += text.isEmpty ? token : ".\(token)"
            }
        }
        return text.isEmpty ? "(document)" : text
    }
}

/// Looks up where a JSON value (or, with `atKey`, its member name) starts in the source file.
///
/// `tokens` are JSON pointer reference tokens. Backed by `JSONSourceMap` once the file was
/// parsed from bytes; `nil` when only a parsed value is available.
package typealias ScenarioSourceLocator = (_ tokens: [String], _ atKey: Bool) -> (line: Int, column: Int)?
