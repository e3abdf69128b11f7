import WireJSON

/// One `upstream.asr_post_processing.replace_words` entry (§5.1): every occurrence of
/// `source` in a recognised transcript becomes `target`, in partial and final SpeechContent.
package struct WordReplacement: Sendable, Hashable {
    /// The recognised text to replace (non-empty).
    package var source: String
    /// What the user sees instead.
    package var target: String
    /// The entry's `match_mode` (not interpreted: the mock matches plain text).
    package var matchMode: String?

    /// Reads `asr_post_processing` (an object or null) from `upstream`: `nil` when absent (the
    /// current list stays), else the list (empty when `replace_words` is null or `[]`).
    static func read(from upstream: ParameterReader) throws(ParameterProblem) -> [WordReplacement]? {
        guard upstream.value("asr_post_processing") != nil else { return nil }
        let processing = try upstream.nested("asr_post_processing")
        guard let words = processing.value("replace_words") else { return [] }
        guard let list = words.arrayValue else {
            throw processing.problem("replace_words", "must be an array, got \(words.typeName)")
        }
        var replacements: [WordReplacement] = []
        for (index, element) in list.enumerated() {
            let entry = try ParameterReader(
                element, path: processing.name("replace_words[\(index)]"), obligation: processing.obligation)
            guard element.objectValue != nil else {
                throw processing.problem("replace_words[\(index)]", "must be an object, got \(element.typeName)")
            }
            guard let source = try entry.string("source"), !source.isEmpty else {
                throw entry.problem("source", "is required (a non-empty string)")
            }
            replacements.append(
                WordReplacement(
                    source: source, target: try entry.string("target") ?? "", matchMode: try entry.string("match_mode")
                ))
        }
        return replacements
    }
}

extension Array where Element == WordReplacement {
    /// `text` with every replacement applied in order.
    func applied(to text: String) -> String {
        reduce(text) { result, word in result.replacing(word.source, with: word.target) }
    }
}
