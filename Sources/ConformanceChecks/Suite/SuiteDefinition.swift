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
    /// Obligation ids the spec lists (`mmd.C1` … `mmd.C25`).
    package var obligations: [String]
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
        guard let obligations = object["obligations"]?.arrayValue?.compactMap(\.stringValue), !obligations.isEmpty
        else {
            throw CaseDecodingError(["obligations"], "\"obligations\" must list the spec's obligation ids")
        }
        self.obligations = obligations
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

    /// The title of section `id`, or `id` itself.
    package func sectionTitle(_ id: String) -> String { sections.first { $0.id == id }?.title ?? id }
}
