import ProtocolModel
package import WireJSON

extension ConformanceCase {
    /// Members a case file may hold.
    package static let memberNames: Set<String> = [
        "$schema", "id", "title", "spec", "obligations", "description", "scenario", "model", "faults", "drive",
        "checks",
        "timeoutMs", "status", "strict", "matrix", "excusedViolations",
    ]

    /// Decodes a case object (the rules of `case.schema.json`, plus check parameters).
    /// - Throws: ``CaseDecodingError`` at the first problem.
    package init(jsonValue value: JSONValue) throws(CaseDecodingError) {
        guard let object = value.objectValue else { throw CaseDecodingError([], "a case must be a JSON object") }
        for key in object.keys where !Self.memberNames.contains(key) {
            throw CaseDecodingError([key], "unknown member \"\(key)\"", atKey: true)
        }
        func string(_ key: String, in object: JSONObject, at base: [String] = []) throws(CaseDecodingError) -> String {
            guard let text = object[key]?.stringValue, !text.isEmpty else {
                throw CaseDecodingError(
                    object[key] == nil ? base : base + [key], "\"\(key)\" must be a non-empty string")
            }
            return text
        }
        id = try string("id", in: object)
        title = try string("title", in: object)
        guard let spec = object["spec"]?.objectValue else { throw CaseDecodingError([], "\"spec\" must be an object") }
        let levelName = try string("level", in: spec, at: ["spec"])
        guard let level = RequirementLevel(rawValue: levelName) else {
            throw CaseDecodingError(["spec", "level"], "level must be MUST, SHOULD or MAY")
        }
        self.spec = SpecReference(
            doc: try string("doc", in: spec, at: ["spec"]), section: try string("section", in: spec, at: ["spec"]),
            level: level, quote: try string("quote", in: spec, at: ["spec"]))
        guard let list = object["obligations"]?.arrayValue, !list.isEmpty else {
            throw CaseDecodingError(
                object["obligations"] == nil ? [] : ["obligations"], "\"obligations\" must be a non-empty array of ids")
        }
        obligations = try list.enumerated().map { (offset, element) throws(CaseDecodingError) -> String in
            guard let text = element.stringValue else {
                throw CaseDecodingError(["obligations", String(offset)], "expected an obligation id")
            }
            return text
        }
        description = try string("description", in: object)
        scenario = try string("scenario", in: object)
        model = try Self.model(object["model"], at: ["model"])
        faults = object["faults"]?.arrayValue ?? []
        drive = object["drive"]?.arrayValue
        guard let checkList = object["checks"]?.arrayValue, !checkList.isEmpty else {
            throw CaseDecodingError(object["checks"] == nil ? [] : ["checks"], "\"checks\" must be a non-empty array")
        }
        checks = try checkList.enumerated().map { (offset, element) throws(CaseDecodingError) -> ConfiguredCheck in
            do throws(CheckParameterError) {
                return try CheckRegistry.decode(element)
            } catch {
                let path = (["checks[\(offset)]"] + error.tokens).joined(separator: ".")
                throw CaseDecodingError(["checks", String(offset)] + error.tokens, "\(path): \(error.message)")
            }
        }
        guard let timeout = object["timeoutMs"]?.intValue, timeout > 0 else {
            throw CaseDecodingError(["timeoutMs"], "\"timeoutMs\" must be a positive integer")
        }
        timeoutMs = Int(timeout)
        excusedViolations = try (object["excusedViolations"]?.arrayValue ?? []).enumerated().map {
            (offset, element) throws(CaseDecodingError) -> ExcusedViolation in
            let at = ["excusedViolations", String(offset)]
            guard let entry = element.objectValue else {
                throw CaseDecodingError(at, "expected {obligation, level, why}")
            }
            let levelName = try string("level", in: entry, at: at)
            guard let level = Violation.Level(rawValue: levelName) else {
                throw CaseDecodingError(at + ["level"], "level must be MUST or SHOULD")
            }
            return ExcusedViolation(
                obligation: try string("obligation", in: entry, at: at), level: level,
                why: try string("why", in: entry, at: at))
        }
        status = Status(rawValue: object["status"]?.stringValue ?? "active") ?? .active
        strict = object["strict"]?.boolValue ?? false
        matrix = try (object["matrix"]?.arrayValue ?? []).enumerated().map {
            (offset, element) throws(CaseDecodingError) -> Variant in
            guard let name = element["name"]?.stringValue, !name.isEmpty else {
                throw CaseDecodingError(["matrix", String(offset)], "a variant needs a \"name\"")
            }
            return Variant(
                name: name, faults: element["faults"]?.arrayValue, scenario: element["scenario"]?.stringValue,
                model: try Self.model(element["model"], at: ["matrix", String(offset), "model"]))
        }
    }

    /// An optional model name: letters, digits, `.`, `_` and `-` (it goes into a URL query).
    private static func model(_ value: JSONValue?, at tokens: [String]) throws(CaseDecodingError) -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue, !text.isEmpty,
            text.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            })
        else {
            throw CaseDecodingError(
                tokens, "\"model\" must be a non-empty model name (letters, digits, \".\", \"_\", \"-\")")
        }
        return text
    }
}
