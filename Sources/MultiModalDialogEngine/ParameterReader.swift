import WireJSON

/// A client field that breaks the spec: which obligation, and what is wrong.
package struct ParameterProblem: Error, Sendable, Hashable {
    /// The obligation id, e.g. `mmd.C5`.
    package var obligation: String
    /// What is wrong, naming the field.
    package var message: String

    /// Creates a problem.
    package init(_ obligation: String, _ message: String) {
        self.obligation = obligation
        self.message = message
    }
}

/// Typed, tolerant reads of one JSON object of a client frame: `null` counts as absent
/// (§11: the Python SDK sends `null` for unset fields), a wrong type is a ``ParameterProblem``.
struct ParameterReader {
    /// The object read.
    let object: JSONObject
    /// Dotted path of the object for messages (`parameters.upstream`).
    let path: String
    /// The obligation blamed for wrong types and values.
    let obligation: String

    /// A reader of `object`.
    init(object: JSONObject, path: String, obligation: String) {
        self.object = object
        self.path = path
        self.obligation = obligation
    }

    /// A reader of `value` if it is an object; `null`/absent gives an empty object.
    init(_ value: JSONValue?, path: String, obligation: String) throws(ParameterProblem) {
        self.path = path
        self.obligation = obligation
        switch value {
        case nil, .null?: object = JSONObject()
        case .object(let members)?: object = members
        case let other?: throw ParameterProblem(obligation, "\(path) must be an object, got \(other.typeName)")
        }
    }

    /// `path.key` for messages.
    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The typed reads (``JSONMemberReader``), with this reader's problems.
    private var members: JSONMemberReader<ParameterProblem> {
        JSONMemberReader(object, nullIsAbsent: true) { mismatch in
            if mismatch.isOutOfRange, case .integer(let range) = mismatch.expected, let number = mismatch.value.intValue
            {
                return problem(mismatch.key, "\(number) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            let name = mismatch.expected.typeName
            let article = ["integer", "object", "array"].contains(name) ? "an" : "a"
            return problem(mismatch.key, "must be \(article) \(name), got \(mismatch.value.typeName)")
        }
    }

    /// The present, non-null value of `key`.
    func value(_ key: String) -> JSONValue? { members.value(key) }

    /// A nested reader (`null`/absent → empty).
    func nested(_ key: String) throws(ParameterProblem) -> ParameterReader {
        try ParameterReader(object[key], path: name(key), obligation: obligation)
    }

    /// A string, or nil when absent/null.
    func string(_ key: String) throws(ParameterProblem) -> String? { try members.string(key) }

    /// A string that must be one of `allowed`.
    func choice(_ key: String, _ allowed: [String]) throws(ParameterProblem) -> String? {
        guard let text = try string(key) else { return nil }
        guard allowed.contains(text) else {
            throw problem(key, "\"\(text)\" is not one of \(allowed.joined(separator: ", "))")
        }
        return text
    }

    /// An integer (`16000` or `16000.0`) within `range`.
    func int(_ key: String, in range: ClosedRange<Int>) throws(ParameterProblem) -> Int? {
        try members.int(key, in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
    }

    /// An integer that must be one of `allowed`.
    func int(_ key: String, oneOf allowed: [Int]) throws(ParameterProblem) -> Int? {
        guard let number = try int(key, in: Int.min...Int.max) else { return nil }
        guard allowed.contains(number) else {
            throw problem(key, "\(number) is not one of \(allowed.map(String.init).joined(separator: ", "))")
        }
        return number
    }

    /// A boolean.
    func bool(_ key: String) throws(ParameterProblem) -> Bool? { try members.bool(key) }

    /// A problem with `key`.
    func problem(_ key: String, _ text: String) -> ParameterProblem {
        ParameterProblem(obligation, "\(name(key)) \(text)")
    }
}
