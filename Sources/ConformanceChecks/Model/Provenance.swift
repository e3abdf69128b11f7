package import WireJSON

/// Where a rule comes from (issue 40): the source keys of its protocol reference's "0. Sources
/// (keys)" table (a seed document, an official page, an SDK file, a recorded session), and,
/// where no source states (part of) it, `inferred` with the reason. A rule whose only source is
/// inferred can at most be `nonStrict` (``CaseEvaluator``).
///
/// Written the same way in both places that hold it: a reference item's source tail
/// (`— Sources: DOC-QA-WS, PY-OMNI; inferred (the error code).`) and a `suite.json` obligation
/// (`{"id", "level", "sources": [keys], "inferred": reason}`).
package struct Provenance: Sendable, Hashable, CustomStringConvertible {
    /// Source keys, in the order written.
    package var sources: [String]
    /// Why (part of) the rule is inferred; nil when the sources state all of it.
    package var inferred: String?

    /// Creates a provenance.
    package init(sources: [String], inferred: String? = nil) {
        self.sources = sources
        self.inferred = inferred
    }

    /// The word that marks a part no source states.
    package static let inferredWord = "inferred"

    /// Whether no source states the rule at all: it can never fail a client.
    package var isInferredOnly: Bool { sources.isEmpty && inferred != nil }

    /// Whether nothing is given (a rule without a source, which lint refuses).
    package var isEmpty: Bool { sources.isEmpty && inferred == nil }

    /// The tail's list form: `DOC-QA-WS, PY-OMNI; inferred (why)`.
    package var description: String {
        let inferredPart = inferred.map { $0.isEmpty ? Self.inferredWord : "\(Self.inferredWord) (\($0))" }
        return [sources.isEmpty ? nil : sources.joined(separator: ", "), inferredPart]
            .compactMap { $0 }.joined(separator: "; ")
    }

    /// `{"sources": [...], "inferred": why}` (`inferred` only when set), for reports.
    package var jsonObject: JSONObject {
        var object: JSONObject = ["sources": .array(sources.map(JSONValue.string))]
        object["inferred"] = inferred.map(JSONValue.string)
        return object
    }

    /// Reads ``jsonObject``'s members from `object` (nil when it has no `sources`).
    package init?(jsonObject object: JSONObject) {
        guard let list = object["sources"]?.arrayValue else { return nil }
        sources = list.compactMap(\.stringValue)
        inferred = object["inferred"]?.stringValue
    }

    /// The marker that starts a reference item's source tail.
    package static let tailMarker = "— Sources:"

    /// Parses a tail list (`DOC-MMWS (key-flow note), PY-MMD; inferred (ordering)`): entries
    /// separated by `,` or `;` outside parentheses, each a key with an optional `(detail)`, or
    /// `inferred` with an optional `(reason)`. A trailing full stop is ignored.
    /// - Returns: the provenance, or the text of the first entry that is not of that form.
    package static func parse(tail text: String) -> Result<Provenance, TailError> {
        var body = Substring(text).trimmingCharacters(in: " ")
        if body.hasSuffix(".") { body.removeLast() }
        var entries: [String] = []
        var current = ""
        var depth = 0
        for character in body {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0, ";" where depth == 0:
                entries.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        entries.append(current)
        var provenance = Provenance(sources: [])
        for raw in entries {
            let entry = Substring(raw).trimmingCharacters(in: " ")
            let head = entry.prefix { $0 != " " && $0 != "(" }
            var detail = entry.dropFirst(head.count).trimmingCharacters(in: " ")
            if !detail.isEmpty {
                guard detail.hasPrefix("("), detail.hasSuffix(")") else { return .failure(TailError(entry: entry)) }
                detail = String(detail.dropFirst().dropLast())
            }
            if head == inferredWord {
                provenance.inferred = [provenance.inferred, detail].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: "; ")
            } else if isKey(head) {
                if !provenance.sources.contains(String(head)) { provenance.sources.append(String(head)) }
            } else {
                return .failure(TailError(entry: entry))
            }
        }
        return .success(provenance)
    }

    /// Whether `text` has the form of a source key (`DOC-QA-WS`, `SEED-003`, `PY-OMNI`).
    package static func isKey(_ text: Substring) -> Bool {
        guard let first = text.first, first.isUppercase else { return false }
        return text.allSatisfy { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "-" }
    }

    /// A tail entry that is neither a key nor `inferred`.
    package struct TailError: Error, Sendable, Hashable {
        /// The entry as written.
        package var entry: String

        /// Creates the error.
        package init(entry: String) { self.entry = entry }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        Substring(self).trimmingCharacters(in: set)
    }
}
