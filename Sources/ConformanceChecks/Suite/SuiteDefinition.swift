import ProtocolModel
package import WireJSON

/// A suite's `suite.json`: id prefix, title, protocol, spec document and ordered sections.
package struct SuiteDefinition: Sendable, Hashable {
    /// One section: the id token and its title.
    package struct Section: Sendable, Hashable {
        /// The token used in case ids and folder names (`start`).
        package var id: String
        /// The title shown in reports.
        package var title: String
    }

    /// Case id prefix (`mmd`).
    package var prefix: String
    /// Title.
    package var title: String
    /// Wire protocol (`multimodal-dialog`, `qwen-realtime`).
    package var protocolName: String
    /// The spec document key and its path.
    package var specDoc: String
    /// Path of the spec document relative to the repository (informational).
    package var specPath: String
    /// One obligation of the spec: its id, level and sources.
    package struct Obligation: Sendable, Hashable {
        /// `qrt.C3`.
        package var id: String
        /// `MUST`, `SHOULD` or `MUST+SHOULD` (nil in the old string form).
        package var level: String?
        /// Where the rule comes from (nil in the old string form, which lint refuses).
        package var provenance: Provenance?
    }

    /// The obligations the spec lists (`mmd.C1` … `mmd.C25`), with their sources.
    package var obligationTable: [Obligation]
    /// Obligation ids the spec lists (`mmd.C1` … `mmd.C25`).
    package var obligations: [String] { obligationTable.map(\.id) }
    /// The sources of each obligation that has them, by id.
    package var provenanceByID: [String: Provenance] {
        Dictionary(obligationTable.compactMap { entry in entry.provenance.map { (entry.id, $0) } }) { first, _ in first
        }
    }
    /// `qrt.C3: OA-BETA, PY-OMNI` per id of `ids` that has sources, joined by ` | ` (reports,
    /// `conformance list`).
    package func sourcesText(of ids: [String]) -> String {
        let table = provenanceByID
        return ids.compactMap { id in table[id].map { "\(id): \($0)" } }.joined(separator: " | ")
    }
    /// The levels an obligation may carry.
    package static let obligationLevels: Set<String> = ["MUST", "SHOULD", "MUST+SHOULD"]
    /// Sections in report order.
    package var sections: [Section]
    /// The reaction times the suite's cases hold clients to, by latency metric (ms): drawn as
    /// threshold lines on the report's latency plots.
    package var latencyBudgets: [String: Double] = [:]

    /// Decodes `suite.json`.
    /// - Throws: ``CaseDecodingError``.
    package init(jsonValue value: JSONValue) throws(CaseDecodingError) {
        guard let object = value.objectValue else { throw CaseDecodingError([], "suite.json must be an object") }
        func string(_ key: String) throws(CaseDecodingError) -> String {
            guard let text = object[key]?.stringValue, !text.isEmpty else {
                throw CaseDecodingError(object[key] == nil ? [] : [key], "\"\(key)\" must be a non-empty string")
            }
            return text
        }
        prefix = try string("prefix")
        title = try string("title")
        protocolName = try string("protocol")
        guard let spec = object["spec"]?.objectValue, let doc = spec["doc"]?.stringValue,
            let path = spec["path"]?.stringValue
        else {
            throw CaseDecodingError(["spec"], "\"spec\" must be {\"doc\", \"path\"}")
        }
        specDoc = doc
        specPath = path
        guard let obligations = object["obligations"]?.arrayValue, !obligations.isEmpty else {
            throw CaseDecodingError(["obligations"], "\"obligations\" must list the spec's obligations")
        }
        obligationTable = try obligations.enumerated().map(Self.obligation)
        guard let sections = object["sections"]?.arrayValue, !sections.isEmpty else {
            throw CaseDecodingError(["sections"], "\"sections\" must be a non-empty array")
        }
        self.sections = try sections.enumerated().map { (offset, element) throws(CaseDecodingError) -> Section in
            guard let id = element["id"]?.stringValue, let title = element["title"]?.stringValue else {
                throw CaseDecodingError(["sections", String(offset)], "a section needs \"id\" and \"title\"")
            }
            return Section(id: id, title: title)
        }
        for (metric, value) in object["latencyBudgets"]?.objectValue ?? [:] {
            guard let milliseconds = value.doubleValue, milliseconds > 0 else {
                throw CaseDecodingError(
                    ["latencyBudgets", metric], "a latency budget is a positive number of milliseconds")
            }
            guard LatencyMetric.all.contains(metric) else {
                throw CaseDecodingError(
                    ["latencyBudgets", metric],
                    "unknown latency metric \(metric); expected one of \(LatencyMetric.all.joined(separator: ", "))")
            }
            latencyBudgets[metric] = milliseconds
        }
    }

    /// One `obligations` element: an object `{"id", "level", "sources", "inferred"?}`, or the old
    /// form, the id alone (still read; lint asks for the sources).
    private static func obligation(_ offset: Int, _ element: JSONValue) throws(CaseDecodingError) -> Obligation {
        let path = ["obligations", String(offset)]
        if let id = element.stringValue, !id.isEmpty { return Obligation(id: id) }
        guard let object = element.objectValue, let id = object["id"]?.stringValue, !id.isEmpty else {
            throw CaseDecodingError(path, "an obligation is {\"id\", \"level\", \"sources\", \"inferred\"?} or an id")
        }
        let level = object["level"]?.stringValue
        if let level, !obligationLevels.contains(level) {
            throw CaseDecodingError(
                path + ["level"], "level must be one of \(obligationLevels.sorted().joined(separator: ", "))")
        }
        guard let sources = object["sources"]?.arrayValue,
            sources.allSatisfy({ $0.stringValue.map { Provenance.isKey(Substring($0)) } ?? false })
        else {
            throw CaseDecodingError(path + ["sources"], "\"sources\" must be an array of source keys (DOC-QA-WS)")
        }
        if object["inferred"] != nil, object["inferred"]?.stringValue == nil {
            throw CaseDecodingError(path + ["inferred"], "\"inferred\" is the reason, a string")
        }
        return Obligation(
            id: id, level: level,
            provenance: Provenance(
                sources: sources.compactMap(\.stringValue), inferred: object["inferred"]?.stringValue))
    }

    /// The title of section `id`, or `id` itself.
    package func sectionTitle(_ id: String) -> String { sections.first { $0.id == id }?.title ?? id }
}
